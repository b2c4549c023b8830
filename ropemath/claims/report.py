r"""The ``ropemath claims`` command: print the claims ledger as a table or as JSON.

Scope: :func:`table` (one line per entry, then verdict counts per note), :func:`as_json`, and
the CLI hooks ``add_cli_arguments`` / ``run_cli`` named in ``ropemath.cli.dispatch.COMMANDS``.  Exit
codes: 0 every check agrees with its recorded verdict, 1 some check disagrees, 2 bad usage.

References: none (project convention).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ropemath.claims.ledger import VERDICTS, Result

__all__ = ["add_cli_arguments", "as_json", "run_cli", "summary_table", "table"]


def _width(text: str) -> int:
    """Display width: CJK and full-width characters take two columns."""
    return sum(2 if ord(ch) >= 0x1100 and not 0x2000 <= ord(ch) < 0x2E80 else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


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
        if _width(section) > 48:
            while _width(section) > 47:
                section = section[:-1]
            section += "…"
        lines.append(f"{r.entry.id:<{idw}}  {r.entry.verdict:<13}  {ok:<5}  {r.entry.note} {section}")
        if not r.agrees:
            lines.extend(f"{'':<{idw}}  -> {p}" for p in r.problems)
    lines += ["", summary_table(results)]
    bad = sum(not r.agrees for r in results)
    lines.append(
        f"{len(results)} entries; "
        + (
            "every check agrees with its recorded verdict."
            if not bad
            else f"{bad} check(s) DISAGREE with the recorded verdict."
        )
    )
    return "\n".join(lines)


def as_json(results: list[Result]) -> str:
    """The results as a JSON list of entries (UTF-8 text, not ASCII-escaped)."""
    return json.dumps([r.as_dict() for r in results], ensure_ascii=False, indent=2)


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``ropemath claims``."""
    parser.add_argument("--json", action="store_true", help="print the entries as a JSON list")
    parser.add_argument(
        "--source",
        metavar="FILE",
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
