r"""Intuition picture for notebook 06: an attention pattern with RoPE, over query and key positions.

Scope: one figure function built with the object API (``matplotlib.figure.Figure``, never ``pyplot``);
a notebook figure, not registered in :data:`ropemath.plots.FIGURES`.  It only draws: the scores and
weights come from :func:`ropemath.attention.softmax.rope_scores` and
:func:`ropemath.attention.softmax.rope_attention_weights`.

* :func:`attention_pattern_figure`: one token vector placed at every position (so :math:`q_m = k_n = x`),
  three heat maps over (m, n): the RoPE scores (constant along every diagonal m − n = const), the causal
  softmax weights, and the same weights with every position shifted by ``shift`` (the same picture).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (2) (softmax attention) and eq. (16)
(RoPE scores depend on n − m); matplotlib's object API (``Figure.subplots``, ``Axes.imshow``).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ropemath.attention.softmax import rope_attention_weights, rope_scores
from ropemath.core._validate import check_d, check_int

__all__ = ["attention_pattern_figure"]


def attention_pattern_figure(
    n_tokens: int = 48, d: int = 32, seed: int = 0, shift: float = 1000.0, scale: float = 2.0
) -> Figure:
    r"""Return three heat maps over (m, n) for one token at every position: scores, weights, shifted weights.

    .. math:: S_{mn} = (R_m x)^\top (R_n x) = x^\top R_{n-m}\,x, \qquad
              a_{mn} = \frac{\exp(S_{mn}/\sqrt d)}{\sum_{j \le m}\exp(S_{mj}/\sqrt d)}

    ``x`` is one seeded :math:`N(0, \mathrm{scale}^2 I_d)` vector, positions :math:`0, \dots, N-1` (third
    panel: :math:`+\,` ``shift``).  The image arrays are exactly the scores and the weights (the test reads
    them back; masked entries of the causal weights are blank; the colour scale of the weights stops at
    the largest weight of rows 4 and later, so the first rows, where few keys share the weight, saturate).
    Source: RoFormer eq. (2), (16).

    >>> fig = attention_pattern_figure(4, 2)
    >>> [ax.get_title() for ax in fig.axes[1:3]]
    ['causal softmax weights $a_{mn}$', 'the same, every position + 1000']
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
    fig = Figure(figsize=(11.0, 3.9))
    axes = fig.subplots(1, 3)
    lim = float(np.abs(scores).max())
    im = axes[0].imshow(scores, cmap="RdBu_r", vmin=-lim, vmax=lim)
    fig.colorbar(im, ax=axes[0], shrink=0.8)
    axes[0].set_title(r"score $(R_m x)^\top(R_n x)$", fontsize=9)
    top = float(weights[min(4, n_tokens - 1):].max())
    for ax, w, title in (
        (axes[1], weights, "causal softmax weights $a_{mn}$"),
        (axes[2], shifted, f"the same, every position + {shift:g}"),
    ):
        im = ax.imshow(np.ma.masked_array(w, mask), cmap="viridis", vmin=0.0, vmax=top)
        fig.colorbar(im, ax=ax, shrink=0.8)
        ax.set_title(title, fontsize=9)
    for ax in axes:
        ax.set(xlabel="key position n", ylabel="query position m")
    fig.suptitle(f"One token at every position (d = {d}, seed {seed}): RoPE patterns depend on m − n only", fontsize=10)
    fig.tight_layout()
    return fig
