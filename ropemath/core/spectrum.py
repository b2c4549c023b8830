r"""The spectrum of RoPE: wavelengths of the d/2 pairs and how far each turns in a context.

Scope: from the frequencies :math:`\theta_i` of :func:`ropemath.frequencies` to the
quantities a reader uses to picture them: the wavelength :math:`\lambda_i` (positions per
full turn of pair ``i``), the number of turns pair ``i`` has made at position ``m``, and how
many pairs make at least one full turn inside a context of ``L`` positions (counted from the
wavelengths, in the closed form :math:`\min(d/2, \lfloor \frac d2 \log_{b} \frac{L-1}{2\pi} \rfloor + 1)`, and by
trying every position: three routes to one number).

Index ``i`` runs from 0 (:math:`\theta_i = \mathrm{base}^{-2i/d}`, the paper's
:math:`\theta_{i+1}`).  Pair 0 turns fastest (:math:`\theta_0 = 1` radian per position,
:math:`\lambda_0 = 2\pi`); pair :math:`d/2-1` turns slowest.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.2 eq. (15) (the frequencies);
Peng et al., *YaRN*, arXiv:2309.00071 (the name "wavelength" :math:`\lambda_i = 2\pi/\theta_i`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_int, finite_result
from ropemath.core.rotation import angles, frequencies

__all__ = ["wavelengths", "turns", "full_turn_count", "full_turn_count_closed_form", "full_turn_count_brute_force"]


def wavelengths(d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return the wavelengths :math:`\lambda_i` (positions per full turn), float64, shape (d//2,).

    .. math:: \lambda_i = \frac{2\pi}{\theta_i} = 2\pi\,\mathrm{base}^{2i/d},
        \quad i = 0, \dots, d/2 - 1

    Source: RoFormer eq. (15) for :math:`\theta_i`; the name follows YaRN (arXiv:2309.00071).
    The wavelengths grow geometrically, by a factor :math:`\mathrm{base}^{2/d}` per pair.

    >>> [round(v, 4) for v in wavelengths(4, base=100.0).tolist()]
    [6.2832, 62.8319]
    """
    return finite_result(2.0 * np.pi / frequencies(check_d(d), check_base(base)), "wavelengths", d=d, base=base)


def turns(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return the number of turns :math:`m\theta_i / 2\pi` of each pair at position ``m``.

    .. math:: t_i(m) = \frac{m\,\theta_i}{2\pi} = \frac{m}{\lambda_i}

    Shape ``m.shape + (d//2,)``; negative ``m`` turns clockwise (negative values).
    Source: RoFormer eq. (15)-(16) (pair ``i`` is rotated by the angle :math:`m\theta_i`).

    >>> [round(v, 4) for v in turns(100, 4, base=100.0).tolist()]
    [15.9155, 1.5915]
    """
    return finite_result(angles(m, d, base) / (2.0 * np.pi), "turns", m=m, d=d, base=base)


def full_turn_count(context_length: int, d: int, base: float = 10000.0) -> int:
    r"""Return how many pairs complete at least one full turn within ``context_length`` positions.

    A context of :math:`L` positions holds positions :math:`0, \dots, L-1`, so the largest
    angle of pair ``i`` is :math:`(L-1)\theta_i`; the pair completes a full turn iff
    :math:`(L-1)\theta_i \ge 2\pi`, i.e. :math:`\lambda_i \le L - 1`.  The wavelengths grow
    with ``i``, so these pairs are ``i = 0 .. count-1`` and, for :math:`L - 1 \ge 2\pi`,

    .. math:: \mathrm{count} = \min\Big(\frac{d}{2},\;
        \Big\lfloor \frac{d}{2} \log_{\mathrm{base}} \frac{L-1}{2\pi} \Big\rfloor + 1\Big)

    (0 if :math:`L - 1 < 2\pi`).  The count is taken by comparing the float64 wavelengths
    with ``L - 1``; the closed form is what the tests check it against.  Source: RoFormer eq. (15).

    >>> full_turn_count(4096, 128)
    46
    >>> full_turn_count(4096, 128, base=500000.0)
    32
    >>> full_turn_count(8, 8), full_turn_count(7, 8)  # 7 >= 2*pi > 6
    (1, 0)
    """
    L = check_int(context_length, "context_length", minimum=1)
    return int(np.count_nonzero(wavelengths(d, base) <= L - 1))


def full_turn_count_closed_form(length: int, d: int, base: float = 10000.0) -> int:
    r"""Return the number of pairs whose angle reaches :math:`2\pi` within positions :math:`0..L-1`, in closed form.

    .. math:: \text{count} = \min\Big(\frac d2,\ \Big\lfloor \frac d2 \log_{\text{base}} \frac{L-1}{2\pi}
              \Big\rfloor + 1\Big) \quad (L - 1 \ge 2\pi;\ \text{else } 0)

    Pair :math:`i` turns fully iff :math:`(L-1)\theta_i \ge 2\pi`, i.e.
    :math:`i \le \frac d2 \log_{\text{base}}\frac{L-1}{2\pi}`.  Source: RoFormer eq. (15).

    >>> full_turn_count_closed_form(4096, 128)
    46
    >>> full_turn_count_closed_form(4096, 128, 500000.0)
    32
    """
    length = check_int(length, "length", minimum=1, maximum=2**53)
    d, base = check_d(d), check_base(base)
    if length - 1 < 2 * math.pi:
        return 0
    return min(d // 2, math.floor(d / 2 * math.log((length - 1) / (2 * math.pi)) / math.log(base)) + 1)


def full_turn_count_brute_force(length: int, d: int, base: float = 10000.0) -> int:
    r"""Return the number of pairs with :math:`m\theta_i \ge 2\pi` for some position m < L, trying every m.

    .. math:: \#\{\, i : \exists\, m < L,\ m\,\theta_i \ge 2\pi \,\}

    Source: RoFormer eq. (15) (the angle :math:`m\theta_i` of pair i at position m).

    >>> full_turn_count_brute_force(4096, 128)
    46
    """
    length = check_int(length, "length", minimum=1, maximum=2**20)
    theta = frequencies(check_d(d), check_base(base))
    return int(np.sum(np.any(np.arange(length)[:, None] * theta >= 2 * np.pi, axis=0)))
