r"""The claims ledger's data model and runner: entries, outcomes, and the agreement rule.

Scope: :class:`Entry` (one claim, its *recorded* verdict and its check), :class:`Outcome` (what the check
computed) and :func:`run`.  Entries live in ``note000`` ... ``note004``, checks in the ``checks_*`` modules.

The verdict rubric
------------------
Written once here; the README and notebook 09 quote it, ``tests/test_claims_rubric.py`` enforces
its structural parts.  Every entry judges what the note *says*: ``quote`` holds the note's exact
words (a test finds it in the note after whitespace normalisation), ``claim`` states the reading
the check uses, in the project's notation.

1. **What is judged is the quote.**  A garbled or mistyped formula is judged as written: if the
   literal formula is false, the verdict is ``fails`` and ``correction`` gives the intended one.
   Defects of one kind get one verdict: a lost transpose, a wrong sign, a wrong index is ``fails``
   wherever it occurs, however evident the intent.
2. **Ambiguous text.**  When the words admit several mathematical readings, ``claim`` is the
   most literal one consistent with the note's own notation, and ``alternatives`` lists the
   others, each with its own check and computed verdict.  No reading is adopted silently
   because it makes the claim true.
3. ``holds`` — true for every value in the statement's scope (as the note states it, or as its
   context fixes it); the check proves it (sympy) or measures it within a stated tolerance over
   a sample that covers the scope, including its edges (negative and large positions, d = 2).
4. ``fails`` — false as written: the check exhibits a counterexample with numbers anyone can plug
   in, and the ``correction`` is itself checked and must hold.
5. ``holds-if`` — true only under a condition the note does not state: ``condition`` states it as
   a formula, and the check shows a case inside it where the statement holds *and* a case outside
   it where it breaks (the counterexample).  A statement true only on a set of measure zero
   (e.g. a symmetric :math:`W_q`) is ``fails``, not ``holds-if``.
6. ``not-checkable`` — only when no computation can bear on any part of the statement (history,
   motivation, a name, a claim about experiments not reproduced here); ``reason`` says why.  If
   any part is measurable, that part is an entry of its own.
7. **Every check can say no.**  Each check function has a negative control in the table
   :data:`ropemath.claims.controls.CONTROLS`: the same code run on a deliberately wrong variant
   of the claim (wrong sign, wrong index, missing factor, a case outside the condition) must compute a
   different verdict, and ``fails`` when the check's verdict is ``holds`` or ``holds-if``.  A check
   that compares an implementation with itself is not a check.

References: the five study notes of :data:`ropemath.claims.ledger.NOTES`; Su et al., *RoFormer*,
arXiv:2104.09864 v5.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

__all__ = [
    "NOTES", "VERDICTS", "Alternative", "Entry", "Outcome", "Result", "Source", "note_entry", "note_source", "rubric",
    "run",
]

VERDICTS = ("holds", "fails", "holds-if", "not-checkable")

# prefix -> (file name of the study note, its title)
NOTES: dict[str, tuple[str, str]] = {
    "000": ("000_797ef20cd23b05e7.txt", "RoPE: Rotray Position Embedding"),
    "001": ("001_7e3e9fdbef5f3390.txt", "旋转位置编码(RoPE)公式详细推导过程"),
    "002": ("002_fb5f39ecb7bf44ca.txt", "精英笔记：旋转位置编码 (RoPE)"),
    "003": ("003_707044a7c764f131.txt", "RoPE"),
    "004": ("004_a74fe6c4ddd7dc02.txt", "RoPE / RoFormer: Enhanced Transformer with Rotary Position Embedding"),
}
NOTES_ROPE = {"layout": "interleaved", "base": 1e4}  # the RoPE the notes describe: adjacent pairs, base 10^4


def rubric() -> str:
    """Return the verdict rubric of this module's docstring as Markdown (the README and notebook 09 show it).

    >>> rubric().splitlines()[0]
    'Written once here; the README and notebook 09 quote it, `tests/test_claims_rubric.py` enforces'
    """
    doc = __doc__ or ""
    start = doc.index("The verdict rubric\n")
    start = doc.index("\n", doc.index("\n", start) + 1) + 1  # skip the title and its underline
    text = doc[start : doc.index("\nReferences:", start)].strip()
    text = re.sub(r":math:`([^`]*)`", r"$\1$", text)
    text = re.sub(r":\w+:`([^`]*)`", r"`\1`", text)
    return text.replace("``", "`")


def _check_verdict(verdict: str) -> None:
    if verdict not in VERDICTS:
        raise ValueError(f"verdict must be one of {VERDICTS}, got {verdict!r}")


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


def note_entry(prefix: str) -> Callable[..., Entry]:
    """The entry constructor of note ``prefix``: ``entry(id, section, verdict, check, claim, **fields)``.

    >>> note_entry("003")("n003-x", "2D case", "holds", lambda: Outcome("holds", "-"), "1 + 1 = 2").source.file
    '003_707044a7c764f131.txt'
    """
    note_source(prefix, "")  # a bad prefix is refused here, not at the first entry

    def entry(id: str, section: str, verdict: str, check: Callable[[], Outcome], claim: str, **fields: Any) -> Entry:
        return Entry(id, note_source(prefix, section), claim, verdict, check, **fields)

    return entry


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a check computed: the verdict, a one-paragraph evidence text, the plug-in numbers of a refutation
    (``fails``, ``holds-if``) and whether the correction was checked and holds (``None``: no correction)."""

    verdict: str
    evidence: str
    counterexample: dict[str, Any] | None = None
    correction_holds: bool | None = None

    def __post_init__(self) -> None:
        _check_verdict(self.verdict)


