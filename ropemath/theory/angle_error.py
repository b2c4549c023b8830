r"""The float64 angle :math:`\mathrm{fl}(m\hat\theta_i)` against the exact :math:`m\theta_i`, both roundings counted.

Scope: notebook 00's statement about rounding.  ropemath forms the angle in two rounded steps:
:math:`\hat\theta_i = \mathrm{fl}(\mathrm{base}^{\mathrm{fl}(-2i/d)})` (:func:`ropemath.frequencies`),
then :math:`\mathrm{fl}(m\hat\theta_i)` (:func:`ropemath.angles`).  The bound
:math:`|m|\theta_i u` (:func:`ropemath.angle_error_bound`, :math:`u = 2^{-53}`) covers the
second step only: it compares with :math:`m\hat\theta_i`, not with the exact :math:`m\theta_i`.
Against the exact angle the rounding of :math:`\hat\theta_i` adds :math:`|m|\,|\hat\theta_i - \theta_i|`
(measured up to about 1.9× the one-step bound for d = 128).  This module measures both errors
exactly (:func:`frequency_relative_error`, :func:`exact_angle_error`, with mpmath at 160 bits) and
states the two-step bound :func:`two_step_angle_bound`:

.. math::
    |\mathrm{fl}(m\hat\theta_i) - m\theta_i|
    \le |m|\,\theta_i\,u\,\big(3 + \tfrac{2i}{d}\ln\mathrm{base}\big)\,(1 + 2^{-40})

from :math:`\hat\theta_i = \theta_i(1+\eta)(1+\delta_2)` with
:math:`|\eta| \le \tfrac{2i}{d}\ln(\mathrm{base})\,u\,(1+u)` (the exponent :math:`-2i/d` rounded once;
exact when d is a power of two) and :math:`|\delta_2| \le 2u` (``pow`` within one ulp, the accuracy
glibc documents), then :math:`|\delta_3| \le u` for the product.
The factor :math:`1 + 2^{-40}` absorbs the second-order terms.  The full analysis is the appendix
notebook 11 ("Bound the rounding errors").

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.2 eq. (15) (the frequencies);
N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed. (2002), §2.2 (the standard model);
the GNU C Library manual, "Errors in Math Functions" (pow: at most 1 ulp).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_positions, finite_result
from ropemath.core.rotation import angles, frequencies
from ropemath.core.roundoff import UNIT_ROUNDOFF

__all__ = ["exact_frequencies", "frequency_relative_error", "exact_angle_error", "two_step_angle_bound"]

_PREC = 160  # bits: far beyond float64's 53, so the reference values are exact for our purpose


def _exact_theta(d: int, base: float) -> list[mpmath.mpf]:
    with mpmath.workprec(_PREC):
        b = mpmath.mpf(base)
        return [mpmath.power(b, -mpmath.mpf(2 * i) / d) for i in range(d // 2)]


def exact_frequencies(d: int, base: float = 10000.0) -> list[mpmath.mpf]:
    r"""Return the exact frequencies :math:`\theta_i = \mathrm{base}^{-2i/d}` as 160-bit mpmath numbers.

    .. math:: \theta_i = \mathrm{base}^{-2i/d}, \quad i = 0, \dots, d/2 - 1 \quad \text{(no rounding)}

    Source: RoFormer eq. (15), 0-based index.

    >>> [float(t) for t in exact_frequencies(4)]
    [1.0, 0.01]
    """
    return _exact_theta(check_d(d), check_base(base))


def frequency_relative_error(d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return :math:`|\hat\theta_i - \theta_i| / \theta_i` for the float64 :math:`\hat\theta_i` of ``frequencies``.

    .. math:: \varepsilon_i = \frac{|\hat\theta_i - \theta_i|}{\theta_i}

    Source: RoFormer eq. (15); Higham (2002) §2.2.

    >>> frequency_relative_error(2).tolist()  # theta_0 = 1 is exact
    [0.0]
    >>> bool(frequency_relative_error(8)[1] > 0)  # 0.1 is not a binary fraction
    True
    """
    d, base = check_d(d), check_base(base)
    with mpmath.workprec(_PREC):
        return finite_result(
            np.array(
         [float(abs(mpmath.mpf(float(t)) - e) / e) for t, e in zip(frequencies(d, base), _exact_theta(d, base),
                                                                    strict=True)]
     ),
            "frequency_relative_error", d=d, base=base,
        )


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
    m = check_positions(m)
    d, base = check_d(d), check_base(base)
    phi = angles(m, d, base)
    exact = _exact_theta(d, base)
    out = np.empty(phi.shape, dtype=np.float64)
    with mpmath.workprec(_PREC):
        for idx in np.ndindex(*m.shape):
            mm = mpmath.mpf(float(m[idx]))
            for i, t in enumerate(exact):
                out[idx + (i,)] = float(abs(mpmath.mpf(float(phi[idx + (i,)])) - mm * t))
    return finite_result(out, "exact_angle_error", m=m, d=d, base=base)


def two_step_angle_bound(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return a bound on :math:`|\mathrm{fl}(m\hat\theta_i) - m\theta_i|` that counts the rounding of θ̂_i too.

    .. math:: B_i(m) = |m|\,\hat\theta_i\,u\,\big(3 + \tfrac{2i}{d}\ln\mathrm{base}\big)\,(1 + 2^{-40}),
        \qquad u = 2^{-53}

    Assumes ``pow`` is accurate to one ulp (glibc's documented bound) and no underflow.
    Source: Higham (2002) §2.2 applied to the two roundings (see the module docstring).

    >>> float(two_step_angle_bound(1, 2)[0]) == 3 * 2.0**-53 * (1 + 2.0**-40)
    True
    """
    m = check_positions(m)
    d, base = check_d(d), check_base(base)
    growth = 3.0 + np.arange(0, d, 2) / d * abs(math.log(base))
    return finite_result(
        np.abs(angles(m, d, base)) * UNIT_ROUNDOFF * growth * (1.0 + 2.0**-40),
        "two_step_angle_bound", m=m, d=d, base=base,
    )
