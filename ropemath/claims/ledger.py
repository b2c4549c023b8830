r"""The claims ledger's data model and runner: entries, outcomes, and the agreement rule.

Scope: :class:`Source` (which note, which section), :class:`Entry` (one checkable claim
with its *recorded* verdict and the check that decides it), :class:`Outcome` (what the
check computed) and :func:`run`, which executes checks and reports whether each computed
verdict agrees with the recorded one.  The entries themselves live in ``note000`` ...
``note004``; the check functions in the ``checks_*`` modules.

Verdicts:

* ``holds`` — true as stated (or as evidently meant; the entry's ``reading`` says how a
  notation slip was read);
* ``fails`` — false as stated: the check exhibits a counterexample with numbers anyone can
  plug in, and the entry's ``correction`` is itself checked and must hold;
* ``holds-if`` — true only under the entry's ``condition``: the check shows a case outside
  the condition where the statement breaks, and a case inside where it holds;
* ``not-checkable`` — not a mathematical statement (an empirical claim about trained models,
  an analogy); ``reason`` says why, and the check reports any relevant measurement.

Rule used to choose between ``fails`` and ``holds-if``: a statement made as general that is
true only for special parameters (measure zero, e.g. a symmetric :math:`W_q`) ``fails``; a
statement whose implicit condition is natural in its context (large d, "read as a trend",
"in some cases") is ``holds-if``.

References: the five notes listed in ``shared/REFERENCES.md``; Su et al., *RoFormer*,
arXiv:2104.09864 v5.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["NOTES", "VERDICTS", "Entry", "Outcome", "Result", "Source", "note_source", "run"]

VERDICTS = ("holds", "fails", "holds-if", "not-checkable")

# prefix -> (file name in shared/seeds/, title as listed in shared/REFERENCES.md)
NOTES: dict[str, tuple[str, str]] = {
    "000": ("000_797ef20cd23b05e7.txt", "RoPE: Rotray Position Embedding"),
    "001": ("001_7e3e9fdbef5f3390.txt", "旋转位置编码(RoPE)公式详细推导过程"),
    "002": ("002_fb5f39ecb7bf44ca.txt", "精英笔记：旋转位置编码 (RoPE)"),
    "003": ("003_707044a7c764f131.txt", "RoPE"),
    "004": ("004_a74fe6c4ddd7dc02.txt", "RoPE / RoFormer: Enhanced Transformer with Rotary Position Embedding"),
}


@dataclasses.dataclass(frozen=True)
class Source:
    """Where a claim is made: the note's title, its file name and the section heading (verbatim)."""

    title: str
    file: str
    section: str


def note_source(prefix: str, section: str) -> Source:
    """Return the :class:`Source` of section ``section`` of note ``prefix`` ("000" ... "004").

    >>> note_source("003", "2D case").file
    '003_707044a7c764f131.txt'
    """
    if prefix not in NOTES:
        raise ValueError(f"prefix must be one of {sorted(NOTES)}, got {prefix!r}")
    file, title = NOTES[prefix]
    return Source(title=title, file=file, section=section)


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a check computed: the verdict, a one-paragraph evidence text, and plug-in numbers.

    ``counterexample`` holds the concrete values of a refutation (inputs and both sides), for
    ``fails`` and ``holds-if``; ``correction_holds`` says whether the corrected statement was
    checked and holds (``None`` when there is no correction).
    """

    verdict: str
    evidence: str
    counterexample: dict[str, Any] | None = None
    correction_holds: bool | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


@dataclasses.dataclass(frozen=True)
class Entry:
    """One claim of one note, with the verdict recorded in the ledger and the check that decides it.

    ``claim`` restates the claim in the project's words (LaTeX between ``$``), ``reading``
    records how notation was read (index base, a symbol lost to scraping, a typo and what
    was meant), ``condition`` is required for ``holds-if``, ``correction`` for ``fails`` and
    ``reason`` for ``not-checkable``.
    """

    id: str
    source: Source
    claim: str
    verdict: str
    check: Callable[[], Outcome]
    reading: str | None = None
    condition: str | None = None
    correction: str | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        required = {"holds-if": "condition", "fails": "correction", "not-checkable": "reason"}
        field = required.get(self.verdict)
        if field is not None and not getattr(self, field):
            raise ValueError(f"entry {self.id}: verdict {self.verdict!r} needs a {field}")
        if not callable(self.check):
            raise TypeError(f"entry {self.id}: check must be callable, got {type(self.check).__name__}")

    @property
    def check_name(self) -> str:
        """Dotted name of the check function, e.g. ``ropemath.claims.checks_rotation.transpose_rule``."""
        return f"{self.check.__module__}.{self.check.__qualname__}"

    @property
    def note(self) -> str:
        """The note's three-digit prefix, e.g. ``"001"``."""
        return self.source.file[:3]


@dataclasses.dataclass(frozen=True)
class Result:
    """An entry together with the outcome of running its check."""

    entry: Entry
    outcome: Outcome

    @property
    def problems(self) -> list[str]:
        """Why the computed outcome does not support the recorded verdict (empty if it does)."""
        e, o = self.entry, self.outcome
        out = []
        if o.verdict != e.verdict:
            out.append(f"check computed {o.verdict!r}, ledger records {e.verdict!r}")
        if e.verdict in ("fails", "holds-if") and not o.counterexample:
            out.append(f"a {e.verdict!r} verdict needs a counterexample")
        if e.verdict == "fails" and o.correction_holds is not True:
            out.append("the correction was not shown to hold")
        return out

    @property
    def agrees(self) -> bool:
        """True when the check supports the recorded verdict (see :attr:`problems`)."""
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary with the entry's fields and the computed outcome."""
        e, o = self.entry, self.outcome
        return {
            "id": e.id,
            "source": dataclasses.asdict(e.source),
            "claim": e.claim,
            "verdict": e.verdict,
            "computed_verdict": o.verdict,
            "agrees": self.agrees,
            "reading": e.reading,
            "condition": e.condition,
            "correction": e.correction,
            "correction_holds": o.correction_holds,
            "reason": e.reason,
            "check": e.check_name,
            "evidence": o.evidence,
            "counterexample": o.counterexample,
        }


_CACHE: dict[Callable[[], Outcome], Outcome] = {}


def _outcome(check: Callable[[], Outcome]) -> Outcome:
    """Run ``check`` once per process (several entries share a check); errors become ``fails``."""
    if check not in _CACHE:
        try:
            out = check()
        except Exception as exc:  # a crashing check must show up as a disagreement, not abort the run
            out = Outcome("fails", f"the check raised {type(exc).__name__}: {exc}")
        if not isinstance(out, Outcome):
            out = Outcome("fails", f"the check returned {type(out).__name__}, not an Outcome")
        _CACHE[check] = out
    return _CACHE[check]


def run(entries: Iterable[Entry]) -> list[Result]:
    """Run the check of every entry and return one :class:`Result` per entry, in order.

    >>> ok = Entry("x-demo", note_source("003", "2D case"), "1 + 1 = 2", "holds",
    ...            lambda: Outcome("holds", "computed 2"))
    >>> [r.agrees for r in run([ok, dataclasses.replace(ok, verdict="not-checkable", reason="-")])]
    [True, False]
    """
    return [Result(entry, _outcome(entry.check)) for entry in entries]
