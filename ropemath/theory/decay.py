r"""Long-term decay of RoPE: the partial sums and the "relative upper bound" of RoFormer Figure 2.

Scope: the partial sums :math:`S_j(r) = \sum_{i=0}^{j-1} e^{\mathrm{i} r\theta_i}`, the
"relative upper bound" :math:`B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|` plotted in
RoFormer Figure 2 (chunked and threaded, so millions of distances fit in a few MB), its
slope and rising intervals, and log-binned summaries for wide distance ranges.  Related
modules: :mod:`ropemath.theory.abel` (one score, the Abel summation and the bound of eq. 35-37)
and :mod:`ropemath.theory.plateau` (the far-out level of :math:`B`).

Conventions: index ``i`` from 0, :math:`\theta_i = \mathrm{base}^{-2i/d}` (the paper's
:math:`\theta_{i+1}`); relative distance :math:`r = m - n` (query position minus key
position).  Every function accepting ``theta=`` uses those frequencies instead of
``frequencies(d, base)`` (for context-extension transforms such as Position
Interpolation, NTK or YaRN).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.3 eq. (35)-(37), Figure 2.
"""


from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_int, check_positions, check_real, finite_result
from ropemath.core.rotation import resolve_frequencies

__all__ = [
    "partial_sums",
    "decay_bound",
    "decay_bound_slope",
    "rising_intervals",
    "binned_bound",
]

DEFAULT_CHUNK = 4096  # distances per block: 2 float64 blocks of d/2 x chunk (2 MB each at d = 128)


def _theta(d: int, base: float, theta: npt.ArrayLike | None) -> np.ndarray:
    """Frequencies to use: ``frequencies(d, base)``, or ``theta`` (shape (d/2,)) when given."""
    check_base(base)
    return resolve_frequencies(d, base=base if theta is None else None, theta=theta)


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
    return finite_result(
        np.cumsum(np.exp(1j * (r[..., None] * th)), axis=-1),
        "partial_sums", r=r, d=d, base=base, theta=theta,
    )


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

    return finite_result(_chunked(r, chunk, block), "decay_bound", r=r, d=d, base=base, theta=theta, chunk=chunk)


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

    return finite_result(_chunked(r, chunk, block), "decay_bound_slope", r=r, d=d, base=base, theta=theta, chunk=chunk)


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
    if r_max / step > 10**7:
        raise ValueError(f"step must leave at most 10**7 samples of [0, r_max], got {r_max / step:.3g} samples")
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
    return finite_result(out, "rising_intervals", d=d, base=base, r_max=r_max, step=step, theta=theta)


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
    if isinstance(quantiles, (str, bytes)) or np.ndim(quantiles) != 1 or len(quantiles) != 2:
        raise ValueError(f"quantiles must be a pair (low, high), got {quantiles!r}")
    lo_q, hi_q = (check_real(v, "quantiles") for v in quantiles)
    if not 0 <= lo_q <= hi_q <= 1:
        raise ValueError(f"quantiles must satisfy 0 <= low <= high <= 1, got {quantiles}")
    th = _theta(d, base, theta)
    frac = (np.arange(per_bin) + 0.5) / per_bin
    r = e[:-1, None] + frac * np.diff(e)[:, None]
    b = decay_bound(r, d, theta=th)
    return finite_result(
        (b.mean(axis=1), np.quantile(b, lo_q, axis=1), np.quantile(b, hi_q, axis=1)),
        "binned_bound", edges=edges, d=d, base=base, per_bin=per_bin, quantiles=quantiles, theta=theta,
    )
