r"""Ledger entries for note 002, "精英笔记：旋转位置编码 (RoPE)" (study note, zh-CN), in the note's order.

Includes the Q&A blocks and the comments of its code listing; headings are copied without the Markdown ``#``.

References: "精英笔记：旋转位置编码 (RoPE)" (no author given); Su et al., *RoFormer*, arXiv:2104.09864 v5.
"""

from __future__ import annotations

from ropemath.claims import checks_attention as A
from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_encodings as E
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_literal as L
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Alternative, Entry, note_entry

__all__ = ["ENTRIES", "MERGED"]

TITLE_SECTION = "精英笔记:旋转位置编码 (RoPE)"
GOAL = "1. 目标:真正的相对位置编码"
IDEA = "2. 核心思想:用旋转编码位置"
HIGH = "3. 高维空间的实现"
MATH = "4. 数学与代码实现"
FAST = "4.1 高效实现"
CODE = "4.2 代码实现"



# the two displayed formulas of §4 and §4.1, whitespace-normalised (the rubric test compares normalised text)
_MATRIX_DISPLAY = (
    r"\boldsymbol{R}_{\Theta, m}^d = \begin{pmatrix} \cos m\theta_1 & -\sin m\theta_1 & 0 & 0 & \cdots & 0 & 0 \\ \sin "
    r"m\theta_1 & \cos m\theta_1 & 0 & 0 & \cdots & 0 & 0 \\ 0 & 0 & \cos m\theta_2 & -\sin m\theta_2 & \cdots & 0 & 0 "
    r"\\ 0 & 0 & \sin m\theta_2 & \cos m\theta_2 & \cdots & 0 & 0 \\ \vdots & \vdots & \vdots & \vdots & \ddots & "
    r"\vdots & \vdots \\ 0 & 0 & 0 & 0 & \cdots & \cos m\theta_{d/2} & -\sin m\theta_{d/2} \\ 0 & 0 & 0 & 0 & \cdots & "
    r"\sin m\theta_{d/2} & \cos m\theta_{d/2} \end{pmatrix}"
)
_ELEMENTWISE_DISPLAY = (
    r"R_m q = \begin{pmatrix} q_0 \\ q_1 \\ q_2 \\ q_3 \\ q_4 \\ \vdots \\ q_{d-2} \\ q_{d-1} \end{pmatrix} \otimes "
    r"\begin{pmatrix} \cos m\theta_0 \\ \cos m\theta_0 \\ \cos m\theta_1 \\ \cos m\theta_1 \\ \vdots \\ \cos "
    r"m\theta_{d/2-1} \\ \cos m\theta_{d/2-1} \end{pmatrix} + \begin{pmatrix} -q_1 \\ q_0 \\ -q_3 \\ \vdots \\ "
    r"-q_{d-1} \\ q_{d-2} \end{pmatrix} \otimes \begin{pmatrix} \sin m\theta_0 \\ \sin m\theta_0 \\ \sin m\theta_1 \\ "
    r"\sin m\theta_1 \\ \sin m\theta_1 \\ \vdots \\ \sin m\theta_{d/2-1} \\ \sin m\theta_{d/2-1} \end{pmatrix}"
)
_NORM_ANGLE = (
    "旋转是一种**正交变换**,它不会改变向量的模长(长度),也不会改变两个向量之间的相对角度"
    "(如果它们都以相同的方式或基于位置差异的方式旋转)."
)
_SPARSE = "上面这个矩阵在高维时相当稀疏,因此工程实现中常用下面这个"

entry = note_entry("002")

