r"""Pictures of the rotation itself: clock hands turning by mθ_i, a rotated query and key, which coordinates
form a pair, and the sparsity of the dense matrix R^d_{Θ,m}.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (12)-(16), (34).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from matplotlib import style
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ropemath.core._validate import check_base, check_d, check_int, check_real, check_real_array
from ropemath.core.rotation import angles, frequencies, rotation_2d, rotation_matrix
from ropemath.models.pitfalls import layout_pairs

__all__ = ["clock_figure", "query_key_clock_figure", "rotated_pair_figure", "layout_pairs_figure", "sparsity_figure"]

CIRCLE = np.linspace(0.0, 2 * np.pi, 181)


def clock_figure(positions: Sequence[int] = (0, 1, 2, 3, 10, 100), d: int = 8, base: float = 10000.0,
                 phases: npt.ArrayLike | None = None) -> Figure:
    r"""Return small multiples of clock hands: row = position m, column = pair i, hand at :math:`\varphi_i + m\theta_i`.

    .. math:: \text{hand}_{m,i} = \big(\cos(\varphi_i + m\theta_i),\ \sin(\varphi_i + m\theta_i)\big)

    ``phases`` are the content angles :math:`\varphi_i` (0 if omitted); each panel's last line is the hand.
    Source: RoFormer eq. (15).

    >>> len(clock_figure(positions=(0, 1), d=4, phases=[0.5, 2.0]).axes)
    4
    """
    pos = check_real_array(positions, "positions")
    if pos.ndim != 1 or pos.size == 0:
        raise ValueError(f"positions must be a non-empty 1-D sequence, got shape {pos.shape}")
    d, base = check_d(d), check_base(base)
    phi, theta = angles(pos, d, base=base), frequencies(d, base=base)  # (rows, pairs), (pairs,)
    start = np.zeros(d // 2) if phases is None else np.asarray(phases, dtype=np.float64)
    if start.shape != (d // 2,) or not np.all(np.isfinite(start)):
        raise ValueError(f"phases must be {d // 2} finite angles (one per pair), got shape {start.shape}")
    rows, cols = phi.shape
    fig = Figure(figsize=(1.45 * cols + 0.6, 1.45 * rows + 0.4))
    axes = np.atleast_2d(fig.subplots(rows, cols, squeeze=False))
    for r in range(rows):
        for i in range(cols):
            ax, turn, s = axes[r, i], float(phi[r, i]), float(start[i])
            ax.plot(np.cos(CIRCLE), np.sin(CIRCLE), color="0.8", lw=0.8)
            ax.plot([0.0, np.cos(s)], [0.0, np.sin(s)], color="0.5", lw=1.0, ls="--")
            swept = s + np.linspace(0.0, np.mod(turn, 2 * np.pi), 60)
            ax.plot(0.55 * np.cos(swept), 0.55 * np.sin(swept), color="tab:orange", lw=1.2)
            ax.plot([0.0, np.cos(s + turn)], [0.0, np.sin(s + turn)], color="tab:blue", lw=2.2)
            ax.text(0.0, -1.45, f"+{np.degrees(np.mod(turn, 2 * np.pi)):.0f}°", ha="center", fontsize=8)
            ax.set(xlim=(-1.2, 1.2), ylim=(-1.7, 1.2), aspect="equal", xticks=[], yticks=[])
            if r == 0:
                ax.set_title(f"pair {i}\nθ_{i} = {theta[i]:.3g}", fontsize=9)
            if i == 0:
                ax.set_ylabel(f"m = {int(pos[r])}", fontsize=9)
    fig.suptitle("Each hand starts at its content angle (dashed) and turns by m θ_i (fast → slow)", fontsize=10)
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.02, top=0.86, wspace=0.05, hspace=0.1)
    return fig


def query_key_clock_figure(phase_q: float, phase_k: float, position_pairs: Sequence[tuple[int, int]],
                           theta: float = 1.0) -> Figure:
    r"""Return one clock per (m, n) with the query's hand (``lines[-2]``) and the key's (``lines[-1]``) of one pair.

    .. math:: \angle(\text{query}, \text{key}) = (\varphi_k - \varphi_q) + (n - m)\theta

    Source: RoFormer eq. (16) for d = 2.

    >>> fig = query_key_clock_figure(0.0, 1.0, [(3, 1), (13, 11)])
    >>> [ax.get_title().splitlines()[0] for ax in fig.axes]
    ['m = 3, n = 1', 'm = 13, n = 11']
    """
    pairs = [(int(m), int(n)) for m, n in position_pairs]
    if not pairs:
        raise ValueError("position_pairs must hold at least one (m, n)")
    for name, value in (("phase_q", phase_q), ("phase_k", phase_k), ("theta", theta)):
        if not np.isfinite(float(value)):
            raise ValueError(f"{name} must be finite, got {value!r}")
    fig = Figure(figsize=(2.3 * len(pairs) + 0.4, 2.7))
    axes = np.atleast_1d(fig.subplots(1, len(pairs), squeeze=False)[0])
    for ax, (m, n) in zip(axes, pairs, strict=True):
        aq, ak = float(phase_q) + m * float(theta), float(phase_k) + n * float(theta)
        between = np.angle(np.exp(1j * (ak - aq)))  # wrapped to (-pi, pi]
        ax.plot(np.cos(CIRCLE), np.sin(CIRCLE), color="0.8", lw=0.8)
        arc = aq + np.linspace(0.0, between, 40)
        ax.plot(0.45 * np.cos(arc), 0.45 * np.sin(arc), color="tab:green", lw=1.5)
        ax.plot([0.0, np.cos(aq)], [0.0, np.sin(aq)], color="tab:blue", lw=2.4, label="query")
        ax.plot([0.0, np.cos(ak)], [0.0, np.sin(ak)], color="tab:red", lw=2.4, label="key")
        ax.set(xlim=(-1.2, 1.2), ylim=(-1.2, 1.2), aspect="equal", xticks=[], yticks=[])
        ax.set_title(f"m = {m}, n = {n}\nangle from query to key: {np.degrees(between):.0f}°", fontsize=9)
    axes[0].legend(loc="lower left", fontsize=7, frameon=False)
    fig.suptitle("Both hands turn as the tokens move; the angle between them depends on n − m", fontsize=10)
    fig.subplots_adjust(left=0.03, right=0.97, bottom=0.03, top=0.74, wspace=0.1)
    return fig


def _arc(ax, start: float, stop: float, radius: float, color: str, label: str | None = None) -> None:
    t = np.linspace(start, stop, 50)
    ax.plot(radius * np.cos(t), radius * np.sin(t), color=color, lw=1.5, label=label)


def rotated_pair_figure(pairs: Sequence[tuple[int, int]] = ((1, 3), (4, 6), (1, 5)), theta: float = 0.35) -> Figure:
    r"""Return one panel per (m, n): q = (1, 0) rotated by mθ, k = (0.8, 0) by nθ, the angle between marked.

    .. math:: (R(m\theta) q)^\top (R(n\theta) k) = |q|\,|k| \cos\big((n - m)\theta\big) \quad (q \parallel k)

    Source: RoFormer eq. (12)-(13).

    >>> rotated_pair_figure(((1, 2),), theta=0.5).axes[0].get_title().splitlines()[0]
    'm = 1, n = 2'
    """
    theta = check_real(theta, "theta")
    q, k = np.array([1.0, 0.0]), np.array([0.8, 0.0])
    fig = Figure(figsize=(3.3 * len(pairs), 3.6))
    axes = np.atleast_1d(fig.subplots(1, len(pairs)))
    for ax, (m, n) in zip(axes, pairs, strict=True):
        m, n = check_int(m, "m"), check_int(n, "n")
        qm, kn = rotation_2d(m * theta) @ q, rotation_2d(n * theta) @ k
        ax.annotate("", xy=qm, xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": "tab:blue", "lw": 2})
        ax.annotate("", xy=kn, xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": "tab:red", "lw": 2})
        ax.plot([0, qm[0]], [0, qm[1]], color="tab:blue", lw=2, label=r"$R(m\theta)\,q$")
        ax.plot([0, kn[0]], [0, kn[1]], color="tab:red", lw=2, label=r"$R(n\theta)\,k$")
        _arc(ax, 0.0, m * theta, 0.25, "tab:blue")
        _arc(ax, 0.0, n * theta, 0.35, "tab:red")
        _arc(ax, m * theta, n * theta, 0.6, "black", label=r"$(n-m)\theta$")
        ax.plot(np.cos(CIRCLE), np.sin(CIRCLE), color="0.85", lw=0.8)
        ax.axhline(0, color="0.8", lw=0.6)
        ax.set(xlim=(-1.15, 1.15), ylim=(-1.15, 1.15), aspect="equal", xticks=[], yticks=[])
        ax.set_title(f"m = {m}, n = {n}\n(n - m)θ = {(n - m) * theta:.2f} rad, score = {qm @ kn:.3f}", fontsize=9)
        ax.legend(loc="lower left", fontsize=7, frameon=False)
    fig.suptitle("Rotate q by mθ and k by nθ: only the angle between them, (n − m)θ, is left", fontsize=10)
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.02, top=0.8, wspace=0.08)
    return fig


def layout_pairs_figure(d: int = 8, *, slot_labels: bool = False) -> Figure:
    r"""Return coordinates 0..d-1 of one head coloured by their pair, interleaved above half, arcs joining pairs.

    ``slot_labels=True`` labels each box by its slot (index in memory) and draws the half row's arcs below it.

    .. math:: \text{interleaved: } (x_{2i}, x_{2i+1}), \qquad \text{half: } (x_i, x_{i+d/2})

    >>> len(layout_pairs_figure(4).axes)
    1
    >>> layout_pairs_figure(4, slot_labels=True).axes[0].texts[0].get_text()
    '0'
    """
    with style.context("default"):
        fig = Figure(figsize=(7.0, 2.6))
        ax = fig.subplots()
        colors = [f"C{p}" for p in range(d // 2)]
        for row, layout in ((1.0, "interleaved"), (0.0, "half")):
            pairs = layout_pairs(d, layout)
            for j in range(d):
                color = colors[pairs[j]]
                ax.add_patch(Rectangle((j + 0.05, row), 0.9, 0.7, facecolor=color, alpha=0.35, edgecolor=color))
                ax.text(j + 0.5, row + 0.35, f"{j}" if slot_labels else f"x{j}", ha="center", va="center", fontsize=10)
            for p in range(d // 2):
                a, b = np.flatnonzero(pairs == p)
                t = np.linspace(0, np.pi, 30)
                arc = 0.12 * (1 + (b - a) / 2) * np.sin(t)
                below = slot_labels and row == 0.0
                ax.plot(a + 0.5 + (b - a) / 2 * (1 - np.cos(t)), row - 0.02 - arc if below else row + 0.72 + arc,
                        color=colors[p], lw=1.5)
            ax.text(-0.3, row + 0.35, f"{layout}", ha="right", va="center", fontsize=10)
        ax.set_xlim(-2.6, d + 0.2)
        ax.set_ylim(-0.6 if slot_labels else -0.1, 2.4)
        ax.axis("off")
        what = "slots" if slot_labels else "coordinates"
        ax.set_title(f"Which {what} rotate together (d = {d}; colour = pair i, angle mθ_i)", fontsize=10)
    return fig


def sparsity_figure(d: int = 16, m: int = 1, base: float = 10000.0) -> Figure:
    r"""Return the sign pattern of the dense :math:`R^d_{\Theta,m}` (white where 0) beside eq. (34)'s two columns.

    .. math:: R^d_{\Theta,m} x = x \otimes \cos + \mathrm{rot}(x) \otimes \sin
              \quad (2d \text{ nonzeros of } d^2;\ 2d \text{ numbers, } d \text{ distinct})

    Source: RoFormer eq. (15), (34).

    >>> sparsity_figure(d=4).axes[0].images[0].get_array().shape
    (4, 4)
    """
    d = check_d(d, maximum=512)
    m, base = check_int(m, "m"), check_base(base)
    R = rotation_matrix(m, d, base)
    phi = np.repeat(angles(m, d, base), 2)
    fig = Figure(figsize=(7.6, 4.0))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [d, 5]})
    signs = np.ma.masked_where(R == 0.0, np.sign(R))
    left.imshow(signs, cmap="RdBu_r", vmin=-1.5, vmax=1.5, interpolation="nearest")
    left.set(title=f"dense R (d = {d}): {np.count_nonzero(R)} of {d * d} entries nonzero\n"
                   "red/blue: sign of a nonzero entry; white: exactly 0",
             xlabel="column", ylabel="row")
    columns = right.imshow(np.stack([np.cos(phi), np.sin(phi)], axis=1), cmap="RdBu_r", vmin=-1, vmax=1,
                           interpolation="nearest", aspect="auto")
    right.set(title=f"elementwise: 2 × {d}\nnumbers, {d // 2} distinct each", xticks=[0, 1],
              xticklabels=["cos", "sin"], yticks=[])
    fig.suptitle(f"R at m = {m}: the matrix is almost all zeros; eq. (34) keeps only what is not", fontsize=10)
    fig.subplots_adjust(left=0.08, right=0.97, bottom=0.1, top=0.78, wspace=0.15)
    fig.colorbar(columns, ax=right, label="value of cos or sin")
    return fig
