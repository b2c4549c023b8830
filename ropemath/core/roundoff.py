r"""Float64 rounding of the angles :math:`m\theta_i`, and how identity errors grow with the position.

Two-position identities compare separately rounded angles (error :math:`\propto |m|u`); one-matrix
identities do not grow with the position.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (15)-(16); Higham (2002) §2.2.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    check_base,
    check_d,
    check_int,
    check_real_array,
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

    :math:`\theta_i` is the float64 frequency; the difference is formed with :class:`fractions.Fraction`
    (pure Python: a few hundred positions).  Source: RoFormer eq. (15); Higham (2002) §2.2.

    >>> angle_rounding_error(3, 4).tolist()  # theta_0 = 1 is exact; 3 * 0.01 is not
    [0.0, 1.734723475976807e-18]
    """
    m = check_real_array(m, "m")
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

    The key sits at :math:`n = m - r`; the keys of the result name the checks of
    :mod:`ropemath.core.checks` (and ``"angle"``, :math:`\max_i` of :func:`angle_rounding_error`), each
    an array aligned with ``positions``; ``q``, ``k`` come from ``np.random.default_rng(seed)``.

    .. math:: \mathrm{err}(m) \approx |m|\,u \ \text{(first three grow)}, \qquad
        \mathrm{err}(m) \approx u \ \text{(orthogonality, norm)}

    Source: RoFormer eq. (16); Higham (2002) §2.2.

    >>> out = error_vs_position([1, 10**6], d=128)
    >>> sorted(out)
    ['angle', 'composition', 'norm', 'orthogonality', 'relative_position']
    >>> bool(out["composition"][1] > 1000 * out["composition"][0])
    True
    """
    m_all = check_real_array(positions, name="positions")
    if m_all.ndim != 1 or m_all.size == 0:
        raise ValueError(f"positions must be a non-empty 1-D sequence, got shape {m_all.shape}")
    d = check_d(d)
    base = check_base(base)
    r = check_int(r, "r", minimum=-(2**53), maximum=2**53)
    with np.errstate(over="ignore"):
        finite_result(2 * (np.abs(m_all).max() + abs(r)) * frequencies(d, base), "error_vs_position",
                      positions=positions, r=r, base=base)
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
    xs = check_real_array(x, name="x")
    ys = check_real_array(y, name="y")
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