@dataclasses.dataclass(frozen=True)
class Alternative:
    """Another reading of an ambiguous quote, with the check that decides it and its verdict."""

    reading: str
    verdict: str
    check: Callable[[], Outcome]

    def __post_init__(self) -> None:
        _check_verdict(self.verdict)
        if not callable(self.check):
            raise TypeError(f"check must be callable, got {type(self.check).__name__}")


@dataclasses.dataclass(frozen=True)
class Entry:
    """One claim of one note: the note's exact words (``quote``), the reading the check decides (``claim``, LaTeX
    between ``$``), the recorded verdict, and what the rubric requires for it (``condition``, ``correction``,
    ``reason``); ``alternatives`` are other readings with their own checks."""

    id: str
    source: Source
    claim: str
    verdict: str
    check: Callable[[], Outcome]
    reading: str | None = None
    condition: str | None = None
    correction: str | None = None
    reason: str | None = None
    quote: str = ""
    alternatives: tuple[Alternative, ...] = ()

    def __post_init__(self) -> None:
        _check_verdict(self.verdict)
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
            "id": e.id, "source": dataclasses.asdict(e.source), "quote": e.quote, "claim": e.claim,
            "verdict": e.verdict, "computed_verdict": o.verdict, "agrees": self.agrees, "reading": e.reading,
            "alternatives": [{"reading": a.reading, "verdict": a.verdict} for a in e.alternatives],
            "condition": e.condition, "correction": e.correction, "correction_holds": o.correction_holds,
            "reason": e.reason, "check": e.check_name, "evidence": o.evidence, "counterexample": o.counterexample,
        }


@functools.cache
def _outcome(check: Callable[[], Outcome]) -> Outcome:
    """Run ``check`` once per process (several entries share a check); errors become ``fails``."""
    try:
        out = check()
    except Exception as exc:  # a crashing check must show up as a disagreement, not abort the run
        return Outcome("fails", f"the check raised {type(exc).__name__}: {exc}")
    returned = f"the check returned {type(out).__name__}, not an Outcome"
    return out if isinstance(out, Outcome) else Outcome("fails", returned)


def run(entries: Iterable[Entry]) -> list[Result]:
    """Run the check of every entry and return one :class:`Result` per entry, in order.

    >>> ok = Entry("x-demo", note_source("003", "2D case"), "1 + 1 = 2", "holds",
    ...            lambda: Outcome("holds", "computed 2"))
    >>> [r.agrees for r in run([ok, dataclasses.replace(ok, verdict="not-checkable", reason="-")])]
    [True, False]
    """
    return [Result(entry, _outcome(entry.check)) for entry in entries]
