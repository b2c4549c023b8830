r"""Context extension, for teaching: the critical pair, two readings of YaRN's ramp, Men et al.'s published bases.

Conventions: index ``i`` from 0, :math:`\theta_i = b^{-2i/d}`, :math:`\lambda_i = 2\pi/\theta_i`.

References: Liu et al., arXiv:2310.05209 (critical dimension); Peng et al., *YaRN*, arXiv:2309.00071 §3.2 and
github.com/jquesnelle/yarn; Men et al., arXiv:2405.14591; Su, kexue.fm/archives/10122.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_int, check_real, check_scale
from ropemath.core.rotation import frequencies
from ropemath.models.scaling import ntk_base
from ropemath.models.yarn import yarn_ramp
from ropemath.theory.base_bound import base_lower_bound, cosine_sum_minimum, failing_intervals

__all__ = [
    "MEN_ET_AL_BASES",
    "critical_pair",
    "yarn_bprime_frequencies",
    "yarn_bands",
    "round_up",
    "PublishedBase",
    "check_published_bases",
]

#: Men et al. (arXiv:2405.14591), lower bound of the base by context length (1k-64k; d = 128, as Su computes it):
#: Table 2 of the paper; Su's post (kexue.fm/archives/10122, section 数值求解) copies that row as 原文 ("original").
MEN_ET_AL_BASES = {1024: 4.3e3, 2048: 1.6e4, 4096: 2.7e4, 8192: 8.4e4, 16384: 3.1e5, 32768: 6.4e5, 65536: 2.1e6}


def critical_pair(d: int, base: float, length: int) -> int:
    r"""The last pair whose wavelength fits in ``length`` (-1 if none does).

    .. math:: i_c = \max\{\, i : \lambda_i = 2\pi b^{2i/d} \le L \,\}
        = \Big\lceil \tfrac{d}{2}\log_b \tfrac{L}{2\pi} \Big\rceil - 1 \ \ (\text{non-integer case})

    Pairs ``0..i_c`` complete at least one turn in training; Liu et al. call the
    :math:`2(i_c + 1)` coordinates of these pairs the critical dimension.  Source: Liu et al.,
    arXiv:2310.05209 §3 (critical dimension :math:`d_{\mathrm{extra}}`).

    >>> critical_pair(128, 10000.0, 4096), critical_pair(128, 500000.0, 8192)
    (45, 34)
    """
    d, base = check_d(d), check_base(base)
    L = check_int(length, "length", minimum=1)
    fits = np.flatnonzero(2.0 * np.pi / frequencies(d, base) <= L)
    return int(fits[-1]) if fits.size else -1


def yarn_bprime_frequencies(
    d: int, base: float = 10000.0, *, scale: float, original_length: int, alpha: float = 1.0, beta: float = 32.0
) -> np.ndarray:
    r"""YaRN's paper ramp with :math:`r_i` computed from the NTK base :math:`b' = b s^{d/(d-2)}`.

    .. math:: r'_i = \frac{L}{2\pi\, b'^{2i/d}}, \qquad
        \theta'_i = \big(1-\gamma(r'_i)\big)\frac{\theta_i}{s} + \gamma(r'_i)\,\theta_i,
        \quad \theta_i = b^{-2i/d}

    This is the reading of YaRN §3.2 in which the wavelength inside :math:`r(d)` uses
    :math:`b'`; :func:`ropemath.yarn_frequencies` (and the reference code's
    ``find_correction_dim``) use :math:`b`.  Source: Peng et al., arXiv:2309.00071 §3.2.

    >>> th = yarn_bprime_frequencies(128, 10000.0, scale=16.0, original_length=4096)
    >>> {k: (int(v[0]), int(v[-1])) for k, v in yarn_bands(th, frequencies(128), 16.0).items() if v.size}
    {'kept': (0, 16), 'blended': (17, 34), 'interpolated': (35, 63)}
    """
    s = check_scale(scale)
    L = check_int(original_length, "original_length", minimum=1)
    th = frequencies(d, base)
    bp = ntk_base(d, base, scale=s)
    r = L / (2.0 * np.pi * bp ** (np.arange(th.size) * 2.0 / d))
    gamma = yarn_ramp(r, alpha, beta)
    return (1.0 - gamma) * th / s + gamma * th


def yarn_bands(theta_new: npt.ArrayLike, theta: npt.ArrayLike, scale: float) -> dict[str, np.ndarray]:
    r"""Indices of the pairs a frequency map keeps, blends and interpolates (divides by ``scale``).

    .. math:: \text{kept}: \theta'_i = \theta_i, \quad \text{interpolated}: \theta'_i = \theta_i/s,
        \quad \text{blended}: \text{otherwise}

    Equality is tested to a relative 1e-13 (the blends are a few float64 operations).

    >>> th = frequencies(8)
    >>> {k: v.tolist() for k, v in yarn_bands(np.array([th[0], th[1], 0.5 * th[2], th[3] / 4]), th, 4.0).items()}
    {'kept': [0, 1], 'blended': [2], 'interpolated': [3]}
    """
    new, old = np.asarray(theta_new, dtype=np.float64), np.asarray(theta, dtype=np.float64)
    s = check_scale(scale)
    if new.shape != old.shape or new.ndim != 1:
        raise ValueError(f"theta_new and theta must be vectors of one shape, got {new.shape} and {old.shape}")
    kept = np.isclose(new, old, rtol=1e-13, atol=0.0)
    interp = np.isclose(new, old / s, rtol=1e-13, atol=0.0) & ~kept
    return {
        "kept": np.flatnonzero(kept),
        "blended": np.flatnonzero(~kept & ~interp),
        "interpolated": np.flatnonzero(interp),
    }


def round_up(value: float, decimals: int = 1) -> float:
    r"""Round ``value`` up to ``decimals`` decimal places (the printed value is never below the true one).

    .. math:: \lceil x \rceil_k = \lceil 10^k x \rceil / 10^k

    >>> round_up(4293.4376, 1), round_up(11587.2443, 1), round_up(2.0, 1)
    (4293.5, 11587.3, 2.0)
    """
    x = check_real(value, "value")
    k = check_int(decimals, "decimals", minimum=0, maximum=12)
    out = math.ceil(x * 10**k) / 10**k
    return out if out >= x else (math.ceil(x * 10**k) + 1) / 10**k


@dataclass(frozen=True)
class PublishedBase:
    """A published base against Men et al.'s condition at length ``length`` (d = ``d``)."""

    length: int
    d: int
    published: float
    b_star: float  # ropemath's smallest base satisfying the condition
    margin: float  # min over 0 <= m < L of sum_i cos(m theta_i) at the published base
    window: tuple[float, float, float] | None  # failing run of a local grid containing the published base
    clipped: bool  # the failing run reaches an end of the grid (the window is wider than shown)


