r"""Derived rounding-error bounds for the identity checks and the float32 rotation kernels.

Standard model: :math:`\mathrm{fl}(a \circ b) = (a\circ b)(1+\delta)`, :math:`|\delta| \le u`; a sum of n
products is within :math:`\gamma_n = nu/(1-nu)` in any order, with or without FMA; cos/sin within
``trig_ulps`` units of :math:`2^{-53}`.  The derivations are written out in appendix notebook 11.

References: N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed. (2002), §2.2, §3.1;
Brent, Percival and Zimmermann, Math. Comp. 76 (2007); Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (15)-(16), (34).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_int, check_real_array, check_x
from ropemath.core.rotation import angles, frequencies

__all__ = [
    "composition_error_bound",
    "relative_position_error_bound",
    "complex_rotation_bound",
    "pair_relative_error",
    "two_product_rope",
    "ulp_errors",
    "two_product_ulp_bound",
]

U64 = 2.0**-53
U32 = 2.0**-24
_MAX_POSITION = 2**52  # integer positions and their sums stay exact in float64


def _gamma(n: int, u: float) -> float:
    return n * u / (1.0 - n * u)


def _trig(trig_ulps: float) -> float:
    return _ulps(trig_ulps, "trig_ulps") * U64


def _position(value: object, name: str) -> int:
    return check_int(value, name, minimum=-_MAX_POSITION, maximum=_MAX_POSITION)


def _ulps(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1e6:
        raise ValueError(f"{name} must be a number in [0, 1e6], got {value!r}")
    return float(value)


def orthogonality_error_bound(*, trig_ulps: float = 4.0) -> float:
    r"""Return a derived bound on :math:`\max|\hat R^\top \hat R - I|` for a dense float64 :math:`R^d_{\Theta,m}`.

    .. math:: \max_{jk} |\mathrm{fl}(\hat R^\top \hat R) - I|_{jk} \le
              2\sqrt2\,t + 2t^2 + \gamma_2\,(1 + \sqrt2\,t)^2

    :math:`t` = ``trig_ulps``·u.  Independent of ``d`` and of the position (derivation: notebook 11 §2).
    Source: Higham (2002) §2.2, §3.1; RoFormer §3.2.2.

    >>> round(orthogonality_error_bound() / 2.0**-53, 1)
    13.3
    """
    t = _trig(trig_ulps)
    return 2 * math.sqrt(2) * t + 2 * t * t + _gamma(2, U64) * (1 + math.sqrt(2) * t) ** 2


def determinant_error_bound(d: int, *, trig_ulps: float = 4.0, log_ulps: float = 1.0, exp_ulps: float = 1.0) -> float:
    r"""Return a derived bound on :math:`|\det\hat R - 1|` as numpy computes it (LU, then :math:`e^{\sum\log}`).

    .. math:: |\widehat{\det} - 1| \le e^{B}\,(1 + 2e_{\exp}u) - 1, \qquad
              B = \tfrac d2 \ln\tfrac{1}{1-\rho} + d\,u\,\big(2\ell A + A + \tfrac d2\,\tfrac{\rho}{1-\rho}\big),

    with :math:`\rho = (1 + 2\sqrt2\,t + 2t^2)(1 + \gamma_4) - 1`, :math:`A = \tfrac12\ln 2 + 2\rho`,
    :math:`\ell` = ``log_ulps``, :math:`e_{\exp}` = ``exp_ulps``; about :math:`9\,d\,u`.  Derived in notebook 11 §2.
    Source: Higham (2002) §2.2, §9.3; RoFormer eq. (15).

    >>> round(determinant_error_bound(128) / 2.0**-53), round(determinant_error_bound(2048) / 2.0**-53)
    (1115, 17813)
    """
    d = check_d(d)
    t = _trig(trig_ulps)
    ell, e = _ulps(log_ulps, "log_ulps"), _ulps(exp_ulps, "exp_ulps")
    trig, g4 = 2 * math.sqrt(2) * t + 2 * t * t, _gamma(4, U64)
    rho = trig + g4 + trig * g4  # (1 + trig)(1 + gamma_4) - 1, without cancellation
    a = 0.5 * math.log(2) + 2 * rho
    blocks = d / 2 * -math.log1p(-rho)
    logs_and_sums = d * U64 * (2 * ell * a + a + d / 2 * rho / (1 - rho))
    return math.expm1(blocks + logs_and_sums + math.log1p(2 * e * U64))  # e^B (1 + 2 e u) - 1 without cancellation


def norm_error_bound(d: int, *, trig_ulps: float = 4.0) -> float:
    r"""Return a derived bound on :math:`|\,\|\hat y\| - \|x\|\,| / \|x\|` for :math:`\hat y` = ``apply_rope(x, m)``.

    .. math:: \frac{|\widehat{\|y\|} - \widehat{\|x\|}|}{\widehat{\|x\|}} \le
              \Big(\frac{(1+e)(1+\nu)}{1-\nu} - 1\Big)(1+u), \quad
              e = \sqrt2\,t + \sqrt2\,\gamma_2(1+\sqrt2\,t), \quad \nu = \sqrt{1+\gamma_{d+1}}\,(1+u) - 1

    About :math:`(d + 11.5)\,u`; derived in notebook 11 §2.  Source: Higham (2002) §2.2, §3.1.

    >>> round(norm_error_bound(2) / 2.0**-53, 1), round(norm_error_bound(4096) / 2.0**-53)
    (13.5, 4107)
    """
    d = check_d(d)
    t = _trig(trig_ulps)
    e = math.sqrt(2) * t + math.sqrt(2) * _gamma(2, U64) * (1 + math.sqrt(2) * t)
    nu = math.expm1(0.5 * math.log1p(_gamma(d + 1, U64)) + math.log1p(U64))  # sqrt(1 + gamma)(1 + u) - 1
    return (e + 2 * nu + e * nu) / (1 - nu) * (1 + U64)  # ((1 + e)(1 + nu)/(1 - nu) - 1)(1 + u), expanded


def elementwise_error_bound(*, trig_ulps: float = 4.0) -> float:
    r"""Return a derived bound on :math:`\max|\mathrm{apply\_rope}(x, m) - \hat R x| / \|x\|` (float64).

    .. math:: \frac{|\hat y_j - (\hat R x)_j|}{\|x\|} \le \big(2\sqrt2\,t + 2\gamma_2(1 + \sqrt2\,t)\big)(1+u)

    Each coordinate is two products and a sum on each route (:math:`\gamma_2` each); cos/sin evaluated
    separately differ by :math:`\le 2t`.  About :math:`15.3u`.  Source: Higham (2002) §2.2; RoFormer eq. (34).

    >>> round(elementwise_error_bound() / 2.0**-53, 1)
    15.3
    """
    t = _trig(trig_ulps)
    return (2 * math.sqrt(2) * t + 2 * _gamma(2, U64) * (1 + math.sqrt(2) * t)) * (1 + U64)


def composition_error_bound(m: int, n: int, d: int, base: float = 10000.0, *, trig_ulps: float = 4.0) -> float:
    r"""Return a derived bound on :math:`\max|R_m R_n - R_{m+n}|` for dense float64 matrices, integer m, n.

    .. math:: \max_{jk} |\mathrm{fl}(R_m R_n) - \mathrm{fl}(R_{m+n})|_{jk} \le
              (|m| + |n| + |m+n|)\,\max_i\theta_i\,u + 2\sqrt2\,t + 2t^2 + \gamma_2 (1+\sqrt2 t)^2 + t

    with :math:`t` = ``trig_ulps``·u; derived in notebook 11 §2.  Source: Higham (2002) §2.2, §3.1; RoFormer eq. (15).

    >>> b = composition_error_bound(10**6, 10**6 - 5, 128)
    >>> round(b / (10**6 * 2.0**-53), 3)  # about 4 |m| u far out
    4.0
    """
    m, n = _position(m, "m"), _position(n, "n")
    theta_max = float(np.max(frequencies(check_d(d), check_base(base))))
    t = _trig(trig_ulps)
    angle = (abs(m) + abs(n) + abs(m + n)) * theta_max * U64
    return angle + 2 * math.sqrt(2) * t + 2 * t * t + _gamma(2, U64) * (1 + math.sqrt(2) * t) ** 2 + t


def relative_position_error_bound(m: int, n: int, d: int, base: float = 10000.0, *, trig_ulps: float = 4.0) -> float:
    r"""Return a derived bound on the relative error of :math:`(R_m q)^\top(R_n k) = q^\top R_{n-m} k`.

    .. math:: \frac{|\mathrm{lhs} - \mathrm{rhs}|}{\|q\|\|k\|} \le (|m|+|n|+|n-m|)\max_i\theta_i\,u
              + 3\eta + \eta^2 + \gamma_d\big((1+\eta)^2 + (1+\eta)\big),
              \qquad \eta = 2t + \sqrt2\,\gamma_2 (1 + \sqrt2 t)

    Derived in notebook 11 §2.  Source: Higham (2002) §3.1; RoFormer eq. (16).

    >>> b = relative_position_error_bound(1, -4, 128)
    >>> 250 * 2.0**-53 < b < 350 * 2.0**-53  # about (2d + 33) u near the origin
    True
    """
    m, n = _position(m, "m"), _position(n, "n")
    d = check_d(d)
    theta_max = float(np.max(frequencies(d, check_base(base))))
    t = _trig(trig_ulps)
    eta = 2 * t + math.sqrt(2) * _gamma(2, U64) * (1 + math.sqrt(2) * t)
    angle = (abs(m) + abs(n) + abs(n - m)) * theta_max * U64
    return angle + 3 * eta + eta * eta + _gamma(d, U64) * ((1 + eta) ** 2 + (1 + eta))


def survey_bounds(d: int, max_position: int = 10**6, base: float = 10000.0) -> dict[str, float]:
    r"""Return the derived bound of every check of :func:`ropemath.core.checks.survey` for :math:`|m|, |n| \le M`.

    .. math:: |m| + |n| + |n - m| \le 4M, \qquad |m| + |n| + |m + n| \le 4M

    Two-position bounds at their worst case over the range; ``transpose`` is 0 exactly (cos even, sin odd).
    Keys as in :func:`~ropemath.core.checks.survey`.  Source: the functions above; RoFormer eq. (15)-(16), (34).

    >>> b = survey_bounds(128)
    >>> b["transpose"], round(b["orthogonality"] / 2.0**-53, 1)
    (0.0, 13.3)
    """
    d = check_d(d)
    big = check_int(max_position, "max_position", minimum=0, maximum=_MAX_POSITION // 4)
    return {"relative_position": relative_position_error_bound(big, -big, d, base),
            "composition": composition_error_bound(big, big, d, base),
            "orthogonality": orthogonality_error_bound(), "determinant": determinant_error_bound(d),
            "norm": norm_error_bound(d), "transpose": 0.0,
            "elementwise_interleaved": elementwise_error_bound(), "elementwise_half": elementwise_error_bound()}


def complex_rotation_bound(trig_ulps: float = 4.0) -> float:
    r"""Return the bound on :math:`|\hat y - R(\hat\varphi)x| / |x|` per pair for a complex64 rotation.

    .. math:: \frac{|\mathrm{fl}_{32}(z\,\hat e) - z\,e^{i\hat\varphi}|}{|z|} \le
              \sqrt2\,(u_{32} + t) + \sqrt5\,u_{32}\,\big(1 + \sqrt2\,(u_{32} + t)\big),
              \qquad u_{32} = 2^{-24}

    :math:`\hat e`: :math:`e^{i\hat\varphi}` in float64 (parts within :math:`t`), rounded to complex64; the complex
    product is within :math:`\sqrt5\,u_{32}\,|z||\hat e|`.  About :math:`3.65\,u_{32}`; derived in notebook 11.
    Source: Brent, Percival and Zimmermann (2007); RoFormer eq. (12)-(13) (the complex form).

    >>> round(complex_rotation_bound() / 2.0**-24, 2)
    3.65
    """
    t = _trig(trig_ulps)
    e = math.sqrt(2) * (U32 + t)
    return e + math.sqrt(5) * U32 * (1 + e)


def pair_relative_error(y: npt.ArrayLike, reference: npt.ArrayLike, x: npt.ArrayLike) -> np.ndarray:
    r"""Return the error of each adjacent pair relative to that pair of ``x``, shape ``(..., d/2)``.

    .. math:: e_i = \frac{\|(y_{2i}, y_{2i+1}) - (r_{2i}, r_{2i+1})\|}{\|(x_{2i}, x_{2i+1})\|}

    To compare with a relative bound such as :func:`complex_rotation_bound`; pairs of ``x`` equal to zero are
    compared absolutely (norm replaced by 1).  Source: RoFormer eq. (34) (interleaved pairs).

    >>> pair_relative_error([3.0, 4.0], [3.0, 4.5], [0.0, 5.0]).tolist()
    [0.1]
    """
    xs = check_x(x, "x").astype(np.float64)
    ys = check_x(y, "y", d=xs.shape[-1]).astype(np.float64)
    rs = check_x(reference, "reference", d=xs.shape[-1]).astype(np.float64)
    if not (xs.shape == ys.shape == rs.shape):
        raise ValueError(f"x, y and reference must have one shape, got {xs.shape}, {ys.shape}, {rs.shape}")
    pairs = xs.shape[:-1] + (xs.shape[-1] // 2, 2)
    norm = np.linalg.norm(xs.reshape(pairs), axis=-1)
    return np.linalg.norm((ys - rs).reshape(pairs), axis=-1) / np.where(norm > 0, norm, 1.0)


def two_product_rope(x: npt.ArrayLike, m: npt.ArrayLike, base: float = 10000.0) -> np.ndarray:
    r"""Return eq. (34) in the precision of ``x``: float64 angles, cos/sin rounded to ``x.dtype``.

    .. math:: (y_{2i}, y_{2i+1}) = \big(\mathrm{fl}(x_{2i}\hat c_i - x_{2i+1}\hat s_i),\
              \mathrm{fl}(x_{2i}\hat s_i + x_{2i+1}\hat c_i)\big)

    Interleaved layout; ``m`` broadcasts against ``x.shape[:-1]``.  Source: RoFormer eq. (34).

    >>> two_product_rope(np.array([1.0, 0.0], dtype=np.float32), 0).tolist()
    [1.0, 0.0]
    """
    xs = check_x(x, "x")
    dtype = xs.dtype if xs.dtype in (np.float32, np.float64) else np.dtype(np.float64)
    xs = xs.astype(dtype)
    phi = angles(check_real_array(m, "m"), xs.shape[-1], check_base(base))
    c, s = np.cos(phi).astype(dtype), np.sin(phi).astype(dtype)
    a, b = xs[..., 0::2], xs[..., 1::2]
    return np.stack(np.broadcast_arrays(a * c - b * s, a * s + b * c), axis=-1).reshape(xs.shape)


def ulp_errors(y: npt.ArrayLike, x: npt.ArrayLike, m: npt.ArrayLike, base: float = 10000.0) -> np.ndarray:
    r"""Return :math:`|y - y^\ast|` in float32 units of each pair's norm, :math:`y^\ast` exact for the rounded tables.

    .. math:: \frac{|y_j - y^\ast_j|}{\varepsilon_{32}\,\|(x_{2i}, x_{2i+1})\|}, \qquad
              y^\ast = (a c - b s,\ a s + b c) \text{ in float64}

    ``x`` float32; ``c``, ``s`` the float32-rounded cos/sin of the float64 angles, so :math:`y^\ast` (float64
    products of float32 numbers) is exact far below a float32 ulp.  Source: Higham (2002) §2.2; RoFormer eq. (34).

    >>> x = np.array([[1.0, 2.0]], dtype=np.float32)
    >>> float(ulp_errors(two_product_rope(x, [3]), x, [3]).max()) <= 1.0
    True
    """
    xs = check_x(x, "x").astype(np.float32)
    phi = angles(check_real_array(m, "m"), xs.shape[-1], check_base(base))
    c, s = np.cos(phi).astype(np.float32).astype(np.float64), np.sin(phi).astype(np.float32).astype(np.float64)
    a, b = xs[..., 0::2].astype(np.float64), xs[..., 1::2].astype(np.float64)
    exact = np.stack(np.broadcast_arrays(a * c - b * s, a * s + b * c), axis=-1).reshape(xs.shape)
    unit = np.finfo(np.float32).eps * np.repeat(np.hypot(a, b), 2, axis=-1)
    ys = check_x(y, "y", d=xs.shape[-1]).astype(np.float64)
    return np.abs(ys - exact) / np.where(unit > 0, unit, np.finfo(np.float32).eps)


def two_product_ulp_bound() -> float:
    r"""Return the derived bound on :func:`ulp_errors` for a float32 pair rotated with three roundings.

    .. math:: \frac{|\hat y_j - y^\ast_j|}{2u_{32}\,\|(a, b)\|} \le \frac{(2 + u_{32})(1 + u_{32})^2}{2}
              \approx 1 + 2u_{32}

    Two products and one sum (or a product and an FMA) with :math:`\|(c, s)\| \le 1 + u_{32}`; derived in
    notebook 11.  Source: Higham (2002) §2.2.

    >>> 1.0 < two_product_ulp_bound() < 1.0 + 3 * 2.0**-24
    True
    """
    return (2 + U32) * (1 + U32) ** 2 / 2
