r"""Intuition pictures for notebooks 07, 08 and 10: pairs, wavelengths, frequencies, bf16 tables.

Scope: figure functions, each returning a :class:`matplotlib.figure.Figure` built with the
object API (no pyplot) in the matplotlib default style:

* :func:`layout_pairs_figure` — which coordinates form a pair, interleaved against half;
* :func:`wavelengths_figure` — the wavelength :math:`2\pi/\theta_i` of every pair against the
  training length, with the critical pair of Liu et al. marked;
* :func:`extension_frequencies_figure` — :math:`\theta_i` before and after PI, NTK, dynamic NTK,
  YaRN and the Llama 3.1 rule, on one log axis;
* :func:`cos_sin_table_error_figure` — the error of a bfloat16 cos/sin table at every position.

All numbers come from :mod:`ropemath.models` and :mod:`ropemath.core`; this module only draws.

References: Liu et al., arXiv:2310.05209 (critical dimension); Chen et al., arXiv:2306.15595
(PI); Peng et al., arXiv:2309.00071 (NTK, YaRN); Meta Llama 3.1 ``apply_scaling``; Hugging
Face transformers ``LlamaRotaryEmbedding``.
"""

from __future__ import annotations

import numpy as np
from matplotlib import style
from matplotlib.figure import Figure

from ropemath.core.rotation import frequencies
from ropemath.models.context_length import critical_pair
from ropemath.models.pitfalls import hf_cos_sin_error, layout_pairs
from ropemath.models.scaling import (
    dynamic_ntk_frequencies,
    extension_frequencies,
)
from ropemath.models.yarn import llama31_frequencies

__all__ = [
    "layout_pairs_figure",
    "wavelengths_figure",
    "extension_frequencies_figure",
    "cos_sin_table_error_figure",
]