def check_published_bases(published: dict[int, float], d: int = 128, *, grid: int = 161) -> list[PublishedBase]:
    r"""Evaluate each published base against the condition it is derived from, and locate its failing window.

    .. math:: \mu_b(L) = \min_{0\le m<L} \sum_{i=0}^{d/2-1} \cos\big(m\, b^{-2i/d}\big) \ \ge\ 0 \; ?

    For each ``(L, b)``: ropemath's :math:`b^*(L)` (:func:`ropemath.base_lower_bound`), the margin
    :math:`\mu_b(L)` (all ``L`` positions), and, on a geometric grid of ``grid`` bases within ±10 %
    of ``b`` (plus ``b`` itself), the run of failing grid points that contains ``b`` (``None``
    if the condition holds at ``b``).  Source: Men et al., arXiv:2405.14591; Su, kexue.fm/archives/10122.

    >>> [round(r.margin, 2) for r in check_published_bases({2048: 1.6e4})]
    [2.02]
    """
    d = check_d(d)
    grid = check_int(grid, "grid", minimum=3, maximum=401)
    out = []
    for L, b in published.items():
        L, b = check_int(L, "length", minimum=1), check_base(b, "published base")
        margin = float(cosine_sum_minimum(L, d, b))
        window, clipped = None, False
        if margin < 0:
            bases = np.union1d(np.geomspace(b / 1.1, b * 1.1, grid), [b])
            runs = failing_intervals(bases, cosine_sum_minimum(L, d, bases))
            window = next(run for run in runs if run[0] <= b <= run[1])
            clipped = bool(window[0] == bases[0] or window[1] == bases[-1])
        out.append(PublishedBase(L, d, b, base_lower_bound(L, d).base, margin, window, clipped))
    return out
