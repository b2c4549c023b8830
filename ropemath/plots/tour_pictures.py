r"""Intuition pictures for notebooks 00 and 01: the clock of pairs, and the score over (m, n).

Scope: two figure functions built with the object API (``matplotlib.figure.Figure``, never
``pyplot``); notebook figures, not registered in :data:`ropemath.plots.FIGURES`.  They only draw:
the angles come from :func:`ropemath.core.rotation.angles`, the score maps from
:func:`ropemath.theory.relative_position.same_token_score_maps`.

* :func:`clock_figure`: small multiples, one row per position m and one column per pair i
  (fast to slow); pair i is a clock hand that starts at its content angle :math:`\varphi_i` and
  is turned by :math:`m\theta_i`, so each pair is a hand turning at its own speed.
* :func:`query_key_clock_figure`: one pair, a query's hand and a key's hand for a few (m, n);
  the angle between them is :math:`(\varphi_k - \varphi_q) + (n - m)\theta`.
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

from ropemath.core._validate import check_base, check_d, check_real_array
from ropemath.core.rotation import angles, frequencies

__all__ = ["clock_figure", "query_key_clock_figure", "score_map_figure"]


def clock_figure(
    positions: Sequence[int] = (0, 1, 2, 3, 10, 100),
    d: int = 8,
    base: float = 10000.0,
    phases: npt.ArrayLike | None = None,
) -> Figure:
    r"""Return small multiples of clock hands: row = position m, column = pair i, hand at :math:`\varphi_i + m\theta_i`.

    .. math:: \text{hand}_{m,i} = \big(\cos(\varphi_i + m\theta_i),\ \sin(\varphi_i + m\theta_i)\big),
              \qquad \theta_i = \mathrm{base}^{-2i/d}

    :math:`\varphi_i` (``phases``, radians, one per pair; 0 if omitted) is the content angle of pair
    i, the direction of the pair before any rotation: every hand starts there at m = 0.  Each panel
    shows the start direction (dashed), the arc swept since m = 0 modulo a full turn, and the hand,
    whose line data is exactly ``[0, cos(φ_i + m θ_i)], [0, sin(φ_i + m θ_i)]`` (the test reads it
    back); the label is the turn :math:`m\theta_i` in degrees modulo 360.  Source: RoFormer eq. (15).

    >>> fig = clock_figure(positions=(0, 1), d=4, phases=[0.5, 2.0])
    >>> len(fig.axes)
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
    circle = np.linspace(0.0, 2 * np.pi, 181)
    for r in range(rows):
        for i in range(cols):
            ax, turn, s = axes[r, i], float(phi[r, i]), float(start[i])
            ax.plot(np.cos(circle), np.sin(circle), color="0.8", lw=0.8)
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


def query_key_clock_figure(
    phase_q: float, phase_k: float, position_pairs: Sequence[tuple[int, int]], theta: float = 1.0
) -> Figure:
    r"""Return one clock per (m, n) with the query's hand and the key's hand of one pair of coordinates.

    The key's hand is at :math:`\varphi_k + n\theta`; the angle between them is

    .. math:: \angle(\text{query}, \text{key}) = (\varphi_k - \varphi_q) + (n - m)\theta

    One pair of coordinates (one frequency θ).  In panel j the query's hand is ``lines[-2]`` and the
    key's ``lines[-1]`` (the test reads them back); the title gives (m, n) and the angle from the
    query's hand to the key's, in degrees in (−180, 180].  Source: RoFormer eq. (16) for d = 2.

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
    circle = np.linspace(0.0, 2 * np.pi, 181)
    for ax, (m, n) in zip(axes, pairs, strict=True):
        aq, ak = float(phase_q) + m * float(theta), float(phase_k) + n * float(theta)
        between = np.angle(np.exp(1j * (ak - aq)))  # wrapped to (-pi, pi]
        ax.plot(np.cos(circle), np.sin(circle), color="0.8", lw=0.8)
        arc = aq + np.linspace(0.0, between, 40)
        ax.plot(0.45 * np.cos(arc), 0.45 * np.sin(arc), color="tab:green", lw=1.5)
        ax.plot([0.0, np.cos(aq)], [0.0, np.sin(aq)], color="tab:blue", lw=2.4, label="query")
        ax.plot([0.0, np.cos(ak)], [0.0, np.sin(ak)], color="tab:red", lw=2.4, label="key")
        ax.set(xlim=(-1.2, 1.2), ylim=(-1.2, 1.2), aspect="equal", xticks=[], yticks=[])
        ax.set_title(f"m = {m}, n = {n}\nangle between {np.degrees(between):.0f}°", fontsize=9)
    axes[0].legend(loc="lower left", fontsize=7, frameon=False)
    fig.suptitle("Both hands turn as the tokens move; the angle between them depends on n − m", fontsize=10)
    fig.subplots_adjust(left=0.03, right=0.97, bottom=0.03, top=0.74, wspace=0.1)
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
    pos = check_real_array(positions, "positions")
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
