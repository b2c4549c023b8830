r"""Far out, the long-term decay bound has a mean but no limit; the large-d limit of the cosine sum decays.

Scope: :func:`random_phase_level`, the mean value of the relative upper bound
:math:`B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|` of :mod:`ropemath.theory.decay` over large
distances (:math:`B` is almost periodic and has no limit), when the phases
:math:`r\theta_i \bmod 2\pi` behave like independent uniform angles and each partial sum
:math:`S_j` like a planar random walk of ``j`` unit
steps.  Its mean length is Kluyver's integral over the Bessel function :math:`J_0`,
evaluated here with numpy only (no scipy).

Conditions: "independent uniform phases" is a model.  It needs :math:`r` well beyond
:math:`1/\theta_{d/2-1}` (so that even the slowest pair has turned many times); frequencies
in rational ratio (e.g. :math:`\theta_{i+16} = \theta_i/10` at :math:`d = 128`, base
:math:`10^4`) make some phases functions of others, which leaves
:math:`\mathbb{E}|S_j|^2 = j` intact but can shift :math:`\mathbb{E}|S_j|` slightly.
:func:`exact_decay_bound` and :func:`return_distance` show :math:`\limsup_{r\to\infty} B(r) = B(0)`
(simultaneous approximation); :func:`continuum_cosine_sum` and :func:`log_regime` give the
:math:`d \to \infty` limit of :math:`\frac2d\sum_i\cos(r\theta_i)`, which does tend to 0.

References: K. Pearson, "The problem of the random walk", Nature 72 (1905); J. C. Kluyver
(1906) for the mean length; Lord Rayleigh (1905/1919) for :math:`\sqrt{\pi j}/2`; Su et al.,
*RoFormer*, arXiv:2104.09864 v5, §3.3 and §3.4.3, Figure 2 (the quantity whose mean this is).
"""

from __future__ import annotations

import functools

import mpmath
import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, finite_result

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
        return finite_result(float(np.mean(np.sqrt(np.pi * j) / 2.0)), "random_phase_level", d=d)
    return finite_result(float(np.mean(_mean_walk_lengths(half))), "random_phase_level", d=d)



