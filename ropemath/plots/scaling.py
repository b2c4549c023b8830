r"""Figure of context extension: which angles a stretched context shows a model that it never saw.

Scope: :func:`unseen_angles`, registered in :data:`ropemath.plots.FIGURES` as
``"unseen_angles"``.  Built with the object API (``matplotlib.figure.Figure``, no pyplot)
and the matplotlib default style.  All numbers come from :mod:`ropemath.models.scaling`; this
module only draws them.

References: Chen et al., arXiv:2306.15595 (PI); Peng et al., arXiv:2309.00071 (NTK, YaRN).
"""

from __future__ import annotations

import numpy as np
from matplotlib import style
from matplotlib.figure import Figure

from ropemath.models.scaling import angle_range_ratio, extension_frequencies, never_full_turn, unseen_angle_pairs

__all__ = ["unseen_angles"]

FIGSIZE = (8.0, 4.5)
_STYLES = {
    "none": ("0.35", "-", "no scaling (extrapolate)"),
    "PI": ("C0", "-", "PI"),
    "NTK": ("C1", "-", "NTK (= dynamic NTK at L')"),
    "YaRN (paper)": ("C2", "-", "YaRN, paper formula"),
    "YaRN (reference code)": ("C3", "--", "YaRN, reference code"),
}


def unseen_angles(d: int = 128, base: float = 10000.0, scale: float = 16.0, original_length: int = 4096) -> Figure:
    r"""Largest angle per pair at the extended length, against what training showed.

    Left: :math:`L'\theta'_i / 2\pi` (turns over the extended context :math:`L' = sL`) for each
    method, and :math:`L\theta_i/2\pi` in training (black).  Right: the ratio
    :math:`\rho_i = L'\theta'_i / (L\theta_i)`.  Shaded: the pairs that never complete a turn in
    training (:math:`\lambda_i > L`); a curve above 1 there means angles never seen in training.
    The legend counts those pairs per method (:func:`ropemath.unseen_angle_pairs`).
    """
    thetas = extension_frequencies(d, base, scale=scale, original_length=original_length)
    train = thetas["none"]
    L, L2 = original_length, int(round(scale * original_length))
    i = np.arange(train.size)
    shaded = np.flatnonzero(never_full_turn(train, L))
    with style.context("default"):
        fig = Figure(figsize=FIGSIZE)
        fig.subplots_adjust(left=0.085, right=0.98, top=0.86, bottom=0.31, wspace=0.28)
        left, right = fig.subplots(1, 2, sharex=True)
        for ax in (left, right):
            if shaded.size:
                ax.axvspan(shaded[0] - 0.5, i[-1] + 0.5, color="0.9", zorder=0)
        left.plot(i, L * train / (2 * np.pi), color="k", lw=3.0, label=f"training, L = {L} (PI lies on it)")
        for key, (color, ls, label) in _STYLES.items():
            th = thetas[key]
            n = int(unseen_angle_pairs(th, train, length=L, new_length=L2).sum())
            text = f"{label}: {n} pairs see unseen angles"
            left.plot(i, L2 * th / (2 * np.pi), color=color, ls=ls, lw=1.3, label=text)
            right.plot(i, angle_range_ratio(th, train, length=L, new_length=L2), color=color, ls=ls, lw=1.3)
        left.axhline(1.0, color="0.4", ls=":", lw=1)
        left.set(yscale="log", ylabel="largest angle / 2π (turns)", title=f"turns within L' = sL = {L2}")
        right.axhline(1.0, color="k", lw=1)
        right.set(yscale="log", ylim=(0.7, 1.6 * scale), ylabel="ρᵢ = L'θ'ᵢ / (Lθᵢ)")
        right.set_title("ratio to the training range")
        right.text(0.98, 0.5, "grey: λᵢ > L,\nno full turn\nin training", transform=right.transAxes,
                   ha="right", va="center", fontsize=8)
        for ax in (left, right):
            ax.set_xlabel("pair index i")
            ax.set_xlim(-0.5, i[-1] + 0.5)
            ax.grid(alpha=0.3, which="major")
        handles, labels = left.get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=8, frameon=False)
        fig.suptitle(f"Unseen angles: d = {d}, base {base:g}, L = {L}, s = {scale:g}", fontsize=11)
    return fig
