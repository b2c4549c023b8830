r"""Benchmarks of applying RoPE: the elementwise form against a memory floor and the dense form.

Scope: ``ropemath bench``.  Every variant's result is checked against a float64 dense
reference (:func:`ropemath.rotation_matrix` times ``x``) *before* it is timed; a mismatch
raises :class:`CorrectnessError`.  Times are medians of ``repeats`` runs after ``warmup``
runs, taken round-robin (one run of every variant per round), so slow phases of a shared
machine hit all variants alike and the *ratios* within one run are what to read.

* :func:`rope_table` — x of shape (heads, positions, d): the floor (one streaming pass,
  ``np.multiply(x, 1.0, out=y)``), the plain form with temporaries, :func:`ropemath.apply_rope`
  (computes cos/sin), :class:`ropemath.RopeCache` (cached tables, with and without ``out=``),
  the dense form (matrix products on a subset of positions, scaled per position: one gemm
  per position shared by the heads, or one matrix-vector product per vector) and, when torch is
  importable, the two formulations people run (:func:`torch_variants`, one torch thread, CPU).
* :func:`scaling` — time per vector against d for the elementwise and dense forms, with the
  fitted exponents of :func:`fit_exponent` (about 1 and about 2).
* :func:`decay_timing` — :func:`ropemath.theory.decay.decay_bound` over many distances: time, peak memory.
* :func:`suite_timings` — wall times of the slow suites, each run in a subprocess.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.2 eq. (34) ("computationally
efficient realization"); Hugging Face transformers ``apply_rotary_pos_emb`` / ``rotate_half``
(models/llama/modeling_llama.py); Meta Llama ``apply_rotary_emb`` (llama/model.py); GPT-J
``rotate_every_two``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from ropemath.core._validate import _describe, check_base, check_d, check_int, check_layout, check_real_array, check_x
from ropemath.core.apply import RopeCache, apply_rope
from ropemath.core.rotation import frequencies, rotation_matrix

__all__ = [
    "CorrectnessError",
    "check_result",
    "decay_timing",
    "dense_apply",
    "fit_exponent",
    "plain_rope",
    "rope_table",
    "scaling",
    "suite_timings",
    "time_rounds",
]

#: the floating dtypes :func:`rope_table` accepts (RoPE rotates real floating-point vectors)
DTYPES = ("float16", "float32", "float64")

SCALING_DIMS = (16, 32, 64, 128, 256, 512, 1024, 2048, 4096)


class CorrectnessError(AssertionError):
    """A benchmark variant's result differs from the reference: nothing is timed."""


def time_rounds(funcs: Mapping[str, Callable[[], object]], *, repeats: int = 5, warmup: int = 1) -> dict[str, float]:
    r"""Median wall time in seconds of each function, timed round-robin.

    .. math:: t_f = \operatorname{median}_{k=1..\mathrm{repeats}} t_{f,k}

    ``warmup`` untimed rounds first; then ``repeats`` rounds, each running every function once.

    >>> t = time_rounds({"sum": lambda: sum(range(100))}, repeats=5)
    >>> list(t) == ["sum"] and t["sum"] > 0
    True
    """
    if not isinstance(funcs, Mapping) or not all(callable(fn) for fn in funcs.values()):
        raise TypeError(f"funcs must be a mapping of names to callables, got {_describe(funcs)}")
    repeats = check_int(repeats, "repeats", minimum=1)
    warmup = check_int(warmup, "warmup", minimum=0)
    samples: dict[str, list[float]] = {name: [] for name in funcs}
    for round_ in range(warmup + repeats):
        for name, fn in funcs.items():
            start = time.perf_counter()
            fn()
            elapsed = time.perf_counter() - start
            if round_ >= warmup:
                samples[name].append(elapsed)
    return {name: float(np.median(ts)) for name, ts in samples.items()}


