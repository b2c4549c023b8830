"""``ropemath bench``: run the benchmarks of :mod:`ropemath.cli.bench` and report them.

Scope: argument parsing, the goals, the text and JSON reports, and the optional timing
plots (``--plot DIR``; timings are not deterministic, so these are never committed figures
and ``DIR`` may not be called ``figures``).  Exit codes: 0 done (goals missed are reported,
not failures: timings depend on the machine), 1 a variant's result was wrong, 2 bad usage.

Usage::

    ropemath bench                      # table at (32, 4096, 128), scaling in d, decay_bound
    ropemath bench --quick              # smaller shapes, a few seconds
    ropemath bench --json               # the same as JSON on stdout
    ropemath bench --plot /tmp/bench    # also write bench_ratios.png and bench_scaling.png
    ropemath bench --suites             # also time the symbolic tests, figures and nbval
    ropemath bench --model              # also SmolLM2-135M's numpy forward pass against transformers'

References: none (project convention; see :mod:`ropemath.cli.dispatch`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from ropemath.cli import bench
from ropemath.core._validate import check_d, check_int

SECTIONS = ("table", "scaling", "decay")
FIT_FROM = 256  # fit the exponents on d >= 256, where per-call overhead no longer dominates

#: (description, dtype, layout, numerator variant, denominator variant, "max"/"min", target)
GOALS = (
    ("interleaved, float32: RopeCache.apply(out=) / floor", "float32", "interleaved",
     "RopeCache.apply(out=)", "floor", "max", 2.0),
    ("half, float32: torch HF rotate_half / apply_rope", "float32", "half",
     "torch HF rotate_half", "apply_rope", "min", 3.0),
    ("interleaved, float32: torch Meta complex / apply_rope", "float32", "interleaved",
     "torch Meta complex", "apply_rope", "min", 1.0),
    # the dense forms against the fastest elementwise arrangement (the one the floor goal uses)
    ("float32: dense matvec (R prebuilt) / RopeCache.apply(out=)", "float32", "interleaved",
     "dense matvec (R prebuilt)", "RopeCache.apply(out=)", "min", 20.0),
    ("float32: dense gemm (R prebuilt) / RopeCache.apply(out=)", "float32", "interleaved",
     "dense gemm (R prebuilt)", "RopeCache.apply(out=)", "min", 20.0),
    ("float32: dense gemm (build R) / apply_rope", "float32", "interleaved",
     "dense gemm (build R)", "apply_rope", "min", 20.0),
)

#: environment variables that set the number of BLAS threads (reported with the machine)
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``ropemath bench``."""
    parser.add_argument("--quick", action="store_true", help="smaller shapes (8 heads, 1024 positions, d <= 1024)")
    parser.add_argument("--heads", type=int, default=None, help="heads of x (default 32)")
    parser.add_argument("--positions", type=int, default=None, help="positions of x (default 4096)")
    parser.add_argument("--dim", type=int, default=128, help="d of x in the table (default 128)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per variant, >= 5 (default 5)")
    parser.add_argument("--sections", nargs="+", choices=SECTIONS, default=list(SECTIONS), help="what to run")
    parser.add_argument("--suites", action="store_true", help="also time the slow suites (subprocesses)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--model", action="store_true",
                        help="also time the numpy SmolLM2-135M forward pass (512 tokens) against transformers'")
    parser.add_argument("--plot", metavar="DIR", default=None, help="write timing plots into DIR (not figures/)")


def goals(rows: list[dict]) -> list[dict]:
    """Evaluate :data:`GOALS` on the rows of :func:`ropemath.cli.bench.rope_table` (missing rows skipped)."""
    times = {(r["dtype"], r["layout"], r["variant"]): r["seconds"] for r in rows}
    times.update({(r["dtype"], lay, r["variant"]): r["seconds"] for r in rows if r["layout"] == "-"
                  for lay in ("interleaved", "half")})
    result = []
    for text, dtype, layout, num, den, kind, target in GOALS:
        if (dtype, layout, num) in times and (dtype, layout, den) in times:
            value = times[(dtype, layout, num)] / times[(dtype, layout, den)]
            met = value <= target if kind == "max" else value >= target
            result.append({"goal": text, "value": value, "target": target, "kind": kind, "met": met})
    return result


