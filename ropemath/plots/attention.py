r"""Pictures of attention scores over query and key positions: RoPE's score map beside an absolute encoding's,
and a causal softmax attention pattern with RoPE that a shift of every position leaves unchanged.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (2) (softmax attention), eq. (16) and §2.2.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from ropemath.attention.softmax import rope_attention_weights, rope_scores
from ropemath.core._validate import check_d, check_int, check_real_array

__all__ = ["score_map_figure", "attention_pattern_figure"]


def score_map_figure(maps: Mapping[str, npt.ArrayLike], positions: npt.ArrayLike) -> Figure:
    r"""Return two heat maps over query position m and key position n: ``maps["rope"]`` beside ``maps["absolute"]``.

    .. math:: S^{\mathrm{RoPE}}_{mn} = g(m - n) \quad\text{vs}\quad
              S^{\mathrm{abs}}_{mn} = (x + p_m)^\top W_q^\top W_k (x + p_n)

    Source: RoFormer eq. (16) and §2.2.

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
        lim = np.max(np.abs(data))  # symmetric colour scale: white is 0
        image = ax.imshow(data, cmap="RdBu_r", vmin=-lim, vmax=lim, extent=extent, interpolation="nearest")
        ax.set(title=titles[key], xlabel="key position n", ylabel="query position m")
        fig.colorbar(image, ax=ax, shrink=0.85)
    fig.suptitle("score of one token against itself, query at m and key at n", fontsize=10)
    return fig


def attention_pattern_figure(n_tokens: int = 48, d: int = 32, seed: int = 0, shift: float = 1000.0,
                             scale: float = 2.0) -> Figure:
    r"""Return two heat maps over (m, n) for one token at every position: scores and causal softmax weights.

    .. math:: S_{mn} = (R_m x)^\top (R_n x) = x^\top R_{n-m}\,x, \qquad
              a_{mn} = \frac{\exp(S_{mn}/\sqrt d)}{\sum_{j \le m}\exp(S_{mj}/\sqrt d)}

    ``x`` is one seeded :math:`N(0, \mathrm{scale}^2 I_d)` vector at positions :math:`0, \dots, N-1`; the weights'
    colour scale stops at the largest weight of rows 4 and later.  The weights' title states whether moving every
    position by ``shift`` changes any weight by more than 1e-9 (a third map would look the same as the second).
    Source: RoFormer eq. (2), (16).

    >>> fig = attention_pattern_figure(4, 2)
    >>> fig.axes[1].get_title()
    'causal softmax weights $a_{mn}$\nevery position + 1000: no weight moves by more than 1e-9'
    """
    n_tokens = check_int(n_tokens, "n_tokens", minimum=2, maximum=512)
    d = check_d(d)
    x = scale * np.random.default_rng(seed).standard_normal(d)
    tokens = np.tile(x, (n_tokens, 1))
    pos = np.arange(n_tokens, dtype=float)
    scores = rope_scores(tokens, tokens, pos, layout="interleaved", base=10000.0)
    weights = rope_attention_weights(tokens, tokens, pos, causal=True, layout="interleaved", base=10000.0)
    shifted = rope_attention_weights(tokens, tokens, pos + shift, causal=True, layout="interleaved", base=10000.0)
    mask = np.triu(np.ones((n_tokens, n_tokens), dtype=bool), 1)
    fig = Figure(figsize=(8.4, 3.9))
    axes = fig.subplots(1, 2)
    lim = float(np.abs(scores).max())
    im = axes[0].imshow(scores, cmap="RdBu_r", vmin=-lim, vmax=lim)
    fig.colorbar(im, ax=axes[0], shrink=0.8)
    axes[0].set_title(r"score $(R_m x)^\top(R_n x)$", fontsize=9)
    top = float(weights[min(4, n_tokens - 1):].max())
    change = float(np.max(np.abs(shifted - weights)[~mask]))  # float64 rounding only, for a moderate shift
    verdict = "no weight moves by more than 1e-9" if change <= 1e-9 else f"weights move by up to {change:.1g}"
    im = axes[1].imshow(np.ma.masked_array(weights, mask), cmap="viridis", vmin=0.0, vmax=top)
    fig.colorbar(im, ax=axes[1], shrink=0.8)
    axes[1].set_title(f"causal softmax weights $a_{{mn}}$\nevery position + {shift:g}: {verdict}", fontsize=9)
    for ax in axes:
        ax.set(xlabel="key position n", ylabel="query position m")
    fig.suptitle(f"One token at every position (d = {d}, seed {seed}): scores depend on m − n only",
                 fontsize=10)
    fig.tight_layout()
    return fig
