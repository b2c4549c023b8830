r"""The claims ledger: every checkable mathematical claim of the five source notes, with a verdict.

Module ``noteNNN`` holds the note's ``ENTRIES`` and ``MERGED`` (its other mathematical sentences, each with the
entry that judges it).

References: the five study notes of :data:`ropemath.claims.ledger.NOTES`; Su et al., *RoFormer*,
arXiv:2104.09864 v5.
"""

from __future__ import annotations

from collections import Counter
from pathlib import PurePath

from ropemath.claims import note000, note001, note002, note003, note004
from ropemath.claims.ledger import NOTES, VERDICTS, Entry, Outcome, Result, Source, note_source, rubric, run
from ropemath.claims.report import controls_table, coverage_table, explain, note_words, summary_table

__all__ = [
    "LEDGER", "NOTES", "NOTE_MODULES", "VERDICTS", "Entry", "Outcome", "Result", "Source", "controls_table",
    "coverage_table", "entries", "explain", "note_source", "note_words", "rubric", "run", "run_ledger", "summary",
    "summary_table",
]

NOTE_MODULES = {"000": note000, "001": note001, "002": note002, "003": note003, "004": note004}
LEDGER: tuple[Entry, ...] = tuple(e for module in NOTE_MODULES.values() for e in module.ENTRIES)


def entries(source: str | None = None) -> tuple[Entry, ...]:
    """Return the ledger's entries, all or one note's: its file name, a path to it, or a prefix naming one note.

    >>> len(entries("003")) == len(note003.ENTRIES), entries("003_707044a7c764f131.txt")[0].id
    (True, 'n003-goal')
    >>> entries("seeds/003_707044a7c764f131.txt") == entries("003")
    True
    """
    if source is None:
        return LEDGER
    if not isinstance(source, str):
        raise TypeError(f"source must be a note file name or prefix (str), got {type(source).__name__}")
    name = PurePath(source).name if source else source
    files = [file for file, _ in NOTES.values()]
    matched = [file for file in files if name and file.startswith(name)]
    if len(matched) != 1:
        found = "no note" if not matched else f"{len(matched)} notes"
        raise ValueError(f"source must be one note's file name or a prefix of it ({', '.join(files)}), got {source!r} "
                         f"({found})")
    return tuple(e for e in LEDGER if e.source.file == matched[0])


def run_ledger(source: str | None = None) -> list[Result]:
    """Run the checks of :func:`entries` ``(source)`` and return the results in ledger order."""
    return run(entries(source))


def summary(results: list[Result]) -> dict[str, dict[str, int]]:
    """Count recorded verdicts per note: ``{"000": {"holds": 12, ...}, ..., "all": {...}}``.

    >>> summary([])["all"]
    {'holds': 0, 'fails': 0, 'holds-if': 0, 'not-checkable': 0}
    """
    out: dict[str, dict[str, int]] = {}
    for key in [*NOTES, "all"]:
        counts = Counter(r.entry.verdict for r in results if key == "all" or r.entry.note == key)
        if key == "all" or counts:
            out[key] = {v: counts.get(v, 0) for v in VERDICTS}
    return out
