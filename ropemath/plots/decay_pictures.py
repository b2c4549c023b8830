r"""Intuition pictures for notebook 05: fast and slow pairs, and the partial sums as a walk in the plane.

Scope: three figure functions built with the object API (``matplotlib.figure.Figure``, never
``pyplot``); notebook figures, not registered in :data:`ropemath.plots.FIGURES`.  They only draw:
the frequencies come from :func:`ropemath.frequencies` and :func:`ropemath.wavelengths`, the partial
sums and the bound from :mod:`ropemath.theory.decay`, the expected scores from
:mod:`ropemath.theory.similar_key`.

* :func:`pair_cosines_figure`: :math:`\cos(r\theta_i)` against the distance :math:`r` for a fast, a
  middle and a slow pair, with the context length and each pair's wavelength :math:`2\pi/\theta_i` marked.
* :func:`partial_sum_paths_figure`: the partial sums :math:`S_j(r)` as a path of unit steps in the
  complex plane for a few distances, with a circle of radius :math:`B(r) = \frac{1}{d/2}\sum_j|S_j(r)|`
  (the quantity of RoFormer Figure 2, which the Abel argument bounds the score with).
* :func:`similar_key_figure`: the expected score of a key similar to the query against the distance,
  formula and seeded Monte Carlo estimate, with the distances where it turns negative marked.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.3 (eq. 35-37, Figure 2); Su Jianlin,
kexue.fm/archives/10122, discussing X. Men et al., *Base of RoPE Bounds Context Length*, arXiv:2405.14591
(the condition on :math:`\sum_i\cos(r\theta_i)`); matplotlib's object API.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from ropemath.core._validate import check_base, check_d
from ropemath.core.rotation import frequencies
from ropemath.core.spectrum import wavelengths
from ropemath.theory.decay import decay_bound, partial_sums
from ropemath.theory.similar_key import similar_key_expected_score, similar_key_scores

__all__ = ["pair_cosines_figure", "partial_sum_paths_figure", "similar_key_figure"]


def pair_cosines_figure(
    pairs: Sequence[int] = (0, 32, 63), d: int = 128, base: float = 10000.0, context: int = 4096
) -> Figure:
    r"""Return one panel per pair: :math:`\cos(r\theta_i)` for :math:`1 \le r \le 10^6` (log axis), context marked.

    .. math:: \theta_i = \mathrm{base}^{-2i/d}, \qquad \lambda_i = 2\pi/\theta_i

    Each panel's first line is exactly ``(r, cos(r θ_i))`` (the test reads it back); a dashed line
    marks the context length and a dotted one the wavelength :math:`\lambda_i`.  Source: RoFormer eq. (15).

    >>> len(pair_cosines_figure((0, 63)).axes)
    2
    """
    d, base = check_d(d), check_base(base)
    theta, lam = frequencies(d, base), wavelengths(d, base)
    r = np.geomspace(1.0, 1e6, 20001)
    fig = Figure(figsize=(9.0, 5.2))
    axes = fig.subplots(len(pairs), 1, sharex=True)
    for ax, i in zip(np.atleast_1d(axes), pairs, strict=True):
        ax.plot(r, np.cos(r * theta[i]), color="C0", lw=0.6)
        ax.axvline(context, color="C3", ls="--", lw=1.2, label=f"context length {context}")
        ax.axvline(lam[i], color="0.3", ls=":", lw=1.2, label=rf"one full turn: $2\pi/\theta_{{{i}}}$")
        ax.set_ylim(-1.15, 1.15)
        ax.set_ylabel(rf"$\cos(r\theta_{{{i}}})$")
        ax.set_title(rf"pair {i}: $\theta_{{{i}}}$ = {theta[i]:.3g} rad per position", fontsize=9, loc="left")
        ax.legend(fontsize=7, loc="lower left", framealpha=0.9)
        ax.grid(alpha=0.3)
    ax.set_xscale("log")
    ax.set_xlabel("relative distance r (log scale)")
    fig.suptitle(f"Fast, middle and slow pairs (d = {d}, base {base:g})", fontsize=11)
    fig.tight_layout()
    return fig


def partial_sum_paths_figure(
    distances: Sequence[float] = (0.0, 10.0, 100.0, 123457.0), d: int = 128, base: float = 10000.0
) -> Figure:
    r"""Return one panel per distance: the path :math:`0, S_1(r), \dots, S_{d/2}(r)` and a circle of radius B(r).

    .. math:: S_j(r) = \sum_{i=0}^{j-1} e^{\mathrm{i}r\theta_i}, \qquad B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|

    Every step has length 1: fast pairs turn the walk around, slow pairs (:math:`r\theta_i \ll 1`) all
    step to the right.  The first line of each panel is exactly the path (the test reads it back);
    the dashed circle has radius :math:`B(r)`, the average distance of the path's points from 0.
    Source: RoFormer §3.4.3, eq. (36)-(37), Figure 2.

    >>> fig = partial_sum_paths_figure((0.0,), 8)
    >>> fig.axes[0].lines[0].get_xdata().tolist()  # at r = 0 every step points right
    [0.0, 1.0, 2.0, 3.0, 4.0]
    """
    d, base = check_d(d), check_base(base)
    half = d // 2
    fig = Figure(figsize=(10.0, 3.4))
    axes = fig.subplots(1, len(distances))
    t = np.linspace(0.0, 2.0 * np.pi, 361)
    for ax, r in zip(np.atleast_1d(axes), distances, strict=True):
        s = np.concatenate([[0.0], partial_sums(float(r), d, base)])
        b = float(decay_bound(float(r), d, base))
        ax.plot(s.real, s.imag, color="C0", lw=1.0, marker=".", ms=2.5)
        ax.plot(b * np.cos(t), b * np.sin(t), color="C3", ls="--", lw=1.0)
        ax.plot([0.0], [0.0], "o", color="k", ms=3)
        ax.plot([s[-1].real], [s[-1].imag], "s", color="C1", ms=4)
        ax.set_aspect("equal")
        lim = max(np.abs(s).max(), b) * 1.1 + 1.0
        ax.set(xlim=(-lim, lim), ylim=(-lim, lim))
        ax.set_title(f"r = {r:g}: B(r) = {b:.2f}", fontsize=9)
        ax.set_xlabel("Re")
        ax.grid(alpha=0.3)
    np.atleast_1d(axes)[0].set_ylabel("Im")
    fig.suptitle(
        rf"$S_j(r)$ as a walk of {half} unit steps (square: $S_{{{half}}}$); dashed circle: radius $B(r)$",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def similar_key_figure(d: int = 128, base: float = 10000.0, r_max: float = 4096.0, seed: int = 0) -> Figure:
    r"""Return the expected score of :math:`k = q + \varepsilon` against the distance: formula, Monte Carlo, sign.

    .. math:: \mathbb{E}[(R_m q)^\top(R_n k)] = 2\sum_{i=0}^{d/2-1}\cos(r\theta_i), \qquad q, \varepsilon \sim N(0, I_d)

    The first line is the formula on a fine grid (the test reads it back), the points a seeded Monte
    Carlo estimate (:func:`ropemath.theory.similar_key.similar_key_scores`, 400 draws, ±2
    standard errors); the dotted line is an unrelated key's expected score, 0; red dots mark the
    distances where the formula is negative.
    Source: :func:`ropemath.theory.similar_key.similar_key_expected_score`.

    >>> float(similar_key_figure(8, r_max=100.0).axes[0].lines[0].get_ydata()[0])  # 2 * d/2 at r = 0
    8.0
    """
    d, base = check_d(d), check_base(base)
    r = np.linspace(0.0, r_max, 4001)
    expected = similar_key_expected_score(r, d, base)
    r_mc = np.linspace(0.0, r_max, 33)
    mean, se = similar_key_scores(r_mc, d, base, trials=400, seed=seed)
    fig = Figure(figsize=(8.0, 3.6))
    ax = fig.add_subplot()
    ax.plot(r, expected, color="C0", lw=1.2, label=r"formula $2\sum_i\cos(r\theta_i)$")
    ax.errorbar(r_mc, mean, yerr=2 * se, fmt="o", ms=3, color="C1", lw=1, label="Monte Carlo, 400 draws (±2 SE)")
    ax.axhline(0.0, color="0.3", ls=":", lw=1.2, label="unrelated key: 0")
    neg = expected < 0
    ax.plot(r[neg], expected[neg], ".", color="C3", ms=3,
            label="expected score < 0 (the condition of Men et al. fails)")
    ax.set(xlabel="relative distance r", ylabel="expected score", xlim=(0.0, r_max))
    ax.set_title(f"Expected score of a key similar to the query, k = q + noise (d = {d}, base {base:g})", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig
