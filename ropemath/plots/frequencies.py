r"""Pictures of the frequencies θ_i = base^(−2i/d): how fast each pair turns, its wavelength against the context,
and the frequencies after context extension (PI, NTK, YaRN, Llama 3.1) with the angles training never showed.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (15); Liu et al., arXiv:2310.05209 (critical pair);
Chen et al., arXiv:2306.15595 (PI); Peng et al., arXiv:2309.00071 (NTK, YaRN); Meta Llama 3.1 ``apply_scaling``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib import style
from matplotlib.figure import Figure

from ropemath.core._validate import check_base, check_d, check_int
from ropemath.core.rotation import angles, frequencies
from ropemath.core.spectrum import full_turn_count, wavelengths
from ropemath.models.context_length import critical_pair
from ropemath.models.scaling import (
    angle_range_ratio,
    extension_frequencies,
    never_full_turn,
    ntk_frequencies,
    unseen_angle_pairs,
)
from ropemath.models.yarn import llama31_frequencies

__all__ = ["spectrum_figure", "pair_speeds_figure", "pair_cosines_figure", "wavelengths_figure",
           "extension_frequencies_figure", "unseen_angles"]


def spectrum_figure(d: int = 128, bases: Sequence[float] = (10000.0, 500000.0), context_length: int = 4096) -> Figure:
    r"""Return :math:`\theta_i` (left) and :math:`\lambda_i` (right, with :math:`L - 1` marked) against i, log y.

    .. math:: \theta_i = \mathrm{base}^{-2i/d}, \qquad \lambda_i = 2\pi\,\mathrm{base}^{2i/d}

    The legend counts the pairs that make a full turn inside the context (:func:`ropemath.full_turn_count`).
    Source: RoFormer eq. (15).

    >>> [ax.get_yscale() for ax in spectrum_figure(d=16, bases=(100.0,), context_length=64).axes]
    ['log', 'log']
    """
    d = check_d(d)
    L = check_int(context_length, "context_length", minimum=1)
    if isinstance(bases, (str, bytes)) or not isinstance(bases, Sequence):
        raise TypeError(f"bases must be a non-empty sequence of bases, got {type(bases).__name__}")
    if len(bases) == 0:
        raise ValueError("bases must be a non-empty sequence of bases, got an empty one")
    bases = [check_base(base) for base in bases]
    fig = Figure(figsize=(8, 3.4))
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.15, top=0.9, wspace=0.3)
    ax_theta, ax_wave = fig.subplots(1, 2)
    i = np.arange(d // 2)
    for base in bases:
        count = full_turn_count(L, d, base)
        ax_theta.plot(i, frequencies(d, base), ".-", ms=3, label=f"base {base:g}")
        ax_wave.plot(i, wavelengths(d, base), ".-", ms=3, label=f"base {base:g}: {count} pairs turn fully")
    ax_wave.axhline(L - 1, color="gray", ls="--", lw=1, label=f"L - 1 = {L - 1}")
    ax_theta.set(yscale="log", xlabel="pair index i", ylabel=r"$\theta_i$ (rad / position)",
                 title=rf"frequencies, d = {d}")
    ax_wave.set(yscale="log", xlabel="pair index i", ylabel=r"$\lambda_i = 2\pi/\theta_i$ (positions)",
                title="wavelengths (positions per full turn)")
    for ax in (ax_theta, ax_wave):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    return fig


def pair_speeds_figure(d: int = 128, base: float = 10000.0, pairs: Sequence[int] = (0, 16, 32, 63),
                       positions: int = 100) -> Figure:
    r"""Return :math:`m\theta_i \bmod 2\pi` against m for some pairs (left) and :math:`\cos m\theta_i` of all (right).

    .. math:: \varphi_i(m) = m\,\theta_i \bmod 2\pi, \qquad \theta_i = \text{base}^{-2i/d}

    Source: RoFormer eq. (15).

    >>> len(pair_speeds_figure(d=8, pairs=(0, 3), positions=10).axes[0].lines)
    2
    """
    d, base = check_d(d), check_base(base)
    positions = check_int(positions, "positions", minimum=1, maximum=100_000)
    m = np.arange(positions + 1)
    phi, theta = angles(m, d, base), frequencies(d, base)
    fig = Figure(figsize=(10.0, 3.6))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1.0]})
    for i in pairs:
        i = check_int(i, "pair", minimum=0, maximum=d // 2 - 1)
        left.plot(m, np.mod(phi[:, i], 2 * np.pi), lw=1.5, label=f"pair {i}: θ = {theta[i]:.3g}")
    left.set(xlabel="position m", ylabel="angle m θ_i (mod 2π) [rad]", ylim=(0, 2 * np.pi + 2.0),
             yticks=range(7), title=f"each pair turns at its own speed (d = {d})")
    left.legend(fontsize=8, loc="upper center", ncol=2)  # in the empty band above 2π
    image = right.imshow(np.cos(phi).T, aspect="auto", cmap="RdBu_r", origin="upper", interpolation="nearest",
                         extent=(-0.5, positions + 0.5, d // 2 - 0.5, -0.5), vmin=-1, vmax=1)
    right.set(xlabel="position m", ylabel="pair i (fast at the top)", title="cos(m θ_i) for all d/2 pairs")
    fig.colorbar(image, ax=right, shrink=0.85)
    fig.subplots_adjust(left=0.07, right=0.97, bottom=0.15, top=0.88, wspace=0.25)
    return fig


def pair_cosines_figure(pairs: Sequence[int] = (0, 32, 63), d: int = 128, base: float = 10000.0,
                        context: int = 4096) -> Figure:
    r"""Return one panel per pair: :math:`\cos(r\theta_i)` for :math:`1 \le r \le 10^6` (log axis), context marked.

    .. math:: \theta_i = \mathrm{base}^{-2i/d}, \qquad \lambda_i = 2\pi/\theta_i

    Dashed: the context length; dotted: the wavelength :math:`\lambda_i`.  Source: RoFormer eq. (15).

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


