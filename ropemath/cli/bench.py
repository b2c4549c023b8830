r"""``ropemath bench``: how close applying RoPE comes to touching the same bytes once, as ratios within one run.

Each variant is checked against a float64 dense :math:`R^d_{\Theta,m}x` before it is timed (else exit 1), then timed
in rounds that run every variant once (a busy phase slows all alike) against the floor ``np.multiply(x, 1.0, out=y)``.
Sections: ``table`` (apply_rope, RopeCache, the dense form, and torch's Hugging Face and Meta formulas when torch
is importable), ``decay`` (``decay_bound`` over 10⁶ distances); ``--model``: SmolLM2-135M's forward pass.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (34); Hugging Face transformers
``apply_rotary_pos_emb`` / ``rotate_half`` (models/llama/modeling_llama.py); Meta Llama ``apply_rotary_emb``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from ropemath.core._validate import check_base, check_d, check_int
from ropemath.core.apply import RopeCache, apply_rope
from ropemath.core.rotation import frequencies, rotation_matrix

__all__ = ["CorrectnessError", "check_result", "decay_timing", "goals", "model_bench", "rope_table", "time_rounds"]

DTYPES = ("float16", "float32", "float64")
#: (numerator variant, denominator variant, layout, "max"/"min", target): the speed goals of one run
GOALS = (
    ("RopeCache.apply(out=)", "floor", "interleaved", "max", 2.0),
    ("torch HF rotate_half", "apply_rope", "half", "min", 3.0),
    ("torch Meta complex", "apply_rope", "interleaved", "min", 1.0),
    ("dense (build R)", "apply_rope", "interleaved", "min", 20.0),
)


class CorrectnessError(AssertionError):
    """A benchmark variant's result differs from the reference: nothing is timed."""


def time_rounds(funcs: Mapping[str, Callable[[], object]], *, repeats: int = 5, warmup: int = 1) -> dict[str, float]:
    r"""Median wall time in seconds of each function over ``repeats`` rounds (after ``warmup``), each running all once.

    .. math:: t_f = \operatorname{median}_{k=1..\mathrm{repeats}} t_{f,k}

    >>> list(time_rounds({"sum": lambda: sum(range(100))}))
    ['sum']
    """
    if not isinstance(funcs, Mapping) or not all(callable(fn) for fn in funcs.values()):
        raise TypeError(f"funcs must be a mapping of names to callables, got {type(funcs).__name__}")
    repeats, warmup = check_int(repeats, "repeats", minimum=1), check_int(warmup, "warmup", minimum=0)
    samples: dict[str, list[float]] = {name: [] for name in funcs}
    for round_ in range(warmup + repeats):
        for name, fn in funcs.items():
            start = time.perf_counter()
            fn()
            if round_ >= warmup:
                samples[name].append(time.perf_counter() - start)
    return {name: float(np.median(ts)) for name, ts in samples.items()}


def check_result(name: str, result: np.ndarray, reference: np.ndarray, scale: np.ndarray) -> float:
    r"""Return the error of ``result`` relative to each vector's norm ``scale``; raise above 16 machine epsilons.

    .. math:: e = \max \frac{|y - y_{\mathrm{ref}}|}{\|x\|} \le 16\,\varepsilon_{\mathrm{dtype}}

    >>> check_result("same", np.ones(2), np.ones(2), np.ones(1))
    0.0
    """
    if result.shape != reference.shape:
        raise CorrectnessError(f"{name}: shape {result.shape}, expected {reference.shape}")
    tol = 16 * float(np.finfo(result.dtype).eps)
    err = float(np.max(np.abs(result.astype(np.float64) - reference) / scale, initial=0.0))
    if not err <= tol:  # also catches NaN
        raise CorrectnessError(f"{name}: relative error {err:.2e} exceeds {tol:.1e}")
    return err


