r"""Pictures of the long-term decay: RoFormer Figure 2 uncropped, the bound across bases and head sizes, the bound
beside actual scores, the partial sums S_j(r) as a walk in the plane, and the expected score of a similar key.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.3 (eq. 35-37, Figure 2); X. Men et al., *Base of
RoPE Bounds Context Length*, arXiv:2405.14591 (the condition on the cosine sum); Llama 3 (base 500000).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib import style
from matplotlib.figure import Figure

from ropemath.core._validate import check_base, check_d
from ropemath.theory.abel import abel_constant, complex_score
from ropemath.theory.decay import binned_bound, decay_bound, partial_sums
from ropemath.theory.plateau import random_phase_level
from ropemath.theory.similar_key import similar_key_expected_score, similar_key_scores

__all__ = ["PAPER_Y_TOP", "long_term_decay", "decay_across_bases", "bound_vs_scores", "partial_sum_paths_figure",
           "similar_key_figure"]

FIGSIZE = (8.0, 4.5)  # inches; 800 x 450 px at the 100 dpi of save_png: readable at a README's width
PAPER_Y_TOP = 20.5  # RoFormer Figure 2's y-axis ends at about 20.5 (ticks 8 to 20), read off the paper's PDF


def long_term_decay(d: int = 128, base: float = 10000.0, r_max: float = 256.0) -> Figure:
    r"""Return RoFormer Figure 2 uncropped: the bound B(r) against r, the part above the paper's frame shaded.

    .. math:: B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|, \qquad B(0) = (d/2 + 1)/2

    The paper's y-axis stops near 20.5 and hides the start (32.5 at r = 0 for d = 128); dotted: the random-phase
    level far out.  Source: RoFormer §3.4.3, Figure 2.
    """
    r = np.linspace(0.0, r_max, int(r_max * 20) + 1)
    b = decay_bound(r, d, base)
    level = random_phase_level(d)
    with style.context("default"):
        fig = Figure(figsize=FIGSIZE)
        ax = fig.add_subplot()
        frame = f"above RoFormer Fig. 2's frame (y > {PAPER_Y_TOP})"
        ax.axhspan(PAPER_Y_TOP, 34.0, color="0.88", zorder=0, label=frame)
        ax.axhline(PAPER_Y_TOP, color="0.45", ls="--", lw=1)
        curve = rf"$\frac{{1}}{{d/2}}\sum_{{j=1}}^{{d/2}}|S_j(r)|$, d = {d}, base {base:g}"
        ax.plot(r, b, color="C0", lw=1.3, label=curve)
        ax.axhline(level, color="C3", ls=":", lw=1.5, label=f"random-phase level {level:.2f} (the far-out plateau)")
        ax.plot([0.0], [b[0]], "o", color="C0", ms=5)
        ax.annotate(f"r = 0: (d/2 + 1)/2 = {b[0]:g}", xy=(0.0, b[0]), xytext=(14.0, 29.0),
                    arrowprops={"arrowstyle": "->", "color": "0.3"}, fontsize=9)
        ax.set(xlim=(0.0, r_max), ylim=(0.0, 34.0), xlabel="relative distance", ylabel="relative upper bound",
               title=f"Long-term decay (RoFormer Fig. 2 reproduced, uncropped): d = {d}, base {base:g}")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper right", fontsize=9, framealpha=0.95)
        fig.tight_layout()
    return fig


def decay_across_bases(bases: tuple[float, ...] = (1e2, 1e4, 5e5), dims: tuple[int, ...] = (32, 128, 512),
                       r_max: float = 1e6) -> Figure:
    r"""Return the bound B(r) / B(0) for several bases (left, d = 128) and head sizes (right, base 10000).

    .. math:: B(r)/B(0), \qquad B(0) = (d/2 + 1)/2

    Each line is the mean of B(r)/B(0) over a log-spaced bin of distances (the raw curve oscillates faster than a
    pixel), the band its 10%-90% quantiles; dotted: the random-phase level, the bound's mean far out (it depends on
    d only).  Source: RoFormer §3.4.3, Figure 2.
    """
    edges = np.geomspace(1.0, r_max, 151)
    centers = np.sqrt(edges[:-1] * edges[1:])
    ylabel = "bound B(r) ÷ value at r = 0"
    with style.context("default"):
        fig = Figure(figsize=FIGSIZE)
        left, right = fig.subplots(1, 2, sharex=True, sharey=True)
        top = (128 / 2 + 1) / 2
        for color, base in zip(("C2", "C0", "C1"), bases, strict=False):
            mean, low, high = binned_bound(edges, 128, base, per_bin=64)
            left.fill_between(centers, low / top, high / top, color=color, alpha=0.18, lw=0)
            left.plot(centers, mean / top, color=color, lw=1.5, label=f"base {base:g}")
        left.axhline(random_phase_level(128) / top, color="0.3", ls=":", lw=1.2, label="random-phase level")
        left.set(title="d = 128, three bases", ylabel=f"{ylabel} (bin mean, 10-90% band)")
        for color, d in zip(("C4", "C0", "C5"), dims, strict=False):
            mean, low, high = binned_bound(edges, d, 10000.0, per_bin=64)
            top = (d / 2 + 1) / 2
            right.fill_between(centers, low / top, high / top, color=color, alpha=0.18, lw=0)
            right.plot(centers, mean / top, color=color, lw=1.5, label=f"d = {d}")
            right.axhline(random_phase_level(d) / top, color=color, ls=":", lw=1.2)
        right.set(title="base 10000, three head sizes d", ylabel=ylabel, ylim=(0.0, 1.05))
        for ax in (left, right):
            ax.set_xscale("log")
            ax.set_xlabel("relative distance (log scale)")
            ax.grid(alpha=0.3, which="both")
            ax.legend(fontsize=8, loc="upper right")
        title = "Larger base: slower decay on average, to the same mean level (dotted: random-phase level)"
        fig.suptitle(title, fontsize=11)
        fig.tight_layout()
    return fig


def bound_vs_scores(d: int = 128, base: float = 10000.0, r_max: float = 256.0, seed: int = 0) -> Figure:
    r"""Return the bound beside actual scores: the bound decays, individual scores need not.

    .. math:: |\text{score}(r)| \le \max_i|h_{i+1} - h_i| \cdot \tfrac{d}{2} \cdot B(r) \quad \text{(eq. 37)}

    Left (log axis): each |score| over its own bound, for random, aligned and ramp vectors (the ramp reaches the
    bound at r = 0); right: the same scores as cosines.  Source: RoFormer §3.4.3, eq. (37).
    """
    r = np.linspace(0.0, r_max, int(r_max * 4) + 1)
    b = decay_bound(r, d, base)
    rng = np.random.default_rng(seed)
    q_rand, k_rand, q_al = rng.standard_normal(d), rng.standard_normal(d), rng.standard_normal(d)
    ramp = np.zeros(d)
    ramp[0::2] = np.sqrt(d // 2 - np.arange(d // 2))  # h_i = |q_i|^2 = d/2 - i, so every |h_{i+1} - h_i| = 1
    examples = {"random q, k": (q_rand, k_rand), "aligned k = q": (q_al, q_al),
                "ramp k = q, |q_i|² = d/2 - i": (ramp, ramp)}
    colors = {"random q, k": "C1", "aligned k = q": "C2", "ramp k = q, |q_i|² = d/2 - i": "C4"}
    with style.context("default"):
        fig = Figure(figsize=FIGSIZE)
        left, right = fig.subplots(1, 2, sharex=True)
        floor = 1e-4  # bottom of the log axis; |score| dips below it only at sign changes
        left.axhline(1.0, color="C0", lw=1.6, label="the bound (eq. 37)")
        for name, (q, k) in examples.items():
            score = complex_score(q, k, r, base, layout="interleaved")
            bound = abel_constant(q, k, layout="interleaved") * (d // 2) * b  # eq. 37: |score| <= bound
            left.plot(r, np.maximum(np.abs(score) / bound, floor), color=colors[name], lw=0.9, label=name)
            if name != "ramp k = q, |q_i|² = d/2 - i":
                cosine = score / (np.linalg.norm(q) * np.linalg.norm(k))
                right.plot(r, cosine, color=colors[name], lw=1.0, label=name)
        left.set_yscale("log")
        left.set(title="each |score| over its own bound (log scale)",
                 ylabel="|score| / (max|Δh| · d/2 · B(r))", ylim=(floor, 30.0))
        right.axhline(0.0, color="0.3", lw=0.8)
        right.set(title="the same scores as cosines", ylabel="score / (|q| |k|)")
        for ax in (left, right):
            ax.set(xlim=(0.0, r_max), xlabel="relative distance r = m - n")
            ax.grid(alpha=0.3)
        left.legend(fontsize=7, loc="upper right", framealpha=0.9, ncol=2)
        right.legend(fontsize=8, loc="upper right")
        fig.suptitle(f"Random scores stay far below the bound and need not decay (d = {d}, base {base:g}, seed {seed})",
                     fontsize=11)
        fig.tight_layout()
    return fig


def partial_sum_paths_figure(distances: Sequence[float] = (0.0, 10.0, 100.0, 123457.0), d: int = 128,
                             base: float = 10000.0) -> Figure:
    r"""Return one panel per distance: the walk :math:`0, S_1(r), \dots, S_{d/2}(r)`, circle of radius B(r).

    .. math:: S_j(r) = \sum_{i=0}^{j-1} e^{\mathrm{i}r\theta_i}, \qquad B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|

    Fast pairs turn the walk around, slow pairs all step to the right.  Source: RoFormer eq. (36)-(37), Figure 2.

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
    fig.suptitle(rf"$S_j(r)$ as a walk of {half} unit steps (square: $S_{{{half}}}$); dashed circle: radius $B(r)$",
                 fontsize=10)
    fig.tight_layout()
    return fig


def similar_key_figure(d: int = 128, base: float = 10000.0, r_max: float = 4096.0, seed: int = 0) -> Figure:
    r"""Return the expected score of :math:`k = q + \varepsilon` against r: formula, seeded Monte Carlo, sign.

    .. math:: \mathbb{E}[(R_m q)^\top(R_n k)] = 2\sum_{i=0}^{d/2-1}\cos(r\theta_i), \qquad q, \varepsilon \sim N(0, I_d)

    Red dots: distances where the formula is negative.  Source: :func:`ropemath.theory.similar_key.similar_key_scores`.

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
