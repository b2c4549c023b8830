r"""Ledger entries for note 002, "精英笔记：旋转位置编码 (RoPE)" (study note, zh-CN).

Scope: every checkable claim of the note, section by section, in the note's order, including
the Q&A blocks.  Section headings are copied verbatim without the Markdown ``#`` markers (the
file writes the title with an ASCII colon).  Claims about trained networks (information
"diluted" over layers, performance on long sequences) are recorded as not checkable.

References: "精英笔记：旋转位置编码 (RoPE)" (no author given); Su et al., *RoFormer*,
arXiv:2104.09864 v5.
"""

from __future__ import annotations

from ropemath.claims import checks_attention as A
from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_encodings as E
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Entry, note_source

TITLE_SECTION = "精英笔记:旋转位置编码 (RoPE)"
GOAL = "1. 目标:真正的相对位置编码"
IDEA = "2. 核心思想:用旋转编码位置"
HIGH = "3. 高维空间的实现"
MATH = "4. 数学与代码实现"
FAST = "4.1 高效实现"
CODE = "4.2 代码实现"


def _s(section: str):
    return note_source("002", section)


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "n002-dot-angle",
        _s(TITLE_SECTION),
        r"'The dot product of two vectors depends only on the angle between them.'",
        "holds-if",
        P.dot_and_angle,
        condition=r"the lengths are fixed, as for rotated copies of the same $q$ and $k$; in general "
        r"$a\cdot b = \|a\|\|b\|\cos\angle(a, b)$ also depends on the norms.",
    ),
    Entry(
        "n002-goal",
        _s(GOAL),
        r"Goal: $\langle f(x, i), f(y, j)\rangle = g(x, y, i - j)$; in LLM terms "
        r"$\langle f_q(q_m, m), f_k(k_n, n)\rangle = g(q_m, k_n, m - n)$ — met by RoPE.",
        "holds",
        R.relative_identity,
        reading=r"The note says '$k_n$ is the query at position m'; $q_m$ is meant.",
    ),
    Entry(
        "n002-additive-leak",
        _s(GOAL),
        r"Additive absolute encodings (GPT): the expanded dot product has terms in the absolute positions $i, j$, "
        r"so the score is not a function of $i - j$ alone.",
        "holds",
        E.additive_leaks,
    ),
    Entry(
        "n002-sinusoidal-leak",
        _s(GOAL),
        r"The additive sinusoidal encoding has the same problem.",
        "holds",
        E.sinusoidal_leaks,
        reading="For generic learned W_q, W_k and content; without content and with W_q^T W_k = I the "
        "position-position term happens to be relative (recorded in the evidence).",
    ),
    Entry(
        "n002-four-terms",
        _s(GOAL),
        r"$\langle (\mathrm{Tok}_i + \mathrm{Pos}_i)W_Q, (\mathrm{Tok}_j + \mathrm{Pos}_j)W_K\rangle$ expands into "
        r"four terms, one built from position vectors only: $\langle \mathrm{Pos}_i W_Q, \mathrm{Pos}_j W_K\rangle$.",
        "holds",
        E.four_terms,
        reading="Row vectors times W as in the note; the check uses column vectors (W x), the same algebra.",
    ),
    Entry(
        "n002-same-rotation",
        _s(IDEA),
        r"The dot product of two vectors is unchanged when both are rotated by the same angle.",
        "holds",
        R.same_rotation_invariance,
    ),
    Entry(
        "n002-relative-angle",
        _s(IDEA),
        r"Rotating $x$ by $m\theta$ and $y$ by $n\theta$, the score depends only on the relative angle "
        r"$(m-n)\theta$: equal distances give equal angles between the rotated vectors and equal scores.",
        "holds",
        R.relative_identity,
    ),
    Entry(
        "n002-converse",
        _s(IDEA),
        r"'If the relative position changes, the attention score changes too.'",
        "fails",
        D.converse,
        correction=r"Only the other direction holds: the score depends on $m, n$ through $m - n$ only; different "
        r"distances can give equal scores (e.g. $\pm r$ for $q = k$).",
    ),
    Entry(
        "n002-2d-unique",
        _s(HIGH),
        r"In 2D a rotation is determined by one angle (and 2D rotations commute); in higher dimensions rotations "
        r"are more complex.",
        "holds",
        P.rotations_2d_vs_3d,
        reading="'Rotation is unique in 2D' read as: every proper 2x2 orthogonal matrix is R(a) for one angle a.",
    ),
    Entry(
        "n002-grouping",
        _s(HIGH),
        r"Group the $d$ coordinates into $d/2$ planes and rotate each plane independently: the transform is block "
        r"diagonal with 2x2 rotation blocks.",
        "holds",
        R.pairwise_rotation,
    ),
    Entry(
        "n002-frequencies",
        _s(HIGH),
        r"One frequency per plane, $\theta_k = 10000^{-2k/d}$, ordered from high to low frequency.",
        "holds",
        F.theta_decreasing,
        reading="0-based k.",
    ),
    Entry(
        "n002-near-far",
        _s(HIGH),
        r"Fast (high-frequency) planes capture fine, nearby position differences; slow (low-frequency) planes "
        r"capture coarse, distant ones.",
        "holds",
        F.fast_near_slow_far,
        reading="Read as a statement about resolution: how much each pair's angle changes per position and "
        "after how many positions it wraps around.",
    ),
    Entry(
        "n002-rotation-2d",
        _s(MATH),
        r"Rotating $(x_1, x_2)$ by $m\theta$ is left-multiplication by a 2x2 rotation matrix; for $d$ dimensions, "
        r"by a block-diagonal matrix of such blocks, $f_{\{q,k\}}(x_m, m) = R^d_{\Theta,m} W_{\{q,k\}} x_m$.",
        "holds",
        D.complex_times_is_rotation,
        reading=r"The note writes $R^d_{\theta,m}$ in the text and $R^d_{\Theta,m}$ in the display; the same matrix.",
    ),
    Entry(
        "n002-f-is-score",
        _s(MATH),
        r"'$f_{\{q,k\}}(x_m, m)$ is the computed attention score.'",
        "fails",
        P.score_shape,
        correction=r"$f_{\{q,k\}}(x_m, m)$ is the rotated query/key vector; the score is "
        r"$f_q(x_m, m)^\top f_k(x_n, n) = x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n$.",
    ),
    Entry(
        "n002-elementwise",
        _s(FAST),
        r"$R_m q = q \otimes (\cos m\theta_0, \cos m\theta_0, \dots) + (-q_1, q_0, -q_3, \dots) \otimes "
        r"(\sin m\theta_0, \sin m\theta_0, \dots)$.",
        "holds",
        R.elementwise_form,
        reading=r"Typos in the display: the sine vector lists $\sin m\theta_1$ three times and the second vector "
        r"skips $q_2$; $\otimes$ is the elementwise product (as in RoFormer eq. 34). Read as eq. (34) with "
        r"0-based indices.",
    ),
    Entry(
        "n002-rotated-scores",
        _s(FAST),
        r"Scores are $Q_{rot} K_{rot}^\top / \sqrt{d_k}$ with entries $q_m^\top R_{n-m} k_n$.",
        "holds",
        A.rotated_scores,
    ),
    Entry(
        "n002-every-layer",
        _s(CODE),
        r"RoPE must be re-applied in every layer because position information added once is diluted as layers "
        r"mix features.",
        "not-checkable",
        A.rotate_after_projection,
        reason="A claim about what trained networks retain. The checkable part is different: the rotation must act "
        "on q, k after W_q, W_k for scores to be relative (measured here; entry n002-inside-attention).",
    ),
    Entry(
        "n002-inside-attention",
        _s(CODE),
        r"Applying RoPE inside attention, to $Q$ and $K$ right before the scores, is what keeps the position "
        r"encoding relative.",
        "holds",
        A.rotate_inside_attention,
    ),
    Entry(
        "n002-values",
        _s(CODE),
        r"Value vectors are not rotated: RoPE matters only for the $q$-$k$ similarity, and the outputs "
        r"$o_m = \sum_n a_{m,n} v_n$ stay relative.",
        "holds",
        A.values_not_rotated,
        reading="The code comment 'Value 向量通常不直接应用 RoPE,因为 RoPE 主要影响 QK 相似度计算'.",
    ),
    Entry(
        "n002-norm-angle",
        _s(CODE),
        r"A rotation is an orthogonal transform: it keeps vector lengths and the angle between two vectors rotated "
        r"the same way.",
        "holds",
        R.same_rotation_invariance,
        reading="Norm preservation is also n001-norm; the angle follows from the dot product and the norms.",
    ),
    Entry(
        "n002-similarity",
        _s(CODE),
        r"$Q'\cdot K'$ is a function of the original similarity $q \cdot k$ and the relative position.",
        "fails",
        D.not_a_function_of_similarity,
        correction=r"$Q'\cdot K' = q^\top R_{n-m} k$: a function of $q$, $k$ and $m - n$, not of $q\cdot k$ alone.",
    ),
    Entry(
        "n002-no-loss",
        _s(CODE),
        r"RoPE loses no (semantic) information.",
        "holds",
        P.invertible,
        reading=r"Read as: the map is invertible, $R_m^{-1} = R_{-m}$, so $x$ is recovered exactly from $R_m x$.",
    ),
    Entry(
        "n002-long-sequences",
        _s(CODE),
        r"RoPE performs excellently on long sequences (the gold standard of modern LLMs).",
        "not-checkable",
        A.empirical,
        reason="An empirical claim about trained models.",
    ),
)
