"""``ropemath figures [--out DIR] [--only NAME ...] [--check]``: write ``DIR/<name>.png`` for every figure of
:data:`ropemath.plots.FIGURES`, or with ``--check`` regenerate them in a temporary folder and compare each with
``DIR/<name>.png`` by RMS pixel difference (exit 1 naming every stale or missing figure; ``DIR`` untouched).
Exit 2 on bad usage: an unknown ``--only`` name, ``--out`` missing, not a directory or not writable.

References: matplotlib, ``matplotlib.testing.compare.compare_images``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``ropemath figures``."""
    parser.add_argument("--out", default="figures", metavar="DIR", help="existing directory for the PNG files")
    parser.add_argument("--only", action="append", metavar="NAME", help="only this figure (repeatable)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a figure is stale or missing")


def _out_problem(out: str, write: bool) -> str | None:
    """Why ``--out`` cannot take the figures, or None (writability is probed with a file that is removed)."""
    if not out.strip():
        return "an empty name is not a directory (give one, e.g. --out figures)"
    if not Path(out).exists():
        return f"directory does not exist: {out}"
    if not Path(out).is_dir():
        return f"not a directory: {out}"
    if write:
        try:
            fd, probe = tempfile.mkstemp(prefix=".ropemath-probe-", dir=out)
        except OSError as exc:
            return f"directory is not writable ({exc.strerror or exc}): {out}"
        os.close(fd)
        os.unlink(probe)
    return None


def run_cli(args: argparse.Namespace) -> int:
    """Write (or with ``--check`` compare) the PNG of each selected figure; return the exit code."""
    from ropemath.plots import FIGURES, RMS_TOLERANCE, figure_difference, save_png

    unknown = [name for name in args.only or [] if name not in FIGURES]
    problem = (f"unknown figure {', '.join(map(repr, unknown))}; known: {', '.join(FIGURES)}" if unknown
               else _out_problem(args.out, write=not args.check))
    if problem:
        print(f"ropemath figures: error: {'' if unknown else '--out: '}{problem}", file=sys.stderr)
        return 2
    names, out = [name for name in FIGURES if not args.only or name in args.only], Path(args.out)
    if not args.check:
        try:
            for name in names:
                print(f"{name:<24} {save_png(FIGURES[name](), out / f'{name}.png')}")
        except OSError as exc:
            print(f"ropemath figures: error: cannot write into {out}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"{len(names)} figure(s) written to {out}")
        return 0
    bad = []
    with tempfile.TemporaryDirectory(prefix="ropemath-figures-") as tmp:
        for name in names:
            path = out / f"{name}.png"
            rms = figure_difference(path, save_png(FIGURES[name](), Path(tmp) / f"{name}.png")) \
                if path.is_file() else None
            detail = "missing" if rms is None else "size differs" if rms == float("inf") else f"RMS {rms:.3f}"
            if rms is None or rms > RMS_TOLERANCE:
                bad.append(f"{name} ({detail}{'' if rms is None else f' > {RMS_TOLERANCE}'}: {path})")
            print(f"{name:<24} {path}  {'ok' if rms is not None and rms <= RMS_TOLERANCE else 'STALE'}  {detail}")
    if bad:
        print(f"ropemath figures --check: {len(bad)} figure(s) out of date (RMS tolerance {RMS_TOLERANCE}): "
              f"{'; '.join(bad)}. Run `make figures` and commit the PNGs.", file=sys.stderr)
        return 1
    print(f"{len(names)} figure(s) in {out} match within RMS {RMS_TOLERANCE}")
    return 0