def wavelengths_figure(d: int = 128, base: float = 10000.0, length: int = 4096) -> Figure:
    r"""Return the wavelength of each pair against the training length L, with Liu et al.'s critical pair marked.

    .. math:: \lambda_i = 2\pi/\theta_i, \qquad \text{pairs with } \lambda_i > L \text{ never make a full turn}

    >>> any("critical pair i = 1" in t.get_text() for t in wavelengths_figure(8, 100.0, 20).axes[0].texts)
    True
    """
    wl = 2 * np.pi / frequencies(d, base)
    ic = critical_pair(d, base, length)
    i = np.arange(wl.size)
    with style.context("default"):
        fig = Figure(figsize=(7.0, 3.6))
        ax = fig.subplots()
        ax.semilogy(i[: ic + 1], wl[: ic + 1], "o", ms=3, color="C0",
                    label="λᵢ ≤ L: at least one full turn in training")
        ax.semilogy(i[ic + 1 :], wl[ic + 1 :], "o", ms=3, color="C3", label="λᵢ > L: never a full turn")
        ax.axhline(length, color="k", lw=1)
        ax.text(1, length * 1.3, f"training length L = {length}", fontsize=9)
        ax.axvline(ic, color="C2", ls="--", lw=1)
        ax.text(ic - 1, 20, f"critical pair i = {ic}: last with λᵢ ≤ L\n(Liu et al.'s d_extra/2 − 1)", ha="right",
                color="C2", fontsize=9)
        ax.set(xlabel="pair index i", ylabel="wavelength λᵢ = 2π/θᵢ (positions)",
               title=f"Wavelength of each pair (d = {d}, base {base:g})")
        ax.legend(loc="upper left", fontsize=8)
        ax.grid(alpha=0.3)
    return fig


