r"""Ledger entries for note 000, "RoPE: Rotray Position Embedding" (Ethan Lai, zh-TW), in the note's order.

The scraped page prints each formula twice (rendered, then LaTeX); quotes keep both, formulas are read from the LaTeX.

References: Ethan Lai, "RoPE: Rotray Position Embedding", blog.cyberangel.work/posts/ml-rope (2026-01-27,
CC BY-NC-SA 4.0); Su et al., *RoFormer*, arXiv:2104.09864 v5.
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

entry = note_entry("000")

ENTRIES: tuple[Entry, ...] = (
    entry("n000-sinusoidal", "Basics", "fails", L.sinusoidal_position_variable,
        r"$p_{i,2t} = \sin(k/10000^{2t/d})$ as written: the right side contains $k$, not the position $i$, so it "
        r"gives every position the same value ($p_{0,0} = p_{1,0} = \sin k$ for any fixed $k$).",
        reading="$k$ is read as a symbol distinct from the position $i$ that indexes the left side (the note defines "
        "no $k$); a wrong variable is judged like a wrong index (rubric 1). Only the sine half is given.",
        correction=r"$p_{i,2t} = \sin(i/10000^{2t/d})$ (and $p_{i,2t+1} = \cos(i/10000^{2t/d})$, which the note "
        r"omits), the sinusoidal encoding of Vaswani et al.",
        quote=r"pi,2t=sin(k/100002t/d)p_{i,2t} = \sin(k/10000^{2t/d})",
        alternatives=(Alternative(
            r"$k$ is the position and the $i$ on the left a slip for it ($p_{k,2t} = \sin(k/10000^{2t/d})$)",
            "holds", E.sinusoidal_formula),)),
    entry("n000-linear-attention", "Basics", "holds", A.linear_attention,
        r"Linear attention $\phi(q_m)^\top(\sum_n \phi(k_n) v_n^\top) / \phi(q_m)^\top \sum_n \phi(k_n)$ shares the "
        r"two key sums across all queries, so it costs $O(N)$.",
        reading=r"The left side of the equation is lost in scraping (the line starts with $=$); it is read as the "
        r"output $\mathrm{Attention}(Q,K,V)_m$ of the later section 與線性注意力. The $O(N)$ cost is implied by the "
        r"note's 'so it becomes $O(N^2)$ again' for Transformer-XL.",
        quote=r"=ϕ(qm)(n=1Nϕ(kn)vn)ϕ(qm)(n=1Nϕ(kn))= \frac{\phi(\boldsymbol{q}_m)^\top \left(\sum_{n=1}^{N} "
        r"\phi(\boldsymbol{k}_n) \boldsymbol{v}_n^\top \right)}{\phi(\boldsymbol{q}_m)^\top \left(\sum_{n=1}^{N} "
        r"\phi(\boldsymbol{k}_n)\right)}"),
    entry("n000-xl-not-linear", "Basics", "holds", A.xl_breaks_linear,
        r"A relative encoding such as Transformer-XL's does not fit linear attention: with the relative term inside "
        r"the features, the summand $\phi(q_m)^\top \phi(k_n + r_{m-n}) v_n$ depends on $m$ through the key features, "
        r"so $\sum_n$ cannot be precomputed and the cost returns to $O(N^2)$.",
        reading="'這種編碼' (this encoding) is the relative encoding of the list item the bullet sits in; '一樣' "
        "(likewise) is read as 'all the same'. Read as 'like the absolute encoding above', it would also call "
        "additive absolute encodings unsuitable (alternative; RoFormer §1 says so of all earlier schemes). The words "
        "between $m$ and $n$ in '同時依賴 $m$ ... $n$' are lost in scraping.",
        quote="但這種編碼只是把位置資訊加入上下文表示, 一樣不適用線性注意力架構:",
        alternatives=(Alternative(
            "一樣 as 'like the absolute encoding above': additive absolute encodings are unsuitable for linear "
            "attention too",
            "fails", L.absolute_breaks_linear),)),
    entry("n000-definitions", "基本定義", "holds-if", R.even_dimension,
        r"Definitions used later: input $\mathbb S_N = \{w_i\}_{i=1}^N$, embeddings $\mathbb E_N = \{x_i\}_{i=1}^N$ "
        r"with $x_i \in \mathbb R^d$ — the $d$ that 一般化 splits into $d/2$ two-dimensional planes.",
        condition=r"$d$ is even. Note 000 never says so (notes 003 and 004 do); for odd $d$ the index set $i \in [1, "
        r"\dots, d/2]$ of $\Theta$ and the block matrix $R^d_{\Theta,m}$ are not defined.",
        quote=r"EN={xi}i=1N,xiRd\mathbb{E}_N = \{\boldsymbol{x}_i\}_{i=1}^{N}, \quad \boldsymbol{x}_i \in \mathbb{R}^d",
    ),
    entry("n000-attention", "Self-Attention", "holds", A.softmax_weights,
        r"$a_{m,n} = \exp(q_m^\top k_n/\sqrt d) / \sum_j \exp(q_m^\top k_j/\sqrt d)$, $o_m = \sum_n a_{m,n} v_n$: "
        r"positive weights summing to 1 (the 'standard attention' $\sum_n \mathrm{sim}(q_m,k_n) v_n / \sum_n "
        r"\mathrm{sim}(q_m,k_n)$ of 與線性注意力 with $\mathrm{sim}(q,k) = \exp(q^\top k/\sqrt d)$).",
        quote=r"qm=fq(xm,m)\boldsymbol{q}_m = f_q(\boldsymbol{x}_m, m)kn=fk(xn,n)\boldsymbol{k}_n = "
        r"f_k(\boldsymbol{x}_n, n)vn=fv(xn,n)\boldsymbol{v}_n = f_v(\boldsymbol{x}_n, "
        r"n)am,n=exp(qmkn/d)j=1Nexp(qmkj/d)a_{m,n} = \frac{\exp(\boldsymbol{q}_m^\top \boldsymbol{k}_n / "
        r"\sqrt{d})}{\sum_{j=1}^{N} \exp(\boldsymbol{q}_m^\top \boldsymbol{k}_j / "
        r"\sqrt{d})}om=n=1Nam,nvn\boldsymbol{o}_m = \sum_{n=1}^{N} a_{m,n} \boldsymbol{v}_n"),
    entry("n000-goal", "Self-Attention", "holds", R.relative_identity,
        r"RoPE makes the query-key inner product depend on positions only through $m - n$: $\langle f_q(x_m, m), "
        r"f_k(x_n, n)\rangle = g(x_m, x_n, m-n)$.",
        quote=r"fq(xm,m),fk(xn,n)=g(xm,xn,mn)\langle f_q(\boldsymbol{x}_m, m), f_k(\boldsymbol{x}_n, n) \rangle = "
        r"g(\boldsymbol{x}_m, \boldsymbol{x}_n, m-n)"),
    entry("n000-2d-complex", "二維空間", "holds", D.solution_2d,
        r"$f_q = (W_q x_m) e^{im\theta}$, $f_k = (W_k x_n) e^{in\theta}$ give $g = \mathrm{Re}[(W_q x_m)(W_k x_n)^* "
        r"e^{i(m-n)\theta}]$, and in real form $f_{\{q,k\}}(x_m, m) = R(m\theta) W_{\{q,k\}} x_m$.",
        reading=r"The 2-vectors $W_q x_m$, $W_k x_n$ are read as complex numbers $a_1 + i a_2$ (as in RoFormer eq. "
        r"12); the inner product $\langle u, v\rangle$ of the goal is $\mathrm{Re}[u v^*]$.",
        quote=r"fq(xm,m)=(Wqxm)eimθf_q(\boldsymbol{x}_m, m) = (W_q \boldsymbol{x}_m) "
        r"e^{im\theta}fk(xn,n)=(Wkxn)einθf_k(\boldsymbol{x}_n, n) = (W_k \boldsymbol{x}_n) "
        r"e^{in\theta}g(xm,xn,mn)=Re[(Wqxm)(Wkxn)ei(mn)θ]g(\boldsymbol{x}_m, \boldsymbol{x}_n, m-n) = "
        r"\mathrm{Re}[(W_q \boldsymbol{x}_m)(W_k \boldsymbol{x}_n)^* "
        r"e^{i(m-n)\theta}]f{q,k}(xm,m)=(cosmθsinmθsinmθcosmθ)(W{q,k}(11)W{q,k}(12)W{q,k}(21)W{q,k}(22))(xm(1)xm(2))f_"
        r"{\{q,k\}}(\boldsymbol{x}_m, m) = \begin{pmatrix} \cos m\theta & -\sin m\theta \\ \sin m\theta & \cos "
        r"m\theta \end{pmatrix} \begin{pmatrix} W_{\{q,k\}}^{(11)} & W_{\{q,k\}}^{(12)} \\ W_{\{q,k\}}^{(21)} & "
        r"W_{\{q,k\}}^{(22)} \end{pmatrix} \begin{pmatrix} x_m^{(1)} \\ x_m^{(2)} \end{pmatrix}"),
    entry("n000-block-diagonal", "一般化", "holds", R.pairwise_rotation,
        r"$R^d_{\Theta,m}$ is block diagonal with blocks $R(m\theta_i)$: it rotates each of the $d/2$ pairs "
        r"independently, and the score is the sum of the $d/2$ two-dimensional scores.",
        reading="1-based coordinates and frequencies, adjacent pairs (the interleaved layout).",
        quote=r"RΘ,md=(cosmθ1sinmθ10000sinmθ1cosmθ1000000cosmθ2sinmθ20000sinmθ2cosmθ2000000cosmθd/2sinmθd/20000sinmθd/"
        r"2cosmθd/2)\boldsymbol{R}_{\Theta,m}^d = \begin{pmatrix} \cos m\theta_1 & -\sin m\theta_1 & 0 & 0 & \cdots & "
        r"0 & 0 \\ \sin m\theta_1 & \cos m\theta_1 & 0 & 0 & \cdots & 0 & 0 \\ 0 & 0 & \cos m\theta_2 & -\sin "
        r"m\theta_2 & \cdots & 0 & 0 \\ 0 & 0 & \sin m\theta_2 & \cos m\theta_2 & \cdots & 0 & 0 \\ \vdots & \vdots & "
        r"\vdots & \vdots & \ddots & \vdots & \vdots \\ 0 & 0 & 0 & 0 & \cdots & \cos m\theta_{d/2} & -\sin "
        r"m\theta_{d/2} \\ 0 & 0 & 0 & 0 & \cdots & \sin m\theta_{d/2} & \cos m\theta_{d/2} \end{pmatrix}"),
    entry("n000-theta", "一般化", "holds", F.theta_one_based,
        r"$\Theta = \{\theta_i = 10000^{-2(i-1)/d},\ i = 1, \dots, d/2\}$.",
        reading=r"1-based index as in the paper: the note's $\theta_i$ is ropemath's $\theta_{i-1}$.",
        quote=r"Θ={θi=100002(i1)/d,i[1,2,,d/2]}\Theta = \{\theta_i = 10000^{-2(i-1)/d}, i \in [1, 2, \ldots, d/2]\}"),
    entry("n000-weights-transpose", "一般化", "fails", R.weights_missing_transpose,
        r"$q_m^\top k_n = (R^d_{\Theta,m} W_q x_m)^\top (R^d_{\Theta,n} W_k x_n) = x_m^\top W_q R^d_{\Theta,n-m} W_k "
        r"x_n$.",
        correction=r"$x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n$",
        reading=r"The LaTeX source has $\top$ on $x_m$ but none on $W_q$, so this is not a symbol lost in scraping "
        r"(RoFormer eq. 16 prints the same expression). Without $W_q^\top$ it holds only for symmetric $W_q$.",
        quote=r"qmkn=(RΘ,mdWqxm)(RΘ,ndWkxn)=xmWqRΘ,nmdWkxn\boldsymbol{q}_m^\top \boldsymbol{k}_n = "
        r"(\boldsymbol{R}_{\Theta,m}^d W_q \boldsymbol{x}_m)^\top (\boldsymbol{R}_{\Theta,n}^d W_k \boldsymbol{x}_n) "
        r"= \boldsymbol{x}_m^\top W_q \boldsymbol{R}_{\Theta,n-m}^d W_k \boldsymbol{x}_n"),
    entry("n000-relative-matrix", "一般化", "holds", R.transpose_product,
        r"$R^d_{\Theta,n-m} = (R^d_{\Theta,m})^\top R^d_{\Theta,n}$.",
        quote=r"RΘ,nmd=(RΘ,md)RΘ,nd\boldsymbol{R}_{\Theta,n-m}^d = (\boldsymbol{R}_{\Theta,m}^d)^\top "
        r"\boldsymbol{R}_{\Theta,n}^d"),
    entry("n000-elementwise", "效能優化", "holds", R.elementwise_form,
        r"$R^d_{\Theta,m} x = x \otimes (\cos m\theta_1, \cos m\theta_1, \dots) + (-x_2, x_1, -x_4, x_3, \dots) "
        r"\otimes (\sin m\theta_1, \sin m\theta_1, \dots)$ (RoFormer eq. 34), which exploits the sparsity of "
        r"$R^d_{\Theta,m}$.",
        reading=r"1-based coordinates and frequencies, adjacent pairs (the interleaved layout). The note does not "
        r"define $\otimes$; it is read as the elementwise product, the meaning it has in RoFormer eq. (34) that the "
        r"line copies and the only one under which the right side is a $d$-vector like the left (alternative).",
        quote=r"RΘ,mdx=(x1x2x3x4xd1xd)(cosmθ1cosmθ1cosmθ2cosmθ2cosmθd/2cosmθd/2)+(x2x1x4x3xdxd1)(sinmθ1sinmθ1sinmθ2sin"
        r"mθ2sinmθd/2sinmθd/2)\boldsymbol{R}_{\Theta,m}^d \boldsymbol{x} = \begin{pmatrix} x_1 \\ x_2 \\ x_3 \\ x_4 "
        r"\\ \vdots \\ x_{d-1} \\ x_d \end{pmatrix} \otimes \begin{pmatrix} \cos m\theta_1 \\ \cos m\theta_1 \\ \cos "
        r"m\theta_2 \\ \cos m\theta_2 \\ \vdots \\ \cos m\theta_{d/2} \\ \cos m\theta_{d/2} \end{pmatrix} + "
        r"\begin{pmatrix} -x_2 \\ x_1 \\ -x_4 \\ x_3 \\ \vdots \\ -x_d \\ x_{d-1} \end{pmatrix} \otimes "
        r"\begin{pmatrix} \sin m\theta_1 \\ \sin m\theta_1 \\ \sin m\theta_2 \\ \sin m\theta_2 \\ \vdots \\ \sin "
        r"m\theta_{d/2} \\ \sin m\theta_{d/2} \end{pmatrix}",
        alternatives=(Alternative(
            r"$\otimes$ as the Kronecker product: the right side then has $d^2$ entries", "fails",
            L.elementwise_as_kronecker),)),
    entry("n000-decay-complex", "Long-term Decay", "fails", L.complex_score_frequency_index,
        r"$(R^d_{\Theta,m} W_q x_m)^\top (R^d_{\Theta,n} W_k x_n) = \mathrm{Re}[\sum_{i=0}^{d/2-1} q_{[2i:2i+1]} "
        r"k^*_{[2i:2i+1]} e^{i(m-n)\theta_i}]$ with the note's $\theta_i = 10000^{-2(i-1)/d}$: the sum starts at "
        r"$\theta_0 = 10000^{2/d}$, and pair $i$ turns with $\theta_i$ instead of its own $\theta_{i+1}$.",
        reading=r"$\theta_i$ is the note's own, defined one section earlier (一般化) for $i = 1, \dots, d/2$; the sum "
        r"here runs over $i = 0, \dots, d/2-1$ (RoFormer eq. 35 has the same shift against its eq. 15). "
        r"$q_{[2i:2i+1]}$ is the pair $(q_{2i}, q_{2i+1})$ counted from 0, read as a complex number; $q$, $k$ are "
        r"$W_q x_m$, $W_k x_n$. A wrong index is 'fails' however evident the intent (rubric 1).",
        correction=r"$\mathrm{Re}[\sum_{i=0}^{d/2-1} q_{[2i:2i+1]} k^*_{[2i:2i+1]} e^{i(m-n)\theta_{i+1}}]$, i.e. "
        r"frequency $10000^{-2i/d}$ for the 0-based pair $i$.",
        quote=r"(RΘ,mdWqxm)(RΘ,ndWkxn)=Re[i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi](\boldsymbol{R}_{\Theta,m}^d W_q "
        r"\boldsymbol{x}_m)^\top (\boldsymbol{R}_{\Theta,n}^d W_k \boldsymbol{x}_n) = "
        r"\mathrm{Re}\left[\sum_{i=0}^{d/2-1} \boldsymbol{q}_{[2i:2i+1]} \boldsymbol{k}_{[2i:2i+1]}^* "
        r"e^{i(m-n)\theta_i}\right]",
        alternatives=(Alternative(
            r"$\theta_i$ re-indexed from 0 in this section ($\theta_i = 10000^{-2i/d}$), as RoFormer eq. (35) "
            "tacitly does",
            "holds", F.complex_score_form),)),
    entry("n000-decay", "Long-term Decay", "fails", F.score_decays,
        "As the relative distance grows, the inner product (attention score) decays.",
        correction=r"What decays (as a trend, on the range of RoFormer Fig. 2) is the upper bound $(\max_i "
        r"|h_{i+1}-h_i|) \sum_j |S_j(m-n)|$, and it bounds every score; single scores need not decay.",
        reading="The likeness to natural language that the sentence adds is motivation, not judged.",
        quote="相對距離增加時, 內積值會衰減, 與自然語言的性質很類似"),
    entry("n000-norm-preserved", "與線性注意力", "holds", R.norm_rule,
        r"RoPE keeps vector norms: $\|R^d_{\Theta,m} x\| = \|x\|$.", quote="RoPE 保持向量範數不變"),
    entry("n000-linear-rope-form", "與線性注意力", "holds", A.rope_linear_time,
        r"RoPE in linear attention (RoFormer eq. 19): numerator $\sum_n (R_m\phi(q_m))^\top (R_n\varphi(k_n)) v_n$, "
        r"denominator $\sum_n \phi(q_m)^\top\varphi(k_n)$ unrotated; this keeps the $O(N)$ shared-sum form.",
        quote=r"Attention(Q,K,V)m=n=1N(RΘ,mdϕ(qm))(RΘ,ndφ(kn))vnn=1Nϕ(qm)φ(kn)\mathrm{Attention}(Q,K,V)_m = "
        r"\frac{\sum_{n=1}^{N} (\boldsymbol{R}_{\Theta,m}^d \phi(\boldsymbol{q}_m))^\top (\boldsymbol{R}_{\Theta,n}^d "
        r"\varphi(\boldsymbol{k}_n)) \boldsymbol{v}_n}{\sum_{n=1}^{N} \phi(\boldsymbol{q}_m)^\top "
        r"\varphi(\boldsymbol{k}_n)}"),
    entry("n000-linear-rope-reason", "與線性注意力", "fails", A.norm_is_not_the_reason,
        "Because RoPE keeps vector norms unchanged, it can be combined with linear attention.",
        correction=r"It combines because $R$ is linear and $R_m^\top R_n = R_{n-m}$, so $\sum_n R_n\varphi(k_n) "
        r"v_n^\top$ is accumulated once; norm preservation neither enables this (a scaled $2R_m$ works too) nor keeps "
        r"the rotated numerator non-negative, which is why the denominator is left unrotated.",
        quote="RoPE 保持向量範數不變, 因此可以與線性注意力結合:",
        reading="RoFormer §3.3 gives the same reason; the note copies it faithfully. What is judged is the "
        "implication: norms are kept yet the rotated numerator is negative (so keeping norms is not sufficient), and "
        "a norm-doubling 2 R_m combines just as well (not necessary)."),
    entry("n000-multiplicative", "靈活性", "holds", P.multiplicative,
        r"Position is encoded by multiplication: $f(x, m) = R^d_{\Theta,m} x$ is linear in $x$, with no additive "
        r"position term ($f(0, m) = 0$).",
        quote="使用乘法方式編碼位置"),
    entry("n000-no-max-length", "靈活性", "holds", P.any_length,
        "Position enters by multiplication with $R_m$, defined for every position: no maximum sequence length has to "
        "be fixed in advance.",
        quote="使用乘法方式編碼位置, 不需要預定義最大序列長度"),
    entry("n000-extrapolation", "靈活性", "not-checkable", F.extrapolation,
        "RoPE naturally supports extrapolation to longer sequences.",
        reason="An empirical claim about trained models (perplexity beyond the training length). The algebra only "
        "shows the rotation is defined there (n000-no-max-length); the check measures which angles training never saw.",
        quote="且天然支持外推到更長序列"),
    entry("n000-orthogonal", "正交性", "holds", R.orthogonal_rule,
        r"The rotation matrix is orthogonal: $(R^d_{\Theta,m})^\top R^d_{\Theta,m} = I$.", quote="旋轉矩陣是正交矩陣"),
    entry("n000-stability", "正交性", "holds", P.orthogonal_is_stable,
        "The rotation matrix being orthogonal can ensure (可以確保) the numerical stability of the encoding.",
        quote="旋轉矩陣是正交矩陣, 可以確保編碼的數值穩定性",
        alternatives=(P.ROUNDED_ANGLES_READING,)),
)

MERGED: tuple[tuple[str, str], ...] = (
    ("Transformer-XL 的相對位置編碼同時依賴", "n000-xl-not-linear"),
    (r"\boldsymbol{k}_n + \boldsymbol{q}_m^\top \boldsymbol{r}_{m-n}", "n000-xl-not-linear"),
    (r"若使用線性注意力就沒辦法預先求出 n\sum_n:", "n000-xl-not-linear"),
    (r"\phi(\boldsymbol{k}_n + \boldsymbol{r}_{m-n}) \boldsymbol{v}_n", "n000-xl-not-linear"),
    ("所以最後又變回 O(N2)O (N^2)", "n000-xl-not-linear"),
    (r"\mathbb{S}_N = \{w_i\}_{i=1}^{N}", "n000-definitions"),
    ("RoPE: 將 Query 與 Key 的內積轉為只有相對位置資訊:", "n000-goal"),
    ("用複數的基本性質可以求得:", "n000-2d-complex"),
    ("先把整個體分成 d/2d/2 個二維空間:", "n000-definitions"),
    (r"= \boldsymbol{R}_{\Theta,m}^d W_{\{q,k\}} \boldsymbol{x}_m", "n000-block-diagonal"),
    ("利用旋轉矩陣稀疏性實作高效能計算:", "n000-elementwise"),
    (r"\mathrm{sim}(\boldsymbol{q}_m, \boldsymbol{k}_n) \boldsymbol{v}_n}", "n000-attention"),
    (r"\phi(\boldsymbol{q}_m)^\top \varphi(\boldsymbol{k}_n) \boldsymbol{v}_n}", "n000-linear-attention"))
