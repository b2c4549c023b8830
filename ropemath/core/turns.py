r"""How many pairs complete a full turn inside a context: the closed form of notebook 03, section 3.

Scope: :func:`full_turn_count_closed_form` evaluates the closed form
:math:`\min(d/2, \lfloor \frac d2 \log_{\text{base}} \frac{L-1}{2\pi} \rfloor + 1)` that notebook 03
derives by hand, so that the notebook only compares it with :func:`ropemath.full_turn_count` (which
compares wavelengths with :math:`L - 1`) and with brute force over every position
(:func:`full_turn_count_brute_force`).  Three independent routes to one number.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.2 eq. (15) (the frequencies
:math:`\theta_i = 10000^{-2(i-1)/d}`, 1-based there; 0-based here, see README "Notation").
"""

from __future__ import annotations

import math

import numpy as np

from ropemath.core._validate import check_base, check_d, check_int
from ropemath.core.rotation import frequencies

__all__ = ["full_turn_count_closed_form", "full_turn_count_brute_force"]


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
