r"""The numbers behind notebook 05's motivation: a similar key's expected score, and the plateau against d.

Scope: small computations that notebook 05 (long-term decay) uses before and after the Abel argument.

* :func:`similar_key_expected_score` and :func:`similar_key_scores`: why one wants the condition
  :math:`\sum_i \cos(r\theta_i) \ge 0` of Men et al.  For a key that is the query plus independent noise,
  :math:`k = q + \varepsilon`, the expected RoPE score at distance :math:`r` is
  :math:`\sum_i \mathbb{E}|q_i|^2 \cos(r\theta_i)`; for an isotropic query it is proportional to
  :math:`\sum_i \cos(r\theta_i)`.  The first function is the formula, the second a seeded Monte Carlo
  estimate through :func:`ropemath.apply_rope` (so the formula is checked against rotated vectors).
* :func:`normalised_plateau` and :func:`plateau_fit_constant`: the far-out level of the relative
  upper bound (its mean far out; it has no limit) divided by its value at :math:`r = 0`, which falls
  like :math:`c/\sqrt d` (:func:`plateau_constant_limit` gives :math:`c = \tfrac43\sqrt{\pi/2}` from
  Rayleigh's :math:`\mathbb{E}|S_j| \approx \sqrt{\pi j}/2`).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.3 and §3.4.3 (eq. 35-37, Figure 2);
X. Men et al., *Base of RoPE Bounds Context Length*, arXiv:2405.14591 (the similar-key argument and the
condition :math:`\sum_i\cos(r\theta_i)\ge0`; discussed by Su Jianlin, kexue.fm/archives/10122);
Lord Rayleigh (1905) for :math:`\sqrt{\pi j}/2`.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_int, check_positions, finite_result
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import frequencies
from ropemath.theory.plateau import random_phase_level

__all__ = [
    "similar_key_expected_score",
    "similar_key_scores",
    "normalised_plateau",
    "plateau_fit_constant",
    "plateau_constant_limit",
]


def similar_key_expected_score(
    r: npt.ArrayLike, d: int = 128, base: float = 10000.0, pair_power: npt.ArrayLike | None = None
) -> np.ndarray:
    r"""Return :math:`\mathbb{E}[(R_m q)^\top (R_n k)]` for :math:`k = q + \varepsilon`, at :math:`r = m - n`.

    .. math:: \mathbb{E}\big[q^\top R^d_{\Theta,n-m}(q + \varepsilon)\big]
              = \sum_{i=0}^{d/2-1} \mathbb{E}|q_i|^2 \cos(r\theta_i)

    since :math:`\varepsilon` has mean zero and is independent of :math:`q`, and a 2×2 rotation
    satisfies :math:`u^\top R(a)\,u = |u|^2\cos a`.  ``pair_power`` is :math:`\mathbb{E}|q_i|^2` per
    pair (default 2 for every pair: :math:`q \sim N(0, I_d)`), so the default is
    :math:`2\sum_i\cos(r\theta_i)`.  Source: Men et al., arXiv:2405.14591 (the similar-key argument).

    >>> float(similar_key_expected_score(0, 8))
    8.0
    >>> round(float(similar_key_expected_score(1, 2)), 6) == round(2 * math.cos(1.0), 6)
    True
    """
    d = check_d(d)
    theta = frequencies(d, check_base(base))
    r = check_positions(r)
    power = np.full(d // 2, 2.0) if pair_power is None else np.asarray(pair_power, dtype=float)
    if power.shape != (d // 2,) or not np.all(np.isfinite(power)) or np.any(power < 0):
        raise ValueError(f"pair_power must be d/2 = {d // 2} finite values >= 0")
    return finite_result(
        np.cos(r[..., None] * theta) @ power,
        "similar_key_expected_score", r=r, d=d, base=base, pair_power=pair_power,
    )


def similar_key_scores(
    r: npt.ArrayLike, d: int = 128, base: float = 10000.0, *, trials: int = 4000, noise: float = 1.0, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    r"""Return the Monte Carlo mean and standard error of the RoPE score of q and :math:`k = q + \sigma\varepsilon`.

    .. math:: \hat\mu(r) = \frac1T\sum_{t=1}^{T} (R^d_{\Theta,n_t+r}\,q_t)^\top(R^d_{\Theta,n_t}\,k_t),
              \qquad q_t, \varepsilon_t \sim N(0, I_d),\ n_t \sim U\{0,\dots,10^4\}

    ``trials`` seeded draws (``seed``); the key sits at a random position :math:`n_t` and the query at
    :math:`n_t + r`, both rotated by :func:`ropemath.apply_rope` (interleaved).  Returns ``(mean,
    standard_error)``, each of shape ``r.shape``.  Compare with :func:`similar_key_expected_score`.
    Source: the expectation derived in :func:`similar_key_expected_score`.

    >>> mean, se = similar_key_scores([0.0], 8, trials=2000)
    >>> bool(abs(mean[0] - 8.0) < 4 * se[0])
    True
    """
    d = check_d(d)
    base = check_base(base)
    r = check_positions(r)
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
    return finite_result(random_phase_level(d) / ((d // 2 + 1) / 2.0), "normalised_plateau", d=d)


def plateau_fit_constant(dims: npt.ArrayLike) -> float:
    r"""Return the least-squares :math:`c` in :math:`B(\infty)/B(0) \approx c/\sqrt d` over the given ``dims``.

    .. math:: c = \frac{\sum_k \rho_k\, d_k^{-1/2}}{\sum_k d_k^{-1}}, \qquad \rho_k = \text{normalised\_plateau}(d_k)

    Source: least squares for one coefficient; :func:`normalised_plateau`.

    >>> round(plateau_fit_constant([512, 1024, 2048]), 2)
    1.67
    """
    d = np.asarray([check_d(int(x)) for x in np.atleast_1d(dims)], dtype=float)
    rho = np.array([normalised_plateau(int(x)) for x in d])
    return float(np.sum(rho / np.sqrt(d)) / np.sum(1.0 / d))


def plateau_constant_limit() -> float:
    r"""Return :math:`\tfrac43\sqrt{\pi/2}`, the limit of :math:`\sqrt d\,B(\infty)/B(0)` as :math:`d \to \infty`.

    .. math:: \frac{\frac{1}{d/2}\sum_{j=1}^{d/2}\frac{\sqrt{\pi j}}{2}}{d/4}
              \approx \frac{\frac{\sqrt\pi}{2}\cdot\frac23 (d/2)^{1/2}}{d/4}
              = \frac43\sqrt{\frac\pi2}\,\frac{1}{\sqrt d}

    using Rayleigh's :math:`\mathbb{E}|S_j| \approx \sqrt{\pi j}/2` and
    :math:`\sum_{j=1}^{J}\sqrt j \approx \tfrac23 J^{3/2}`.  Source: derived here from Rayleigh (1905).

    >>> round(plateau_constant_limit(), 4)
    1.6711
    """
    return 4.0 / 3.0 * math.sqrt(math.pi / 2.0)