def exact_decay_bound(r: int, d: int, base: float = 10000.0, *, digits: int = 40) -> float:
    r"""Return :math:`B(r)` for one integer distance of any size, with the phases reduced exactly (mpmath).

    .. math:: B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}\Big|\sum_{i=0}^{j-1} e^{\mathrm{i} r\theta_i}\Big|

    float64 loses the phase :math:`r\theta_i \bmod 2\pi` once :math:`r\theta_i` exceeds about
    :math:`10^{15}`; here :math:`\theta_i` and :math:`r\theta_i` carry ``digits`` significant digits
    beyond the size of ``r``.  Source: RoFormer §3.4.3, Figure 2 (the quantity).

    >>> round(exact_decay_bound(10, 128), 6)
    17.954137
    """
    d = check_d(d)
    if isinstance(r, bool) or not isinstance(r, (int, np.integer)):
        raise TypeError(f"r must be an integer, got {type(r).__name__}")
    with mpmath.workdps(len(str(abs(int(r)))) + digits):
        b = mpmath.mpf(base)
        total, s = mpmath.mpf(0), mpmath.mpc(0)
        for i in range(d // 2):
            s += mpmath.expj(int(r) * mpmath.power(b, -mpmath.mpf(2 * i) / d))
            total += abs(s)
        return float(total / (d // 2))


def return_distance(d: int = 128, *, weight_digits: int = 60) -> int:
    r"""Return a large integer distance at which every phase :math:`r\theta_i` is near 0 mod :math:`2\pi` (base 10^4).

    .. math::
        \theta_{i + d/8} = \theta_i / 10 \ \ (\text{base } 10^4) \quad\Longrightarrow\quad
        10^3\Big\|\, r\,\frac{\theta_{3d/8 + j}}{2\pi} \Big\|_{\mathbb{Z}} \text{ small for } j < d/8
        \ \Rightarrow\ \text{every } r\theta_i \approx 0 \bmod 2\pi

    The :math:`d/8` slowest frequencies determine all others; a simultaneous Diophantine
    approximation of them (Dirichlet: one exists for every accuracy) is found with the LLL lattice
    reduction of sympy, on the lattice with rows :math:`(w, 10^3 C\alpha_0, \dots)` and :math:`10^3 C e_j`
    (:math:`\alpha_j = \theta_{3d/8+j}/2\pi`; the factor :math:`10^3` because the fastest
    pairs multiply the slowest phases' errors by :math:`10^3`); ``weight_digits`` sets
    :math:`w = 10^{-\text{weight\_digits}}`,
    i.e. the size of :math:`r` traded for accuracy.  The returned :math:`r` is the candidate
    :math:`r \ge 10^6` among the reduced rows with the largest :math:`B(r)` (:func:`exact_decay_bound`).
    Source: Dirichlet's approximation theorem; A. K. Lenstra, H. W. Lenstra, L. Lovász (1982).

    >>> r = return_distance(128, weight_digits=30)
    >>> r > 10**20
    True
    """
    from sympy import ZZ
    from sympy.polys.matrices import DomainMatrix

    d = check_d(d)
    if d % 8:
        raise ValueError(f"d must be a multiple of 8, got d={d}")
    if isinstance(weight_digits, bool) or not isinstance(weight_digits, int) or not 10 <= weight_digits <= 100:
        raise ValueError(f"weight_digits must be an integer in [10, 100], got weight_digits={weight_digits!r}")
    n = d // 8
    scale = 2 * weight_digits + 30
    with mpmath.workdps(2 * scale):
        big = mpmath.mpf(10) ** scale
        alphas = [mpmath.power(10, -mpmath.mpf(8 * (3 * n + j)) / d) / (2 * mpmath.pi) for j in range(n)]
        w = int(mpmath.mpf(10) ** (scale - weight_digits))
        rows = [[w] + [int(mpmath.nint(1000 * big * a)) for a in alphas]]
        rows += [[0] * (j + 1) + [int(1000 * big)] + [0] * (n - j - 1) for j in range(n)]
    reduced = DomainMatrix([[ZZ(x) for x in row] for row in rows], (n + 1, n + 1), ZZ).lll().to_Matrix()
    candidates = {abs(int(reduced[i, 0])) // w for i in range(n + 1)}
    candidates = [r for r in sorted(candidates) if r >= 10**6]
    return max(candidates, key=lambda r: exact_decay_bound(r, d, 1e4))


def continuum_cosine_sum(r: npt.ArrayLike, base: float = 10000.0) -> np.ndarray:
    r"""Return the large-:math:`d` limit of :math:`\frac{2}{d}\sum_i \cos(r\theta_i)` (shape ``r.shape``).

    .. math::
        \frac{2}{d}\sum_{i=0}^{d/2-1} e^{\mathrm{i} r b^{-2i/d}} \to \int_0^1 e^{\mathrm{i} r b^{-t}}\,dt
        = \frac{1}{\ln b}\int_{1/b}^{1} \frac{e^{\mathrm{i} r u}}{u}\,du,
        \qquad \operatorname{Re} = \frac{\operatorname{Ci}(r) - \operatorname{Ci}(r/b)}{\ln b}

    (a Riemann sum with :math:`t = 2i/d`, then :math:`u = b^{-t}`; Ci is the cosine integral).
    It tends to 0 as :math:`r \to \infty` (Riemann–Lebesgue).  Source: derived here for RoFormer §3.3.

    >>> round(float(continuum_cosine_sum(0.0)), 12)
    1.0
    """
    base = check_base(base)
    r = np.abs(np.asarray(r, dtype=float))
    out = np.empty(r.shape)
    for idx, x in np.ndenumerate(r):
        out[idx] = 1.0 if x == 0 else float((mpmath.ci(x) - mpmath.ci(x / base)) / mpmath.log(base))
    return out


def log_regime(r: npt.ArrayLike, base: float = 10000.0) -> np.ndarray:
    r"""Return the approximation of :func:`continuum_cosine_sum` for :math:`1 \ll r \ll b` (shape ``r.shape``).

    .. math:: \frac{\operatorname{Ci}(r) - \operatorname{Ci}(r/b)}{\ln b} \approx \frac{-\gamma - \ln(r/b)}{\ln b}

    from :math:`\operatorname{Ci}(x) = \gamma + \ln x + O(x^2)` for small :math:`x` and
    :math:`\operatorname{Ci}(x) = O(1/x)` for large :math:`x`.  Source: derived here.

    >>> round(float(log_regime(10000.0)), 4)  # r = b
    -0.0627
    """
    base = check_base(base)
    r = np.asarray(r, dtype=float)
    return (-np.euler_gamma - np.log(r / base)) / np.log(base)


def dependent_phase_level(
    d: int = 128, *, samples: int = 200_000, seed: int = 0, ratio: float = 10.0
) -> tuple[float, float]:
    r"""Return the mean of :math:`B(r)` over large :math:`r` (base :math:`10^4`), with the phases' real dependence.

    .. math::
        \theta_{j + k d/8} = 10^{-k}\,\theta_j \ \Rightarrow\
        \phi_{3d/8 + j - k d/8} = 10^{k}\phi_{3d/8 + j} \bmod 2\pi, \qquad
        \bar B = \mathbb{E}_{\phi}\,\frac{1}{d/2}\sum_{j=1}^{d/2}\Big|\sum_{i<j} e^{\mathrm{i}\phi_i}\Big|

    The :math:`d/8` slowest frequencies are rationally independent (with :math:`\pi`), so by Weyl's
    equidistribution theorem their phases :math:`r\theta_i \bmod 2\pi` fill the torus uniformly and the
    mean of :math:`B` over :math:`r` is the expectation over independent uniform :math:`\phi` of those
    :math:`d/8`; every other phase is :math:`10^k` times one of them.  Estimated by seeded Monte Carlo;
    returns (mean, standard error).  ``ratio`` replaces the factor 10 (``ratio=1`` is a wrong model,
    used as a control).  Source: H. Weyl (1916); the structure of :math:`\theta_i = 10^{-8i/d}`.

    >>> m, se = dependent_phase_level(128, samples=20_000)
    >>> abs(m - random_phase_level(128)) < 4 * se
    True
    """
    d = check_d(d)
    if d % 8:
        raise ValueError(f"d must be a multiple of 8, got d={d}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 100:
        raise ValueError(f"samples must be an integer >= 100, got samples={samples!r}")
    rng = np.random.default_rng(seed)
    n = d // 8
    values = []
    for start in range(0, samples, 20_000):
        phi = rng.uniform(0.0, 2 * np.pi, (min(20_000, samples - start), n))
        phases = np.concatenate([np.mod(phi * ratio ** (3 - k), 2 * np.pi) for k in range(4)], axis=1)
        values.append(np.abs(np.cumsum(np.exp(1j * phases), axis=1)).mean(axis=1))
    b = np.concatenate(values)
    return float(b.mean()), float(b.std(ddof=1) / np.sqrt(b.size))
