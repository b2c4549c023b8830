r"""A similar key's expected score (why :math:`\sum_i\cos(r\theta_i) \ge 0` is wanted) and the plateau against d.

References: X. Men et al., *Base of RoPE Bounds Context Length*, arXiv:2405.14591 (the similar-key argument
and the condition; discussed by Su Jianlin, kexue.fm/archives/10122); Su et al., *RoFormer*,
arXiv:2104.09864 v5, §3.4.3; Rayleigh (1905) for :math:`\sqrt{\pi j}/2`.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_int, check_real_array, finite_result
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import frequencies
from ropemath.theory.plateau import random_phase_level

__all__ = [
    "similar_key_expected_score",
    "similar_key_scores",
    "normalised_plateau",
]


def similar_key_expected_score(r: npt.ArrayLike, d: int = 128, base: float = 10000.0,
        pair_power: npt.ArrayLike | None = None) -> np.ndarray:
    r"""Return :math:`\mathbb{E}[(R_m q)^\top (R_n k)]` for :math:`k = q + \varepsilon`, at :math:`r = m - n`.

    .. math:: \mathbb{E}\big[q^\top R^d_{\Theta,n-m}(q + \varepsilon)\big]
              = \sum_{i=0}^{d/2-1} \mathbb{E}|q_i|^2 \cos(r\theta_i)

    (:math:`\varepsilon` independent with mean 0; :math:`u^\top R(a)\,u = |u|^2\cos a`).  ``pair_power``
    defaults to 2 (:math:`q \sim N(0, I_d)`).  Source: Men et al., arXiv:2405.14591.

    >>> float(similar_key_expected_score(0, 8))
    8.0
    >>> round(float(similar_key_expected_score(1, 2)), 6) == round(2 * math.cos(1.0), 6)
    True
    """
    d = check_d(d)
    theta = frequencies(d, check_base(base))
    r = check_real_array(r, "r")
    power = np.full(d // 2, 2.0) if pair_power is None else np.asarray(pair_power, dtype=float)
    if power.shape != (d // 2,) or not np.all(np.isfinite(power)) or np.any(power < 0):
        raise ValueError(f"pair_power must be d/2 = {d // 2} finite values >= 0")
    return finite_result(
        np.cos(r[..., None] * theta) @ power,
        "similar_key_expected_score", r=r, d=d, base=base, pair_power=pair_power,
    )


def similar_key_scores(r: npt.ArrayLike, d: int = 128, base: float = 10000.0, *, trials: int = 4000,
        noise: float = 1.0, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    r"""Return the Monte Carlo mean and standard error of the RoPE score of q and :math:`k = q + \sigma\varepsilon`.

    .. math:: \hat\mu(r) = \frac1T\sum_{t=1}^{T} (R^d_{\Theta,n_t+r}\,q_t)^\top(R^d_{\Theta,n_t}\,k_t),
              \qquad q_t, \varepsilon_t \sim N(0, I_d),\ n_t \sim U\{0,\dots,10^4\}

    Rotated by :func:`ropemath.apply_rope` (interleaved); returns ``(mean, standard_error)``, shape
    ``r.shape``.  Source: the expectation of :func:`similar_key_expected_score`.

    >>> mean, se = similar_key_scores([0.0], 8, trials=2000)
    >>> bool(abs(mean[0] - 8.0) < 4 * se[0])
    True
    """
    d = check_d(d)
    base = check_base(base)
    r = check_real_array(r, "r")
    trials = check_int(trials, "trials", minimum=2)
    if not (isinstance(noise, (int, float)) and math.isfinite(noise) and noise >= 0):
        raise ValueError(f"noise must be a finite number >= 0, got {noise!r}")
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((trials, d))
    k = q + noise * rng.standard_normal((trials, d))
    n = rng.integers(0, 10**4, size=trials).astype(float)
    key = apply_rope(k, n, layout="interleaved", base=base)
    flat = r.reshape(-1)
    scores = np.stack([np.sum(apply_rope(q, n + ri, layout="interleaved", base=base) * key, axis=1) for ri in flat])
    mean = scores.mean(axis=1)
    se = scores.std(axis=1, ddof=1) / math.sqrt(trials)
    return finite_result(
        (mean.reshape(r.shape), se.reshape(r.shape)),
        "similar_key_scores", r=r, d=d, base=base, trials=trials, noise=noise,
    )


def normalised_plateau(d: int) -> float:
    r"""Return the far-out level of the relative upper bound divided by its value at :math:`r = 0`.

    .. math:: \frac{B(\infty)}{B(0)} = \frac{\frac{1}{d/2}\sum_{j=1}^{d/2}\mathbb{E}|S_j|}{(d/2 + 1)/2}

    with :math:`\mathbb{E}|S_j|` the mean length of a planar random walk of ``j`` unit steps
    (:func:`ropemath.theory.plateau.random_phase_level`) and :math:`B(0) = (d/2+1)/2` since
    :math:`S_j(0) = j`.  Source: RoFormer §3.4.3, Figure 2's quantity; Kluyver (1906).

    >>> round(normalised_plateau(128), 4)
    0.1475
    """
    d = check_d(d)
    return random_phase_level(d) / ((d // 2 + 1) / 2.0)