def _machine() -> dict:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    try:
        import torch
        version = torch.__version__
    except ImportError:
        version = None
    return {
        "cores": os.cpu_count(),
        "torch": version,
        "load_average": [round(v, 2) for v in load],
        "numpy": np.__version__,
        "python": sys.version.split()[0],
        "blas_threads": {k: os.environ.get(k) for k in THREAD_VARIABLES},
    }


def _print_report(res: dict) -> None:
    m = res["machine_before"]
    print(
        f"machine: {m['cores']} cores, load average {m['load_average']} before and "
        f"{res['machine_after']['load_average']} after; numpy {m['numpy']}, Python {m['python']}"
    )
    threads = {k: v for k, v in m["blas_threads"].items() if v is not None}
    print(f"torch variants: {'torch ' + m['torch'] + ', 1 thread' if m.get('torch') else 'torch not importable'}")
    print(
        f"BLAS threads: {threads or 'not limited'} (elementwise kernels are single-threaded; "
        "OPENBLAS_NUM_THREADS=1 makes the dense form comparable and stable on a busy machine)"
    )
    if "table" in res:
        h, p, d = res["shape"]
        print(
            f"\nx of shape ({h}, {p}, {d}), positions 0..{p - 1} shared by the heads; median of "
            f"{res['repeats']} after 1 warm-up; dense form on {res['dense_positions']} positions, scaled"
        )
        print(f"{'dtype':8} {'layout':12} {'variant':24} {'time [ms]':>10} {'x floor':>8} {'rel. error':>11}")
        for r in res["table"]:
            print(
                f"{r['dtype']:8} {r['layout']:12} {r['variant']:24} {1e3 * r['seconds']:10.2f} "
                f"{r['ratio']:8.2f} {r['error']:11.1e}"
            )
        print("\ngoals:")
        for g in res["goals"]:
            sign = "<=" if g["kind"] == "max" else ">="
            verdict = "met" if g["met"] else "MISSED"
            print(f"  {g['goal']:61} {g['value']:7.2f}  (goal {sign} {g['target']:g}): {verdict}")
    if "scaling" in res:
        s = res["scaling"]
        print(
            f"\nscaling (float64, one position per vector; time per vector):\n{'d':>6} {'elementwise [us]':>17} "
            f"{'dense [us]':>12} {'dense/elem':>11}"
        )
        for r in s["rows"]:
            print(
                f"{r['d']:6d} {1e6 * r['elementwise']:17.3f} {1e6 * r['dense']:12.3f} "
                f"{r['dense'] / r['elementwise']:11.1f}"
            )
        e = s["exponents"]
        print(f"fitted exponents on d >= {s['fit_from']}: elementwise {e['elementwise']:.2f}, dense {e['dense']:.2f}")
    if "decay" in res:
        dec = res["decay"]
        if dec.get("available"):
            print(
                f"\ndecay_bound over {dec['n']:,} distances at d = {dec['d']}: {dec['seconds']:.2f} s "
                f"(goal < 2 s), peak traced memory {dec['peak_bytes'] / 2**20:.1f} MiB (goal < 256 MiB)"
            )
        else:
            print("\ndecay_bound: ropemath.theory.decay not available")
    for row in res.get("suites", []):
        t = "not present" if row["seconds"] is None else f"{row['seconds']:.1f} s, exit {row['returncode']}"
        print(f"suite {row['suite']}: {t}  [{row['tail']}]")


