r"""Context extension as changes of the frequencies: PI, NTK, dynamic NTK, and the pairs that meet unseen angles.

Conventions: :math:`\theta_i = b^{-2i/d}`, :math:`\lambda_i = 2\pi/\theta_i`, ``scale`` :math:`s = L'/L \ge 1`;
a context of length ``L`` fills the positions :math:`[0, L)`, so pair ``i`` turns fully iff :math:`\lambda_i \le L`.

References: Chen et al., arXiv:2306.15595 (PI); bloc97 and emozilla (NTK-aware and dynamic NTK, 2023);
transformers ``_compute_dynamic_ntk_parameters``.
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    check_base,
    check_d,
    check_frequencies,
    check_int,
    check_real,
    check_scale,
    finite_result,
)
from ropemath.core.rotation import frequencies
from ropemath.models.yarn import yarn_frequencies

__all__ = [
    "position_interpolation",
    "ntk_base",
    "ntk_frequencies",
    "dynamic_ntk_scale",
    "dynamic_ntk_frequencies",
    "extension_frequencies",
    "never_full_turn",
    "angle_range_ratio",
    "unseen_angle_pairs",
]


def _theta(theta: npt.ArrayLike, name: str = "theta") -> np.ndarray:
    arr = check_frequencies(theta, name)
    if arr.ndim != 1 or arr.size == 0 or np.any(arr <= 0):
        raise ValueError(f"{name} must be a non-empty 1-D array of frequencies > 0, got shape {arr.shape}")
    return arr


def position_interpolation(d: int, base: float = 10000.0, *, scale: float) -> np.ndarray:
    r"""Position Interpolation: every frequency divided by the extension factor.

    .. math:: \theta'_i = \theta_i / s, \qquad s = L'/L

    Equivalent to feeding positions :math:`mL/L'` (Chen et al., arXiv:2306.15595 eq. 4:
    :math:`f'(x, m) = f(x, mL/L')`), because the angle is :math:`m\theta_i`.

    >>> position_interpolation(4, scale=4.0).tolist()
    [0.25, 0.0025]
    """
    return finite_result(
        frequencies(d, base) / check_scale(scale),
        "position_interpolation", d=d, base=base, scale=scale,
    )


def ntk_base(d: int, base: float = 10000.0, *, scale: float) -> float:
    r"""NTK-aware base change: the base that divides the lowest frequency by exactly ``s``.

    .. math:: b' = b \cdot s^{d/(d-2)}

    With :math:`\theta'_i = b'^{-2i/d} = \theta_i\, s^{-2i/(d-2)}`: pair 0 keeps
    :math:`\theta'_0 = 1`, and the last pair :math:`i = d/2-1` gets exactly :math:`\theta_i/s`.
    Needs :math:`d \ge 4`.  Source: bloc97 (2023), as implemented in Hugging Face
    ``_compute_dynamic_ntk_parameters``.

    >>> round(ntk_base(4, 100.0, scale=4.0), 6)
    1600.0
    """
    d = check_d(d)
    if d < 4:
        raise ValueError(f"d must be an even integer >= 4 for NTK scaling (d - 2 > 0), got {d}")
    return finite_result(
        check_base(base) * check_scale(scale) ** (d / (d - 2)),
        "ntk_base", d=d, base=base, scale=scale,
    )


def ntk_frequencies(d: int, base: float = 10000.0, *, scale: float) -> np.ndarray:
    r"""NTK-aware scaling: the ordinary frequencies of the new base :func:`ntk_base`.

    .. math:: \theta'_i = \big(b\, s^{d/(d-2)}\big)^{-2i/d} = \theta_i\, s^{-2i/(d-2)}

    >>> [round(v, 12) for v in ntk_frequencies(4, 100.0, scale=4.0).tolist()]
    [1.0, 0.025]
    """
    return finite_result(frequencies(d, ntk_base(d, base, scale=scale)), "ntk_frequencies", d=d, base=base, scale=scale)


def dynamic_ntk_scale(length: int, original_length: int) -> float:
    r"""The factor used by dynamic NTK at the current sequence length.

    .. math:: s(\ell) = \max(1, \ell / L)

    Recomputed whenever the sequence grows.  emozilla's code (2023) and Hugging Face's
    ``_compute_dynamic_ntk_parameters`` use :math:`f\cdot\max(\ell, L)/L - (f-1)` with the config's
    ``factor`` :math:`f`; this function is the case :math:`f = 1`.

    >>> dynamic_ntk_scale(1000, 4096), dynamic_ntk_scale(8192, 4096)
    (1.0, 2.0)
    """
    length = check_int(length, "length", minimum=1)
    L = check_int(original_length, "original_length", minimum=1)
    return finite_result(max(1.0, length / L), "dynamic_ntk_scale", length=length, original_length=original_length)


def dynamic_ntk_frequencies(d: int, base: float = 10000.0, *, length: int, original_length: int) -> np.ndarray:
    r"""Dynamic NTK: :func:`ntk_frequencies` with the factor :math:`s(\ell) = \max(1, \ell/L)`.

    .. math:: \theta'_i(\ell) = \theta_i\, s(\ell)^{-2i/(d-2)}

    >>> bool(np.array_equal(dynamic_ntk_frequencies(8, length=10, original_length=16), frequencies(8)))
    True
    """
    return finite_result(
        ntk_frequencies(d, base, scale=dynamic_ntk_scale(length, original_length)),
        "dynamic_ntk_frequencies", d=d, base=base, length=length, original_length=original_length,
    )


def extension_frequencies(
    d: int = 128, base: float = 10000.0, *, scale: float = 16.0, original_length: int = 4096
) -> dict[str, np.ndarray]:
    r"""The frequencies of every method for one setting, by name (used by notebook 08 and its figure).

    .. math:: \{\theta,\ \theta^{\mathrm{PI}},\ \theta^{\mathrm{NTK}},\
        \theta^{\mathrm{dyn}}(L'),\ \theta^{\mathrm{YaRN}},\ \theta^{\mathrm{YaRN,ref}}\}

    Keys: ``"none"`` (plain RoPE, i.e. extrapolation), ``"PI"``, ``"NTK"``, ``"dynamic NTK at L'"``
    (equal to NTK at :math:`\ell = L' = sL`), ``"YaRN (paper)"``, ``"YaRN (reference code)"``.
    Sources: those of each method (Chen et al.; bloc97; emozilla; Peng et al. and their code).

    >>> sorted(extension_frequencies(8, scale=2.0, original_length=64))[:3]
    ['NTK', 'PI', 'YaRN (paper)']
    """

    s = check_scale(scale)
    L = check_int(original_length, "original_length", minimum=1)
    return finite_result(
        {
            "none": frequencies(d, base),
            "PI": position_interpolation(d, base, scale=s),
            "NTK": ntk_frequencies(d, base, scale=s),
            "dynamic NTK at L'": dynamic_ntk_frequencies(d, base, length=round(s * L), original_length=L),
            "YaRN (paper)": yarn_frequencies(d, base, scale=s, original_length=L, formula="paper"),
            "YaRN (reference code)": yarn_frequencies(d, base, scale=s, original_length=L),
        },
        "extension_frequencies", d=d, base=base, scale=scale, original_length=original_length,
    )


# --- unseen angles ------------------------------------------------------------------------


def never_full_turn(theta: npt.ArrayLike, length: int) -> np.ndarray:
    r"""Boolean mask of the pairs that never complete a full turn within ``length`` positions.

    .. math:: L\,\theta_i < 2\pi \iff \lambda_i > L

    >>> int(never_full_turn(frequencies(128), 4096).sum())
    18
    """
    th = _theta(theta)
    L = check_int(length, "length", minimum=1)
    return 2.0 * np.pi / th > L


def angle_range_ratio(
    theta_new: npt.ArrayLike, theta: npt.ArrayLike, *, length: int, new_length: int
) -> np.ndarray:
    r"""Largest angle at the extended length over the largest angle seen in training, per pair.

    .. math:: \rho_i = \frac{L'\,\theta'_i}{L\,\theta_i}

    :math:`\rho_i \le 1`: the extended context stays inside the angles trained on.
    Computed as :math:`(L'/L)(\theta'_i/\theta_i)`.

    >>> angle_range_ratio(position_interpolation(8, scale=4.0), frequencies(8), length=64, new_length=256).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    new, old = _theta(theta_new, "theta_new"), _theta(theta, "theta")
    if new.shape != old.shape:
        raise ValueError(f"theta_new must have the shape of theta {old.shape}, got {new.shape}")
    L = check_int(length, "length", minimum=1)
    L2 = check_int(new_length, "new_length", minimum=1)
    return finite_result(
        (L2 / L) * (new / old),
        "angle_range_ratio", theta_new=theta_new, theta=theta, length=length, new_length=new_length,
    )


def unseen_angle_pairs(
    theta_new: npt.ArrayLike, theta: npt.ArrayLike, *, length: int, new_length: int, rtol: float = 1e-12
) -> np.ndarray:
    r"""Mask of the pairs whose angles at the extended length leave the range seen in training.

    .. math:: \lambda_i > L \ \text{ and } \ L'\theta'_i > L\theta_i\,(1 + \mathrm{rtol})

    A pair that completed a full turn in training has seen every angle, so only pairs with
    :math:`\lambda_i > L` can meet unseen angles.  ``rtol`` absorbs rounding in the ratio.

    >>> th = frequencies(128)
    >>> int(unseen_angle_pairs(th, th, length=4096, new_length=65536).sum())  # plain extrapolation
    18
    """
    ratio = angle_range_ratio(theta_new, theta, length=length, new_length=new_length)
    rtol = check_real(rtol, "rtol", minimum=0.0)
    return never_full_turn(theta, length) & (ratio > 1.0 + rtol)