ENTRIES: tuple[Entry, ...] = (
    entry("n002-dot-angle", TITLE_SECTION, "holds-if", P.dot_and_angle,
        "The dot product of two vectors depends only on the angle between them.",
        quote="RoPE的核心:向量之间的点积只和夹角有关,因此在做任何变换的时候保证相对位置不变即可在不丢失语义的情况下",
        reading="The first clause is judged here; the sentence breaks off ('在不丢失语义的情况下' has no main "
        "clause), its 'no semantics lost' is judged by n002-no-loss.",
        condition=r"the lengths are fixed, $\|a\|, \|b\|$ constant (as for rotated copies $R_m q$, $R_n k$ of fixed "
        r"$q, k$); in general $a\cdot b = \|a\|\|b\|\cos\angle(a, b)$ also depends on the norms."),
    entry("n002-goal", GOAL, "holds", R.relative_identity,
        r"Goal: $\langle f_q(q_m, m), f_k(k_n, n)\rangle = g(q_m, k_n, m - n)$ (the note's $\langle f(x, i), f(y, "
        r"j)\rangle = g(x, y, i - j)$ in LLM terms) — met by RoPE.",
        quote=r"$⟨f_q(\boldsymbol{q}_m,m),f_k(\boldsymbol{k}_n,n)⟩=g(\boldsymbol{q}_m,\boldsymbol{k}_n,m−n)\langle "
        r"f_q(\boldsymbol{q}_m,m),f_k(\boldsymbol{k}_n,n)\rangle=g(\boldsymbol{q}_m,\boldsymbol{k}_n,m-n)$",
        reading="The scraped line holds the same equation twice, the page's rendered text (Unicode ⟨ ⟩ and −) "
        "followed by its LaTeX source; read as one equation, like the plain-text line `<f(x, i), f(y, j)> = g(x, y, i "
        "- j)` above it.",
        alternatives=(Alternative(
            r"The line as a chain $A = g\,A = g$ (juxtaposition as a product), $A = \langle f_q, f_k\rangle$.",
            "fails", L.doubled_goal_formula),)),
    entry("n002-kn-query", GOAL, "fails", L.kn_named_query,
        "'$k_n$ is the query vector at position m': the query argument of $f_q$ in the goal formula is $k_n$.",
        quote=r"其中 $\boldsymbol{k}_n$是在位置 m的query向量,$\boldsymbol{k}_n$是在位置 n 的key向量,$f_q$ 和 $f_k$ "
        r"是分别针对这query和key向量的操作函数.",
        reading="The same symbol k_n is declared the query at m and the key at n; with k_n as the query the score is "
        "<R_m k_n, R_n k_n>, a different number.",
        correction=r"$\boldsymbol{q}_m$ is the query vector at position m (the formula's first argument); then "
        r"$\langle R_m q_m, R_n k_n\rangle = q_m^\top R_{n-m} k_n$ depends on $m - n$ only."),
    entry("n002-additive-leak", GOAL, "holds", E.additive_leaks,
        "Additive absolute encodings (GPT): the expanded dot product has terms in the absolute positions $i, j$, so "
        "the score is not a function of $i - j$ alone.",
        quote="**加性绝对位置编码 (GPT系列)**: `f(x, i) = token_embedding(x) + pos_embedding(i)`. "
        "点积展开后会包含与绝对位置`i`和`j`相关的交叉项,泄露了绝对位置信息."),
    entry("n002-sinusoidal-leak", GOAL, "holds", E.sinusoidal_leaks,
        "The additive sinusoidal encoding has the same problem.",
        quote="**正弦/余弦位置编码 (原始Transformer)**: 同样是加性嵌入,存在类似问题.",
        reading="For generic learned W_q, W_k and content; without content and with W_q^T W_k = I the "
        "position-position term happens to be relative (recorded in the evidence)."),
    entry("n002-four-terms", GOAL, "holds", E.four_terms,
        r"$\langle (\mathrm{Tok}_i + \mathrm{Pos}_i)W_Q, (\mathrm{Tok}_j + \mathrm{Pos}_j)W_K\rangle$ expands into "
        r"four terms, one built from position vectors only: $\langle \mathrm{Pos}_i W_Q, \mathrm{Pos}_j W_K\rangle$.",
        quote="展开这个点积会包含一个纯粹由绝对位置向量构成的项:$<PosEmb(i) * W_Q, PosEmb(j) * W_K>$",
        reading="'*' is the matrix product of a row vector with W (the note's h_i * W_Q); the check uses column "
        "vectors (W x), the same algebra. Indices are 0-based as the note defines them."),
    entry("n002-position-term", GOAL, "holds", L.position_term_absolute,
        r"Nothing forces $\langle \mathrm{Pos}_i W_Q, \mathrm{Pos}_j W_K\rangle$ to be a function of $i - j$: for "
        r"learned $\mathrm{Pos}$, and for sinusoidal $\mathrm{Pos}$ with generic $W_Q, W_K$, it is not.",
        quote="没有任何数学结构强制它们的结果只与相对位置 i-j 有关."),
    entry("n002-same-rotation", IDEA, "holds", R.same_rotation_invariance,
        "The dot product of two vectors is unchanged when both are rotated by the same angle.",
        quote="RoPE的突破性思想源于一个简单的几何事实:**两个向量的点积在它们被同时旋转相同角度后保持不变**."),
    entry("n002-not-additive", IDEA, "holds", P.multiplicative,
        "RoPE is not an added position vector but a rotation: $f(x, m) = R_m x$ is linear in $x$, $f(0, m) = 0$.",
        quote="它不把位置信息作为加性向量,而是将位置信息视为一个**旋转操作**."),
    entry("n002-relative-angle", IDEA, "holds", R.relative_identity,
        r"Rotating $x$ by $m\theta$ and $y$ by $n\theta$, the dot product of the rotated vectors depends only on the "
        r"relative angle $(m-n)\theta$, so the score depends only on $m - n$.",
        quote="当计算它们的注意力分数时,实际上是计算旋转后的向量的点积. "
        "由于点积的旋转不变性,这个分数只依赖于两个向量之间的**相对旋转角度**,即 `(m * θ) - (n * θ) = (m - n) * θ`. "
        "这样,注意力分数就只依赖于相对位置 `m - n` 了.",
        reading="The score is the dot product of the rotated vectors themselves, as the sentence says.",
        alternatives=(Alternative(
            r"$x$ is the word embedding (the bullets above) and the score is taken after $W_q, W_k$: "
            r"$(W_q R_m x)^\top (W_k R_n y)$ depends only on $m - n$.",
            "fails", L.embedding_rotated_before_projection),)),
    entry("n002-converse", IDEA, "fails", D.converse,
        "'If the relative position changes, the attention score changes too.'",
        quote="如果单词(token)在句子序列中的相对位置变化了,那么它们的注意力分数也会随之变化,反之则不变,真正做到了注意"
        "力分数只与m-n有关,即m-n计算出的那个夹角",
        reading="Judged: the first clause, for all q, k. The rest ('反之则不变', the score depends on m - n only) is "
        "n002-relative-angle.",
        correction=r"Only the other direction holds: the score depends on $m, n$ through $m - n$ only; different "
        r"distances can give equal scores (e.g. $\pm r$ for $q = k$).",
        alternatives=(Alternative(
            r"For generic $q, k$ the score changes with $m - n$ (it is not constant in the distance).", "holds",
            L.score_varies_with_distance),)),
    entry("n002-2d-unique", HIGH, "holds", P.rotations_2d_vs_3d,
        "In 2D a rotation is determined by one angle (and 2D rotations commute); in higher dimensions rotations are "
        "more complex.",
        quote="在二维空间中,旋转是唯一的. 但在高维的词嵌入空间中(例如`d_model = 4096`),旋转的定义很复杂.",
        reading="'Rotation is unique in 2D' read as: every proper 2x2 orthogonal matrix is R(a) for one angle a (mod "
        "2 pi); 'complex' in higher dimensions as: 3D rotations no longer commute.",
        alternatives=(Alternative(
            r"In 2D the rotation taking a direction $u$ to a direction $v$ is unique (in 3D it is not).", "holds",
            L.direction_rotation_unique),)),
    entry("n002-grouping", HIGH, "holds-if", R.even_dimension,
        "Group the $d$ coordinates in pairs: $d/2$ two-dimensional planes (or complex numbers).",
        quote="**分组**: 将`d`维的向量两两一组,看作`d/2`个二维平面(或复数).",
        condition="$d$ is even. The note never says so (its example $d_{model} = 4096$ is even); for odd $d$ there "
        "are no $d/2$ planes and the block matrix of §4 is not defined."),
    entry("n002-block-rotation", HIGH, "holds", R.pairwise_rotation,
        r"The high-dimensional rotation is made of small 2x2 rotations, one per plane, applied independently: "
        r"$R^d_{\Theta,m}$ is block diagonal and rotates pair $i$ by $m\theta_i$.",
        quote="**独立旋转**: 在每个二维平面上独立地进行旋转."),
    entry("n002-frequencies", HIGH, "holds", F.theta_decreasing,
        r"One frequency per plane, $\theta_k = 10000^{-2k/d}$, ordered from high to low frequency.",
        quote="这些频率通常被设计成从高频到低频排列(`θ_k = 10000^(-2k/d)`),与原始Transformer的正弦编码类似.",
        reading="The note gives no range for k; 0-based k (as in §4.1) is checked. With k = 1..d/2 (as in §4) the "
        "values shift by one index but are still distinct and decreasing. Same frequencies as the sinusoidal "
        "encoding's 10000^(-2t/d)."),
    entry("n002-near-far", HIGH, "holds", F.fast_near_slow_far,
        "Fast (high-frequency) planes capture fine, nearby position differences; slow (low-frequency) planes capture "
        "coarse, distant ones.",
        quote="这使得模型既能通过quick rotate捕捉到近距离的精细位置关系(高频),也能通过slow "
        "rotate捕捉到远距离的粗略位置关系(低频).",
        reading="Read as a statement about resolution: how much each pair's angle changes per position and after how "
        "many positions it wraps around."),
    entry("n002-rotation-2d", MATH, "holds", R.pairwise_rotation,
        r"Rotating $(x_1, x_2)$ by $m\theta$ is left-multiplication by a 2x2 rotation matrix; for $d$ dimensions, by "
        r"a block-diagonal matrix whose diagonal blocks are 2x2 rotation matrices.",
        quote="在数学上,对一个二维向量 `(x1, x2)` 进行角度 `mθ` 的旋转,等价于左乘一个2x2的旋转矩阵. "
        "对于`d`维向量,这个操作等价于左乘一个块对角矩阵,其中每个对角块都是一个2x2的旋转矩阵."),
    entry("n002-f-definition", MATH, "holds", R.weights_identity,
        r"$f_{\{q,k\}}(x_m, m) = R^d_{\Theta,m} W_{\{q,k\}} x_m$; then $f_q(x_m, m)^\top f_k(x_n, n) = x_m^\top "
        r"W_q^\top R^d_{\Theta,n-m} W_k x_n$.",
        quote=r"$f_{{q,k}}(\boldsymbol{x}_m, m) = \boldsymbol{R}_{\theta, m}^d \boldsymbol{W}_{{q,k}} "
        r"\boldsymbol{x}_m$",
        reading=r"'{{q,k}}' is the scraped '\{q,k\}' (the escaped braces lost); the text writes $R^d_{\theta,m}$, the "
        r"display $R^d_{\Theta,m}$: the same matrix (RoFormer eq. 14)."),
    entry("n002-index-shift", MATH, "fails", L.index_shift,
        r"With the note's $\theta_k = 10000^{-2k/d}$, the §4 matrix (blocks $\theta_1, \dots, \theta_{d/2}$) is the "
        r"rotation that §4.1 computes (factors $\theta_0, \dots, \theta_{d/2-1}$).",
        quote=_MATRIX_DISPLAY,
        reading="§4.1 presents its formula as what engineering uses in place of 'the matrix above', so both must give "
        "R_m q. The subscripts are one apart and §3 fixes theta_k, so they are judged together.",
        correction=r"Subscript the blocks $\theta_0, \dots, \theta_{d/2-1}$, or define $\theta_i = "
        r"10000^{-2(i-1)/d}$, $i = 1, \dots, d/2$ for this display (RoFormer eq. 15)."),
    entry("n002-f-is-score", MATH, "fails", P.score_shape,
        r"'$f_{\{q,k\}}(x_m, m)$ is the computed attention score.'",
        quote=r"$f_{{q,k}}(\boldsymbol{x}_m, "
        r"m)$就是计算出的注意力分数,$W_{q,k}x_m$是注意力权重*嵌入词向量,$\boldsymbol{R}_{\Theta, "
        r"m}^d$是旋转的矩阵(变换矩阵)",
        reading="The first clause is judged; '注意力权重' in the second is read as the projection weights W_q, W_k.",
        correction=r"$f_{\{q,k\}}(x_m, m)$ is the rotated query/key vector; the score is $f_q(x_m, m)^\top f_k(x_n, "
        r"n) = x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n$."),
    entry("n002-sparse", FAST, "holds", L.matrix_sparse,
        r"$R^d_{\Theta,m}$ is sparse in high dimensions: $2d$ non-zero entries of $d^2$.", quote=_SPARSE),
    entry("n002-elementwise", FAST, "fails", L.elementwise_display,
        r"The display as written: $R_m q = q \otimes c + \tilde q \otimes s$ with the sine column $s = (\sin "
        r"m\theta_0, \sin m\theta_0, \sin m\theta_1, \sin m\theta_1, \sin m\theta_1, \dots)$.",
        quote=_ELEMENTWISE_DISPLAY,
        reading=r"$\otimes$ is the elementwise product (as in RoFormer eq. 34). The sine column lists 7 entries "
        r"besides its dots, so $d \ge 8$, and its entry 4 (0-based) is $\sin m\theta_1$; the other columns agree with "
        r"eq. (34), their dots standing for the omitted entries.",
        correction=r"Entry $j$ of the columns is $\cos m\theta_{\lfloor j/2\rfloor}$, $\sin m\theta_{\lfloor "
        r"j/2\rfloor}$ (each $\theta_i$ twice; entry 4 is $\sin m\theta_2$): $R_m q = q \otimes \cos + (-q_1, q_0, "
        r"-q_3, q_2, \dots) \otimes \sin$, RoFormer eq. 34.",
        alternatives=(Alternative(r"$\otimes$ as the Kronecker product.", "fails", L.elementwise_as_kronecker),)),
    entry("n002-rotated-scores", FAST, "holds", A.rotated_scores,
        r"Scores are $Q_{rot} K_{rot}^\top / \sqrt{d_k}$ with entries $q_m^\top R_{n-m} k_n$ (then a row softmax).",
        quote="最后,使用$Q_{rot}$和$K_{rot}$来计算注意力分数 $softmax(Q_{rot} * K_{rot}^T / sqrt(d_k))$.",
        reading=r"'*' is the matrix product, sqrt(d_k) is $\sqrt{d_k}$; the check decides the entries of Q_rot "
        r"K_rot^T, to which the softmax is applied row by row."),
    entry("n002-every-layer", CODE, "not-checkable", A.rotate_after_projection,
        "RoPE must be re-applied in every layer because position information added once is diluted as layers mix "
        "features.",
        quote="加一次是**不够的**.是的,位置信息会随着层数增加而**衰减**.",
        reason="A claim about what trained networks retain. The checkable part is different: the rotation must act on "
        "q, k after W_q, W_k for scores to be relative (measured here; entry n002-inside-attention)."),
    entry("n002-no-loss", CODE, "holds", P.invertible,
        "RoPE loses no (semantic) information.",
        quote="RoPE 不会损失语义信息,反而是在语义信息的基础上**叠加和增强**了位置信息.",
        reading="Read as: the map is invertible, $R_m^{-1} = R_{-m}$, so $x$ is recovered exactly from $R_m x$."),
    entry("n002-norm-angle", CODE, "holds", L.lengths_and_same_angle,
        "A rotation is an orthogonal transform: it keeps vector lengths, and the angle between two vectors rotated "
        "the same way.",
        quote=_NORM_ANGLE,
        reading="The lengths and the first case of the parenthesis ('以相同的方式') are judged here; the second case "
        "('基于位置差异的方式') is n002-angle-different."),
    entry("n002-angle-different", CODE, "fails", L.angle_under_different_rotations,
        r"Vectors rotated 'based on the position difference' ($R_m q$, $R_n k$ with $m \ne n$) keep their angle: "
        r"$\angle(R_m q, R_n k) = \angle(q, k)$.",
        quote=_NORM_ANGLE,
        correction=r"$\angle(R_m q, R_n k) = \angle(q, R_{n-m} k)$: it changes with $m - n$ and is unchanged only "
        r"when both positions move together.",
        alternatives=(Alternative(
            r"The angle depends on the positions only through $m - n$ (unchanged when both shift together).",
            "holds", R.relative_identity),)),
    entry("n002-semantic-norms", CODE, "not-checkable", A.empirical,
        "In semantic representations lengths and angles of vectors usually encode a word's importance and its "
        "similarity to other words.",
        quote="向量的模长和相对角度在语义表示中至关重要,它们通常编码了词的重要性或与其他词的相似度.",
        reason="A claim about what trained embeddings encode; no computation on RoPE's algebra bears on it."),
    entry("n002-similarity", CODE, "fails", D.not_a_function_of_similarity,
        r"$Q'\cdot K'$ is a function of the original similarity $q \cdot k$ and the relative position.",
        quote=r"RoPE 巧妙地设计了旋转角度,使得旋转后的 Query ($Q'$) 和 Key ($K'$) 向量的点积 $Q' \cdot K'$ "
        r"能够自然地表达为原始语义相似度与它们**相对位置**的函数.",
        reading="'原始语义相似度' is read as the number q . k, the similarity the note's code comment computes ('QK "
        "相似度').",
        correction=r"$Q'\cdot K' = q^\top R_{n-m} k$: a function of $q$, $k$ and $m - n$, not of $q\cdot k$ alone.",
        alternatives=(Alternative(
            r"'Similarity' as the pair of vectors $q, k$: $Q'\cdot K' = F(q, k, m - n)$.", "holds",
            R.relative_identity),)),
    entry("n002-weighted-average", CODE, "holds", A.softmax_weights,
        r"Self-attention takes a weighted average of all tokens: $o_m = \sum_n a_{m,n} v_n$ with $a_{m,n} > 0$, "
        r"$\sum_n a_{m,n} = 1$.",
        quote="自注意力层会将所有 token 的信息进行加权平均,前馈网络层则进行非线性变换.",
        reading="The first clause is judged; the second (the feed-forward layer is non-linear) is a description."),
    entry("n002-shape-comment", CODE, "fails", L.flash_shape_comment,
        "The code comment: the input (query states) has the shape [batch_size x seq_length x head_dim x hidden_dim].",
        quote="Flash attention 要求输入数据的形状为 [batch_size x seq_length x head_dim x hidden_dim]",
        reading="Judged against the tensor the listing's own `.view(bsz, q_len, num_heads, head_dim)` makes from the "
        "projected hidden states (what FlashAttention's API expects is not checked here).",
        correction="[batch_size x seq_length x num_heads x head_dim] (hidden_dim = num_heads * head_dim), transposed "
        "to [batch_size x num_heads x seq_length x head_dim] by `.transpose(1, 2)`."),
    entry("n002-elementwise-code", CODE, "holds", R.elementwise_form,
        r"Elementwise multiplications and additions rotate the vectors: $R_m x = x \otimes \cos + (-x_1, x_0, \dots) "
        r"\otimes \sin$ (RoFormer eq. 34).",
        quote="这通过元素的乘法和加法实现向量的旋转,从而在嵌入中引入位置信息."),
    entry("n002-values", CODE, "holds", A.values_not_rotated,
        r"Value vectors are not rotated: RoPE matters only for the $q$-$k$ similarity, and the outputs $o_m = \sum_n "
        r"a_{m,n} v_n$ stay relative.",
        quote="Value 向量通常不直接应用 RoPE,因为 RoPE 主要影响 QK 相似度计算."),
    entry("n002-inside-attention", CODE, "holds", A.rotate_inside_attention,
        "Applying RoPE inside attention, to $Q$ and $K$ right before the scores, is what keeps the position encoding "
        "relative.",
        quote="这种在注意力计算时即时应用的“侵入式”方法,是保证相对位置编码有效性的关键."),
    entry("n002-long-sequences", CODE, "not-checkable", A.empirical,
        "RoPE performs excellently on long sequences (the gold standard of modern LLMs).",
        quote="RoPE因其理论的优雅性和在长序列建模上的卓越表现,已成为现代LLM架构的黄金标准.",
        reason="An empirical claim about trained models and about the field's practice."))