def layout_pairs_figure(d: int = 8) -> Figure:
    """Coordinates 0..d-1 of one head, coloured by the pair they belong to, in both layouts, with arcs."""
    with style.context("default"):
        fig = Figure(figsize=(7.0, 2.6))
        ax = fig.subplots()
        colors = [f"C{p}" for p in range(d // 2)]
        for row, layout in ((1.0, "interleaved"), (0.0, "half")):
            pairs = layout_pairs(d, layout)
            for j in range(d):
                ax.add_patch(_box(j, row, colors[pairs[j]]))
                ax.text(j + 0.5, row + 0.35, f"x{j}", ha="center", va="center", fontsize=10)
            for p in range(d // 2):
                a, b = np.flatnonzero(pairs == p)
                t = np.linspace(0, np.pi, 30)
                ax.plot(
                    a + 0.5 + (b - a) / 2 * (1 - np.cos(t)),
                    row + 0.72 + 0.12 * (1 + (b - a) / 2) * np.sin(t),
                    color=colors[p],
                    lw=1.5,
                )
            ax.text(-0.3, row + 0.35, f"{layout}", ha="right", va="center", fontsize=10)
        ax.set_xlim(-2.6, d + 0.2)
        ax.set_ylim(-0.1, 2.4)
        ax.axis("off")
        ax.set_title(f"Which coordinates rotate together (d = {d}; colour = pair i, angle mθ_i)", fontsize=10)
    return fig


def _box(j: int, row: float, color: str):
    from matplotlib.patches import Rectangle

    return Rectangle((j + 0.05, row), 0.9, 0.7, facecolor=color, alpha=0.35, edgecolor=color)


def wavelengths_figure(d: int = 128, base: float = 10000.0, length: int = 4096) -> Figure:
    """Wavelength of each pair against the training length; pairs beyond the critical pair never turn."""
    wl = 2 * np.pi / frequencies(d, base)
    ic = critical_pair(d, base, length)
    i = np.arange(wl.size)
    with style.context("default"):
        fig = Figure(figsize=(7.0, 3.6))
        ax = fig.subplots()
        ax.semilogy(
            i[: ic + 1], wl[: ic + 1], "o", ms=3, color="C0", label="λᵢ ≤ L: at least one full turn in training"
        )
        ax.semilogy(i[ic + 1 :], wl[ic + 1 :], "o", ms=3, color="C3", label="λᵢ > L: never a full turn")
        ax.axhline(length, color="k", lw=1)
        ax.text(1, length * 1.3, f"training length L = {length}", fontsize=9)
        ax.axvline(ic, color="C2", ls="--", lw=1)
        ax.text(ic - 1, 20, f"critical pair i = {ic}\n(Liu et al.)", ha="right", color="C2", fontsize=9)
        ax.set(
            xlabel="pair index i",
            ylabel="wavelength λᵢ = 2π/θᵢ (positions)",
            title=f"Wavelength of each pair (d = {d}, base {base:g})",
        )
        ax.legend(loc="upper left", fontsize=8)
        ax.grid(alpha=0.3)
    return fig


def extension_frequencies_figure(
    d: int = 128, base: float = 10000.0, scale: float = 16.0, original_length: int = 4096
) -> Figure:
    """θᵢ before and after each context-extension method (Llama 3.1's rule applied with this setting's s, L)."""
    th = extension_frequencies(d, base, scale=scale, original_length=original_length)
    th.pop("dynamic NTK at L'")  # equal to NTK; show dynamic NTK part-way instead
    th["dynamic NTK at ℓ = 4L"] = dynamic_ntk_frequencies(
        d, base, length=4 * original_length, original_length=original_length
    )
    th["Llama 3.1 rule (factor s, low 1, high 4)"] = llama31_frequencies(
        d, base, factor=scale, low_freq_factor=1.0, high_freq_factor=4.0, original_length=original_length
    )
    i = np.arange(d // 2)
    styles = ["k-", "C0-", "C1-", "C2-", "C3--", "C4:", "C5-."]
    with style.context("default"):
        fig = Figure(figsize=(7.5, 4.0))
        ax = fig.subplots()
        for (name, t), st in zip(th.items(), styles, strict=True):
            ax.semilogy(
                i, t, st, lw=2.2 if name == "none" else 1.3, label="before (plain RoPE)" if name == "none" else name
            )
        ax.axvline(critical_pair(d, base, original_length) + 0.5, color="0.6", lw=0.8)
        ax.set(
            xlabel="pair index i",
            ylabel="frequency θᵢ (rad per position)",
            title=f"Frequencies before/after extension: d = {d}, base {base:g}, L = {original_length}, s = {scale:g}",
        )
        ax.legend(fontsize=8, loc="lower left")
        ax.grid(alpha=0.3)
    return fig


def cos_sin_table_error_figure(length: int = 131072, d: int = 128, base: float = 10000.0) -> Figure:
    """Max error of a bfloat16 cos/sin table per position: float32 angles (as HF) vs float64 angles."""
    m = np.arange(length)
    with style.context("default"):
        fig = Figure(figsize=(7.5, 3.6))
        ax = fig.subplots()
        for dtype, color in (("float32", "C3"), ("float64", "C0")):
            e = hf_cos_sin_error(m, d, base, angle_dtype=dtype)
            blocks = e[: (length // 256) * 256].reshape(-1, 256).max(axis=1)  # max per block of 256 positions
            ax.loglog(
                m[255 : (length // 256) * 256 : 256] + 1,
                blocks,
                color=color,
                lw=1.2,
                label=f"angles in {dtype}, cos/sin cast to bfloat16",
            )
        ax.axhline(2.0**-9, color="k", lw=0.8, ls=":")
        ax.text(300, 2.0**-9 * 1.15, "2⁻⁹: half a bfloat16 spacing below 1", fontsize=8)
        ax.set(
            xlabel="position m (max over each block of 256)",
            ylabel="max error of cos, sin",
            title=f"A bfloat16 cos/sin table (d = {d}, base {base:g})",
        )
        ax.legend(fontsize=8, loc="upper left")
        ax.grid(alpha=0.3, which="both")
    return fig