def check_result(name: str, result: np.ndarray, reference: np.ndarray, scale: np.ndarray) -> float:
    r"""Return the relative error of ``result``; raise :class:`CorrectnessError` above tolerance.

    .. math:: e = \max \frac{|y - y_{\mathrm{ref}}|}{\|x\|} \le 16\,\varepsilon_{\mathrm{dtype}}

    ``scale`` is the norm of each input vector (shape ``(..., 1)``); the tolerance is 16
    machine epsilons of ``result``'s dtype (the kernels are within about 2).

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


def plain_rope(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str) -> np.ndarray:
    r"""The plain form with temporaries: ``x * cos + rotate(x) * sin`` (full-width tables).

    .. math:: y = x \otimes \cos + \mathrm{rotate}(x) \otimes \sin

    ``rotate`` is GPT-J's ``rotate_every_two`` (interleaved: :math:`(-x_1, x_0, \dots)`) or
    Hugging Face's ``rotate_half`` (half: :math:`(-x_{d/2:}, x_{:d/2})`); ``cos``/``sin`` have
    the full width d (each value twice), as those implementations cache them.

    >>> c, s = np.array([0.0, 0.0]), np.array([1.0, 1.0])  # a quarter turn
    >>> plain_rope(np.array([1.0, 2.0]), c, s, "interleaved").tolist()
    [-2.0, 1.0]
    """
    x = check_x(x)
    layout = check_layout(layout)
    if layout == "interleaved":
        rotated = np.stack([-x[..., 1::2], x[..., 0::2]], axis=-1).reshape(x.shape)
    else:
        h = x.shape[-1] // 2
        rotated = np.concatenate([-x[..., h:], x[..., :h]], axis=-1)
    return x * cos + rotated * sin


def dense_apply(x: np.ndarray, R: np.ndarray) -> np.ndarray:
    r"""The dense form: :math:`y_{h,p} = R_p\, x_{h,p}` for x of shape (heads, P, d), R of shape (P, d, d).

    .. math:: y_{h,p} = R^d_{\Theta,m_p} x_{h,p}

    One matrix product per position shared by all heads (BLAS gemm, the most favourable
    arrangement for the dense form; with several BLAS threads on a busy machine it can be
    10× slower than with ``OPENBLAS_NUM_THREADS=1``).

    >>> dense_apply(np.ones((1, 1, 2)), np.array([[[0.0, -1.0], [1.0, 0.0]]])).tolist()
    [[[-1.0, 1.0]]]
    """
    x = check_x(x)
    if x.ndim != 3 or np.shape(R) != (x.shape[1], x.shape[2], x.shape[2]):
        raise ValueError(f"x and R must have shapes (heads, P, d) and (P, d, d), got {x.shape} and {np.shape(R)}")
    return np.matmul(x.transpose(1, 0, 2), R.transpose(0, 2, 1)).transpose(1, 0, 2)


def _reference(x: np.ndarray, m: np.ndarray, base: float, layout: str, chunk: int = 256) -> np.ndarray:
    """Float64 dense reference R_m x for x (heads, P, d), built ``chunk`` positions at a time."""
    x64 = x.astype(np.float64)
    out = np.empty(x.shape)
    for start in range(0, m.size, chunk):
        sl = slice(start, start + chunk)
        out[:, sl] = dense_apply(x64[:, sl], rotation_matrix(m[sl], x.shape[-1], base, layout=layout))
    return out


def _full_tables(m: np.ndarray, d: int, base: float, layout: str, dtype) -> tuple[np.ndarray, np.ndarray]:
    """Full-width cos/sin tables (each value twice) for :func:`plain_rope`."""
    phi = m[:, None] * frequencies(d, base)
    cos, sin = np.cos(phi).astype(dtype), np.sin(phi).astype(dtype)
    if layout == "interleaved":
        return np.repeat(cos, 2, axis=-1), np.repeat(sin, 2, axis=-1)
    return np.concatenate([cos, cos], axis=-1), np.concatenate([sin, sin], axis=-1)


def torch_variants(m: np.ndarray, theta: np.ndarray, dtype: str) -> dict[str, tuple[str, Callable]]:
    r"""The Hugging Face and Meta formulas in torch on the CPU (tables precomputed, one thread), or {} without torch.

    .. math:: y = x \otimes \cos + \mathrm{rotate\_half}(x) \otimes \sin \quad\text{(half)},\qquad
        y = \mathrm{view\_as\_real}(\mathrm{view\_as\_complex}(x)\, e^{\mathrm{i} m\theta}) \quad\text{(interleaved)}

    Each takes numpy ``x`` and positions (ignored: the tables cover ``m``) and returns numpy.

    >>> isinstance(torch_variants(np.arange(2), np.ones(1), "float32"), dict)
    True
    """
    try:
        import torch
    except ImportError:
        return {}
    torch.set_num_threads(1)
    phi = m[:, None] * theta
    emb = np.concatenate([phi, phi], axis=-1)  # Hugging Face: cat((freqs, freqs), -1)
    cos, sin = torch.from_numpy(np.cos(emb).astype(dtype)), torch.from_numpy(np.sin(emb).astype(dtype))
    freqs_cis = torch.polar(torch.ones(phi.shape, dtype=torch.float64), torch.from_numpy(phi))
    freqs_cis = freqs_cis.to(torch.complex64 if dtype == "float32" else torch.complex128)

    def rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
        return torch.cat((-x2, x1), dim=-1)

    def hf(x, m):
        t = torch.from_numpy(x)
        return (t * cos + rotate_half(t) * sin).numpy()

    def meta(x, m):
        t = torch.from_numpy(x)
        z = torch.view_as_complex(t.reshape(*t.shape[:-1], -1, 2))
        return torch.view_as_real(z * freqs_cis).flatten(-2).numpy()

    return {"torch HF rotate_half": ("half", hf), "torch Meta complex": ("interleaved", meta)}


def rope_table(
    heads: int = 32,
    positions: int = 4096,
    d: int = 128,
    *,
    dtypes: tuple[str, ...] = ("float32", "float64"),
    base: float = 10000.0,
    repeats: int = 5,
    warmup: int = 1,
    dense_positions: int = 256,
    seed: int = 0,
    extra: Mapping[str, tuple[str, Callable]] | None = None,
    torch: bool = True,
) -> list[dict]:
    r"""Time every variant on x of shape (heads, positions, d); one row per (dtype, layout, variant).

    .. math:: \mathrm{ratio} = t_{\mathrm{variant}} / t_{\mathrm{floor}}

    ``dtypes``: names from :data:`DTYPES`.  Positions are ``0 .. positions-1``, shared by the
    heads.  The dense form runs on ``dense_positions`` evenly spaced positions; its time is
    scaled to all positions.
    ``extra`` adds variants ``name -> (layout, f(x, m))`` (checked, then timed like the others);
    ``torch`` adds :func:`torch_variants` when torch is importable.
    Rows: ``dtype, layout, variant, seconds, ratio, error``.

    >>> rows = rope_table(2, 8, 8, dtypes=("float64",), repeats=1, warmup=0, dense_positions=4)
    >>> sorted({r["variant"] for r in rows})[:3]
    ['RopeCache.apply', 'RopeCache.apply(out=)', 'apply_rope']
    """
    heads, positions = check_int(heads, "heads", minimum=1), check_int(positions, "positions", minimum=1)
    d, base = check_d(d), check_base(base)
    if not isinstance(dtypes, (tuple, list)) or not all(isinstance(t, str) for t in dtypes):
        raise TypeError(f"dtypes must be a tuple of names from {DTYPES}, got {_describe(dtypes)}")
    if not dtypes or not set(dtypes) <= set(DTYPES):
        raise ValueError(f"dtypes must be a non-empty tuple of names from {DTYPES}, got {tuple(dtypes)}")
    n_dense = min(positions, check_int(dense_positions, "dense_positions", minimum=1))
    rng = np.random.default_rng(seed)
    x64 = rng.standard_normal((heads, positions, d))
    m = np.arange(positions)
    sub = np.unique(np.linspace(0, positions - 1, n_dense).round().astype(int))
    theta = frequencies(d, base)
    cache = RopeCache(d, max_position=positions, theta=theta)  # theta=, as a scaled scheme passes it
    rows = []
    for dtype in dtypes:
        x = x64.astype(dtype)
        y = np.empty_like(x)
        scale = np.linalg.norm(x.astype(np.float64), axis=-1, keepdims=True)
        R = rotation_matrix(m[sub], d, base).astype(dtype)
        funcs: dict[str, Callable] = {
            "floor": lambda x=x, y=y: np.multiply(x, 1.0, out=y),
            "floor (new array)": lambda x=x: np.multiply(x, 1.0),
        }
        meta = {"floor": ("-", 0.0, 1.0), "floor (new array)": ("-", 0.0, 1.0)}
        check_result("floor", funcs["floor"](), x.astype(np.float64), scale)
        variants: dict[str, tuple[str, Callable]] = {}
        for layout in ("interleaved", "half"):
            cos, sin = _full_tables(m, d, base, layout, dtype)
            variants[f"plain|{layout}"] = (layout, lambda x, m, c=cos, s=sin, la=layout: plain_rope(x, c, s, la))
            variants[f"apply_rope|{layout}"] = (layout,
                lambda x, m, la=layout: apply_rope(x, m, layout=la, theta=theta))
            variants[f"RopeCache.apply|{layout}"] = (layout, lambda x, m, la=layout: cache.apply(x, m, layout=la))
            variants[f"RopeCache.apply(out=)|{layout}"] = (
                layout,
                lambda x, m, la=layout, y=y: cache.apply(x, m, layout=la, out=y),
            )
        more = {**(torch_variants(m, theta, dtype) if torch else {}), **(extra or {})}
        for name, (layout, fn) in more.items():
            variants[f"{name}|{layout}"] = (layout, fn)
        references = {la: _reference(x, m, base, la) for la in ("interleaved", "half")}
        for key, (layout, fn) in variants.items():
            err = check_result(f"{key} ({dtype})", fn(x, m), references[layout], scale)
            funcs[key] = lambda fn=fn, x=x: fn(x, m)
            meta[key] = (layout, err, 1.0)
        xs = np.ascontiguousarray(x[:, sub])
        dense = {  # R_m x on the subset of positions: three arrangements of the same products
            "dense gemm (R prebuilt)": lambda xs=xs, R=R: dense_apply(xs, R),
            "dense matvec (R prebuilt)": lambda xs=xs, R=R: np.matmul(R, xs[..., None])[..., 0],
            "dense gemm (build R)": lambda xs=xs, dt=dtype: dense_apply(
                xs, rotation_matrix(m[sub], d, base).astype(dt)
            ),
        }
        for name, fn in dense.items():
            err = check_result(f"{name} ({dtype})", fn(), references["interleaved"][:, sub], scale[:, sub])
            funcs[f"{name}|interleaved"] = fn
            meta[f"{name}|interleaved"] = ("interleaved", err, positions / sub.size)
        times = time_rounds(funcs, repeats=repeats, warmup=warmup)
        for key, seconds in times.items():
            layout, err, factor = meta[key]
            seconds *= factor
            rows.append(
                {
                    "dtype": str(dtype),
                    "layout": layout,
                    "variant": key.split("|")[0],
                    "seconds": seconds,
                    "ratio": seconds / times["floor"],
                    "error": err,
                }
            )
    return rows


def fit_exponent(d: np.ndarray, t: np.ndarray, d_min: int = 256) -> float:
    r"""Slope of :math:`\log t` against :math:`\log d` over the points with :math:`d \ge d_{\min}`.

    .. math:: t \approx c\, d^{k}, \quad k = \frac{\mathrm{cov}(\log d, \log t)}{\mathrm{var}(\log d)}

    >>> round(fit_exponent(np.array([256, 512, 1024]), np.array([1.0, 4.0, 16.0])), 6)
    2.0
    """
    d, t = check_real_array(d, name="d"), check_real_array(t, name="t")
    if d.ndim != 1 or d.shape != t.shape:
        raise ValueError(f"d and t must be 1-D of equal length, got shapes {d.shape} and {t.shape}")
    if np.any(d <= 0) or np.any(t <= 0):
        raise ValueError("d and t must contain only positive values (their logarithms are fitted)")
    keep = d >= d_min
    if keep.sum() < 2:
        raise ValueError(f"d_min must leave at least two points, got d_min={d_min} for d={d.tolist()}")
    return float(np.polyfit(np.log(d[keep]), np.log(t[keep]), 1)[0])


def scaling(
    dims: tuple[int, ...] = SCALING_DIMS,
    *,
    elements: int = 2**21,
    matrix_elements: int = 2**22,
    repeats: int = 5,
    warmup: int = 1,
    base: float = 10000.0,
    seed: int = 0,
) -> list[dict]:
    r"""Time per vector of the elementwise form (:func:`apply_rope`) and the dense form, against d.

    .. math:: t_{\mathrm{elementwise}} \propto d, \qquad t_{\mathrm{dense}} \propto d^2

    Float64; each vector has its own position.  The elementwise form rotates
    ``elements // d`` vectors per call; the dense form (``rotation_matrix`` built and multiplied,
    one matrix per vector) ``matrix_elements // d**2`` vectors (at least 1).  Before timing,
    the two are checked equal on the dense form's vectors.  Rows: ``d, elementwise, dense``
    (seconds per vector).

    >>> rows = scaling((4, 8), repeats=1, warmup=0, elements=64, matrix_elements=64)
    >>> [r["d"] for r in rows]
    [4, 8]
    """
    rng = np.random.default_rng(seed)
    rows = []
    for d in dims:
        d = check_d(d)
        n_el, n_de = max(1, elements // d), max(1, matrix_elements // d**2)
        x = rng.standard_normal((max(n_el, n_de), d))
        m = np.arange(x.shape[0], dtype=np.float64)

        def dense(x=x[:n_de], m=m[:n_de], d=d):
            return np.matmul(rotation_matrix(m, d, base), x[..., None])[..., 0]

        scale = np.linalg.norm(x[:n_de], axis=-1, keepdims=True)
        check_result(
            f"elementwise d={d}", apply_rope(x[:n_de], m[:n_de], base=base, layout="interleaved"), dense(), scale
        )
        t = time_rounds(
            {
                "elementwise": lambda x=x[:n_el], m=m[:n_el]: apply_rope(x, m, base=base, layout="interleaved"),
                "dense": dense,
            },
            repeats=repeats,
            warmup=warmup,
        )
        rows.append({"d": d, "elementwise": t["elementwise"] / n_el, "dense": t["dense"] / n_de})
    return rows


def decay_timing(n: int = 10**6, d: int = 128, base: float = 10000.0, *, repeats: int = 3) -> dict:
    r"""Time and peak traced memory of :func:`ropemath.theory.decay.decay_bound` over distances ``0 .. n-1``.

    .. math:: B(r) = \frac{1}{d/2} \sum_{j=1}^{d/2} |S_j(r)|, \quad r = 0, \dots, n - 1

    Median of ``repeats`` untraced runs; the peak comes from one extra run under
    :mod:`tracemalloc` (numpy reports its buffers to it).  ``{"available": False}`` if
    :mod:`ropemath.theory.decay` is missing.

    >>> row = decay_timing(1000, 8, repeats=1)
    >>> row["available"] and row["peak_bytes"] > 0
    True
    """
    n, d, base = check_int(n, "n", minimum=1), check_d(d), check_base(base)
    try:
        from ropemath.theory.decay import decay_bound
    except ImportError:
        return {"available": False}
    r = np.arange(n, dtype=np.float64)
    seconds = time_rounds({"decay_bound": lambda: decay_bound(r, d, base)}, repeats=repeats, warmup=0)
    tracemalloc.start()
    try:
        decay_bound(r, d, base)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return {"available": True, "n": n, "d": d, "seconds": seconds["decay_bound"], "peak_bytes": peak}


def suite_timings(root: str | Path = ".") -> list[dict]:
    """Wall time of each slow suite, run in a subprocess from ``root`` (the repository).

    Suites: the symbolic tests (``tests/test_symbolic*.py``), ``ropemath figures`` (into a
    temporary directory, so ``figures/`` is untouched) and strict nbval over ``notebooks/``.
    A suite whose files or command do not exist is reported with ``seconds = None``.
    Rows: ``suite, seconds, returncode, tail`` (the last line of its output).
    """
    from ropemath.cli.dispatch import COMMANDS

    root = Path(root)
    py = sys.executable
    symbolic = sorted(str(p.relative_to(root)) for p in (root / "tests").glob("test_symbolic*.py"))
    notebooks = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    rows = []
    with tempfile.TemporaryDirectory() as out:
        suites = {
            "symbolic tests": [py, "-m", "pytest", "-q", *symbolic] if symbolic else None,
            "ropemath figures": [py, "-m", "ropemath", "figures", "--out", out] if "figures" in COMMANDS else None,
            "notebooks (strict nbval)": [
                py,
                "-m",
                "pytest",
                "-q",
                "--nbval",
                "--nbval-current-env",
                "--nbval-sanitize-with",
                "notebooks/nbval-sanitize.cfg",
                "notebooks/",
            ]
            if notebooks
            else None,
        }
        for name, cmd in suites.items():
            if cmd is None:
                rows.append({"suite": name, "seconds": None, "returncode": None, "tail": "not present"})
                continue
            start = time.perf_counter()
            proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False)
            seconds = time.perf_counter() - start
            lines = (proc.stdout + proc.stderr).strip().splitlines()
            rows.append(
                {"suite": name, "seconds": seconds, "returncode": proc.returncode, "tail": lines[-1] if lines else ""}
            )
    return rows