MERGED: tuple[tuple[str, str], ...] = (
    ("是当前解决此问题的最先进、最主流的方法", "n002-long-sequences"),
    ("它通过一种优雅的数学方式,将相对位置信息编码到自注意力机制中.", "n002-relative-angle"),
    ("因此在做任何变换的时候保证相对位置不变即可在不丢失语义的情况下", "n002-no-loss"),
    ("自注意力的核心是计算查询(Query)和键(Key)向量之间的点积,以得到注意力分数.", "n002-goal"),
    ("一个理想的位置编码方案应该使得这个点积只依赖于两个词的**内容**和它们的**相对位置**", "n002-goal"),
    ("`<f(x, i), f(y, j)> = g(x, y, i - j)`", "n002-goal"),
    ("其中 `<,>` 代表点积,`g` 是某个只依赖于相对位置`i - j`的函数.", "n002-goal"),
    ("我们的任务就是要找到一组 $f_q,f_k$和 g,使得上式成立", "n002-goal"),
    ("早期的位置编码方法**无法**完美实现这一点:", "n002-additive-leak"),
    ("对加性位置编码的线性分解,会暴露出与绝对位置 i 和 j 相关的独立项.", "n002-four-terms"),
    ("输入: $h_i = TokenEmb(i) + PosEmb(i) $", "n002-four-terms"),
    ("点积: $Score(i, j) = <h_i * W_Q, h_j * W_K> $", "n002-four-terms"),
    ("在这个计算中,PosEmb(i) 和 PosEmb(j) 作为独立的向量直接参与运算.", "n002-position-term"),
    ("因此,模型可以直接获取并利用 i 和 j 的绝对位置信息,导致了信息泄露.", "n002-additive-leak"),
    ("$h_i$代表在位置 i 处,合并了词元内容和位置信息后的最终输入向量.", "n002-four-terms"),
    ("i, j: 代表序列中的绝对位置索引.", "n002-four-terms"),
    ("例如,句子中第一个词的 i 是0,第五个词的 i 是4.", "n002-four-terms"),
    ("TokenEmb(i): 代表在位置 i 的那个词元(token)本身的内容或语义的嵌入向量.", "n002-four-terms"),
    ("PosEmb(i): 代表位置索引 i 本身的嵌入向量,它只编码位置信息,与该位置上是什么词元无关.", "n002-four-terms"),
    ("Score(i, j): 代表位置 i 的词元对位置 j 的词元的注意力分数.", "n002-four-terms"),
    ("这个分数决定了在生成位置 i 的新表示时,应该对位置 j 的信息赋予多大的权重.", "n002-weighted-average"),
    ("$W_Q, W_K$:代表模型在自注意力层中需要学习的两个权重矩阵.", "n002-four-terms"),
    ("它们分别用于将输入向量 h 转换成更适合进行匹配计算的查询向量 (Query) 和键向量 (Key).", "n002-four-terms"),
    ("< >: 代表向量点积(Dot Product)运算.", "n002-four-terms"),
    ("其最终的向量 `f(x, m)` 是通过将词嵌入向量 `x` **旋转**一个角度 `m * θ` 得到的.", "n002-relative-angle"),
    ("其最终的向量 `f(y, n)` 是通过将词嵌入向量 `y` **旋转**一个角度 `n * θ` 得到的.", "n002-relative-angle"),
    ("只要它们的相对距离保持不变,它们对应的旋转后向量之间的夹角就保持不变,从而点积(注意力分"
     "数)也保持稳定.", "n002-relative-angle"),
    ("反之则不变,真正做到了注意力分数只与m-n有关,即m-n计算出的那个夹角", "n002-relative-angle"),
    ("高维的“旋转”(叫变换)矩阵有多个小旋转矩阵组成", "n002-block-rotation"),
    ("**不同频率**: 为每个二维平面分配一个不同的旋转“基频” `θ_k`.", "n002-frequencies"),
    ("(以及通过不quick 也不 slow的信息捕捉不那么远的频率不高不低的临近信息)", "n002-near-far"),
    (r"$\boldsymbol{R}_{\Theta, m}^d$是旋转的矩阵(变换矩阵)", "n002-rotation-2d"),
    (_SPARSE, "n002-index-shift"),
    ("在实践中,RoPE**并非在输入层一次性完成,而是在每个Transformer层的自注意力模块内部动态"
     "应用**.", "n002-inside-attention"),
    ("当计算注意力时,模型会先生成常规的Q和K向量.", "n002-inside-attention"),
    ("然后,根据每个token的位置,实时计算出对应的旋转矩阵(或等效的乘法因子).", "n002-elementwise-code"),
    ("将这个旋转操作分别应用到Q和K向量上,得到旋转后的$Q_{rot}$和$K_{rot}$.", "n002-rotated-scores"),
    ("Llama的实现中 在每层计算注意力分数前都给kq向量加上了位置信息", "n002-inside-attention"),
    ("都会对输入的向量进行复杂的线性变换和非线性激活.", "n002-every-layer"),
    ("如果只在输入层添加一次位置信息,随着层数加深,这些原始的位置信息会不断被新的语义特征所稀释"
     "、混合", "n002-every-layer"),
    ("RoPE 编码的是**相对位置**信息.", "n002-relative-angle"),
    ("在每一层重新应用 RoPE,能够确保无论当前层学习到何种复杂的特征", "n002-every-layer"),
    ("这得益于其数学本质是一种**旋转变换**:", "n002-no-loss"),
    ("RoPE 的核心是利用向量的旋转操作.", "n002-no-loss"),
    ("能够同时考虑它们的语义内容和它们之间的相对距离,而不是单纯地改变词的含义.", "n002-similarity"),
    ("RoPE 并非“修改”或“替换”了词的原始语义嵌入,而是在其之上增加了位置维度上的“上下文”.", "n002-no-loss"),
    ("深层的注意力机制将难以有效利用这些信息.", "n002-every-layer"),
    ("原始的位置信息会被逐渐“洗掉”或“模糊化”.", "n002-every-layer"),
    ("使得最初注入的、相对离散的位置信号在多层传播后变得稀薄.", "n002-every-layer"),
    ("因此,在每一层都重新应用 RoPE,就像在每一层都重新“滴入”了位置信息的墨水", "n002-every-layer"),
    ("因此需要调整形状以保持原始维度,通常会重塑并转置,以适应多头注意力的计算", "n002-shape-comment"),
    ("self.rotary_emb 负责生成旋转位置编码的 cos 和 sin 分量.", "n002-elementwise-code"),
    ("position_ids: 通常是序列中每个token的绝对位置索引,用于计算不同位置的旋转角度.", "n002-relative-angle"),
    ("但实际生成cos/sin是基于位置ID的.", "n002-elementwise-code"),
    ("apply_rotary_pos_emb 函数将上面生成的 cos 和 sin 分量应用到 Query 和 Key 向量上.", "n002-elementwise-code"),
    ("后续的注意力计算(如 QK^T / sqrt(d_k) -> softmax -> * V)", "n002-rotated-scores"),
    ("核心强调:RoPE 在计算注意力分数前对 Q 和 K 进行了处理.", "n002-inside-attention"))
