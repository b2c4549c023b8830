r"""Long-term decay of RoPE: partial sums, the Abel bound, and what it does and does not promise.

Scope: the partial sums :math:`S_j(r) = \sum_{i=0}^{j-1} e^{\mathrm{i} r\theta_i}`, the
"relative upper bound" :math:`\frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|` plotted in RoFormer
Figure 2 (chunked, so millions of distances fit in a few MB), its slope and rising
intervals, log-binned summaries for wide distance ranges, the far-out level predicted by
independent uniform phases, and the Abel-summation bound on one attention score
(RoFormer eq. 35-37) with a seeded check against the real RoPE score of
:func:`ropemath.apply_rope`.

Conventions: index ``i`` from 0, :math:`\theta_i = \mathrm{base}^{-2i/d}` (the paper's
:math:`\theta_{i+1}`); relative distance :math:`r = m - n` (query position minus key
position); pairs in the interleaved layout, :math:`q_i = q_{2i} + \mathrm{i}\,q_{2i+1}`.
Every function accepting ``theta=`` uses those frequencies instead of
``frequencies(d, base)`` (for context-extension transforms such as Position
Interpolation, NTK or YaRN).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.3 eq. (35)-(37), Figure 2;
K. Pearson, "The problem of the random walk", Nature 72 (1905), and J. C. Kluyver (1906)
for the mean length of a walk of unit steps in random directions.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from ._validate import check_base, check_d, check_int, check_positions, check_real, check_x
from .apply import apply_rope
from .rotation import frequencies

__all__ = [
    "partial_sums",
    "decay_bound",
    "decay_bound_slope",
    "rising_intervals",
    "binned_bound",
    "random_phase_level",
    "pair_products",
    "complex_score",
    "abel_constant",
    "abel_bound",
    "abel_identity_error",
    "abel_check",
]

DEFAULT_CHUNK = 4096  # distances per block: 2 float64 blocks of d/2 x chunk (2 MB each at d = 128)


def _theta(d: int, base: float, theta: npt.ArrayLike | None) -> np.ndarray:
    """Frequencies to use: ``frequencies(d, base)`` or a validated override of shape (d/2,)."""
    d = check_d(d)
    base = check_base(base)
    if theta is None:
        return frequencies(d, base)
    arr = np.asarray(theta)
    if arr.dtype.kind not in "iuf" or isinstance(theta, (bool, np.bool_)):
        raise TypeError(f"theta must be a real array of shape ({d // 2},), got {arr.dtype} array")
    if arr.shape != (d // 2,):
        raise ValueError(f"theta must have shape (d/2,)=({d // 2},), got shape {arr.shape}")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError("theta must contain only finite values, got non-finite entries")
    return arr


def _sums_block(r: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Real and imaginary parts of S_j(r) for a 1-D block r, shape (d/2, r.size) each."""
    phase = np.multiply.outer(theta, r)
    re = np.cos(phase)
    im = np.sin(phase, out=phase)
    # Running sums row by row: each np.add is a contiguous vector op, several times faster than
    # np.cumsum(axis=0) on this layout.
    for j in range(1, theta.size):
        np.add(re[j - 1], re[j], out=re[j])
        np.add(im[j - 1], im[j], out=im[j])
    return re, im


def partial_sums(
    r: npt.ArrayLike, d: int, base: float = 10000.0, *, theta: npt.ArrayLike | None = None
) -> np.ndarray:
    r"""Return the partial sums :math:`S_j(r)`, j = 1..d/2, complex of shape ``r.shape + (d/2,)``.

    .. math:: S_j(r) = \sum_{i=0}^{j-1} e^{\mathrm{i}\, r\theta_i}, \qquad S_0 = 0

    Entry ``[..., j-1]`` holds :math:`S_j`.  Source: RoFormer §3.4.3 (above eq. 36), with the
    paper's 1-based :math:`\theta` shifted to 0-based.  ``S_j(-r)`` is the conjugate of ``S_j(r)``.

    >>> partial_sums(0.0, 8).real.tolist()
    [1.0, 2.0, 3.0, 4.0]
    >>> s = partial_sums(np.pi, 4, base=1e4)
    >>> [round(float(abs(v)), 4) for v in s]
    [1.0, 0.0314]
    """
    th = _theta(d, base, theta)
    r = check_positions(r, "r")
    return np.cumsum(np.exp(1j * (r[..., None] * th)), axis=-1)


