r"""Ledger entries for note 000, "RoPE: Rotray Position Embedding" (Ethan Lai, zh-TW).

Scope: every checkable claim of the note, section by section, in the note's order.  Section
headings are copied verbatim (the scraped page's trailing ``#`` anchors dropped).  The note
keeps its LaTeX source next to the rendered text, so formulas are read from the source.

References: Ethan Lai, "RoPE: Rotray Position Embedding", blog.cyberangel.work/posts/ml-rope
(2026-01-27, CC BY-NC-SA 4.0); Su et al., *RoFormer*, arXiv:2104.09864 v5.
"""

from __future__ import annotations

from ropemath.claims import checks_attention as A
from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_encodings as E
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Entry, note_source


def _s(section: str):
    return note_source("000", section)


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "n000-sinusoidal",
        _s("Basics"),
        r"Absolute (sinusoidal) encoding: $p_{i,2t} = \sin(i / 10000^{2t/d})$.",
        "holds",
        E.sinusoidal_formula,
        reading=r"The note writes $\sin(k/10000^{2t/d})$ with $k$ on the right and $i$ on the left; $k$ is read as "
        r"the position $i$ (Vaswani et al.'s $pos$). Only the sine half is given.",
    ),
    Entry(
        "n000-linear-attention",
        _s("Basics"),
        r"Linear attention $\phi(q_m)^\top(\sum_n \phi(k_n) v_n^\top) / \phi(q_m)^\top \sum_n \phi(k_n)$ shares the "
        r"two key sums across all queries, so it costs $O(N)$.",
        "holds",
        A.linear_attention,
    ),
    Entry(
        "n000-xl-not-linear",
        _s("Basics"),
        r"With Transformer-XL's relative term the summand $\phi(q_m)^\top \phi(k_n + r_{m-n}) v_n$ depends on $m$ "
        r"through the key features, so $\sum_n$ cannot be precomputed and the cost returns to $O(N^2)$.",
        "holds",
        A.xl_breaks_linear,
        reading=r"Read as: the linear-attention trick (one shared key sum) no longer applies.",
    ),
    Entry(
        "n000-definitions",
        _s("基本定義"),
        r"Definitions used later: input $\mathbb S_N = \{w_i\}_{i=1}^N$, embeddings $\mathbb E_N = \{x_i\}_{i=1}^N$ "
        r"with $x_i \in \mathbb R^d$ — the $d$ that 一般化 splits into $d/2$ two-dimensional planes.",
        "holds-if",
        R.even_dimension,
        condition=r"$d$ is even. Note 000 never says so (notes 003 and 004 do); for odd $d$ the index set "
        r"$i \in [1, \dots, d/2]$ of $\Theta$ and the block matrix $R^d_{\Theta,m}$ are not defined.",
    ),
    Entry(
        "n000-attention",
        _s("Self-Attention"),
        r"$a_{m,n} = \exp(q_m^\top k_n/\sqrt d) / \sum_j \exp(q_m^\top k_j/\sqrt d)$, $o_m = \sum_n a_{m,n} v_n$: "
        r"positive weights summing to 1.",
        "holds",
        A.softmax_weights,
    ),
    Entry(
        "n000-goal",
        _s("Self-Attention"),
        r"RoPE makes the query-key inner product depend on positions only through $m - n$: "
        r"$\langle f_q(x_m, m), f_k(x_n, n)\rangle = g(x_m, x_n, m-n)$.",
        "holds",
        R.relative_identity,
    ),
    Entry(
        "n000-2d-complex",
        _s("二維空間"),
        r"$f_q = (W_q x_m) e^{im\theta}$, $f_k = (W_k x_n) e^{in\theta}$ give "
        r"$g = \mathrm{Re}[(W_q x_m)(W_k x_n)^* e^{i(m-n)\theta}]$, and in real form "
        r"$f_{\{q,k\}}(x_m, m) = R(m\theta) W_{\{q,k\}} x_m$.",
        "holds",
        D.solution_2d,
    ),
    Entry(
        "n000-block-diagonal",
        _s("一般化"),
        r"$R^d_{\Theta,m}$ is block diagonal with blocks $R(m\theta_i)$: it rotates each of the $d/2$ pairs "
        r"independently, and the score is the sum of the $d/2$ two-dimensional scores.",
        "holds",
        R.pairwise_rotation,
    ),
    Entry(
        "n000-theta",
        _s("一般化"),
        r"$\Theta = \{\theta_i = 10000^{-2(i-1)/d},\ i = 1, \dots, d/2\}$.",
        "holds",
        F.theta_one_based,
        reading=r"1-based index as in the paper: the note's $\theta_i$ is ropemath's $\theta_{i-1}$.",
    ),
    Entry(
        "n000-weights-transpose",
        _s("一般化"),
        r"$q_m^\top k_n = (R^d_{\Theta,m} W_q x_m)^\top (R^d_{\Theta,n} "
        r"W_k x_n) = x_m^\top W_q R^d_{\Theta,n-m} W_k x_n$.",
        "fails",
        R.weights_missing_transpose,
        correction=r"$x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n$",
        reading=r"The LaTeX source has $\top$ on $x_m$ but none on $W_q$, so this is not a symbol lost in scraping "
        r"(RoFormer eq. 16 prints the same expression). Without $W_q^\top$ it holds only for symmetric $W_q$.",
    ),
    Entry(
        "n000-relative-matrix",
        _s("一般化"),
        r"$R^d_{\Theta,n-m} = (R^d_{\Theta,m})^\top R^d_{\Theta,n}$.",
        "holds",
        R.transpose_product,
    ),
    Entry(
        "n000-elementwise",
        _s("效能優化"),
        r"$R^d_{\Theta,m} x = x \otimes (\cos m\theta_1, \cos m\theta_1, \dots) + (-x_2, x_1, -x_4, x_3, \dots) "
        r"\otimes (\sin m\theta_1, \sin m\theta_1, \dots)$ (RoFormer eq. 34), which exploits the sparsity of "
        r"$R^d_{\Theta,m}$.",
        "holds",
        R.elementwise_form,
        reading=r"1-based coordinates and frequencies, adjacent pairs (the interleaved layout); $\otimes$ is the "
        r"elementwise product here (as in RoFormer eq. 34), not the Kronecker product.",
    ),
    Entry(
        "n000-decay-complex",
        _s("Long-term Decay"),
        r"$(R^d_{\Theta,m} W_q x_m)^\top (R^d_{\Theta,n} W_k x_n) = "
        r"\mathrm{Re}[\sum_{i=0}^{d/2-1} q_{[2i:2i+1]} k^*_{[2i:2i+1]} e^{i(m-n)\theta_i}]$.",
        "holds",
        F.complex_score_form,
        reading=r"Here the sum is 0-based ($\theta_0 = 1$) while the previous section was 1-based; "
        r"$q_{[2i:2i+1]}$ is the pair $(q_{2i}, q_{2i+1})$ read as a complex number.",
    ),
    Entry(
        "n000-decay",
        _s("Long-term Decay"),
        r"As the relative distance grows, the inner product (attention score) decays.",
        "fails",
        F.score_decays,
        correction=r"What decays (as a trend, on the range of RoFormer Fig. 2) is the upper bound "
        r"$(\max_i |h_{i+1}-h_i|) \sum_j |S_j(m-n)|$, and it bounds every score; single scores need not decay.",
    ),
    Entry(
        "n000-linear-rope-form",
        _s("與線性注意力"),
        r"RoPE in linear attention (RoFormer eq. 19): numerator $\sum_n (R_m\phi(q_m))^\top (R_n\varphi(k_n)) v_n$, "
        r"denominator $\sum_n \phi(q_m)^\top\varphi(k_n)$ unrotated; this keeps the $O(N)$ shared-sum form.",
        "holds",
        A.rope_linear_time,
    ),
    Entry(
        "n000-linear-rope-reason",
        _s("與線性注意力"),
        r"Because RoPE keeps vector norms unchanged, it can be combined with linear attention.",
        "fails",
        A.norm_is_not_the_reason,
        correction=r"It combines because $R$ is linear and $R_m^\top R_n "
        r"= R_{n-m}$, so $\sum_n R_n\varphi(k_n) v_n^\top$ "
        r"is accumulated once; norm preservation neither enables this (a scaled $2R_m$ works too) nor keeps the "
        r"rotated numerator non-negative, which is why the denominator is left unrotated.",
    ),
    Entry(
        "n000-no-max-length",
        _s("靈活性"),
        r"Position enters by multiplication with $R_m$, defined for every position: no maximum sequence length "
        r"has to be fixed in advance.",
        "holds",
        P.any_length,
    ),
    Entry(
        "n000-extrapolation",
        _s("靈活性"),
        r"RoPE naturally supports extrapolation to longer sequences.",
        "not-checkable",
        F.extrapolation,
        reason="An empirical claim about trained models (perplexity beyond the training length). The algebra "
        "only shows the rotation is defined there; the check measures which angles training never saw.",
    ),
    Entry(
        "n000-orthogonal",
        _s("正交性"),
        r"The rotation matrix is orthogonal: $(R^d_{\Theta,m})^\top R^d_{\Theta,m} = I$.",
        "holds",
        R.orthogonal_rule,
    ),
    Entry(
        "n000-stability",
        _s("正交性"),
        r"Orthogonality ensures the numerical stability of the encoding.",
        "holds-if",
        P.stability,
        condition=r"the angles $m\theta_i$ are formed in float64 (or in float32 while the drift of about "
        r"$m \cdot 2^{-24}$ rad is negligible): orthogonality gives $\kappa_2(R) = 1$ but does not protect "
        r"rounded angles (bfloat16 merges positions 256 and 257).",
    ),
)
