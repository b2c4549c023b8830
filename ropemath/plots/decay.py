r"""Figures of the long-term decay (RoFormer §3.4.3, Figure 2).

Scope: three figure functions, each returning a :class:`matplotlib.figure.Figure` built
with the object API (no pyplot, so importing this module changes no backend) and the
matplotlib default style (so a user's matplotlibrc cannot change the committed PNGs):

* :func:`long_term_decay` — RoFormer Figure 2 reproduced, with the part the paper's frame clips;
* :func:`decay_across_bases` — the bound for several bases and head sizes on a log distance axis;
* :func:`bound_vs_scores` — the bound beside actual scores of random, aligned and extremal vectors.

All numbers come from :mod:`ropemath.theory.decay`, :mod:`ropemath.theory.abel` and :mod:`ropemath.theory.plateau`;
this module only draws them.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.3, Figure 2; Llama 3 (base 500000).
"""

from __future__ import annotations

import numpy as np
from matplotlib import style
from matplotlib.figure import Figure

from ropemath.theory.abel import abel_constant, complex_score
from ropemath.theory.decay import binned_bound, decay_bound
from ropemath.theory.plateau import random_phase_level

__all__ = ["long_term_decay", "decay_across_bases", "bound_vs_scores", "PAPER_Y_TOP"]

FIGSIZE = (8.0, 4.5)  # inches; 800 x 450 px at the 100 dpi of save_png: readable at a README's width
PAPER_Y_TOP = 20.5  # RoFormer Figure 2's y-axis ends at about 20.5 (ticks 8 to 20), read off the paper's PDF


def _style():
    return style.context("default")


def long_term_decay(d: int = 128, base: float = 10000.0, r_max: float = 256.0) -> Figure:
    """RoFormer Figure 2: the relative upper bound against the relative distance, uncropped.

    The paper's y-axis stops near 20.5, which hides the start of the curve (the bound is
    (d/2 + 1)/2 = 32.5 at r = 0 for d = 128 and falls below 20.5 only at r ≈ 5.4); the region
    above the paper's frame is shaded.  The far-out level predicted by random phases is dotted.
    """
    r = np.linspace(0.0, r_max, int(r_max * 20) + 1)
    b = decay_bound(r, d, base)
    level = random_phase_level(d)
    with _style():
        fig = Figure(figsize=FIGSIZE)
        ax = fig.add_subplot()
        frame = f"above RoFormer Fig. 2's frame (y > {PAPER_Y_TOP})"
        ax.axhspan(PAPER_Y_TOP, 34.0, color="0.88", zorder=0, label=frame)
        ax.axhline(PAPER_Y_TOP, color="0.45", ls="--", lw=1)
        curve = rf"$\frac{{1}}{{d/2}}\sum_{{j=1}}^{{d/2}}|S_j(r)|$, d = {d}, base {base:g}"
        ax.plot(r, b, color="C0", lw=1.3, label=curve)
        ax.axhline(level, color="C3", ls=":", lw=1.5, label=f"random-phase level {level:.2f} (the far-out plateau)")
        ax.plot([0.0], [b[0]], "o", color="C0", ms=5)
        ax.annotate(
            f"r = 0: (d/2 + 1)/2 = {b[0]:g}",
            xy=(0.0, b[0]),
            xytext=(14.0, 29.0),
            arrowprops={"arrowstyle": "->", "color": "0.3"},
            fontsize=9,
        )
        ax.set(
            xlim=(0.0, r_max),
            ylim=(0.0, 34.0),
            xlabel="relative distance",
            ylabel="relative upper bound",
            title=f"Long-term decay (RoFormer Fig. 2 reproduced, uncropped): d = {d}, base {base:g}",
        )
        ax.grid(alpha=0.3)
        ax.legend(loc="upper right", fontsize=9, framealpha=0.95)
        fig.tight_layout()
    return fig


