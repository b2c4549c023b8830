r"""Float64 rounding of the angles mθ_i, and how the identity errors grow with the position.

Scope: :func:`angle_rounding_error` measures *exactly* (with :class:`fractions.Fraction`)
how far the float64 angle :math:`\mathrm{fl}(m\theta_i)` is from the exact product of the
float64 numbers ``m`` and ``theta_i``; :func:`angle_error_bound` is the textbook bound
:math:`|m|\theta_i u` with the unit roundoff :math:`u = 2^{-53}`; and
:func:`error_vs_position` sweeps the position and records the errors of the checks of
:mod:`ropemath.core.checks`, so a notebook can plot them against :math:`|m|`; :func:`loglog_slope`
measures their growth rate.

Why errors grow: an identity that combines rotations at *different* positions
(:math:`R_m R_n = R_{m+n}`, :math:`(R_m q)^\top R_n k = q^\top R_{n-m} k`) compares angles
rounded separately, each off by up to :math:`|m|\theta_i u`; an identity about one
matrix (orthogonality, determinant, norm) holds for whatever angle was rounded, so its
error does not grow.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.2 eq. (15)-(16);
N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed. (2002), §2.2
(the standard model :math:`\mathrm{fl}(xy) = xy(1+\delta)`, :math:`|\delta| \le u`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    check_angles,
    check_base,
    check_d,
    check_int,
    check_positions,
    finite_result,
)
from ropemath.core.checks import composition_error, norm_error, orthogonality_error, relative_position_error
from ropemath.core.rotation import angles, frequencies

__all__ = ["UNIT_ROUNDOFF", "angle_rounding_error", "angle_error_bound", "error_vs_position", "loglog_slope"]

#: Unit roundoff of IEEE float64 with round-to-nearest: :math:`u = 2^{-53}`.
UNIT_ROUNDOFF = 2.0**-53


def angle_rounding_error(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return :math:`|\mathrm{fl}(m\theta_i) - m\theta_i|` computed exactly, shape ``m.shape + (d//2,)``.

    .. math:: e_i(m) = \big|\,\mathrm{fl}(m\,\theta_i) - m\,\theta_i\,\big|

    Here :math:`\theta_i` is the float64 value returned by :func:`ropemath.frequencies` and
    :math:`\mathrm{fl}(m\theta_i)` the float64 angle of :func:`ropemath.angles`; the
    difference is formed in exact rational arithmetic and then rounded to float64 (the error
    of a product is itself a float64 number, so nothing is lost).  Pure Python: meant for
    a few hundred positions, not for large batches.
    Source: RoFormer eq. (15) (the angles); Higham (2002) §2.2 (rounding).

    >>> angle_rounding_error(3, 4).tolist()  # theta_0 = 1 is exact; 3 * 0.01 is not
    [0.0, 1.734723475976807e-18]
    """
    m = check_positions(m)
    theta = frequencies(d, base)
    phi = angles(m, d, base)
    out = np.empty(phi.shape, dtype=np.float64)
    for idx in np.ndindex(*m.shape):
        exact_m = Fraction(float(m[idx]))
        for i, t in enumerate(theta.tolist()):
            out[idx + (i,)] = float(abs(Fraction(float(phi[idx + (i,)])) - exact_m * Fraction(t)))
    return finite_result(out, "angle_rounding_error", m=m, d=d, base=base)


