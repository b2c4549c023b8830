r"""Context extension as changes of the frequencies: PI, NTK, dynamic NTK, YaRN, Llama 3.1.

Scope: each method is a plain function of ``(d, base, scale, ...)`` returning the new
frequencies :math:`\theta'_i` (float64, shape (d/2,)); the rotation itself is unchanged, so
the relative-position identity :math:`(R'_m q)^\top (R'_n k) = q^\top R'_{n-m} k` still
holds exactly (:func:`theta_relative_position_error` measures it with dense matrices built
from :math:`\theta'`).  Also here: the "unseen angles" picture — which pairs never complete a
full turn within the training length ``L``, and whether a method keeps the angles of the
extended length ``L'`` inside the range seen in training.

YaRN is given twice: as the paper writes it (a ramp linear in the ratio
:math:`r_i = L/\lambda_i`) and as the authors' reference code and Hugging Face transformers
compute it (a ramp linear in the pair *index*, between boundaries rounded down/up to integers).
They differ on the pairs inside the ramp; notebook 08 measures by how much.

Conventions: index ``i`` from 0, :math:`\theta_i = \mathrm{base}^{-2i/d}` (the paper's
:math:`\theta_{i+1}`); wavelength :math:`\lambda_i = 2\pi/\theta_i`; ``scale`` is
:math:`s = L'/L \ge 1`; positions of a context of length ``L`` fill :math:`[0, L)`, so the
largest angle of pair ``i`` is (the supremum) :math:`L\theta_i`.

References: Chen et al., *Extending Context Window of Large Language Models via Positional
Interpolation*, arXiv:2306.15595; bloc97, "NTK-Aware Scaled RoPE" (r/LocalLLaMA, 2023) and
emozilla, "Dynamically Scaled RoPE" (2023); Peng et al., *YaRN*, arXiv:2309.00071 §3.2-3.4
and github.com/jquesnelle/yarn ``scaled_rope/LlamaYaRNScaledRotaryEmbedding.py``; Hugging
Face transformers ``modeling_rope_utils`` (``_compute_yarn_parameters``,
``_compute_llama3_parameters``); Meta Llama 3.1 ``apply_scaling``.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ._validate import check_base, check_d, check_int, check_positions, check_real, check_x
from .blocks import block_diagonal
from .rotation import frequencies, rotation_2d

__all__ = [
    "position_interpolation",
    "ntk_base",
    "ntk_frequencies",
    "dynamic_ntk_scale",
    "dynamic_ntk_frequencies",
    "yarn_ramp",
    "yarn_frequencies",
    "yarn_correction_dim",
    "yarn_correction_range",
    "yarn_reference_frequencies",
    "yarn_attention_factor",
    "llama31_frequencies",
    "llama31_bands",
    "extension_frequencies",
    "never_full_turn",
    "angle_range_ratio",
    "unseen_angle_pairs",
    "theta_rotation_matrix",
    "theta_relative_position_error",
]


def _scale(scale: object, name: str = "scale") -> float:
    s = check_real(scale, name)
    if s < 1:
        raise ValueError(f"{name} must be a real number >= 1 (the extension factor L'/L), got {s}")
    return s


def _theta(theta: npt.ArrayLike, name: str = "theta") -> np.ndarray:
    arr = check_positions(theta, name)
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
    return frequencies(d, base) / _scale(scale)


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
    return check_base(base) * _scale(scale) ** (d / (d - 2))


def ntk_frequencies(d: int, base: float = 10000.0, *, scale: float) -> np.ndarray:
    r"""NTK-aware scaling: the ordinary frequencies of the new base :func:`ntk_base`.

    .. math:: \theta'_i = \big(b\, s^{d/(d-2)}\big)^{-2i/d} = \theta_i\, s^{-2i/(d-2)}

    >>> [round(v, 12) for v in ntk_frequencies(4, 100.0, scale=4.0).tolist()]
    [1.0, 0.025]
    """
    return frequencies(d, ntk_base(d, base, scale=scale))


def dynamic_ntk_scale(length: int, original_length: int) -> float:
    r"""The factor used by dynamic NTK at the current sequence length.

    .. math:: s(\ell) = \max(1, \ell / L)

    Recomputed whenever the sequence grows (emozilla, 2023).  Note: Hugging Face's
    ``_compute_dynamic_ntk_parameters`` uses :math:`\mathrm{factor}\cdot\ell/L - (\mathrm{factor}-1)`,
    which is this with ``factor = 1``.

    >>> dynamic_ntk_scale(1000, 4096), dynamic_ntk_scale(8192, 4096)
    (1.0, 2.0)
    """
    length = check_int(length, "length", minimum=1)
    L = check_int(original_length, "original_length", minimum=1)
    return max(1.0, length / L)


def dynamic_ntk_frequencies(d: int, base: float = 10000.0, *, length: int, original_length: int) -> np.ndarray:
    r"""Dynamic NTK: :func:`ntk_frequencies` with the factor :math:`s(\ell) = \max(1, \ell/L)`.

    .. math:: \theta'_i(\ell) = \theta_i\, s(\ell)^{-2i/(d-2)}

    Below the training length nothing changes.

    >>> bool(np.array_equal(dynamic_ntk_frequencies(8, length=10, original_length=16), frequencies(8)))
    True
    """
    return ntk_frequencies(d, base, scale=dynamic_ntk_scale(length, original_length))


# --- YaRN ---------------------------------------------------------------------------------


def yarn_ramp(r: npt.ArrayLike, alpha: float = 1.0, beta: float = 32.0) -> np.ndarray:
    r"""YaRN's ramp :math:`\gamma(r)` (paper, eq. 18), elementwise, float64.

    .. math::
        \gamma(r) = \begin{cases} 0 & r < \alpha \\ 1 & r > \beta \\
        \dfrac{r - \alpha}{\beta - \alpha} & \text{otherwise} \end{cases}

    Source: Peng et al., arXiv:2309.00071 §3.2 ("NTK-by-parts"), α = 1, β = 32 for Llama.

    >>> yarn_ramp([0.5, 1.0, 16.5, 32.0, 40.0]).tolist()
    [0.0, 0.0, 0.5, 1.0, 1.0]
    """
    r = check_positions(r, "r")
    alpha, beta = check_real(alpha, "alpha"), check_real(beta, "beta")
    if not 0 <= alpha < beta:
        raise ValueError(f"alpha and beta must satisfy 0 <= alpha < beta, got alpha={alpha}, beta={beta}")
    return np.clip((r - alpha) / (beta - alpha), 0.0, 1.0)


def yarn_frequencies(
    d: int,
    base: float = 10000.0,
    *,
    scale: float,
    original_length: int,
    alpha: float = 1.0,
    beta: float = 32.0,
) -> np.ndarray:
    r"""YaRN frequencies as the paper writes them (ramp linear in :math:`r_i = L/\lambda_i`).

    .. math::
        r_i = \frac{L}{\lambda_i} = \frac{L\,\theta_i}{2\pi}, \qquad
        \theta'_i = \big(1 - \gamma(r_i)\big)\frac{\theta_i}{s} + \gamma(r_i)\,\theta_i

    Pairs that turn more than β times in ``L`` keep :math:`\theta_i`; pairs that turn less
    than α times are interpolated (:math:`\theta_i/s`).  Source: Peng et al.,
    arXiv:2309.00071 §3.2 eq. (18)-(19) (paper index from 1, here from 0).

    >>> th = yarn_frequencies(8, 100.0, scale=4.0, original_length=64)
    >>> [round(v, 6) for v in th.tolist()]  # r = 10.19, 3.22, 1.02, 0.32; gamma = 0.296, 0.072, 0.0006, 0
    [0.47224, 0.09605, 0.025045, 0.007906]
    """
    th = frequencies(d, base)
    s = _scale(scale)
    L = check_int(original_length, "original_length", minimum=1)
    gamma = yarn_ramp(L * th / (2.0 * np.pi), alpha, beta)
    return (1.0 - gamma) * th / s + gamma * th


def yarn_correction_dim(num_rotations: float, d: int, base: float, original_length: int) -> float:
    r"""Pair index at which a pair makes exactly ``num_rotations`` turns in ``original_length``.

    .. math::
        \frac{L}{\lambda_i} = \rho \iff i = \frac{d \,\ln\!\big(L / (2\pi\rho)\big)}{2\ln b}

    (from :math:`\lambda_i = 2\pi b^{2i/d}`).  Source: ``find_correction_dim`` of the YaRN
    reference code and of transformers' ``_compute_yarn_parameters``.

    >>> round(yarn_correction_dim(1.0, 128, 10000.0, 4096), 4), round(yarn_correction_dim(32.0, 128, 10000.0, 4096), 4)
    (45.0269, 20.9445)
    """
    rho = check_real(num_rotations, "num_rotations")
    if rho <= 0:
        raise ValueError(f"num_rotations must be > 0, got {rho}")
    d = check_d(d)
    base = check_base(base)
    if base == 1.0:
        raise ValueError("base must be != 1 (all wavelengths are equal), got 1.0")
    L = check_int(original_length, "original_length", minimum=1)
    return d * math.log(L / (2.0 * math.pi * rho)) / (2.0 * math.log(base))


def yarn_correction_range(
    d: int,
    base: float,
    original_length: int,
    *,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
) -> tuple[float, float]:
    r"""The ramp's index boundaries (low, high) of the YaRN reference code.

    .. math::
        \mathrm{low} = \max\big(0, \lfloor i(\beta_{\mathrm{fast}}) \rfloor\big), \qquad
        \mathrm{high} = \min\big(d - 1, \lceil i(\beta_{\mathrm{slow}}) \rceil\big)

    with :math:`i(\rho)` from :func:`yarn_correction_dim`.  ``truncate=False`` skips the
    floor/ceil (transformers' ``truncate`` option).  The upper clamp is :math:`d - 1` in the
    reference code although pair indices stop at :math:`d/2 - 1`.

    >>> yarn_correction_range(128, 10000.0, 4096)
    (20.0, 46.0)
    """
    if not isinstance(truncate, (bool, np.bool_)):
        raise TypeError(f"truncate must be a bool, got {type(truncate).__name__}")
    low = yarn_correction_dim(beta_fast, d, base, original_length)
    high = yarn_correction_dim(beta_slow, d, base, original_length)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return float(max(low, 0)), float(min(high, d - 1))


def yarn_reference_frequencies(
    d: int,
    base: float = 10000.0,
    *,
    scale: float,
    original_length: int,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
) -> np.ndarray:
    r"""YaRN frequencies as the reference code computes them (ramp linear in the pair index).

    .. math::
        \mathrm{ramp}_i = \operatorname{clip}\Big(\frac{i - \mathrm{low}}{\mathrm{high} - \mathrm{low}}, 0, 1\Big),
        \quad \mathrm{mask}_i = 1 - \mathrm{ramp}_i, \quad
        \theta'_i = \frac{\theta_i}{s}(1 - \mathrm{mask}_i) + \theta_i\,\mathrm{mask}_i

    with (low, high) from :func:`yarn_correction_range` (``high`` nudged by 0.001 if equal to
    ``low``, as the code does).  Written from the documented behaviour of the reference code
    (github.com/jquesnelle/yarn) and transformers' ``_compute_yarn_parameters``; computed in
    float64 here (the originals use float32).  Since :math:`i` is linear in :math:`\ln r_i`, this
    ramp is linear in :math:`\ln r` where the paper's is linear in :math:`r`.

    >>> th = yarn_reference_frequencies(8, 100.0, scale=4.0, original_length=64)
    >>> [round(v, 6) for v in th.tolist()]  # low = 0, high = 3: mask = 1, 2/3, 1/3, 0
    [1.0, 0.237171, 0.05, 0.007906]
    """
    s = _scale(scale)
    th = frequencies(d, base)
    low, high = yarn_correction_range(
        d, base, original_length, beta_fast=beta_fast, beta_slow=beta_slow, truncate=truncate
    )
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)
    mask = 1.0 - ramp
    return th / s * (1.0 - mask) + th * mask


def yarn_attention_factor(scale: float) -> float:
    r"""YaRN's attention temperature, as the factor :math:`\sqrt{1/t}` applied to q and k.

    .. math:: \sqrt{1/t} = 0.1 \ln s + 1

    Multiplying both q and k by it multiplies every logit by :math:`1/t`.  Source: Peng et
    al., arXiv:2309.00071 §3.4 eq. (22); the reference code's ``get_mscale`` (1 for s <= 1).

    >>> round(yarn_attention_factor(16.0), 6)
    1.277259
    """
    return 0.1 * math.log(_scale(scale)) + 1.0


# --- Llama 3.1 ----------------------------------------------------------------------------


def _llama31(d, base, factor, low_freq_factor, high_freq_factor, original_length):
    th = frequencies(d, base)
    factor = _scale(factor, "factor")
    lo, hi = check_real(low_freq_factor, "low_freq_factor"), check_real(high_freq_factor, "high_freq_factor")
    if not 0 < lo < hi:
        raise ValueError(f"low_freq_factor and high_freq_factor must satisfy 0 < low < high, got {lo}, {hi}")
    L = check_int(original_length, "original_length", minimum=1)
    wl = 2.0 * np.pi / th
    divided = wl > L / lo
    kept = wl < L / hi
    smooth = (L / wl - lo) / (hi - lo)
    blended = (1.0 - smooth) * th / factor + smooth * th
    out = np.where(divided, th / factor, np.where(kept, th, blended))
    return out, np.where(divided, "divided", np.where(kept, "kept", "blended"))


def llama31_frequencies(
    d: int = 128,
    base: float = 500000.0,
    *,
    factor: float = 8.0,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
    original_length: int = 8192,
) -> np.ndarray:
    r"""Llama 3.1 frequency scaling (defaults: the released Llama 3.1 configuration).

    .. math::
        \theta'_i = \begin{cases}
        \theta_i / f & \lambda_i > L/\ell \quad(\text{divided})\\
        \theta_i & \lambda_i < L/h \quad(\text{kept})\\
        (1-\sigma_i)\,\theta_i/f + \sigma_i\,\theta_i & \text{otherwise (blended)},\quad
        \sigma_i = \dfrac{L/\lambda_i - \ell}{h - \ell}
        \end{cases}

    with :math:`f` = ``factor``, :math:`\ell` = ``low_freq_factor``, :math:`h` =
    ``high_freq_factor``, :math:`L` = ``original_length``.  Source: Meta's ``apply_scaling``
    (Llama 3.1) and transformers' ``_compute_llama3_parameters``.

    >>> th = llama31_frequencies()
    >>> bool(th[0] == 1.0), bool(th[-1] == frequencies(128, 500000.0)[-1] / 8)
    (True, True)
    """
    return _llama31(d, base, factor, low_freq_factor, high_freq_factor, original_length)[0]


def llama31_bands(
    d: int = 128,
    base: float = 500000.0,
    *,
    factor: float = 8.0,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
    original_length: int = 8192,
) -> np.ndarray:
    r"""Which branch of :func:`llama31_frequencies` each pair takes: "kept", "blended" or "divided".

    .. math::
        \text{kept} \iff \lambda_i < L/h, \qquad \text{divided} \iff \lambda_i > L/\ell

    >>> bands = llama31_bands()
    >>> [int(np.sum(bands == name)) for name in ("kept", "blended", "divided")]
    [29, 6, 29]
    """
    return _llama31(d, base, factor, low_freq_factor, high_freq_factor, original_length)[1]


def extension_frequencies(
    d: int = 128, base: float = 10000.0, *, scale: float = 16.0, original_length: int = 4096
) -> dict[str, np.ndarray]:
    r"""The frequencies of every method for one setting, by name (used by notebook 08 and its figure).

    .. math:: \{\theta,\ \theta^{\mathrm{PI}},\ \theta^{\mathrm{NTK}},\
        \theta^{\mathrm{dyn}}(L'),\ \theta^{\mathrm{YaRN}},\ \theta^{\mathrm{YaRN,ref}}\}

    Keys: ``"none"`` (plain RoPE, i.e. extrapolation), ``"PI"``, ``"NTK"``, ``"dynamic NTK at L'"``
    (equal to NTK at :math:`\ell = L' = sL`), ``"YaRN (paper)"``, ``"YaRN (reference code)"``.

    >>> sorted(extension_frequencies(8, scale=2.0, original_length=64))[:3]
    ['NTK', 'PI', 'YaRN (paper)']
    """
    s = _scale(scale)
    L = check_int(original_length, "original_length", minimum=1)
    return {
        "none": frequencies(d, base),
        "PI": position_interpolation(d, base, scale=s),
        "NTK": ntk_frequencies(d, base, scale=s),
        "dynamic NTK at L'": dynamic_ntk_frequencies(d, base, length=round(s * L), original_length=L),
        "YaRN (paper)": yarn_frequencies(d, base, scale=s, original_length=L),
        "YaRN (reference code)": yarn_reference_frequencies(d, base, scale=s, original_length=L),
    }


# --- unseen angles ------------------------------------------------------------------------


def never_full_turn(theta: npt.ArrayLike, length: int) -> np.ndarray:
    r"""Boolean mask of the pairs that never complete a full turn within ``length`` positions.

    .. math:: L\,\theta_i < 2\pi \iff \lambda_i > L

    Over :math:`m \in [0, L)` such a pair only ever sees the angles :math:`[0, L\theta_i)`.

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
    return (L2 / L) * (new / old)


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
    rtol = check_real(rtol, "rtol")
    return never_full_turn(theta, length) & (ratio > 1.0 + rtol)


# --- the relative-position identity with any frequencies ----------------------------------


def theta_rotation_matrix(m: float, theta: npt.ArrayLike) -> np.ndarray:
    r"""Dense block-diagonal rotation for arbitrary frequencies (interleaved layout), shape (d, d).

    .. math:: R'_m = \operatorname{diag}\big(R(m\theta'_0), \dots, R(m\theta'_{d/2-1})\big)

    Built 2×2 block by 2×2 block with :func:`ropemath.block_diagonal`.  Source: RoFormer
    eq. (15) with :math:`\Theta` replaced by :math:`\Theta'`.

    >>> theta_rotation_matrix(np.pi, [0.5]).round(12).tolist()
    [[0.0, -1.0], [1.0, 0.0]]
    """
    m = check_real(m, "m")
    th = _theta(theta)
    return block_diagonal(rotation_2d(m * th))


def theta_relative_position_error(
    q: npt.ArrayLike, k: npt.ArrayLike, m: float, n: float, theta: npt.ArrayLike
) -> float:
    r"""Relative error of the relative-position identity with the frequencies ``theta``.

    .. math:: (R'_m q)^\top (R'_n k) = q^\top R'_{n-m} k

    Returns :math:`|\mathrm{lhs} - \mathrm{rhs}| / (\|q\|\|k\|)` with dense matrices from
    :func:`theta_rotation_matrix`.  Source: RoFormer eq. (16), which uses only that the blocks
    are rotations, not the values of :math:`\theta_i`.

    >>> q, k = np.array([1.0, 2.0, 3.0, 4.0]), np.array([0.5, -1.0, 2.0, 1.0])
    >>> theta_relative_position_error(q, k, 7.0, 3.0, [0.3, 0.01]) < 1e-15
    True
    """
    th = _theta(theta)
    q = check_x(q, "q", d=2 * th.size).astype(np.float64)
    k = check_x(k, "k", d=2 * th.size).astype(np.float64)
    if q.ndim != 1 or k.ndim != 1:
        raise ValueError(f"q and k must be vectors of shape (d,), got {q.shape} and {k.shape}")
    m, n = check_real(m, "m"), check_real(n, "n")
    lhs = (theta_rotation_matrix(m, th) @ q) @ (theta_rotation_matrix(n, th) @ k)
    rhs = q @ (theta_rotation_matrix(n - m, th) @ k)
    return float(abs(lhs - rhs) / (np.linalg.norm(q) * np.linalg.norm(k)))