def decay_across_bases(
    bases: tuple[float, ...] = (1e2, 1e4, 5e5),
    dims: tuple[int, ...] = (32, 128, 512),
    r_max: float = 1e6,
) -> Figure:
    """The bound for several bases (left, d = 128) and head sizes (right, base 10000), log distances.

    Each line is the mean of the bound over a log-spaced bin of distances (the raw curve
    oscillates far faster than a pixel); the band spans the 10%-90% quantiles within the bin.
    Dotted lines: the random-phase level, the mean of the bound far out (it depends on d only); the bound
    itself has no limit and keeps returning towards its value at r = 0.
    """
    edges = np.geomspace(1.0, r_max, 151)
    centers = np.sqrt(edges[:-1] * edges[1:])
    with _style():
        fig = Figure(figsize=FIGSIZE)
        left, right = fig.subplots(1, 2, sharex=True)
        for color, base in zip(("C2", "C0", "C1"), bases, strict=False):
            mean, low, high = binned_bound(edges, 128, base, per_bin=64)
            left.fill_between(centers, low, high, color=color, alpha=0.18, lw=0)
            left.plot(centers, mean, color=color, lw=1.5, label=f"base {base:g}")
        left.axhline(random_phase_level(128), color="0.3", ls=":", lw=1.2, label="random-phase level")
        left.set(title="d = 128, three bases", ylabel="relative upper bound (bin mean, 10-90% band)")
        for color, d in zip(("C4", "C0", "C5"), dims, strict=False):
            mean, low, high = binned_bound(edges, d, 10000.0, per_bin=64)
            top = (d / 2 + 1) / 2
            right.fill_between(centers, low / top, high / top, color=color, alpha=0.18, lw=0)
            right.plot(centers, mean / top, color=color, lw=1.5, label=f"d = {d}")
            right.axhline(random_phase_level(d) / top, color=color, ls=":", lw=1.2)
        right.set(title="base 10000, three head sizes d", ylabel="bound / bound at r = 0", ylim=(0.0, 1.05))
        for ax in (left, right):
            ax.set_xscale("log")
            ax.set_xlabel("relative distance (log scale)")
            ax.grid(alpha=0.3, which="both")
            ax.legend(fontsize=8, loc="upper right")
        title = "Larger base: slower decay on average, to the same mean level (dotted: random-phase level)"
        fig.suptitle(title, fontsize=11)
        fig.tight_layout()
    return fig


def _example_vectors(d: int, seed: int = 0) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Three (q, k) pairs: seeded random, aligned (k = q), and the ramp that attains eq. 37 at r = 0."""
    rng = np.random.default_rng(seed)
    q_rand, k_rand = rng.standard_normal(d), rng.standard_normal(d)
    q_al = rng.standard_normal(d)
    ramp = np.zeros(d)
    ramp[0::2] = np.sqrt(d // 2 - np.arange(d // 2))  # h_i = |q_i|^2 = d/2 - i, so every |h_{i+1} - h_i| = 1
    return {
        "random q, k": (q_rand, k_rand),
        "aligned k = q": (q_al, q_al),
        "ramp k = q, |q_i|² = d/2 - i": (ramp, ramp),
    }


def bound_vs_scores(d: int = 128, base: float = 10000.0, r_max: float = 256.0, seed: int = 0) -> Figure:
    """The bound decays; individual scores need not.

    Left: absolute scores divided by their own Abel constant ``max|Δh| · d/2`` (so eq. 37 says each
    curve stays below the bound), on a log axis, so that scores far below the bound stay visible:
    the ramp vector reaches the bound at r = 0, random and aligned vectors sit one to three orders of
    magnitude below it (dips are sign changes).  Right: the same scores as cosines
    ``score / (|q||k|)``: the aligned score decays from 1 but not monotonically, the random one does
    not decay at all.
    """
    r = np.linspace(0.0, r_max, int(r_max * 4) + 1)
    b = decay_bound(r, d, base)
    examples = _example_vectors(d, seed)
    colors = {"random q, k": "C1", "aligned k = q": "C2", "ramp k = q, |q_i|² = d/2 - i": "C4"}
    with _style():
        fig = Figure(figsize=FIGSIZE)
        left, right = fig.subplots(1, 2, sharex=True)
        floor = 1e-3  # bottom of the log axis; |score| dips below it only at sign changes
        left.fill_between(r, floor, b, color="C0", alpha=0.12, lw=0)
        left.plot(r, b, color="C0", lw=1.6, label="relative upper bound B(r)")
        for name, (q, k) in examples.items():
            score = complex_score(q, k, r, base, layout="interleaved")
            unit = abel_constant(q, k, layout="interleaved") * (d // 2)  # eq. 37: |score| <= unit * bound
            left.plot(r, np.maximum(np.abs(score) / unit, floor), color=colors[name], lw=0.9, label=name)
            if name != "ramp k = q, |q_i|² = d/2 - i":
                cosine = score / (np.linalg.norm(q) * np.linalg.norm(k))
                right.plot(r, cosine, color=colors[name], lw=1.0, label=name)
        left.set_yscale("log")
        left.set(title="eq. 37: |score| below the bound (log scale)", ylabel="|score| / (max|Δh| · d/2)",
                 ylim=(floor, 1000.0))
        right.axhline(0.0, color="0.3", lw=0.8)
        right.set(title="the same scores as cosines", ylabel="score / (|q| |k|)")
        for ax in (left, right):
            ax.set(xlim=(0.0, r_max), xlabel="relative distance r = m - n")
            ax.grid(alpha=0.3)
        left.legend(fontsize=7, loc="upper right", framealpha=0.9, ncol=2)
        right.legend(fontsize=8, loc="upper right")
        fig.suptitle(f"The bound decays; individual scores need not (d = {d}, base {base:g}, seed {seed})", fontsize=11)
        fig.tight_layout()
    return fig
