"""``ropemath figures``: regenerate every committed figure, or check that the committed ones are current.

Scope: the command-line driver of :data:`ropemath.plots.FIGURES`.

* ``ropemath figures [--out DIR] [--only NAME ...]`` writes ``DIR/<name>.png`` for each figure
  (default ``DIR`` = ``figures`` in the current directory, i.e. the repository's ``figures/``
  when run from the repository root, as ``make figures`` does).  ``DIR`` must be an existing,
  writable directory; nothing outside it is written.  One progress line per figure.
* ``ropemath figures --check [--out DIR]`` regenerates every figure into a temporary folder
  (removed afterwards), compares each with ``DIR/<name>.png`` by RMS pixel difference, as
  matplotlib's own image tests do (:mod:`ropemath.plots.compare`, tolerance
  :data:`~ropemath.plots.compare.RMS_TOLERANCE`), prints the RMS of each, and leaves ``DIR``
  untouched; it exits 1 naming each figure that differs by more (and by how much) or is missing.
  ``make figures`` itself writes byte-identical files when run twice on one machine.

Exit codes: 0 success, 1 ``--check`` found stale or missing figures, 2 bad usage (unknown
``--only`` name, ``--out`` missing, not a directory or not writable).

References: none (project convention; see :mod:`ropemath.cli.dispatch`).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_OUT = "figures"


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``ropemath figures``."""
    parser.add_argument(
        "--out",
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"existing directory for the PNG files (default: ./{DEFAULT_OUT})",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        help="only this figure (repeatable); an unknown NAME lists the known names",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if any figure in --out is stale or missing",
    )


def _error(message: str) -> int:
    print(f"ropemath figures: error: {message}", file=sys.stderr)
    return 2


def _directory(out: str) -> str | None:
    """Return why ``--out`` names no existing directory, or None."""
    if not out.strip():
        return "--out: an empty name is not a directory (give one, e.g. --out figures)"
    if not Path(out).exists():
        return f"--out: directory does not exist: {out}"
    if not Path(out).is_dir():
        return f"--out: not a directory: {out}"
    return None


def _writable(out: Path) -> str | None:
    """Return why ``out`` cannot take the figures, or None if it can (probe file, then removed)."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".ropemath-probe-", dir=out)
    except OSError as exc:
        return f"--out: directory is not writable ({exc.strerror or exc}): {out}"
    os.close(fd)
    os.unlink(probe)
    return None


def run_cli(args: argparse.Namespace) -> int:
    """Write (or with ``--check`` compare) the PNG of each selected figure; return the exit code."""
    from ropemath.plots import FIGURES, save_png

    names = list(FIGURES)
    if args.only:
        unknown = [name for name in args.only if name not in FIGURES]
        if unknown:
            return _error(f"unknown figure {', '.join(map(repr, unknown))}; known: {', '.join(names)}")
        names = [name for name in names if name in args.only]
    problem = _directory(args.out)
    if problem:
        return _error(problem)
    out = Path(args.out)
    if args.check:
        return _check(names, out, FIGURES, save_png)
    problem = _writable(out)
    if problem:
        return _error(problem)
    total = time.perf_counter()
    for name in names:
        start = time.perf_counter()
        path = out / f"{name}.png"
        try:
            save_png(FIGURES[name](), path)
        except OSError as exc:
            return _error(f"cannot write {path}: {exc.strerror or exc}")
        print(f"{name:<24} {path}  {time.perf_counter() - start:.2f} s")
    print(f"{len(names)} figure(s) written to {out} in {time.perf_counter() - total:.2f} s")
    return 0


def _check(names: list[str], out: Path, figures, save_png) -> int:
    """Regenerate into a temporary folder and compare with ``out`` by RMS; 1 if any differs or is missing."""
    from ropemath.plots.compare import RMS_TOLERANCE, figure_difference

    bad = []
    with tempfile.TemporaryDirectory(prefix="ropemath-figures-") as tmp:
        for name in names:
            start = time.perf_counter()
            path = out / f"{name}.png"
            fresh = save_png(figures[name](), Path(tmp) / f"{name}.png")
            if not path.is_file():
                status, detail = "MISSING", "missing"
            else:
                rms = figure_difference(path, fresh)
                status = "ok" if rms <= RMS_TOLERANCE else "DIFFERS"
                detail = "size differs" if rms == float("inf") else f"RMS {rms:.3f}"
            if status != "ok":
                bound = f" > {RMS_TOLERANCE}" if status == "DIFFERS" else ""
                bad.append(f"{name} ({detail}{bound}: {path})")
            print(f"{name:<24} {path}  {status}  {detail}  {time.perf_counter() - start:.2f} s")
    if bad:
        print(
            f"ropemath figures --check: {len(bad)} figure(s) out of date (RMS tolerance {RMS_TOLERANCE}): "
            f"{'; '.join(bad)}. Run `make figures` (ropemath figures --out figures) and commit the PNGs.",
            file=sys.stderr,
        )
        return 1
    print(f"{len(names)} figure(s) in {out} match within RMS {RMS_TOLERANCE}")
    return 0
