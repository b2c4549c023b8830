r"""Men et al.'s lower bound on the RoPE base: the smallest b with :math:`\min_{0\le m<L}\sum_i\cos(m\theta_i)\ge 0`.

The condition is not monotone in b, so :func:`base_lower_bound` does not bisect: it steps upward, each step
certified to fail by a position m with :math:`C_b(m) < 0` and a bound on :math:`|\partial C_b(m)/\partial\ln b|`.
Convention: ``length`` L means the positions 0 .. L-1.

References: X. Men et al., *Base of RoPE Bounds Context Length*, arXiv:2405.14591 (2024); Su, kexue.fm/archives/10122.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    check_base,
    check_d,
    check_int,
    check_real,
    check_real_array,
    finite_result,
)

__all__ = [
    "BaseBound", "cosine_sum", "cosine_sum_minimum", "float64_error_budget", "base_lower_bound", "failing_intervals",
]

_K = 64  # positions per block row: m = a + k with k = 0 .. 63
_ROWS = 16  # block rows per matrix product (16 x 128 x 64 keeps each product small and single-threaded)


def _theta(d: int, bases: np.ndarray) -> np.ndarray:
    """θ_i = b^(-2i/d) for every base, shape bases.shape + (d/2,)."""
    return np.power(bases[..., None], -np.arange(0, d, 2, dtype=np.float64) / d)


def _blocks(theta: np.ndarray, length: int):
    """Yield (start, C) with C = Σ_i cos(mθ_i) for m = start .. start+len(C)-1, over 0 <= m < length.

    ``theta`` has shape (nb, h); C has shape (nb, n).  Uses cos((a+k)θ) = cos(aθ)cos(kθ) -
    sin(aθ)sin(kθ): one small matrix product per block of _ROWS * _K positions.
    """
    k = np.arange(_K, dtype=np.float64)
    kt = theta[:, :, None] * k  # (nb, h, K)
    right = np.concatenate([np.cos(kt), np.sin(kt)], axis=1)[:, None]  # (nb, 1, 2h, K)
    rows = -(-length // _K)
    for r0 in range(0, rows, _ROWS):
        a = _K * np.arange(r0, min(rows, r0 + _ROWS), dtype=np.float64)
        at = a[None, :, None] * theta[:, None, :]  # (nb, R, h)
        left = np.concatenate([np.cos(at), -np.sin(at)], axis=2)[:, None]  # (nb, 1, R, 2h)
        c = np.matmul(left, right).reshape(theta.shape[0], -1)
        start = int(a[0])
        yield start, c[:, : min(c.shape[1], length - start)]


def cosine_sum(m: npt.ArrayLike, d: int = 128, base: float = 10000.0) -> np.ndarray:
    r"""Return :math:`C_b(m) = \sum_{i=0}^{d/2-1}\cos(m\theta_i)`, shape ``m.shape`` (direct sum).

    .. math:: C_b(m) = \sum_{i=0}^{d/2-1} \cos\!\big(m\, b^{-2i/d}\big)

    It is the RoPE score :math:`(R_m q)^\top (R_0 q)` of the all-ones vector, divided by 2
    (Men et al., arXiv:2405.14591).  :math:`C_b(0) = d/2`.

    >>> float(cosine_sum(0, 128))
    64.0
    >>> round(float(cosine_sum(1, 2)), 12) == round(float(np.cos(1.0)), 12)
    True
    """
    d = check_d(d)
    base = check_base(base)
    m = check_real_array(m, "m")
    return finite_result(
        np.cos(m[..., None] * _theta(d, np.asarray(base))).sum(axis=-1),
        "cosine_sum", m=m, d=d, base=base,
    )


def cosine_sum_minimum(length: int, d: int = 128, base: npt.ArrayLike = 10000.0) -> np.ndarray:
    r"""Return :math:`\min_{0 \le m < L} C_b(m)` for each base (shape ``np.shape(base)``).

    .. math:: \mu_b(L) = \min_{0 \le m < L} \sum_{i=0}^{d/2-1} \cos(m\theta_i)

    The condition of Men et al. is :math:`\mu_b(L) \ge 0`.  All ``L`` positions are evaluated (blocked
    matrix products; float64 error about 1e-12), for every base at once.

    >>> float(cosine_sum_minimum(3, 2, 1.0)) == float(np.cos(2.0))
    True
    >>> bool(cosine_sum_minimum(1024, 128, 5000.0) < 0), bool(cosine_sum_minimum(1024, 128, 7000.0) >= 0)
    (True, True)
    """
    L = check_int(length, "length", minimum=1)
    d = check_d(d)
    bases = check_real_array(base, "base")
    if bases.size == 0 or np.any(bases <= 0):
        raise ValueError(f"base must be one or more real numbers > 0, got {bases.size}, min {bases.min(initial=0)}")
    check_int(L * (d // 2) * bases.size, "length × d/2 × number of bases (cosines evaluated)", maximum=2**33)
    flat = bases.reshape(-1)
    out = np.full(flat.shape, np.inf)
    for _, c in _blocks(_theta(d, flat), L):
        np.minimum(out, c.min(axis=1), out=out)
    return finite_result(out.reshape(bases.shape), "cosine_sum_minimum", length=length, d=d, base=base)


def float64_error_budget(length: int, d: int = 128) -> float:
    r"""Return a bound on the float64 error of one :math:`C_b(m)`, :math:`0 \le m < L`, as this module computes it.

    .. math::
        \varepsilon(L) = \tfrac{d}{2}\big(2L\cdot 2^{-52} + 3L\cdot 2^{-53}\big) + d\cdot 10^{-15} + d^2\, 2^{-53}

    Term by term, for the d/2 cosines of one sum:

    * :math:`2L\cdot 2^{-52}` per cosine: :math:`\theta_i` and :math:`m\theta_i` are each within
      :math:`2^{-52}` relative, so an angle (at most L) is off by less than :math:`2L\cdot 2^{-52}`, and its
      cosine by no more.  Blocked sums, :math:`\cos(a\theta)\cos(k\theta) - \sin(a\theta)\sin(k\theta)` with
      :math:`m = a + k`, are the cosine of the computed :math:`a\theta + k\theta`, whose errors add to the same bound.
    * :math:`3L\cdot 2^{-53}` per cosine: the search forms :math:`\theta_i = e^{-x}`, :math:`x = (2i/d)\,u` with
      :math:`u = \ln b` (rounded once, at its start); rounding that and the product moves x by up to
      :math:`2x\cdot 2^{-53}`, so the angle :math:`m\theta_i` by that much relative, less than
      :math:`3L\cdot 2^{-53}` as :math:`m\theta_i x < L`.
    * :math:`d\cdot 10^{-15}`: each cosine, or each of a block's d products, is off by less than :math:`10^{-15}`.
    * :math:`d^2\, 2^{-53}`: summing d terms of size at most 1.

    It assumes cos, exp and pow accurate to about one ulp, as libm's are.  Source: ropemath's derivation,
    checked against 40-digit sums in ``tests/test_base_bound.py``.

    >>> f"{float64_error_budget(65536):.1e}"
    '3.3e-09'
    """
    L = check_int(length, "length", minimum=1)
    d = check_d(d)
    return (d // 2) * (2 * L * 2.0**-52 + 3 * L * 2.0**-53) + d * 1e-15 + d * d * 2.0**-53


def _slope_bounds(m: np.ndarray, theta: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """G(m) = Σ_i w_i x_i min(1, x_i), x_i = mθ_i, for each m: bounds |∂C(m)/∂ln b| here and at larger bases."""
    x = m[:, None] * theta
    return np.sum(weights * x * np.minimum(1.0, x), axis=1)


@dataclass(frozen=True)
class BaseBound:
    """Result of :func:`base_lower_bound` for one context length.

    ``base``: the first base reached at which the condition holds; ``below``: the last base
    at which it was seen to fail (the smallest base lies in ``(below, base]``);
    ``full_scans`` / ``steps``: evaluations of all ``L`` positions / steps taken;
    ``uncertified``: steps shorter than ``rtol`` taken without a witness (each skips a
    window of relative width ``rtol``); ``proven_below``: every base in ``[start,
    proven_below]`` is proven to fail (to float64 accuracy) — it equals ``below`` when
    ``uncertified`` is 0, and otherwise the base where the first uncertified step began.
    """

    length: int
    d: int
    base: float
    below: float
    steps: int
    full_scans: int
    uncertified: int
    proven_below: float


_CANDIDATES = 16  # best witnesses kept from the last full scan
_REFRESH = 1e-4  # rescan all positions when the kept witnesses certify less than this step (in ln b)


@functools.lru_cache(maxsize=64)
def _search(L: int, d: int, start: float, rtol: float, max_steps: int) -> BaseBound:
    weights = np.arange(0, d, 2, dtype=np.float64) / d
    eps = float64_error_budget(L, d)  # a computed C_b(m) below -eps is negative
    u = math.log(start)
    below = start
    cands = np.zeros(0)
    steps = full = unc = 0
    proven = math.nan
    while steps < max_steps:
        theta = np.exp(-weights * u)  # θ_i = b^(-2i/d) with b = e^u
        step = 0.0
        if cands.size:  # cheap: the witnesses of the last full scan, summed directly
            c = np.cos(cands[:, None] * theta).sum(axis=1)
            step = float(np.max(-(c + eps) / _slope_bounds(cands, theta, weights)))
        if step < _REFRESH:  # full scan of every position 0 <= m < L
            c = np.concatenate([blk[0] for _, blk in _blocks(theta[None, :], L)])
            full += 1
            neg = np.flatnonzero(c < 0)
            if neg.size == 0:
                last = math.exp(u)
                return BaseBound(L, d, last, below, steps, full, unc, below if unc == 0 else proven)
            m = neg.astype(np.float64)
            score = -(c[neg] + eps) / _slope_bounds(m, theta, weights)
            order = np.argsort(score)[::-1][:_CANDIDATES]
            cands, step = m[order], float(score[order[0]])
        if step < rtol:
            if unc == 0:
                proven = math.exp(u)
            step, unc = rtol, unc + 1
        else:  # inside the certified interval despite rounding: of G and the division (relative), of u + step (ulps)
            step = step * (1 - 2.0**-40) - 4 * math.ulp(u + step)
        below = math.exp(u)
        u += step
        steps += 1
    raise RuntimeError(f"base_lower_bound: no base found within max_steps={max_steps} (length {L})")


def base_lower_bound(
    length: int, d: int = 128, *, start: float = 1.0, rtol: float = 1e-9, max_steps: int = 100000
) -> BaseBound:
    r"""Return the smallest base ``b >= start`` with :math:`\mu_b(L) \ge 0`, found by certified steps.

    .. math::
        b^*(L) = \min\{\, b \ge b_0 : \textstyle\sum_{i=0}^{d/2-1}\cos(m\, b^{-2i/d}) \ge 0
        \ \ \forall\, 0 \le m < L \,\}

    At base ``b`` a position ``m`` with :math:`C_b(m) < 0` is a witness.  Since every
    :math:`\theta_i` decreases as ``b`` grows and :math:`|\sin x| \le \min(1, x)`,

    .. math::
        \Big|\frac{\partial C_b(m)}{\partial \ln b}\Big|
        = \Big|\sum_i \tfrac{2i}{d}\, x_i \sin x_i\Big|
        \le G_b(m) = \sum_i \tfrac{2i}{d}\, x_i \min(1, x_i), \quad x_i = m\theta_i,

    and :math:`G_b(m)` only shrinks as ``b`` grows, so the condition fails for every base in
    :math:`[b,\ b\,e^{-C_b(m)/G_b(m)})`; the search steps to the end of the longest such
    interval among the witnesses it holds, with the computed :math:`C_b(m)` raised by
    :func:`float64_error_budget` (so the step holds for the exact sum) and the step shortened by a relative
    :math:`2^{-40}` and four ulps of :math:`\ln b` (so that rounding :math:`G_b(m)`, the division and the
    next :math:`\ln b` cannot carry it past its interval), and evaluates the base it lands on.  Witnesses
    come from a full scan of all ``L`` positions, re-used while they still certify a step of
    at least 1e-4 in :math:`\ln b`.  The first base with no witness in a full scan is
    returned (``start`` itself if the condition already holds there).  Results are cached.
    Source: the condition of Men et al. (arXiv:2405.14591; discussed by Su, kexue.fm/archives/10122);
    the search is ropemath's.

    >>> r = base_lower_bound(64, 16)
    >>> round(r.base, 2), r.proven_below < r.below < r.base, r.base / r.proven_below - 1 < 1e-8
    (1706.1, True, True)
    """
    L = check_int(length, "length", minimum=1)
    d = check_d(d)
    check_int(L * (d // 2), "length × d/2 (cosines per scan of the search)", maximum=2**22)
    start = check_base(start, "start")
    if not 1 <= start <= 1e300:
        raise ValueError(f"start must be a base in [1, 1e300] (the search only increases it), got {start}")
    rtol = check_real(rtol, "rtol")
    if not 1e-15 <= rtol < 0.1:
        raise ValueError(f"rtol must be in [1e-15, 0.1) (float64 resolves bases to ~2e-16), got {rtol}")
    max_steps = check_int(max_steps, "max_steps", minimum=1)
    return finite_result(
        _search(L, d, start, rtol, max_steps),
        "base_lower_bound", length=length, d=d, start=start, rtol=rtol, max_steps=max_steps,
    )


def failing_intervals(bases: npt.ArrayLike, margins: npt.ArrayLike) -> list[tuple[float, float, float]]:
    r"""Group the grid points where the condition fails into runs: ``(first base, last base, worst margin)``.

    .. math:: \{ b_k : \mu_{b_k}(L) < 0 \} = \textstyle\bigcup_j \{b_{k_j}, \dots, b_{l_j}\}

    ``bases`` is an increasing grid and ``margins`` the values :math:`\mu_b(L)` there (from
    :func:`cosine_sum_minimum`).  A run is consecutive failing grid points; a failing window
    narrower than the grid spacing can be missed, so the runs are evidence of failure, not
    proof that the condition holds between them.

    >>> failing_intervals([1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, -0.2, -0.3])
    [(1.0, 1.0, -1.0), (3.0, 4.0, -0.3)]
    """
    b = check_real_array(bases, "bases").reshape(-1)
    v = check_real_array(margins, "margins").reshape(-1)
    if b.shape != v.shape:
        raise ValueError(f"margins must have the shape of bases {b.shape}, got {v.shape}")
    if b.size > 1 and np.any(np.diff(b) <= 0):
        raise ValueError("bases must be strictly increasing")
    out: list[tuple[float, float, float]] = []
    k = 0
    while k < b.size:
        if v[k] < 0:
            j = k
            while j + 1 < b.size and v[j + 1] < 0:
                j += 1
            out.append((float(b[k]), float(b[j]), float(v[k : j + 1].min())))
            k = j + 1
        else:
            k += 1
    return finite_result(out, "failing_intervals", bases=bases, margins=margins)
