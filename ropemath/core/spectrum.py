r"""The spectrum of RoPE: wavelengths of the d/2 pairs and how far each turns in a context.

Scope: the wavelength :math:`\lambda_i` (positions per full turn of pair ``i``), the turns pair ``i``
has made at position ``m``, and how many pairs make at least one full turn inside a context of ``L``
positions.  Pair 0 turns fastest (:math:`\theta_0 = 1`, :math:`\lambda_0 = 2\pi`).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.2 eq. (15) (the frequencies);
Peng et al., *YaRN*, arXiv:2309.00071 (the name "wavelength" :math:`\lambda_i = 2\pi/\theta_i`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_int
from ropemath.core.rotation import angles, frequencies

__all__ = ["wavelengths", "turns", "full_turn_count"]


def wavelengths(d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return the wavelengths :math:`\lambda_i` (positions per full turn), float64, shape (d//2,).

    .. math:: \lambda_i = \frac{2\pi}{\theta_i} = 2\pi\,\mathrm{base}^{2i/d},
        \quad i = 0, \dots, d/2 - 1

    Source: RoFormer eq. (15) for :math:`\theta_i`; the name follows YaRN (arXiv:2309.00071).
    The wavelengths grow geometrically, by a factor :math:`\mathrm{base}^{2/d}` per pair.

    >>> [round(v, 4) for v in wavelengths(4, base=100.0).tolist()]
    [6.2832, 62.8319]
    """
    return 2.0 * np.pi / frequencies(d, base)


def turns(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return the number of turns :math:`m\theta_i / 2\pi` of each pair at position ``m``.

    .. math:: t_i(m) = \frac{m\,\theta_i}{2\pi} = \frac{m}{\lambda_i}

    Shape ``m.shape + (d//2,)``; negative ``m`` turns clockwise (negative values).
    Source: RoFormer eq. (15)-(16) (pair ``i`` is rotated by the angle :math:`m\theta_i`).

    >>> [round(v, 4) for v in turns(100, 4, base=100.0).tolist()]
    [15.9155, 1.5915]
    """
    return angles(m, d, base) / (2.0 * np.pi)


def full_turn_count(context_length: int, d: int, base: float = 10000.0) -> int:
    r"""Return how many pairs complete at least one full turn within ``context_length`` positions.

    .. math:: \mathrm{count} = \#\{\, i : \lambda_i \le L - 1 \,\}

    A context of :math:`L` positions holds positions :math:`0, \dots, L-1`, so pair ``i`` turns
    fully iff :math:`(L-1)\theta_i \ge 2\pi`.  Counted from the float64 wavelengths.  Source: RoFormer eq. (15).

    >>> full_turn_count(4096, 128)
    46
    >>> full_turn_count(4096, 128, base=500000.0)
    32
    >>> full_turn_count(8, 8), full_turn_count(7, 8)  # 7 >= 2*pi > 6
    (1, 0)
    """
    L = check_int(context_length, "context_length", minimum=1)
    return int(np.count_nonzero(wavelengths(d, base) <= L - 1))


