"""``ropemath <command>`` (and ``python -m ropemath``): each module of :data:`COMMANDS` provides
``add_cli_arguments(parser)`` and ``run_cli(args) -> int``; exit 0 success, 1 a check failed, 2 bad usage (one line).
This module also holds the ``check`` command.

References: Python documentation, ``argparse``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

#: name -> (module providing add_cli_arguments/run_cli, one-line help)
COMMANDS: dict[str, tuple[str, str]] = dict(
    check=("ropemath.cli.dispatch", "run the numeric identity checks and print the largest errors"),
    figures=("ropemath.plots.cli", "regenerate the committed figures (--check: exit 1 if any is stale)"),
    derive=("ropemath.symbolic.cli", "derive RoPE's 2D solution with sympy; print proofs and refutations"),
    bench=("ropemath.cli.bench", "time apply_rope against a memory floor, the dense form and torch's formulas"),
    claims=("ropemath.claims.report", "check every claim of the five source notes; print the ledger (--json)"),
)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the top-level parser with one subparser per entry of :data:`COMMANDS`."""
    from ropemath import __version__

    parser = OneLineParser(prog="ropemath", description="Derive and machine-check RoPE (RoFormer, arXiv:2104.09864).")
    parser.add_argument("--version", action="version", version=f"ropemath {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_cli_arguments(p)
        p.set_defaults(_run=module.run_cli)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run the chosen command; return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args._run(args))
    except (TypeError, ValueError) as exc:  # an argument the command's functions reject: usage error
        print(f"ropemath {args.command}: error: {exc}".splitlines()[0], file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `ropemath claims | head`: stop quietly, like other Unix tools
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


# --- the ``check`` command --------------------------------------------------------------------------------------


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``ropemath check``."""
    parser.add_argument("--dims", type=int, nargs="+", default=None, help="dimensions d to check")
    parser.add_argument("--trials", type=int, default=3, help="random draws per d (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--tol", type=float, default=1e-9, help="failure threshold (default 1e-9)")


def run_cli(args: argparse.Namespace) -> int:
    """Print one row per d with the largest error of each check; 1 if any exceeds ``--tol``."""
    from ropemath.core._validate import check_d, check_int, check_real
    from ropemath.core.checks import SURVEY_DIMS, survey

    dims = tuple(check_d(d, "--dims", maximum=4096) for d in (args.dims or SURVEY_DIMS))
    trials = check_int(args.trials, "--trials", minimum=1, maximum=1000)
    seed = check_int(args.seed, "--seed", minimum=0)
    check_real(args.tol, "--tol", minimum=0.0)  # a bad argument raises; main() prints it as one line, exit 2
    rows = survey(dims, trials=trials, seed=seed)
    keys = [key for key in rows[0] if key != "d"]
    print(f"{'d':>5}  " + "  ".join(f"{key:>23}" for key in keys))
    worst = 0.0
    for row in rows:
        print(f"{row['d']:>5}  " + "  ".join(f"{row[key]:>23.2e}" for key in keys))
        worst = max(worst, *(row[key] for key in keys))
    status = "ok" if worst <= args.tol else "FAILED"
    print(f"largest error {worst:.2e} (tolerance {args.tol:.0e}): {status}")
    return 0 if worst <= args.tol else 1
