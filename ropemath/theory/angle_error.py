r"""The float64 angle :math:`\mathrm{fl}(m\hat\theta_i)` against the exact :math:`m\theta_i`, both roundings counted.

Measured exactly with mpmath (160 bits); the two-step bound is derived in appendix notebook 11, §1b.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (15); Higham (2002) §2.2; glibc manual,
"Errors in Math Functions" (pow within one ulp).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_real_array, finite_result
from ropemath.core.rotation import angles
from ropemath.core.roundoff import UNIT_ROUNDOFF

__all__ = ["exact_angle_error", "two_step_angle_bound"]

_PREC = 160  # bits: far beyond float64's 53, so the reference values are exact for our purpose


def exact_angle_error(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return :math:`|\mathrm{fl}(m\hat\theta_i) - m\theta_i|` against the *exact* angle, shape ``m.shape + (d//2,)``.

    .. math:: E_i(m) = \big|\,\mathrm{fl}(m\,\hat\theta_i) - m\,\theta_i\,\big|

    Pure Python with mpmath: meant for a few thousand (m, i), not for large batches.
    Source: RoFormer eq. (15)-(16); Higham (2002) §2.2.

    >>> exact_angle_error(3, 2).tolist()  # theta_0 = 1: 3 * 1 is exact
    [0.0]
    >>> bool(exact_angle_error(3, 8)[1] > 0)  # 3 * fl(0.1) is not 0.3
    True
    """
    m = check_real_array(m, "m")
    d, base = check_d(d), check_base(base)
    phi = angles(m, d, base)
    out = np.empty(phi.shape, dtype=np.float64)
    with mpmath.workprec(_PREC):
        exact = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d) for i in range(d // 2)]  # theta_i, exact
        for idx in np.ndindex(*m.shape):
            mm = mpmath.mpf(float(m[idx]))
            for i, t in enumerate(exact):
                out[idx + (i,)] = float(abs(mpmath.mpf(float(phi[idx + (i,)])) - mm * t))
    return finite_result(out, "exact_angle_error", m=m, d=d, base=base)


def two_step_angle_bound(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return a bound on :math:`|\mathrm{fl}(m\hat\theta_i) - m\theta_i|` that counts the rounding of θ̂_i too.

    .. math:: B_i(m) = |m|\,\hat\theta_i\,u\,\big(3 + \tfrac{2i}{d}\ln\mathrm{base}\big)\,(1 + 2^{-40}),
        \qquad u = 2^{-53}

    Assumes ``pow`` is accurate to one ulp (glibc's documented bound) and no underflow; derived in notebook 11
    §1b.  Source: Higham (2002) §2.2 applied to the two roundings.

    >>> float(two_step_angle_bound(1, 2)[0]) == 3 * 2.0**-53 * (1 + 2.0**-40)
    True
    """
    m = check_real_array(m, "m")
    d, base = check_d(d), check_base(base)
    growth = 3.0 + np.arange(0, d, 2) / d * abs(math.log(base))
    return finite_result(
        np.abs(angles(m, d, base)) * UNIT_ROUNDOFF * growth * (1.0 + 2.0**-40),
        "two_step_angle_bound", m=m, d=d, base=base,
    )
