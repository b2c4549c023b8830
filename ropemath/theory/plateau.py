r"""The far-out level of the long-term decay bound: a random walk of unit steps, not zero.

Scope: :func:`random_phase_level`, the value the relative upper bound
:math:`B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|` of :mod:`ropemath.theory.decay` settles to
for large distances, when the phases :math:`r\theta_i \bmod 2\pi` behave like independent
uniform angles and each partial sum :math:`S_j` like a planar random walk of ``j`` unit
steps.  Its mean length is Kluyver's integral over the Bessel function :math:`J_0`,
evaluated here with numpy only (no scipy).

Conditions: "independent uniform phases" is a model.  It needs :math:`r` well beyond
:math:`1/\theta_{d/2-1}` (so that even the slowest pair has turned many times); frequencies
in rational ratio (e.g. :math:`\theta_{i+16} = \theta_i/10` at :math:`d = 128`, base
:math:`10^4`) make some phases functions of others, which leaves
:math:`\mathbb{E}|S_j|^2 = j` intact but can shift :math:`\mathbb{E}|S_j|` slightly.

References: K. Pearson, "The problem of the random walk", Nature 72 (1905); J. C. Kluyver
(1906) for the mean length; Lord Rayleigh (1905/1919) for :math:`\sqrt{\pi j}/2`; Su et al.,
*RoFormer*, arXiv:2104.09864 v5, §3.4.3, Figure 2 (the quantity whose plateau this is).
"""

from __future__ import annotations

import functools

import numpy as np

from ropemath.core._validate import check_d, finite_result

__all__ = ["random_phase_level"]


@functools.lru_cache(maxsize=1)
def _bessel_j0_grid() -> tuple[np.ndarray, np.ndarray]:
    """t = 0, 0.025, ..., 400 and J0(t) = (1/pi) int_0^pi cos(t sin tau) dtau (midpoint rule, 256 nodes)."""
    t = np.linspace(0.0, 400.0, 16001)
    tau = (np.arange(256) + 0.5) * (np.pi / 256)
    return t, np.cos(np.multiply.outer(t, np.sin(tau))).mean(axis=1)


@functools.lru_cache(maxsize=8)
def _mean_walk_lengths(count: int) -> tuple[float, ...]:
    """E|sum of j unit vectors with independent uniform directions| for j = 1..count (Kluyver's integral).

    j = 1 and j = 2 are exact (1 and E|1 + e^{i phi}| = E 2|cos(phi/2)| = 4/pi); for j >= 3,
    E|S| = int_0^inf (1 - J0(t)^j) / t^2 dt (because |x| = int_0^inf (1 - J0(t|x|)) / t^2 dt),
    by Simpson's rule on [0, 400] plus the tail int_400^inf dt/t^2 (the neglected J0^j part is below 1e-9).
    """
    t, j0 = _bessel_j0_grid()
    weights = np.full(t.size, 2.0)
    weights[1::2] = 4.0
    weights[0] = weights[-1] = 1.0
    weights *= (t[1] - t[0]) / 3.0
    inv_t2 = np.zeros(t.size)
    inv_t2[1:] = 1.0 / t[1:] ** 2
    out = [1.0, 4.0 / np.pi][:count]
    power = j0 * j0
    for j in range(3, count + 1):
        power *= j0
        power[np.abs(power) < 1e-200] = 0.0  # avoid slow subnormal arithmetic; far below rounding anyway
        f = (1.0 - power) * inv_t2
        f[0] = j / 4.0  # limit at t -> 0 of (1 - J0^j)/t^2, since J0(t) = 1 - t^2/4 + ...
        out.append(float(weights @ f + 1.0 / t[-1]))
    return tuple(out)


@finite_result
def random_phase_level(d: int, *, exact: bool = True) -> float:
    r"""Return the far-out level of :math:`B(r)` predicted by independent uniform phases.

    .. math::
        \frac{1}{d/2}\sum_{j=1}^{d/2} \mathbb{E}\,\Big|\sum_{i=0}^{j-1} e^{\mathrm{i}\phi_i}\Big|,
        \qquad \mathbb{E}\,|S_j| = \int_0^\infty \frac{1 - J_0(t)^j}{t^2}\,dt
        \;\approx\; \frac{\sqrt{\pi j}}{2}

    For large :math:`r` the phases :math:`r\theta_i \bmod 2\pi` behave like independent
    uniform angles, and :math:`S_j` like a planar random walk of ``j`` unit steps (Pearson
    1905); its mean length is Kluyver's integral (``exact=True``: :math:`J_0(t)` from its
    integral :math:`\frac1\pi\int_0^\pi \cos(t\sin\tau)\,d\tau` by the midpoint rule, then
    Simpson's rule on [0, 400] plus the tail :math:`\int_{400}^\infty t^{-2}\,dt`) or the
    Rayleigh approximation :math:`\sqrt{\pi j}/2` (``exact=False``).  Source: Pearson (1905),
    Kluyver (1906); the level of RoFormer Figure 2's quantity far out.

    >>> round(random_phase_level(128), 4)
    4.7926
    >>> round(random_phase_level(128, exact=False), 4)
    4.7791
    """
    d = check_d(d)
    if not isinstance(exact, (bool, np.bool_)):
        raise TypeError(f"exact must be a bool, got {type(exact).__name__}")
    half = d // 2
    j = np.arange(1, half + 1)
    if not exact:
        return float(np.mean(np.sqrt(np.pi * j) / 2.0))
    return float(np.mean(_mean_walk_lengths(half)))