def angle_error_bound(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return the rounding bound :math:`|m|\,\theta_i\,u` of the float64 angle, shape ``m.shape + (d//2,)``.

    .. math:: |\mathrm{fl}(m\theta_i) - m\theta_i| \le |m|\,\theta_i\,u, \qquad u = 2^{-53}

    (round-to-nearest, no underflow).  Source: Higham (2002) §2.2, the standard model.

    >>> float(angle_error_bound(-10**6, 2)[0]) == 10**6 * 2.0**-53
    True
    """
    return finite_result(np.abs(angles(m, d, base)) * UNIT_ROUNDOFF, "angle_error_bound", m=m, d=d, base=base)


def error_vs_position(
    positions: npt.ArrayLike,
    d: int = 128,
    base: float = 10000.0,
    *,
    r: int = 5,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    r"""Return the errors of the identity checks at each query position ``m`` in ``positions``.

    For each ``m`` the key sits at :math:`n = m - r` (relative distance ``r``, RoFormer §3.4.3
    convention :math:`r = m - n`).  Keys of the result, each an array aligned with ``positions``:

    * ``"relative_position"``: :func:`~ropemath.core.checks.relative_position_error` (q, k, m, n),
      :math:`(R_m q)^\top (R_n k) = q^\top R_{n-m} k`;
    * ``"composition"``: :func:`~ropemath.core.checks.composition_error` (m, n), :math:`R_m R_n = R_{m+n}`;
    * ``"orthogonality"``: :func:`~ropemath.core.checks.orthogonality_error` (m), :math:`R_m^\top R_m = I`;
    * ``"norm"``: :func:`~ropemath.core.checks.norm_error` (q, m), :math:`\|R_m q\| = \|q\|`;
    * ``"angle"``: :math:`\max_i` of :func:`angle_rounding_error` (m).

    ``q`` and ``k`` are drawn once from ``np.random.default_rng(seed).standard_normal(d)``.

    .. math:: \mathrm{err}(m) \approx |m|\,u \ \text{(first three grow)}, \qquad
        \mathrm{err}(m) \approx u \ \text{(orthogonality, norm)}

    Source: RoFormer eq. (16); Higham (2002) §2.2.

    >>> out = error_vs_position([1, 10**6], d=128)
    >>> sorted(out)
    ['angle', 'composition', 'norm', 'orthogonality', 'relative_position']
    >>> bool(out["composition"][1] > 1000 * out["composition"][0])
    True
    """
    m_all = check_positions(positions, name="positions")
    if m_all.ndim != 1 or m_all.size == 0:
        raise ValueError(f"positions must be a non-empty 1-D sequence, got shape {m_all.shape}")
    d = check_d(d)
    base = check_base(base)
    r = check_int(r, "r", minimum=-(2**53), maximum=2**53)
    with np.errstate(over="ignore"):
        check_angles(2 * (np.abs(m_all).max() + abs(r)) * frequencies(d, base), m_all, frequencies(d, base),
                     "positions and base")
    seed = check_int(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal(d), rng.standard_normal(d)
    keys = ("relative_position", "composition", "orthogonality", "norm", "angle")
    out = {key: np.empty(m_all.shape, dtype=np.float64) for key in keys}
    for j, m in enumerate(m_all.tolist()):
        n = m - r
        out["relative_position"][j] = relative_position_error(q, k, m, n, base)
        out["composition"][j] = composition_error(m, n, d, base)
        out["orthogonality"][j] = orthogonality_error(m, d, base)
        out["norm"][j] = norm_error(q, m, base)
        out["angle"][j] = float(np.max(angle_rounding_error(m, d, base)))
    return finite_result(out, "error_vs_position", positions=positions, d=d, base=base, r=r)


def loglog_slope(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    r"""Return the least-squares slope :math:`s` of :math:`\log y` against :math:`\log x`.

    .. math:: \log y_j \approx s \log x_j + c

    A slope of 1 means :math:`y \propto x` (error growing linearly with :math:`|m|`); 0 means
    no growth.  ``x`` and ``y`` are 1-D, of equal length >= 2, all entries > 0.
    Source: ordinary least squares on the logarithms (no RoPE-specific content).

    >>> round(loglog_slope([1, 10, 100], [3.0, 300.0, 30000.0]), 12)
    2.0
    """
    xs = check_positions(x, name="x")
    ys = check_positions(y, name="y")
    if xs.ndim != 1 or xs.shape != ys.shape or xs.size < 2:
        raise ValueError(f"x and y must be 1-D of equal length >= 2, got shapes {xs.shape} and {ys.shape}")
    if np.any(xs <= 0) or np.any(ys <= 0):
        raise ValueError("x and y must contain only positive values (their logarithms are fitted)")
    lx, ly = np.log(xs), np.log(ys)
    lx_c = lx - lx.mean()
    denom = float(lx_c @ lx_c)
    if denom == 0:
        raise ValueError("x must contain at least two distinct values")
    return finite_result(float(lx_c @ (ly - ly.mean()) / denom), "loglog_slope", x=x, y=y)
