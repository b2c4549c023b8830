r"""The ``ropemath claims`` command and the ledger's tables: exit 0 when every check agrees with its recorded
verdict, 1 when some check disagrees, 2 for bad usage.

References: none (project convention).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from ropemath.claims.ledger import VERDICTS, Entry, Result

__all__ = [
    "add_cli_arguments", "as_json", "controls_table", "coverage_table", "explain", "note_words", "run_cli",
    "summary_table", "table",
]


def _width(text: str) -> int:
    """Display width: CJK and full-width characters take two columns."""
    return sum(2 if ord(ch) >= 0x1100 and not 0x2000 <= ord(ch) < 0x2E80 else 1 for ch in text)


def summary_table(results: list[Result]) -> str:
    """Verdict counts per note (rows) and verdict (columns), with totals.

    >>> print(summary_table([]))
    note    holds  fails  holds-if  not-checkable  total
    all         0      0         0              0      0
    """
    from ropemath.claims import summary

    counts = summary(results)
    lines = ["note    " + "  ".join(f"{v:>{max(5, len(v))}}" for v in VERDICTS) + "  total"]
    for note, row in counts.items():
        cells = "  ".join(f"{row[v]:>{max(5, len(v))}}" for v in VERDICTS)
        lines.append(f"{note:<6}  {cells}  {sum(row.values()):>5}")
    return "\n".join(lines)


def table(results: list[Result]) -> str:
    """One line per entry: id, recorded verdict, whether the check agrees, note and section; then counts."""
    idw = max([len(r.entry.id) for r in results] + [2])
    lines = [f"{'id':<{idw}}  {'verdict':<13}  {'check':<5}  section"]
    for r in results:
        ok = "ok" if r.agrees else "DIFF"
        section = r.entry.source.section
        if _width(section) > 48:  # the longest head that fits in 47 columns, then an ellipsis
            section = next(section[:k] for k in range(len(section), -1, -1) if _width(section[:k]) <= 47) + "…"
        lines.append(f"{r.entry.id:<{idw}}  {r.entry.verdict:<13}  {ok:<5}  {r.entry.note} {section}")
        if not r.agrees:
            lines.extend(f"{'':<{idw}}  -> {p}" for p in r.problems)
    lines += ["", summary_table(results)]
    bad = sum(not r.agrees for r in results)
    agree = "every check agrees with its" if not bad else f"{bad} check(s) DISAGREE with the"
    return "\n".join([*lines, f"{len(results)} entries; {agree} recorded verdict."])


def note_words(entry: Entry) -> str:
    """The note's exact words as a Markdown code span (verbatim: scraped LaTeX is shown, not typeset).

    >>> from ropemath.claims.ledger import Outcome, note_source
    >>> e = Entry("n003-x", note_source("003", "2D case"), "c", "holds", lambda: Outcome("holds", "-"),
    ...           quote="R_m   uses `b`  and  c")
    >>> print(note_words(e))
    ``R_m uses `b` and c``
    """
    text = " ".join(entry.quote.split())
    runs = [len(r) for r in re.findall("`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def explain(result: Result) -> str:
    """One entry as Markdown: where, the note's exact words, the reading checked, the verdicts, the evidence.

    >>> from ropemath.claims.ledger import Entry, Outcome, note_source, run
    >>> e = Entry("n003-demo", note_source("003", "2D case"), "$1 + 1 = 2$", "holds",
    ...           lambda: Outcome("holds", "computed 2"), quote="1+1=2")
    >>> print(explain(run([e])[0]).splitlines()[0])
    **n003-demo** — holds (computed: holds) — note 003, section «2D case»
    """
    e, o = result.entry, result.outcome
    parts = [f"**{e.id}** — {e.verdict} (computed: {o.verdict}) — note {e.note}, section «{e.source.section}»"]
    if e.quote:
        parts.append(f"*The note says*: {note_words(e)}")
    parts.append(f"*Reading checked*: {e.claim}")
    labelled = [("How it was read", e.reading), ("Condition", e.condition)]
    parts += [f"*{name}*: {text}" for name, text in labelled if text]
    for alt in e.alternatives:
        parts.append(f"*Another reading*: {alt.reading} — {alt.verdict} (computed: {alt.check().verdict})")
    if e.correction:
        checked = "holds" if o.correction_holds else "does NOT hold"
        parts.append(f"*Correction* (checked: {checked}): {e.correction}")
    if o.counterexample:
        items = "; ".join(f"{k} = {v}" for k, v in o.counterexample.items())
        parts.append(f"*Counterexample*: {items}")
    parts.append(f"*Evidence*: {o.evidence}")
    return "\n\n".join(parts)


def controls_table(results: list[Result]) -> tuple[str, int]:
    """Every distinct check of ``results`` (not ``not-checkable``) with its negative control and both verdicts,
    and the number of checks whose control computed the *same* verdict (0 when every check can say no)."""
    from ropemath.claims.controls import CONTROLS

    lines, same, seen = [], 0, set()
    for r in results:
        check = r.entry.check
        if r.entry.verdict == "not-checkable" or check in seen:
            continue
        seen.add(check)
        ctl = CONTROLS.get(check)
        wrong = ctl.run().verdict if ctl is not None else "(no control)"
        same += wrong == r.outcome.verdict or ctl is None
        what = ctl.wrong if ctl is not None else ""
        lines.append(f"{check.__name__:<34} {r.outcome.verdict:<9} -> {wrong:<9} {what}")
    header = f"{'check':<34} {'verdict':<9}    {'control':<9} what the control gets wrong"
    return "\n".join([header, *lines]), same


def coverage_table() -> str:
    """The coverage pass per note: entries, sentences merged into an entry, and the distinct passages judged."""
    from ropemath.claims import NOTE_MODULES

    lines = ["note  entries  merged  passages"]
    for prefix, module in NOTE_MODULES.items():
        passages = {e.quote for e in module.ENTRIES} | {s for s, _ in module.MERGED}  # quotes and merged sentences
        lines.append(f"{prefix:<4}  {len(module.ENTRIES):>7}  {len(module.MERGED):>6}  {len(passages):>8}")
    return "\n".join(lines)


def as_json(results: list[Result]) -> str:
    """The results as a JSON list of entries (UTF-8 text, not ASCII-escaped)."""
    return json.dumps([r.as_dict() for r in results], ensure_ascii=False, indent=2)


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``ropemath claims``."""
    parser.add_argument("--json", action="store_true", help="print the entries as a JSON list")
    parser.add_argument(
        "--source", metavar="FILE",
        help="only the entries of one note: its file name (or a path to it) or a prefix naming one note, e.g. 001",
    )


def run_cli(args: argparse.Namespace) -> int:
    """Run the ledger (or one note's part), print it; 1 if any check disagrees, 2 for a bad ``--source``."""
    from ropemath.claims import run_ledger

    if args.source is not None and os.sep in args.source and not Path(args.source).is_file():
        print(f"ropemath claims: error: --source: no such file: {args.source}", file=sys.stderr)
        return 2
    try:
        results = run_ledger(args.source)
    except (TypeError, ValueError) as exc:
        print(f"ropemath claims: error: {exc}", file=sys.stderr)
        return 2
    print(as_json(results) if args.json else table(results))
    return 0 if all(r.agrees for r in results) else 1
