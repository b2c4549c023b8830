"""Kill rate per package from a mutmut run: the report of `make mutants`.

Usage:  python tools/mutation_rates.py [MUTANTS_DIR] [--goal 0.9]
        python tools/mutation_rates.py [MUTANTS_DIR] --sample N [--seed S]

mutmut (https://mutmut.readthedocs.io/) keeps each mutated file's results in ``mutants/<path>.meta``
(JSON; ``exit_code_by_key`` maps each mutant to the exit code of its test run, null until run). This
script prints, for each package of ``PACKAGES``, how many mutants the tests killed:

    kill rate = (killed + timed out) / (killed + timed out + survived + no tests)

A mutant no test runs counts as a survivor. Mutants on lines marked ``# pragma: no mutate`` (the
equivalent ones, each with its reason on the line) are never generated, so they are in neither count.
When some mutants are not run yet, the rate is over those run, with a 95% Wilson interval: a fair
estimate of the whole package when the run mutants are a uniform random sample, which ``--sample N``
provides (it prints N names per package, drawn with a seeded generator from the mutants not run yet,
for ``mutmut run``). Exit status 1 when a package that was run is below the goal.

References: the exit codes are mutmut's (``mutmut/stats.py``, ``status_by_exit_code``), version 3.8;
E. B. Wilson, J. Amer. Statist. Assoc. 22 (1927) 209-212, for the interval.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

PACKAGES = ("ropemath/claims", "ropemath/symbolic", "ropemath/core")
KILLED = {1, 3}  # pytest failed, or stopped with an internal error
TIMEOUT = {24, -24, 36, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}


def tally(exit_codes: list[int | None]) -> dict[str, int]:
    """Count the mutants of one package by outcome.

    >>> tally([1, 1, 0, 36, 33, None, 34])
    {'killed': 2, 'timeout': 1, 'survived': 1, 'no tests': 1, 'not run': 1, 'other': 1}
    """
    counts = {"killed": 0, "timeout": 0, "survived": 0, "no tests": 0, "not run": 0, "other": 0}
    for code in exit_codes:
        key = ("killed" if code in KILLED else "timeout" if code in TIMEOUT else "survived" if code in SURVIVED
               else "no tests" if code in NO_TESTS else "not run" if code is None else "other")
        counts[key] += 1
    return counts


def kill_rate(counts: dict[str, int]) -> float | None:
    """(killed + timeout) / (killed + timeout + survived + no tests); None when nothing was run.

    >>> kill_rate({"killed": 8, "timeout": 1, "survived": 1, "no tests": 0})
    0.9
    >>> kill_rate({"killed": 0, "timeout": 0, "survived": 0, "no tests": 0}) is None
    True
    """
    caught = counts["killed"] + counts["timeout"]
    tested = caught + counts["survived"] + counts["no tests"]
    return caught / tested if tested else None


def wilson_interval(caught: int, tested: int, z: float = 1.96) -> tuple[float, float]:
    r"""The Wilson score interval of a proportion ``caught / tested`` (95% for z = 1.96).

    .. math:: \frac{\hat p + z^2/2n \pm z \sqrt{\hat p (1 - \hat p)/n + z^2/4n^2}}{1 + z^2/n}

    >>> [round(x, 3) for x in wilson_interval(45, 50)]
    [0.786, 0.957]
    >>> [round(x, 3) for x in wilson_interval(50, 50)]
    [0.929, 1.0]
    """
    p, n = caught / tested, tested
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def read_results(mutants_dir: Path) -> dict[str, dict[str, int | None]]:
    """The exit code of every mutant under `mutants_dir`, by name, grouped by package."""
    codes: dict[str, dict[str, int | None]] = {package: {} for package in PACKAGES}
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        source = meta.relative_to(mutants_dir).as_posix()
        package = next((p for p in PACKAGES if source.startswith(p + "/")), None)
        if package is not None:
            codes[package].update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return codes


def report(mutants_dir: Path, goal: float) -> tuple[list[str], bool]:
    """One line per package, and whether every package that was run meets the goal."""
    lines, ok = [], True
    for package, codes in read_results(mutants_dir).items():
        counts = tally(list(codes.values()))
        rate = kill_rate(counts)
        if rate is None:
            lines.append(f"{package}: not run")
            continue
        ok &= rate >= goal
        caught = counts["killed"] + counts["timeout"]
        tested = caught + counts["survived"] + counts["no tests"]
        extra = "".join(f", {counts[k]} {k}" for k in ("no tests", "not run", "other") if counts[k])
        interval = ""
        if counts["not run"]:
            low, high = wilson_interval(caught, tested)
            interval = f", 95% interval {100 * low:.1f}-{100 * high:.1f}% if the run ones are a random sample"
        lines.append(f"{package}: {caught} of {tested} mutants killed ({counts['timeout']} by timeout), "
                     f"{counts['survived']} survived{extra}: {100 * rate:.1f}% (goal {100 * goal:.0f}%){interval}")
    return lines, ok


def sample(mutants_dir: Path, size: int, seed: int) -> list[str]:
    """``size`` names per package drawn uniformly (seeded) from the mutants not run yet, in name order."""
    names: list[str] = []
    for codes in read_results(mutants_dir).values():
        pending = sorted(name for name, code in codes.items() if code is None)
        names += sorted(random.Random(seed).sample(pending, min(size, len(pending))))
    return names


def main(argv: list[str] | None = None) -> int:
    """Command line: print the kill rate of each package; 1 if a package that was run misses the goal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mutants_dir", nargs="?", type=Path, default=Path("mutants"), help="mutmut's folder")
    parser.add_argument("--goal", type=float, default=0.9, help="the kill rate each package must reach (0.9)")
    parser.add_argument("--sample", type=int, help="print this many names of mutants not run yet, per package")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (0)")
    args = parser.parse_args(argv)
    if not args.mutants_dir.is_dir():
        print(f"mutation_rates: error: {args.mutants_dir} is not a folder (run `mutmut run` first)", file=sys.stderr)
        return 2
    if not 0 < args.goal <= 1:
        print(f"mutation_rates: error: --goal must be in (0, 1], got {args.goal}", file=sys.stderr)
        return 2
    if args.sample is not None:
        if args.sample < 1:
            print(f"mutation_rates: error: --sample must be at least 1, got {args.sample}", file=sys.stderr)
            return 2
        print("\n".join(sample(args.mutants_dir, args.sample, args.seed)))
        return 0
    lines, ok = report(args.mutants_dir, args.goal)
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