def _chunked(r: np.ndarray, chunk: int, fn) -> np.ndarray:
    """Apply ``fn`` (1-D block -> 1-D float array) to blocks of ``r.ravel()``; keep ``r.shape``.

    Blocks are independent, so they run on a small thread pool (numpy releases the GIL in
    its loops); each block's result is the same whichever thread computes it.
    """
    flat = r.reshape(-1)
    out = np.empty(flat.shape, dtype=np.float64)
    starts = range(0, flat.size, chunk)

    def run(start: int) -> None:
        out[start : start + chunk] = fn(flat[start : start + chunk])

    workers = min(len(starts), os.cpu_count() or 1, 4)
    if workers <= 1:
        for start in starts:
            run(start)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, starts))
    return out.reshape(r.shape)


def decay_bound(
    r: npt.ArrayLike,
    d: int,
    base: float = 10000.0,
    *,
    theta: npt.ArrayLike | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> np.ndarray:
    r"""Return the relative upper bound of RoFormer Figure 2 for each distance (shape ``r.shape``).

    .. math:: B(r) = \frac{1}{d/2} \sum_{j=1}^{d/2} \lvert S_j(r) \rvert

    Source: RoFormer §3.4.3, Figure 2 ("relative upper bound").  Distances are processed
    ``chunk`` at a time (on up to 4 threads), so memory stays at about
    ``2 * 8 * (d/2) * chunk`` bytes per thread whatever ``r.size`` is.
    :math:`B(0) = (d/2 + 1)/2` because :math:`S_j(0) = j`.

    >>> float(decay_bound(0, 128))
    32.5
    >>> round(float(decay_bound(10, 128)), 6)
    17.954137
    """
    th = _theta(d, base, theta)
    r = check_positions(r, "r")
    chunk = check_int(chunk, "chunk", minimum=1)

    def block(rb: np.ndarray) -> np.ndarray:
        re, im = _sums_block(rb, th)
        # |S_j| = sqrt(re² + im²); no overflow risk (|S_j| <= d/2), so no need for hypot.
        np.multiply(re, re, out=re)
        re += np.multiply(im, im, out=im)
        return np.sqrt(re, out=re).sum(axis=0) / th.size

    return _chunked(r, chunk, block)


def decay_bound_slope(
    r: npt.ArrayLike,
    d: int,
    base: float = 10000.0,
    *,
    theta: npt.ArrayLike | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> np.ndarray:
    r"""Return the derivative :math:`B'(r)` of :func:`decay_bound` (shape ``r.shape``).

    .. math::
        B'(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}
        \frac{\operatorname{Re}\big(\overline{S_j(r)}\, S_j'(r)\big)}{\lvert S_j(r)\rvert},
        \qquad S_j'(r) = \sum_{i=0}^{j-1} \mathrm{i}\,\theta_i e^{\mathrm{i} r\theta_i}

    (terms with :math:`S_j(r) = 0`, where :math:`|S_j|` has no derivative, count as 0).
    Source: differentiation of RoFormer Figure 2's quantity; used to locate where the bound rises.

    >>> float(decay_bound_slope(0.0, 128))
    0.0
    >>> bool(decay_bound_slope(5.0, 128) < 0)
    True
    """
    th = _theta(d, base, theta)
    r = check_positions(r, "r")
    chunk = check_int(chunk, "chunk", minimum=1)

    def block(rb: np.ndarray) -> np.ndarray:
        phase = np.multiply.outer(th, rb)
        c, s = np.cos(phase), np.sin(phase)
        re, im = np.cumsum(c, axis=0), np.cumsum(s, axis=0)
        # S' = sum i*theta*(c + i s) = sum (-theta s) + i (theta c)
        dre = np.cumsum(-th[:, None] * s, axis=0)
        dim = np.cumsum(th[:, None] * c, axis=0)
        mod = np.hypot(re, im)
        num = re * dre + im * dim
        terms = np.divide(num, mod, out=np.zeros_like(num), where=mod > 0)
        return terms.sum(axis=0) / th.size

    return _chunked(r, chunk, block)


def rising_intervals(
    d: int = 128,
    base: float = 10000.0,
    *,
    r_max: float = 256.0,
    step: float = 0.01,
    theta: npt.ArrayLike | None = None,
) -> list[tuple[float, float]]:
    r"""Return the intervals of :math:`[0, r_\max]` on which the bound :math:`B(r)` increases.

    .. math:: \{ r \in [0, r_\max] : B'(r) > 0 \} = \textstyle\bigcup_k (a_k, b_k)

    The sign of :func:`decay_bound_slope` is sampled every ``step``; each sign change is then
    refined by bisection to about 1e-9.  Rises shorter than ``step`` can be missed.
    Source: RoFormer Figure 2 (its curve is not monotone).

    >>> [(round(a, 2), round(b, 2)) for a, b in rising_intervals(r_max=20.0)]
    [(12.16, 12.61), (17.69, 18.92)]
    """
    th = _theta(d, base, theta)
    r_max = check_real(r_max, "r_max")
    step = check_real(step, "step")
    if r_max <= 0:
        raise ValueError(f"r_max must be > 0, got {r_max}")
    if not 0 < step <= r_max:
        raise ValueError(f"step must be in (0, r_max], got {step}")
    grid = np.linspace(0.0, r_max, int(np.ceil(r_max / step)) + 1)
    up = decay_bound_slope(grid, d, theta=th) > 0

    def edge(lo: float, hi: float, rising_at_hi: bool) -> float:
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if (float(decay_bound_slope(mid, d, theta=th)) > 0) == rising_at_hi:
                hi = mid
            else:
                lo = mid
            if hi - lo < 1e-9:
                break
        return float(0.5 * (lo + hi))

    out: list[tuple[float, float]] = []
    start = 0.0 if up[0] else None
    for i in range(1, grid.size):
        if up[i] and not up[i - 1]:
            start = edge(float(grid[i - 1]), float(grid[i]), True)
        elif up[i - 1] and not up[i]:
            out.append((float(start), edge(float(grid[i - 1]), float(grid[i]), False)))
            start = None
    if start is not None:
        out.append((float(start), float(r_max)))
    return out


def binned_bound(
    edges: npt.ArrayLike,
    d: int,
    base: float = 10000.0,
    *,
    per_bin: int = 64,
    quantiles: tuple[float, float] = (0.1, 0.9),
    theta: npt.ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Summarise :math:`B(r)` on each bin ``[edges[k], edges[k+1])``: mean and two quantiles.

    .. math:: \bar B_k = \frac{1}{N}\sum_{t=0}^{N-1} B\big(e_k + (t + \tfrac12)(e_{k+1} - e_k)/N\big)

    with ``N = per_bin`` evenly spaced midpoints (deterministic, no random sampling).  Used for
    log-scaled distance axes, where the raw curve oscillates faster than a plot can show.
    Returns ``(mean, low, high)``, each of shape ``(len(edges) - 1,)``.

    >>> mean, low, high = binned_bound([0.0, 1e-9], 128, per_bin=2)
    >>> round(float(mean[0]), 6)
    32.5
    """
    e = check_positions(edges, "edges")
    if e.ndim != 1 or e.size < 2 or np.any(np.diff(e) <= 0):
        raise ValueError(f"edges must be a strictly increasing 1-D array of >= 2 values, got shape {e.shape}")
    per_bin = check_int(per_bin, "per_bin", minimum=1)
    lo_q, hi_q = (check_real(v, "quantiles") for v in quantiles)
    if not 0 <= lo_q <= hi_q <= 1:
        raise ValueError(f"quantiles must satisfy 0 <= low <= high <= 1, got {quantiles}")
    th = _theta(d, base, theta)
    frac = (np.arange(per_bin) + 0.5) / per_bin
    r = e[:-1, None] + frac * np.diff(e)[:, None]
    b = decay_bound(r, d, theta=th)
    return b.mean(axis=1), np.quantile(b, lo_q, axis=1), np.quantile(b, hi_q, axis=1)


@functools.lru_cache(maxsize=1)
def _bessel_j0_grid() -> tuple[np.ndarray, np.ndarray]:
    """t = 0, 0.025, ..., 400 and J0(t) = (1/pi) int_0^pi cos(t sin tau) dtau (midpoint rule, 256 nodes)."""
    t = np.linspace(0.0, 400.0, 16001)
    tau = (np.arange(256) + 0.5) * (np.pi / 256)
    return t, np.cos(np.multiply.outer(t, np.sin(tau))).mean(axis=1)


@functools.lru_cache(maxsize=8)
def _mean_walk_lengths(count: int) -> tuple[float, ...]:
    """E|sum of j unit vectors with independent uniform directions| for j = 1..count (Kluyver's integral).

    j = 1 and j = 2 are exact (1 and E|1 + e^{i phi}| = E 2|cos(phi/2)| = 4/pi); for j >= 3,
    E|S| = int_0^inf (1 - J0(t)^j) / t^2 dt (because |x| = int_0^inf (1 - J0(t|x|)) / t^2 dt),
    by Simpson's rule on [0, 400] plus the tail int_400^inf dt/t^2 (the neglected J0^j part is below 1e-9).
    """
    t, j0 = _bessel_j0_grid()
    weights = np.full(t.size, 2.0)
    weights[1::2] = 4.0
    weights[0] = weights[-1] = 1.0
    weights *= (t[1] - t[0]) / 3.0
    inv_t2 = np.zeros(t.size)
    inv_t2[1:] = 1.0 / t[1:] ** 2
    out = [1.0, 4.0 / np.pi][:count]
    power = j0 * j0
    for j in range(3, count + 1):
        power *= j0
        power[np.abs(power) < 1e-200] = 0.0  # avoid slow subnormal arithmetic; far below rounding anyway
        f = (1.0 - power) * inv_t2
        f[0] = j / 4.0  # limit at t -> 0 of (1 - J0^j)/t^2, since J0(t) = 1 - t^2/4 + ...
        out.append(float(weights @ f + 1.0 / t[-1]))
    return tuple(out)


def random_phase_level(d: int, *, exact: bool = True) -> float:
    r"""Return the far-out level of :math:`B(r)` predicted by independent uniform phases.

    .. math::
        \frac{1}{d/2}\sum_{j=1}^{d/2} \mathbb{E}\,\Big|\sum_{i=0}^{j-1} e^{\mathrm{i}\phi_i}\Big|,
        \qquad \mathbb{E}\,|S_j| = \int_0^\infty \frac{1 - J_0(t)^j}{t^2}\,dt
        \;\approx\; \frac{\sqrt{\pi j}}{2}

    For large :math:`r` the phases :math:`r\theta_i \bmod 2\pi` behave like independent
    uniform angles, and :math:`S_j` like a planar random walk of ``j`` unit steps (Pearson
    1905); its mean length is Kluyver's integral (``exact=True``: Bessel :math:`J_0` by the
    trapezoidal rule, Simpson's rule on [0, 400]) or the Rayleigh approximation
    :math:`\sqrt{\pi j}/2` (``exact=False``).

    >>> round(random_phase_level(128), 4)
    4.7926
    >>> round(random_phase_level(128, exact=False), 4)
    4.7791
    """
    d = check_d(d)
    half = d // 2
    j = np.arange(1, half + 1)
    if not exact:
        return float(np.mean(np.sqrt(np.pi * j) / 2.0))
    return float(np.mean(_mean_walk_lengths(half)))


# --- one attention score and its Abel bound (RoFormer eq. 35-37) ---------------------------


def pair_products(q: npt.ArrayLike, k: npt.ArrayLike) -> np.ndarray:
    r"""Return :math:`h_i = q_{[2i:2i+1]}\, k^*_{[2i:2i+1]}`, complex of shape ``(..., d/2)``.

    .. math:: h_i = (q_{2i} + \mathrm{i}\,q_{2i+1})\,\overline{(k_{2i} + \mathrm{i}\,k_{2i+1})}

    Source: RoFormer eq. (35)-(36) (interleaved pairs; for the half layout convert with
    :func:`ropemath.to_interleaved` first).

    >>> pair_products(np.array([1.0, 2.0]), np.array([3.0, 4.0])).tolist()
    [(11+2j)]
    """
    q = check_x(q, "q").astype(np.float64)
    k = check_x(k, "k", d=q.shape[-1]).astype(np.float64)
    return (q[..., 0::2] + 1j * q[..., 1::2]) * (k[..., 0::2] - 1j * k[..., 1::2])


def _vectors(q: npt.ArrayLike, k: npt.ArrayLike) -> np.ndarray:
    h = pair_products(q, k)
    if h.ndim != 1:
        raise ValueError(f"q and k must be vectors of shape (d,), got a batch of shape {h.shape[:-1]}")
    return h


def complex_score(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    r: npt.ArrayLike,
    base: float = 10000.0,
    *,
    theta: npt.ArrayLike | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> np.ndarray:
    r"""Return the RoPE attention score at relative distance ``r`` from the complex form (shape ``r.shape``).

    .. math::
        (R^d_{\Theta,m} q)^\top (R^d_{\Theta,n} k)
        = \operatorname{Re}\Big[\sum_{i=0}^{d/2-1} h_i\, e^{\mathrm{i}(m-n)\theta_i}\Big]

    Source: RoFormer eq. (35).  Checked against :func:`ropemath.apply_rope` by :func:`abel_check`.

    >>> q = np.array([1.0, 0.0, 1.0, 0.0])
    >>> round(float(complex_score(q, q, 0.0)), 12)
    2.0
    """
    h = _vectors(q, k)
    th = _theta(h.size * 2, base, theta)
    r = check_positions(r, "r")
    chunk = check_int(chunk, "chunk", minimum=1)

    def block(rb: np.ndarray) -> np.ndarray:
        phase = np.multiply.outer(rb, th)
        return np.cos(phase) @ h.real - np.sin(phase) @ h.imag

    return _chunked(r, chunk, block)


def abel_constant(q: npt.ArrayLike, k: npt.ArrayLike) -> float:
    r"""Return the constant of RoFormer eq. (37), :math:`\max_i |h_{i+1} - h_i|` with :math:`h_{d/2} = 0`.

    .. math:: C(q, k) = \max_{0 \le i < d/2} |h_{i+1} - h_i|, \qquad h_{d/2} = 0

    Source: RoFormer eq. (37).

    >>> abel_constant(np.array([1.0, 0.0, 1.0, 0.0]), np.array([1.0, 0.0, 1.0, 0.0]))  # h = (1, 1, 0)
    1.0
    """
    h = _vectors(q, k)
    return float(np.max(np.abs(np.diff(np.append(h, 0.0)))))


def abel_bound(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    r: npt.ArrayLike,
    base: float = 10000.0,
    *,
    theta: npt.ArrayLike | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> np.ndarray:
    r"""Return the right side of RoFormer eq. (37) for each distance (shape ``r.shape``).

    .. math::
        \Big|\sum_{i=0}^{d/2-1} h_i e^{\mathrm{i} r\theta_i}\Big|
        \le \Big(\max_i |h_{i+1} - h_i|\Big) \sum_{j=1}^{d/2} |S_j(r)|, \qquad h_{d/2} = 0

    i.e. ``abel_constant(q, k) * (d/2) * decay_bound(r)``.  Source: RoFormer eq. (37).

    >>> q = np.array([1.0, 0.0, 1.0, 0.0])
    >>> float(abel_bound(q, q, 0.0))  # h = (1, 1, 0): max|Δh| = 1; |S_1(0)| + |S_2(0)| = 1 + 2
    3.0
    """
    c = abel_constant(q, k)
    half = np.shape(q)[-1] // 2
    return c * half * decay_bound(r, 2 * half, base, theta=theta, chunk=chunk)


def abel_identity_error(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    r: npt.ArrayLike,
    base: float = 10000.0,
    *,
    theta: npt.ArrayLike | None = None,
) -> float:
    r"""Largest relative gap between the two sides of the Abel summation (RoFormer eq. 36).

    .. math::
        \sum_{i=0}^{d/2-1} h_i e^{\mathrm{i} r\theta_i}
        = -\sum_{i=0}^{d/2-1} S_{i+1}(r)\,(h_{i+1} - h_i), \qquad h_{d/2} = 0

    The left side is summed directly, the right from :func:`partial_sums`; the gap is divided
    by :math:`\sum_i |h_i|` (which bounds the left side).  Source: RoFormer eq. (36).

    >>> rng = np.random.default_rng(0)
    >>> q, k = rng.standard_normal(16), rng.standard_normal(16)
    >>> abel_identity_error(q, k, np.arange(100.0)) < 1e-14
    True
    """
    h = _vectors(q, k)
    th = _theta(h.size * 2, base, theta)
    r = check_positions(r, "r")
    lhs = np.exp(1j * (r[..., None] * th)) @ h
    rhs = -(partial_sums(r, h.size * 2, theta=th) @ np.diff(np.append(h, 0.0)))
    scale = float(np.sum(np.abs(h)))
    if scale == 0:
        return float(np.max(np.abs(lhs - rhs), initial=0.0))
    return float(np.max(np.abs(lhs - rhs), initial=0.0) / scale)


def abel_check(
    d: int = 128,
    base: float = 10000.0,
    *,
    trials: int = 20,
    distances: npt.ArrayLike | None = None,
    aligned: bool = False,
    seed: int = 0,
) -> dict[str, float]:
    r"""Check eq. (35)-(37) on seeded random vectors; return the largest errors and score/bound ratio.

    .. math::
        \rho = \max_{q,k,r} \frac{|(R_m q)^\top (R_n k)|}
        {(\max_i |h_{i+1}-h_i|)\sum_{j=1}^{d/2}|S_j(r)|} \le 1, \qquad r = m - n

    For each of ``trials`` draws, ``q`` and ``k`` are standard normal (``k = q`` if
    ``aligned``) from ``np.random.default_rng(seed)``; ``n`` is a random integer in
    [-1e6, 1e6] and ``m = n + r`` for every ``r`` in ``distances`` (default: every integer
    in [-1024, 1024] and 1024 random integers in [-1e6, 1e6]).  The score is computed twice:
    by :func:`complex_score` and, independently, as ``apply_rope(q, m) @ apply_rope(k, n)``.

    Returns ``max_ratio`` (ρ), ``violations`` (count of scores above their bound by more than
    1e-12 relative), ``abel_error`` (largest :func:`abel_identity_error`) and ``rope_error``
    (largest ``|complex_score - rope score| / (|q||k|)``).  Source: RoFormer eq. (35)-(37).

    >>> out = abel_check(16, trials=2)
    >>> out["violations"], out["max_ratio"] < 1, out["abel_error"] < 1e-13, out["rope_error"] < 1e-9
    (0.0, True, True, True)
    """
    d = check_d(d)
    base = check_base(base)
    trials = check_int(trials, "trials", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    if distances is None:
        r = np.concatenate([np.arange(-1024, 1025), rng.integers(-10**6, 10**6 + 1, size=1024)]).astype(float)
    else:
        r = check_positions(distances, "distances").reshape(-1)
    worst = {"max_ratio": 0.0, "violations": 0.0, "abel_error": 0.0, "rope_error": 0.0}
    for _ in range(trials):
        q = rng.standard_normal(d)
        k = q.copy() if aligned else rng.standard_normal(d)
        n = float(rng.integers(-10**6, 10**6 + 1))
        m = n + r
        score = complex_score(q, k, r, base)
        rope = np.sum(apply_rope(np.broadcast_to(q, (r.size, d)), m, base=base) * apply_rope(k, n, base=base), axis=-1)
        bound = abel_bound(q, k, r, base)
        ratio = np.abs(score) / bound
        worst["max_ratio"] = max(worst["max_ratio"], float(ratio.max()))
        worst["violations"] += float(np.count_nonzero(np.abs(score) > bound * (1 + 1e-12)))
        worst["abel_error"] = max(worst["abel_error"], abel_identity_error(q, k, r, base))
        scale = float(np.linalg.norm(q) * np.linalg.norm(k))
        worst["rope_error"] = max(worst["rope_error"], float(np.max(np.abs(score - rope))) / scale)
    return worst