def extension_frequencies_figure(d: int = 128, base: float = 10000.0, scale: float = 16.0,
                                 original_length: int = 4096) -> Figure:
    r"""Return :math:`\theta_i` before and after PI, NTK, dynamic NTK (factor 8, at L'), YaRN, and Llama 3.1's
    rule applied to the same s and L (an illustration, not a shipped config), log y.

    .. math:: \theta'_i = \theta_i / s \;\text{(PI)}, \qquad \theta'_i = (b\,s^{d/(d-2)})^{-2i/d} \;\text{(NTK)}

    >>> len(extension_frequencies_figure(16, original_length=64).axes[0].lines)
    8
    """
    th = extension_frequencies(d, base, scale=scale, original_length=original_length)
    th.pop("dynamic NTK at L'")  # with f = 1 it equals NTK; show transformers' rule with f = 8 instead
    th[f"dynamic NTK at L', transformers' rule with factor 8 (s = {8 * scale - 7:g})"] = ntk_frequencies(
        d, base, scale=8 * scale - 7)  # s(l) = f max(l, L)/L - (f - 1) at l = sL, f = 8
    th["Llama 3.1's rule at this s, L (not a shipped config)"] = llama31_frequencies(
        d, base, factor=scale, low_freq_factor=1.0, high_freq_factor=4.0, original_length=original_length)
    i = np.arange(d // 2)
    styles = ["k-", "C0-", "C1-", "C2-", "C3--", "C4:", "C5-."]
    with style.context("default"):
        fig = Figure(figsize=(7.5, 4.8), layout="constrained")
        ax = fig.subplots()
        for (name, t), st in zip(th.items(), styles, strict=True):
            ax.semilogy(i, t, st, lw=2.2 if name == "none" else 1.3,
                        label="before (plain RoPE)" if name == "none" else name)
        ax.axvline(critical_pair(d, base, original_length) + 0.5, color="0.6", lw=0.8)
        ax.set(xlabel="pair index i", ylabel="frequency θᵢ (rad per position)",
               title=f"Frequencies before/after extension: d = {d}, base {base:g}, L = {original_length}, "
                     f"s = {scale:g}")
        fig.legend(fontsize=8, loc="outside lower center", ncol=3)  # below the axes: inside, it would cover curves
        ax.grid(alpha=0.3)
    return fig


UNSEEN_STYLES = {"none": ("0.35", "-", "no scaling (extrapolate)"), "PI": ("C0", "-", "PI"),
                 "NTK": ("C1", "-", "NTK (= dynamic NTK at L')"), "YaRN (paper)": ("C2", "-", "YaRN, paper formula"),
                 "YaRN (reference code)": ("C3", "--", "YaRN, reference code")}


def unseen_angles(d: int = 128, base: float = 10000.0, scale: float = 16.0, original_length: int = 4096) -> Figure:
    r"""Return the largest angle per pair at the extended length L' = sL against what training showed.

    .. math:: \text{left: } L'\theta'_i / 2\pi, \qquad \text{right: } \rho_i = L'\theta'_i / (L\theta_i)

    Shaded, and alone on the right: pairs with :math:`\lambda_i > L`, never a full turn in training; a curve above 1
    there means unseen angles, counted per method in the legend (:func:`ropemath.unseen_angle_pairs`).

    >>> len(unseen_angles(16, original_length=64).axes)
    2
    """
    thetas = extension_frequencies(d, base, scale=scale, original_length=original_length)
    train = thetas["none"]
    L, L2 = original_length, int(round(scale * original_length))
    i = np.arange(train.size)
    shaded = np.flatnonzero(never_full_turn(train, L))
    with style.context("default"):
        fig = Figure(figsize=(8.0, 4.5))
        fig.subplots_adjust(left=0.085, right=0.98, top=0.86, bottom=0.31, wspace=0.28)
        left, right = fig.subplots(1, 2)
        for ax in (left, right):
            if shaded.size:
                ax.axvspan(shaded[0] - 0.5, i[-1] + 0.5, color="0.9", zorder=0)
        left.plot(i, L * train / (2 * np.pi), color="k", lw=3.0, label=f"training, L = {L} (PI lies on it)")
        for key, (color, ls, label) in UNSEEN_STYLES.items():
            th, n = thetas[key], int(unseen_angle_pairs(thetas[key], train, length=L, new_length=L2).sum())
            text = f"{label}: {n} pairs see unseen angles"
            left.plot(i, L2 * th / (2 * np.pi), color=color, ls=ls, lw=1.3, label=text)
            right.plot(shaded, angle_range_ratio(th, train, length=L, new_length=L2)[shaded], c=color, ls=ls, lw=1.3)
        left.axhline(1.0, color="0.4", ls=":", lw=1)
        left.set(yscale="log", ylabel="largest angle / 2π (turns)", title=f"turns within L' = sL = {L2}")
        right.axhline(1.0, color="k", lw=1)
        right.set(yscale="log", ylim=(0.7, 1.6 * scale), ylabel="ρᵢ = L'θ'ᵢ / (Lθᵢ)")
        right.set_title("ratio to the training range (grey pairs)")
        right.text(0.03, 0.5, "only the grey pairs:\nλᵢ > L, no full turn\nin training", transform=right.transAxes,
                   ha="left", va="center", fontsize=8)
        for ax in (left, right):
            ax.set_xlabel("pair index i")
            ax.set_xlim((shaded[0] - 0.5 if ax is right and shaded.size else -0.5), i[-1] + 0.5)
            ax.grid(alpha=0.3, which="major")
        fig.legend(*left.get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=8, frameon=False)
        fig.suptitle(f"Unseen angles: d = {d}, base {base:g}, L = {L}, s = {scale:g}", fontsize=11)
    return fig
