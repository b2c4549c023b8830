r"""Intuition pictures for notebooks 00 and 01: the clock of pairs, and the score over (m, n).

Scope: two figure functions built with the object API (``matplotlib.figure.Figure``, never
``pyplot``); notebook figures, not registered in :data:`ropemath.plots.FIGURES`.  They only draw:
the angles come from :func:`ropemath.core.rotation.angles`, the score maps from
:func:`ropemath.theory.relative_position.same_token_score_maps`.

* :func:`clock_figure`: small multiples, one row per position m and one column per pair i
  (fast to slow); pair i is a clock hand at the angle :math:`m\theta_i`, so each pair is a
  hand turning at its own speed.
* :func:`score_map_figure`: two heat maps of the score of one token against itself over the
  query position m and the key position n, RoPE next to an absolute sinusoidal encoding added
  to the input; RoPE's is constant along every diagonal m − n = const.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (15)–(16) and §2.2;
matplotlib's object-oriented API (``Figure.subplots``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from ropemath.core._validate import check_base, check_d, check_positions
from ropemath.core.rotation import angles, frequencies

__all__ = ["clock_figure", "score_map_figure"]


def clock_figure(positions: Sequence[int] = (0, 1, 2, 3, 10, 100), d: int = 8, base: float = 10000.0) -> Figure:
    r"""Return small multiples of clock hands: row = position m, column = pair i, hand at angle :math:`m\theta_i`.

    .. math:: \text{hand}_{m,i} = (\cos m\theta_i,\ \sin m\theta_i), \qquad \theta_i = \mathrm{base}^{-2i/d}

    Each panel shows the hand (a line from the centre), the arc it has swept since m = 0 modulo a
    full turn, and the angle in degrees; the line data of the hand is exactly
    ``[0, cos(m θ_i)], [0, sin(m θ_i)]`` (the test reads it back).  Source: RoFormer eq. (15).

    >>> fig = clock_figure(positions=(0, 1), d=4)
    >>> len(fig.axes)
    4
    """
    pos = check_positions(positions, "positions")
    if pos.ndim != 1 or pos.size == 0:
        raise ValueError(f"positions must be a non-empty 1-D sequence, got shape {pos.shape}")
    d, base = check_d(d), check_base(base)
    phi, theta = angles(pos, d, base), frequencies(d, base)  # (rows, pairs), (pairs,)
    rows, cols = phi.shape
    fig = Figure(figsize=(1.45 * cols + 0.6, 1.45 * rows + 0.4))
    axes = np.atleast_2d(fig.subplots(rows, cols, squeeze=False))
    circle = np.linspace(0.0, 2 * np.pi, 181)
    for r in range(rows):
        for i in range(cols):
            ax, a = axes[r, i], float(phi[r, i])
            ax.plot(np.cos(circle), np.sin(circle), color="0.8", lw=0.8)
            swept = np.linspace(0.0, np.mod(a, 2 * np.pi), 60)
            ax.plot(0.55 * np.cos(swept), 0.55 * np.sin(swept), color="tab:orange", lw=1.2)
            ax.plot([0.0, np.cos(a)], [0.0, np.sin(a)], color="tab:blue", lw=2.2)
            ax.text(0.0, -1.45, f"{np.degrees(np.mod(a, 2 * np.pi)):.1f}°", ha="center", fontsize=8)
            ax.set(xlim=(-1.2, 1.2), ylim=(-1.7, 1.2), aspect="equal", xticks=[], yticks=[])
            if r == 0:
                ax.set_title(f"pair {i}\nθ_{i} = {theta[i]:.3g}", fontsize=9)
            if i == 0:
                ax.set_ylabel(f"m = {int(pos[r])}", fontsize=9)
    fig.suptitle("Each pair is a clock hand turning at its own speed θ_i (fast → slow)", fontsize=10)
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.02, top=0.86, wspace=0.05, hspace=0.1)
    return fig


def score_map_figure(maps: Mapping[str, npt.ArrayLike], positions: npt.ArrayLike) -> Figure:
    r"""Return two heat maps of a score over (m, n): ``maps["rope"]`` next to ``maps["absolute"]``.

    .. math:: S^{\mathrm{RoPE}}_{mn} = g(m - n) \quad\text{vs}\quad
              S^{\mathrm{abs}}_{mn} = (x + p_m)^\top W_q^\top W_k (x + p_n)

    Rows are the query position m, columns the key position n; each panel has its own colour
    scale, and the image data is the matrix given (the test reads it back).  Source: RoFormer
    eq. (16) and §2.2.

    >>> fig = score_map_figure({"rope": np.eye(3), "absolute": np.ones((3, 3))}, [0, 1, 2])
    >>> [ax.get_title() for ax in fig.axes[:2]]
    ['RoPE: constant along diagonals', 'absolute sinusoidal added to x']
    """
    pos = check_positions(positions, "positions")
    fig = Figure(figsize=(8.4, 3.7))
    fig.subplots_adjust(left=0.07, right=0.95, bottom=0.14, top=0.86, wspace=0.35)
    axes = fig.subplots(1, 2)
    titles = {"rope": "RoPE: constant along diagonals", "absolute": "absolute sinusoidal added to x"}
    extent = (pos[0] - 0.5, pos[-1] + 0.5, pos[-1] + 0.5, pos[0] - 0.5)
    for ax, key in zip(axes, ("rope", "absolute"), strict=True):
        data = np.asarray(maps[key], dtype=np.float64)
        image = ax.imshow(data, cmap="RdBu_r", extent=extent, interpolation="nearest")
        ax.set(title=titles[key], xlabel="key position n", ylabel="query position m")
        fig.colorbar(image, ax=ax, shrink=0.85)
    fig.suptitle("score of one token against itself, query at m and key at n", fontsize=10)
    return fig
