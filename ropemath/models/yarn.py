r"""YaRN and Llama 3.1 rope scaling: frequencies blended per pair by wavelength.

Conventions: :math:`\theta_i = b^{-2i/d}`, :math:`\lambda_i = 2\pi/\theta_i`, ``scale`` :math:`s = L'/L`,
``original_length`` the training length :math:`L`.

References: Peng et al., *YaRN*, arXiv:2309.00071 §3.2-3.4, and github.com/jquesnelle/yarn; transformers
``_compute_yarn_parameters`` and ``_compute_llama3_parameters``; Meta Llama 3.1 ``apply_scaling``.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    check_base,
    check_d,
    check_int,
    check_real,
    check_real_array,
    check_scale,
    finite_result,
)
from ropemath.core.rotation import frequencies

__all__ = [
    "yarn_ramp",
    "yarn_frequencies",
    "yarn_correction_dim",
    "yarn_correction_range",
    "yarn_attention_factor",
    "llama31_frequencies",
]


def yarn_ramp(r: npt.ArrayLike, alpha: float = 1.0, beta: float = 32.0) -> np.ndarray:
    r"""YaRN's ramp :math:`\gamma(r)` (paper, eq. 18), elementwise, float64.

    .. math::
        \gamma(r) = \begin{cases} 0 & r < \alpha \\ 1 & r > \beta \\
        \dfrac{r - \alpha}{\beta - \alpha} & \text{otherwise} \end{cases}

    Source: Peng et al., arXiv:2309.00071 §3.2 ("NTK-by-parts"), α = 1, β = 32 for Llama.

    >>> yarn_ramp([0.5, 1.0, 16.5, 32.0, 40.0]).tolist()
    [0.0, 0.0, 0.5, 1.0, 1.0]
    """
    r = check_real_array(r, "r")
    alpha, beta = check_real(alpha, "alpha"), check_real(beta, "beta")
    if not 0 <= alpha < beta:
        raise ValueError(f"alpha and beta must satisfy 0 <= alpha < beta, got alpha={alpha}, beta={beta}")
    return finite_result(np.clip((r - alpha) / (beta - alpha), 0.0, 1.0), "yarn_ramp", r=r, alpha=alpha, beta=beta)


def yarn_frequencies(
    d: int,
    base: float = 10000.0,
    *,
    scale: float,
    original_length: int,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
    formula: str = "code",
) -> np.ndarray:
    r"""YaRN frequencies as released models compute them (``formula="code"``), or as the paper writes them.

    ``formula="code"`` (default): the YaRN reference code and transformers' ``_compute_yarn_parameters``,
    a ramp linear in the pair *index* between integer boundaries (:func:`yarn_correction_range`):

    .. math::
        \mathrm{ramp}_i = \operatorname{clip}\Big(\frac{i - \mathrm{low}}{\mathrm{high} - \mathrm{low}}, 0, 1\Big),
        \qquad \theta'_i = \mathrm{ramp}_i\,\frac{\theta_i}{s} + (1 - \mathrm{ramp}_i)\,\theta_i

    ``formula="paper"``: Peng et al., arXiv:2309.00071 §3.2 eq. (18)-(19), a ramp linear in
    :math:`r_i = L/\lambda_i = L\theta_i/2\pi` with :math:`\alpha` = ``beta_slow``, :math:`\beta` =
    ``beta_fast`` (``truncate`` must stay True: the paper has no rounding):

    .. math:: \theta'_i = \big(1 - \gamma(r_i)\big)\frac{\theta_i}{s} + \gamma(r_i)\,\theta_i

    Both keep pairs that turn more than ``beta_fast`` times in ``L`` and divide by ``s`` those that turn
    fewer than ``beta_slow`` times; between, the code's ramp is linear in :math:`\ln r_i`, the paper's
    in :math:`r_i`.  Computed in float64 (the originals use float32).  Source: github.com/jquesnelle/yarn
    ``scaled_rope/LlamaYaRNScaledRotaryEmbedding.py``; transformers ``modeling_rope_utils`` (5.24).

    >>> th = yarn_frequencies(8, 100.0, scale=4.0, original_length=64)
    >>> [round(v, 6) for v in th.tolist()]  # low = 0, high = 3: ramp = 0, 1/3, 2/3, 1
    [1.0, 0.237171, 0.05, 0.007906]
    >>> th = yarn_frequencies(8, 100.0, scale=4.0, original_length=64, formula="paper")
    >>> [round(v, 6) for v in th.tolist()]  # r = 10.19, 3.22, 1.02, 0.32; gamma = 0.296, 0.072, 0.0006, 0
    [0.47224, 0.09605, 0.025045, 0.007906]
    """
    if formula not in ("code", "paper"):
        raise ValueError(f"formula must be 'code' or 'paper', got {formula!r}")
    s = check_scale(scale)
    th = frequencies(d, base)
    if formula == "paper":
        if truncate is not True:
            raise ValueError("truncate must be True for formula='paper' (the paper's ramp has no rounding)")
        L = check_int(original_length, "original_length", minimum=1)
        gamma = yarn_ramp(L * th / (2.0 * np.pi), beta_slow, beta_fast)
        return finite_result(
            (1.0 - gamma) * th / s + gamma * th,
            "yarn_frequencies", d=d, base=base, scale=scale, original_length=original_length, beta_fast=beta_fast,
            beta_slow=beta_slow,
        )
    low, high = yarn_correction_range(
        d, base, original_length, beta_fast=beta_fast, beta_slow=beta_slow, truncate=truncate
    )
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)
    return finite_result(
        th / s * ramp + th * (1.0 - ramp),
        "yarn_frequencies", d=d, base=base, scale=scale, original_length=original_length, beta_fast=beta_fast,
        beta_slow=beta_slow,
    )


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
    if not 1e-6 <= rho <= 1e6:
        raise ValueError(f"num_rotations must be in [1e-6, 1e6] (rotations within the context), got {rho}")
    d = check_d(d)
    base = check_base(base)
    if base == 1.0:
        raise ValueError("base must be != 1 (all wavelengths are equal), got 1.0")
    L = check_int(original_length, "original_length", minimum=1)
    return finite_result(
        d * math.log(L / (2.0 * math.pi * rho)) / (2.0 * math.log(base)),
        "yarn_correction_dim", num_rotations=num_rotations, d=d, base=base, original_length=original_length,
    )


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
    for value, name in ((beta_fast, "beta_fast"), (beta_slow, "beta_slow")):
        if not 1e-6 <= check_real(value, name) <= 1e6:
            raise ValueError(f"{name} must be a number of rotations in [1e-6, 1e6], got {value!r}")
    low = yarn_correction_dim(beta_fast, d, base, original_length)
    high = yarn_correction_dim(beta_slow, d, base, original_length)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return finite_result(
        (float(max(low, 0)), float(min(high, d - 1))),
        "yarn_correction_range", d=d, base=base, original_length=original_length, beta_fast=beta_fast,
        beta_slow=beta_slow,
    )


def yarn_attention_factor(scale: float) -> float:
    r"""YaRN's attention temperature, as the factor :math:`\sqrt{1/t}` applied to q and k.

    .. math:: \sqrt{1/t} = 0.1 \ln s + 1

    Multiplying both q and k by it multiplies every logit by :math:`1/t`.  Source: Peng et
    al., arXiv:2309.00071 §3.4 eq. (22); the reference code's ``get_mscale`` (1 for s <= 1).

    >>> round(yarn_attention_factor(16.0), 6)
    1.277259
    """
    return finite_result(0.1 * math.log(check_scale(scale)) + 1.0, "yarn_attention_factor", scale=scale)


# --- Llama 3.1 ----------------------------------------------------------------------------


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
    ``high_freq_factor``, :math:`L` = ``original_length``.  With :math:`\ell = h` (Llama 4's
    configs: factor 16, low = high = 1) the blended band is empty, as in Meta's ``apply_scaling``
    and transformers' ``_compute_llama3_parameters``, the sources.

    >>> th = llama31_frequencies()
    >>> bool(th[0] == 1.0), bool(th[-1] == frequencies(128, 500000.0)[-1] / 8)
    (True, True)
    >>> th0, th16 = frequencies(128, 500000.0), llama31_frequencies(factor=16.0, high_freq_factor=1.0)
    >>> int(np.sum(th16 == th0)), int(np.sum(th16 == th0 / 16))  # Llama 4: kept or divided, none blended
    (35, 29)
    """
    th = frequencies(d, base)
    factor = check_scale(factor, "factor")
    lo, hi = check_real(low_freq_factor, "low_freq_factor"), check_real(high_freq_factor, "high_freq_factor")
    if not 0 < lo <= hi:
        raise ValueError(f"low_freq_factor and high_freq_factor must satisfy 0 < low <= high, got {lo}, {hi}")
    L = check_int(original_length, "original_length", minimum=1)
    wl = 2.0 * np.pi / th
    divided = wl > L / lo
    kept = wl < L / hi
    smooth = (L / wl - lo) / (hi - lo) if hi > lo else np.zeros_like(wl)  # low == high (Llama 4): no middle band
    blended = (1.0 - smooth) * th / factor + smooth * th
    return np.where(divided, th / factor, np.where(kept, th, blended))