def _plot(res: dict, out: Path) -> list[Path]:
    from matplotlib.figure import Figure

    written = []
    if "table" in res:
        fig = Figure(figsize=(8, 4.5))
        ax = fig.subplots()
        rows = [r for r in res["table"] if r["dtype"] == "float32"]
        labels = [f"{r['variant']} ({r['layout']})" for r in rows]
        ax.barh(labels, [r["ratio"] for r in rows])
        ax.set_xscale("log")
        ax.set_xlabel("time / floor (float32, log scale)")
        ax.invert_yaxis()
        fig.tight_layout()
        written.append(out / "bench_ratios.png")
        fig.savefig(written[-1], dpi=100)
    if "scaling" in res:
        fig = Figure(figsize=(6, 4))
        ax = fig.subplots()
        d = np.array([r["d"] for r in res["scaling"]["rows"]])
        for key in ("elementwise", "dense"):
            ax.loglog(
                d,
                [r[key] for r in res["scaling"]["rows"]],
                "o-",
                label=f"{key} (slope {res['scaling']['exponents'][key]:.2f})",
            )
        ax.set_xlabel("d")
        ax.set_ylabel("seconds per vector")
        ax.legend()
        fig.tight_layout()
        written.append(out / "bench_scaling.png")
        fig.savefig(written[-1], dpi=100)
    return written


def run_cli(args: argparse.Namespace) -> int:
    """Run the chosen sections, print the report (or JSON); 1 if a correctness check failed."""
    heads = args.heads if args.heads is not None else (8 if args.quick else 32)
    positions = args.positions if args.positions is not None else (1024 if args.quick else 4096)
    dims = tuple(d for d in bench.SCALING_DIMS if d <= (1024 if args.quick else 4096))
    if args.repeats < 5:
        print(f"ropemath bench: error: --repeats must be >= 5, got {args.repeats}", file=sys.stderr)
        return 2
    if args.plot is not None and not args.plot.strip():
        print("ropemath bench: error: --plot DIR must be a directory name, got ''", file=sys.stderr)
        return 2
    if args.plot is not None and Path(args.plot).resolve().name == "figures":
        print(
            "ropemath bench: error: --plot DIR must not be figures/ (timing plots are not deterministic)",
            file=sys.stderr,
        )
        return 2
    try:  # every size is checked before anything runs, whether or not its section is chosen
        check_int(heads, "--heads", minimum=1)
        check_int(positions, "--positions", minimum=1)
        check_d(args.dim, "--dim")
    except (TypeError, ValueError) as exc:
        print(f"ropemath bench: error: {exc}", file=sys.stderr)
        return 2
    if args.plot is not None:  # create DIR now: a bad path must not cost a whole benchmark run
        out = Path(args.plot)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(
                f"ropemath bench: error: --plot DIR must be a writable directory, got {args.plot!r} ({exc.strerror})",
                file=sys.stderr,
            )
            return 2
        if not os.access(out, os.W_OK):
            print(f"ropemath bench: error: --plot DIR must be a writable directory, got {args.plot!r}", file=sys.stderr)
            return 2
    res: dict = {"machine_before": _machine(), "repeats": args.repeats}
    try:
        if "table" in args.sections:
            dense_positions = min(positions, 256)
            res.update(shape=[heads, positions, args.dim], dense_positions=dense_positions)
            res["table"] = bench.rope_table(
                heads, positions, args.dim, repeats=args.repeats, dense_positions=dense_positions
            )
            res["goals"] = goals(res["table"])
        if "scaling" in args.sections:
            rows = bench.scaling(dims, repeats=args.repeats)
            d = [r["d"] for r in rows]
            res["scaling"] = {
                "rows": rows,
                "fit_from": FIT_FROM,
                "exponents": {
                    k: bench.fit_exponent(d, [r[k] for r in rows], FIT_FROM) for k in ("elementwise", "dense")
                },
            }
        if "decay" in args.sections:
            res["decay"] = bench.decay_timing(10**5 if args.quick else 10**6)
    except bench.CorrectnessError as exc:
        print(f"ropemath bench: correctness check failed: {exc}", file=sys.stderr)
        return 1
    if args.suites:
        res["suites"] = bench.suite_timings(Path.cwd())
    if args.model:
        from ropemath.cli import bench_model

        try:
            res["model"] = bench_model.model_bench()
        except FileNotFoundError as exc:
            print(f"ropemath bench: error: {exc}", file=sys.stderr)
            return 2
    res["machine_after"] = _machine()
    if args.plot is not None:
        res["plots"] = [str(p) for p in _plot(res, Path(args.plot))]
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        _print_report(res)
        if "model" in res:
            from ropemath.cli import bench_model

            bench_model.print_report(res["model"])
        for path in res.get("plots", []):
            print(f"wrote {path}")
    return 0