def _torch_variants(m: np.ndarray, theta: np.ndarray, dtype: str) -> dict[str, tuple[str, Callable]]:
    """Hugging Face's and Meta's formulas in torch on one CPU thread, tables precomputed; {} without torch."""
    if dtype == "float16" or importlib.util.find_spec("torch") is None:
        return {}
    import torch

    torch.set_num_threads(1)
    phi = m[:, None] * theta
    emb = np.concatenate([phi, phi], axis=-1)  # Hugging Face: cat((freqs, freqs), -1)
    cos, sin = torch.from_numpy(np.cos(emb).astype(dtype)), torch.from_numpy(np.sin(emb).astype(dtype))
    freqs_cis = torch.polar(torch.ones(phi.shape, dtype=torch.float64), torch.from_numpy(phi))
    freqs_cis = freqs_cis.to(torch.complex64 if dtype == "float32" else torch.complex128)

    def hf(x, m):  # x * cos + rotate_half(x) * sin
        t = torch.from_numpy(x)
        x1, x2 = t[..., : t.shape[-1] // 2], t[..., t.shape[-1] // 2 :]
        return (t * cos + torch.cat((-x2, x1), dim=-1) * sin).numpy()

    def meta(x, m):  # view_as_real(view_as_complex(x) * freqs_cis)
        z = torch.view_as_complex(torch.from_numpy(x).reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(z * freqs_cis).flatten(-2).numpy()

    return {"torch HF rotate_half": ("half", hf), "torch Meta complex": ("interleaved", meta)}


def _dense(x: np.ndarray, R: np.ndarray) -> np.ndarray:
    """R_p x_{h,p} for x of shape (heads, P, d) and R of shape (P, d, d): one matrix product per position (gemm)."""
    return np.matmul(x.transpose(1, 0, 2), R.transpose(0, 2, 1)).transpose(1, 0, 2)


def rope_table(
    heads: int = 32, positions: int = 4096, d: int = 128, *, dtype: str = "float32", base: float = 10000.0,
    repeats: int = 5, warmup: int = 1, dense_positions: int = 256, seed: int = 0,
    extra: Mapping[str, tuple[str, Callable]] | None = None,
) -> list[dict]:
    r"""Time every variant on x of shape (heads, positions, d); rows ``dtype, layout, variant, seconds, ratio, error``.

    .. math:: \mathrm{ratio} = t_{\mathrm{variant}} / t_{\mathrm{floor}}

    Positions ``0 .. positions-1`` are shared by the heads; the dense form runs on ``dense_positions`` evenly spaced
    positions and its time is scaled to all.  ``extra`` adds variants ``name -> (layout, f(x, m))``.

    >>> rows = rope_table(2, 8, 8, dtype="float64", repeats=1, warmup=0, dense_positions=4)
    >>> sorted({r["variant"] for r in rows})[:3]
    ['RopeCache.apply', 'RopeCache.apply(out=)', 'apply_rope']
    """
    heads, positions = check_int(heads, "heads", minimum=1), check_int(positions, "positions", minimum=1)
    d, base = check_d(d), check_base(base)
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {DTYPES}, got {dtype!r}")
    n_dense = min(positions, check_int(dense_positions, "dense_positions", minimum=1))
    x64 = np.random.default_rng(seed).standard_normal((heads, positions, d))
    x, m, every = x64.astype(dtype), np.arange(positions), slice(None)
    sub = np.unique(np.linspace(0, positions - 1, n_dense).round().astype(int))
    y, xs, R = np.empty_like(x), np.ascontiguousarray(x[:, sub]), rotation_matrix(m[sub], d, base).astype(dtype)
    theta = frequencies(d, base)
    cache = RopeCache(d, max_position=positions, theta=theta)
    variants: dict[str, tuple[str, object, Callable]] = {"floor|-": ("-", every, lambda: np.multiply(x, 1.0, out=y))}
    for la in ("interleaved", "half"):
        variants[f"apply_rope|{la}"] = (la, every, lambda la=la: apply_rope(x, m, layout=la, theta=theta))
        variants[f"RopeCache.apply|{la}"] = (la, every, lambda la=la: cache.apply(x, m, layout=la))
        variants[f"RopeCache.apply(out=)|{la}"] = (la, every, lambda la=la: cache.apply(x, m, layout=la, out=y))
    for name, (la, fn) in {**_torch_variants(m, theta, dtype), **(extra or {})}.items():
        variants[f"{name}|{la}"] = (la, every, lambda fn=fn: fn(x, m))
    variants["dense (R prebuilt)|interleaved"] = ("interleaved", sub, lambda: _dense(xs, R))
    variants["dense (build R)|interleaved"] = (
        "interleaved", sub, lambda: _dense(xs, rotation_matrix(m[sub], d, base).astype(dtype)))
    reference = {"-": x64}
    for la in ("interleaved", "half"):  # float64 R_m x, 256 positions at a time
        reference[la] = np.concatenate([_dense(x64[:, s:s + 256], rotation_matrix(m[s:s + 256], d, base, layout=la))
                                        for s in range(0, positions, 256)], axis=1)
    scale = np.linalg.norm(x.astype(np.float64), axis=-1, keepdims=True)
    errors = {key: check_result(f"{key} ({dtype})", fn(), reference[la][:, part], scale[:, part])
              for key, (la, part, fn) in variants.items()}
    del reference, x64, scale  # 400 MB of float64 that the timed variants do not need
    times = time_rounds({key: fn for key, (_, _, fn) in variants.items()}, repeats=repeats, warmup=warmup)
    rows = []
    for key, seconds in times.items():
        layout, part, _ = variants[key]
        seconds *= 1.0 if part is every else positions / sub.size
        rows.append({"dtype": dtype, "layout": layout, "variant": key.split("|")[0], "seconds": seconds,
                     "ratio": seconds / times["floor|-"], "error": errors[key]})
    return rows


def goals(rows: list[dict]) -> list[dict]:
    """Evaluate :data:`GOALS` on float32 rows of :func:`rope_table` (goals whose rows are missing are skipped).

    >>> goals([{"dtype": "float32", "layout": "-", "variant": "floor", "seconds": 1.0},
    ...        {"dtype": "float32", "layout": "interleaved", "variant": "RopeCache.apply(out=)", "seconds": 1.5}])
    [{'goal': 'RopeCache.apply(out=) / floor [interleaved]', 'value': 1.5, 'target': 2.0, 'kind': 'max', 'met': True}]
    """
    times = {(r["variant"], r["layout"]): r["seconds"] for r in rows if r["dtype"] == "float32"}
    result = []
    for num, den, layout, kind, target in GOALS:
        a, b = times.get((num, layout)), times.get((den, "-" if den == "floor" else layout))
        if a is not None and b is not None:
            met = a / b <= target if kind == "max" else a / b >= target
            result.append({"goal": f"{num} / {den} [{layout}]", "value": a / b, "target": target, "kind": kind,
                           "met": met})
    return result


def decay_timing(n: int = 10**6, d: int = 128, base: float = 10000.0, *, repeats: int = 3) -> dict:
    r"""Median time and peak traced memory of :func:`ropemath.theory.decay.decay_bound` over distances ``0 .. n-1``.

    .. math:: B(r) = \frac{1}{d/2} \sum_{j=1}^{d/2} |S_j(r)|, \quad r = 0, \dots, n - 1

    >>> decay_timing(1000, 8, repeats=1)["peak_bytes"] > 0
    True
    """
    from ropemath.theory.decay import decay_bound

    n, d, base = check_int(n, "n", minimum=1), check_d(d), check_base(base)
    r = np.arange(n, dtype=np.float64)
    seconds = time_rounds({"decay_bound": lambda: decay_bound(r, d, base)}, repeats=repeats, warmup=0)
    tracemalloc.start()
    try:
        decay_bound(r, d, base)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {"n": n, "d": d, "seconds": seconds["decay_bound"], "peak_bytes": peak}


def model_bench(tokens: int = 512, repeats: int = 3) -> dict:
    r"""Time loading SmolLM2-135M and its numpy forward pass; transformers' on the same file when importable.

    .. math:: \text{ratio} = \operatorname{median} t_{\text{numpy}} / \operatorname{median} t_{\text{transformers}}

    >>> model_bench(tokens=0)
    Traceback (most recent call last):
    ...
    ValueError: tokens must be between 2 and 2048, got 0
    """
    from ropemath.models import llama_forward, load_llama, model_path, reading_text

    if not 2 <= tokens <= 2048:
        raise ValueError(f"tokens must be between 2 and 2048, got {tokens}")
    start = time.perf_counter()
    model, tokenizer = load_llama()
    res = {"tokens": tokens, "repeats": repeats, "load_seconds": time.perf_counter() - start}
    ids = np.array(tokenizer.encode(reading_text()).ids[:tokens])
    funcs = {"numpy": lambda: llama_forward(model, ids, layout="interleaved")[0]}
    if importlib.util.find_spec("torch") is not None and importlib.util.find_spec("transformers") is not None:
        import torch
        from transformers import AutoModelForCausalLM

        path = model_path()
        hf = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name, dtype=torch.float32).eval()
        funcs["transformers"] = torch.no_grad()(lambda: hf(torch.tensor(ids[None])).logits[0].numpy())
        res["max_logit_difference"] = float(np.max(np.abs(funcs["numpy"]() - funcs["transformers"]())))
    res.update({f"{k}_seconds": v for k, v in time_rounds(funcs, repeats=repeats).items()})
    if "transformers_seconds" in res:
        res["ratio"] = res["numpy_seconds"] / res["transformers_seconds"]
    return res


# --- the command ----------------------------------------------------------------------------------------------


def add_cli_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``ropemath bench``."""
    parser.add_argument("--quick", action="store_true", help="smaller shapes (8 heads, 1024 positions)")
    parser.add_argument("--heads", type=int, default=None, help="heads of x (default 32)")
    parser.add_argument("--positions", type=int, default=None, help="positions of x (default 4096)")
    parser.add_argument("--dim", type=int, default=128, help="d of x (default 128)")
    parser.add_argument("--repeats", type=int, default=5, help="timed rounds, >= 5 (default 5)")
    parser.add_argument("--sections", nargs="+", choices=("table", "decay"), default=["table", "decay"])
    parser.add_argument("--model", action="store_true", help="also time SmolLM2-135M's numpy forward pass")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--plot", metavar="DIR", default=None, help="write bench_ratios.png into DIR (not figures/)")


def _machine() -> dict:
    """What the ratios depend on: the CPU, the libraries and the BLAS threads (the load average is recorded apart)."""
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "unknown CPU") if Path("/proc/cpuinfo").exists() else "unknown CPU"
    torch = importlib.import_module("torch").__version__ if importlib.util.find_spec("torch") else None
    return {"name": f"{cpu}, {os.cpu_count()} cores", "numpy": np.__version__, "python": sys.version.split()[0],
            "torch": torch, "blas_threads": {k: os.environ.get(k) for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}}


def _check_arguments(args: argparse.Namespace) -> None:
    """Raise ValueError (one line, exit 2) on a bad argument; create --plot DIR now, before anything is timed."""
    if args.repeats < 5:
        raise ValueError(f"--repeats must be >= 5, got {args.repeats}")
    check_int(args.heads if args.heads is not None else 1, "--heads", minimum=1)
    check_int(args.positions if args.positions is not None else 1, "--positions", minimum=1)
    check_d(args.dim, "--dim")
    if args.plot is None:
        return
    if not args.plot.strip():
        raise ValueError(f"--plot DIR must be a directory name, got {args.plot!r}")
    if Path(args.plot).resolve().name == "figures":
        raise ValueError("--plot DIR must not be figures/ (timing plots are not deterministic)")
    try:
        Path(args.plot).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"--plot DIR must be a writable directory, got {args.plot!r} ({exc.strerror})") from None
    if not os.access(args.plot, os.W_OK):
        raise ValueError(f"--plot DIR must be a writable directory, got {args.plot!r}")


def _print_report(res: dict) -> None:
    m, load = res["machine"], res["load_average"]
    print(f"{m['name']}; numpy {m['numpy']}, torch {m['torch'] or 'not importable'}; BLAS threads "
          f"{m['blas_threads']}; load average {load['before']} before, {load['after']} after")
    if "table" in res:
        h, p, d = res["shape"]
        print(f"\nx of shape ({h}, {p}, {d}), median of {res['repeats']} rounds; dense form on "
              f"{res['dense_positions']} positions, scaled\n{'dtype':8} {'layout':12} {'variant':24} {'x floor':>8}")
        for r in res["table"]:
            print(f"{r['dtype']:8} {r['layout']:12} {r['variant']:24} {r['ratio']:8.2f}")
        for g in res["goals"]:
            sign, verdict = "<=" if g["kind"] == "max" else ">=", "met" if g["met"] else "MISSED"
            print(f"goal {g['goal']:52} {g['value']:7.2f} (goal {sign} {g['target']:g}): {verdict}")
    if "decay" in res:
        dec = res["decay"]
        print(f"\ndecay_bound over {dec['n']:,} distances at d = {dec['d']}: {dec['seconds']:.2f} s (goal < 2 s), "
              f"peak traced memory {dec['peak_bytes'] / 2**20:.1f} MiB (goal < 256 MiB)")
    if "model" in res:
        mod = res["model"]
        print(f"\nSmolLM2-135M, {mod['tokens']} tokens, float32: loading {mod['load_seconds']:.2f} s (goal <= 10 s): "
              f"{'met' if mod['load_seconds'] <= 10 else 'MISSED'}; numpy forward {mod['numpy_seconds']:.3f} s")
        print("transformers not importable (run in .venv-conformance for the ratio)" if "ratio" not in mod else
              f"transformers {mod['transformers_seconds']:.3f} s: ratio {mod['ratio']:.2f} (goal <= 1.5): "
              f"{'met' if mod['ratio'] <= 1.5 else 'MISSED'}; max |logit difference| {mod['max_logit_difference']:.1e}")


def run_cli(args: argparse.Namespace) -> int:
    """Run the chosen sections and print the report (or JSON); 1 if a variant's result was wrong."""
    _check_arguments(args)
    heads = args.heads if args.heads is not None else (8 if args.quick else 32)
    positions = args.positions if args.positions is not None else (1024 if args.quick else 4096)
    res: dict = {"machine": _machine(), "load_average": {"before": [round(v, 2) for v in os.getloadavg()]},
                 "repeats": args.repeats}
    try:
        if "table" in args.sections:
            res.update(shape=[heads, positions, args.dim], dense_positions=min(positions, 256))
            res["table"] = rope_table(heads, positions, args.dim, repeats=args.repeats,
                                      dense_positions=res["dense_positions"])
            res["goals"] = goals(res["table"])
        if "decay" in args.sections:
            res["decay"] = decay_timing(10**5 if args.quick else 10**6)
        if args.model:
            res["model"] = model_bench()
    except CorrectnessError as exc:
        print(f"ropemath bench: correctness check failed: {exc}", file=sys.stderr)
        return 1
    except FileNotFoundError as exc:  # the model file is not installed
        print(f"ropemath bench: error: {exc}", file=sys.stderr)
        return 2
    res["load_average"]["after"] = [round(v, 2) for v in os.getloadavg()]
    if args.plot is not None and "table" in res:
        from matplotlib.figure import Figure

        rows = [r for r in res["table"] if r["dtype"] == "float32"]
        fig = Figure(figsize=(8, 4.5))
        ax = fig.subplots()
        ax.barh([f"{r['variant']} ({r['layout']})" for r in rows], [r["ratio"] for r in rows])
        ax.set(xscale="log", xlabel="time / floor (float32, log scale)")
        ax.invert_yaxis()
        fig.tight_layout()
        res["plot"] = str(Path(args.plot) / "bench_ratios.png")
        fig.savefig(res["plot"], dpi=100)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        _print_report(res)
    return 0
