r"""Ledger entries for note 004, "RoPE / RoFormer: Enhanced Transformer with Rotary Position Embedding" (DaNing).

The scrape lost superscripts, minus signs, roots and stars (":math:`q_m^\top k_n`" reads "qmkn"); a ``reading``
says which it restores, while a *visible* wrong letter or index is judged as written (rubric 1).

References: DaNing, "RoPE / RoFormer: Enhanced Transformer with Rotary Position Embedding" (CC BY 4.0);
Su et al., *RoFormer*, arXiv:2104.09864 v5.
"""

from __future__ import annotations

import functools

from ropemath.claims import checks_attention as A
from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_encodings as E
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_literal as L
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Alternative, Entry, note_entry

__all__ = ["ENTRIES", "MERGED"]

SCRAPED = "Superscripts, minus signs, square roots and stars were lost in scraping and are restored as in RoFormer. "
EMPIRICAL = "A result of training runs reported by the paper; nothing computed here can confirm or refute it."

entry = note_entry("004")

ENTRIES: tuple[Entry, ...] = (
    entry("n004-order", "Background and Related Work", "holds", A.permutation_blind,
        "Without position information the model cannot tell 我吃饭 from 饭吃我: attention without positions is "
        "permutation-equivariant.",
        quote="位置编码的主要作用是为了保证同样的Token输入到模型中是可以区分的, 从而可以编码它们的位置关系. "
        "一个显然的例子, “我吃饭”和”饭吃我”明显因主宾语的位置不同而具有不同的含义."),
    entry("n004-attention", "Preliminary", "holds", A.softmax_weights,
        r"$a_{m,n} = \exp(q_m^\top k_n/\sqrt d)/\sum_j \exp(q_m^\top k_j/\sqrt d)$, $o_m = \sum_n a_{m,n} v_n$.",
        quote="接着计算Scaled Dot-Product Attention: am,n=exp(qmknd)j=1Nexp(qmkjd)om=n=1Nam,nvn",
        reading=SCRAPED + r"('exp(qmknd)' is $\exp(q_m^\top k_n/\sqrt d)$)."),
    entry("n004-sinusoidal", "Absolute Position Embedding", "fails", L.sinusoidal_position_variable,
        r"$p_{i,2t} = \sin(k/10000^{2t/d})$, $p_{i,2t+1} = \cos(k/10000^{2t/d})$, with $k$ a symbol other than the "
        r"position $i$.",
        quote="而在Transformer的原论文中, 作者通过正余弦函数来生成pi: {pi,2t=sin(k/100002t/d) pi,2t+1=cos(k/100002t/d)",
        correction=r"$p_{i,2t} = \sin(i/10000^{2t/d})$, $p_{i,2t+1} = \cos(i/10000^{2t/d})$ (Vaswani et al. §3.5).",
        reading="The letter $k$ is visible in the scrape; $i$ appears nowhere on the right, so as written $p_i$ does "
        "not depend on the position (a wrong index, rubric rule 1). Minus sign of the exponent: none is needed.",
        alternatives=(Alternative(r"$k$ is a slip for the position $i$", "holds", E.sinusoidal_formula),)),
    entry("n004-sinusoidal-parity", "Absolute Position Embedding", "fails", L.parity_literal,
        "$p_{i,2t}$ and $p_{i,2t+1}$ are the odd and the even dimensions of $p_i$, dimensions numbered by their "
        "subscript (which starts at $0$: $t = 0$ gives the frequency $1$).",
        quote="pi,2t,pi,2t+1 分别为piRd 的奇数维和偶数维.",
        correction="$p_{i,2t}$ (the sines) sit at the even subscripts $2t$; they are the odd-numbered dimensions only "
        "when dimensions are counted from 1 while subscripts count from 0.",
        reading="Subscript 2t is even; 'odd dimension' needs a second, 1-based numbering the note does not state.",
        alternatives=(
            Alternative(
                "dimensions counted from 1 (subscript 2t is the (2t+1)-th dimension)", "holds", E.sinusoidal_parity
            ),
        )),
    entry("n004-absolute-no-relative", "Relative Position Embedding", "fails", E.absolute_carries_relative,
        "'Absolute position encodings cannot encode the relative position between two tokens.'",
        quote="由于绝对位置编码不能编码两个Token之间的相对位置关系, 一些工作中也通过相对位置的建模, "
        "将相对位置信息作为位置编码:",
        correction=r"Sinusoidal $p_i$ do carry it, $p_i^\top p_j = \sum_t \cos((i-j)\omega_t)$; what additive "
        r"encodings cannot guarantee is a score that depends on $i - j$ alone once $W_q, W_k$ and content enter."),
    entry("n004-relative-schemes", "Relative Position Embedding", "holds", E.relative_schemes,
        r"Shaw et al.: $f_q(x_m) = W_q x_m$, $f_k(x_n, n) = W_k(x_n + \tilde p^k_r)$, $f_v = W_v(x_n + \tilde "
        r"p^v_r)$, $r = \mathrm{clip}(m-n, r_{min}, r_{max})$, give scores that depend on positions only through $m - "
        r"n$; distances beyond the clip share one encoding.",
        quote="fq(xm):=Wqxmfk(xn,n):=Wk(xn+p~rk)fv(xn,n):=Wv(xn+p~rv) p~rk,p~rvRd 为可学习的相对位置编码. 其中, rm,n "
        "之间的相对位置, 用r=clip(mn,rmin,rmax) 得到. 这假设了超出一定距离限制的位置信息是不太重要的. "
        "此时直接采用最远距离的相对位置编码即可.",
        reading=SCRAPED + "The check also covers Transformer-XL, DeBERTa and a T5 bias of the distance."),
    entry("n004-four-terms", "Relative Position Embedding", "holds", E.four_terms,
        r"$q_m^\top k_n = x_m^\top W_q^\top W_k x_n + x_m^\top W_q^\top W_k p_n + p_m^\top W_q^\top W_k x_n + "
        r"p_m^\top W_q^\top W_k p_n$.",
        quote="一些工作(TransformerXL / XLNet)直接沿用这个形式将它们按项拆分: qmkn=xmWqWkxn+xmWqWkpn+pmWqWkxn+pmWqWkpn",
        reading=SCRAPED + "(the scrape reads 'xmWqWkxn + ...'); the expansion of "
        r"$(W_q(x_m + p_m))^\top W_k(x_n + p_n)$."),
    entry("n004-transformer-xl", "Relative Position Embedding", "holds", E.relative_schemes,
        r"Transformer-XL: $q_m^\top k_n = x_m^\top W_q^\top W_k x_n + x_m^\top W_q^\top \tilde W_k \tilde p_{m-n} + "
        r"u^\top W_q^\top W_k x_n + v^\top W_q^\top \tilde W_k \tilde p_{m-n}$ depends on positions only through $m - "
        r"n$.",
        quote="qmkn=xmWqWkxn+xmWqW~kp~mn+uWqWkxn+vWqW~kp~mn",
        reading=SCRAPED + r"('p~mn' is $\tilde p_{m-n}$), as in RoFormer eq. (6)."),
    entry("n004-t5", "Relative Position Embedding", "fails", L.t5_bias_literal,
        r"T5: $q_m^\top k_n = x_m^\top W_q^\top W_k x_n + b_{i,j}$ with $b_{i,j}$ a learnable bias indexed by the "
        r"positions $i, j$ turns the relative position into a bias term.",
        quote="qmkn=xmWqWkxn+bi,j",
        correction=r"$q_m^\top k_n = x_m^\top W_q^\top W_k x_n + b_{m-n}$: T5's bias is a learned function of the "
        r"(bucketed) distance; a table $b_{i,j}$ over position pairs is absolute.",
        reading="The subscript 'i,j' is visible (RoFormer eq. 7 prints the same); i, j also differ from the m, n of "
        "the left side.",
        alternatives=(Alternative(
            r"$b_{i,j}$ stands for $b(i - j)$ with $i, j = m, n$", "holds",
            functools.partial(L.t5_bias_literal, indexed_by="distance")),)),
    entry("n004-tupe", "Relative Position Embedding", "fails", E.tupe_position_term,
        r"Adding $p_m^\top U_q^\top U_k p_n$ (two projections of $p_m, p_n$) encodes the relative position.",
        quote="用两个Projection进一步分别编码pm,pn, 即相对位置, 似乎是更合理的: qmkn=xmWqWkxn+pmUqUkpn+bi,j",
        correction=r"$p_m^\top M p_n$ with sinusoidal $p$ (distinct frequencies) depends on $m - n$ only if every "
        r"diagonal 2x2 block of $M = U_q^\top U_k$ is $aI + bJ$ and every off-diagonal block is 0; in general it "
        r"carries absolute position (the relative part is $b_{i,j}$).",
        reading="The hedge '似乎' qualifies 'more reasonable'; '即相对位置' (i.e. relative position) is asserted."),
    entry("n004-deberta", "Relative Position Embedding", "holds", E.relative_schemes,
        r"DeBERTa: $q_m^\top k_n = x_m^\top W_q^\top W_k x_n + x_m^\top W_q^\top W_k \tilde p_{m-n} + \tilde "
        r"p_{m-n}^\top W_q^\top W_k x_n$ depends on positions only through $m - n$.",
        quote="也有一些工作(DeBERTa)基于绝对位置的形式, 认为简单的将绝对位置pn,pm 替换为相对位置p~mn就可以: "
        "qmkn=xmWqWkxn+xmWqWkp~mn+p~mnWqWkxn",
        reading=SCRAPED + r"('p~mn' is $\tilde p_{m-n}$), as in RoFormer eq. (9)."),
    entry("n004-rotation-angle", "RoPE", "holds", L.angle_represents_position,
        r"For $d = 2$, RoPE turns the vector at position $m$ through the angle $m\theta$, and distinct positions get "
        r"distinct angles.",
        quote="上图举了一个d=2 时的简单例子, 对于绝对位置m, RoPE将向量在极坐标系中通过旋转能够代表m "
        "的角度来表征它们的位置.",
        reading=r"'An angle that can represent m' read as $m\theta$ with $\theta = 1$, checked for $m = -50..50$."),
    entry("n004-goal", "Formulation", "holds", R.weights_identity,
        r"Goal $\langle f_q(x_m, m), f_k(x_n, n)\rangle = g(x_m, x_n, m - n)$ — met by RoPE.",
        quote="结合前面的分析可知, 想要融入Token之间的相对位置关系, 只需要将qmkn 建模为能注入相对位置mn 的函数g: "
        "fq(xm,m),fk(xn,n)=g(xm,xn,mn)",
        reading=SCRAPED + r"(the angle brackets too)."),
    entry("n004-sdpa-inner", "Derivation of RoPE under 2D", "fails", L.sdpa_is_inner_product,
        r"SDPA (scaled dot-product attention, $o_m = \sum_n a_{m,n} v_n$) is the inner product of two vectors.",
        quote="SDPA(Scaled Dot-Product Attention)是两向量的内积.",
        correction=r"SDPA's scores are (scaled) inner products, $q_m^\top k_n/\sqrt d$; SDPA itself maps them through "
        r"a softmax to weights of the values.",
        alternatives=(Alternative(
            r"the score inside SDPA, $q_m^\top k_n/\sqrt d$, is an inner product", "holds",
            functools.partial(L.sdpa_is_inner_product, part="score")),)),
    entry("n004-complex-inner", "Derivation of RoPE under 2D", "holds", D.complex_inner_product,
        r"$a\cdot b = a_1b_1 + a_2b_2 = \mathrm{Re}(z_a \bar z_b)$, with $z_a \bar z_b = a_1b_1 + a_2b_2 + i(a_2b_1 - "
        r"a_1b_2)$.",
        quote="zazb=(a1+a2i)(b1b2i)=a1b1+a1(b2i)+a2ib1+a2i(b2i)=a1b1+a2b2+i(a2b1a1b2)",
        reading=SCRAPED + "(the bar of the conjugate and the minus signs of 'b1b2i', 'a1(b2i)', 'a2b1a1b2')."),
    entry("n004-polar-split", "Derivation of RoPE under 2D", "fails", L.polar_split_literal,
        r"$R_q(x_q, m) R_k(x_k, n) = R_g(x_q, x_k, n-m)$ and $\Theta_k(x_k, n) - \Theta_q(x_q, m) = \Theta_g(x_q, "
        r"x_k, n-m)$.",
        correction=r"Require the complex product to be relative, $\overline{f_q(x_q,m)}\, f_k(x_k,n) = g(x_q, x_k, n "
        r"- m)$ with complex $g$ (RoFormer §3.4.1); then the moduli multiply and the arguments subtract (mod $2\pi$).",
        quote="不难发现, 代入到qm,kn 中, 当二者做内积时, 得到幅度R 和角度Θ 之间的关系: "
        "Rq(xq,m)Rk(xk,n)=Rg(xq,xk,nm)Θk(xk,n)Θq(xq,m)=Θg(xq,xk,nm)",
        reading=SCRAPED + "The note uses n - m here and m - n elsewhere; both describe the same dependence. "
        "'当二者做内积时' (when the two take the inner product): g is the real inner product, as in note 001 §2.4, "
        "so the same gap gets the same verdict (n001-polar-split).",
        alternatives=(Alternative(
            r"$g$ read as the complex product, required relative: the split follows; from the real inner "
            r"product alone it follows only under that condition.",
            "holds-if",
            D.polar_split),)),
    entry("n004-modulus", "Derivation of RoPE under 2D", "holds", D.radial_choice,
        r"$m = n$ gives $R_q(x_q,m) R_k(x_k,m) = \|q\|\|k\|$; an obvious solution is $R_q = \|q\|$, $R_k = \|k\|$, "
        r"$R_g = \|q\|\|k\|$.",
        quote="此时, 幅值Rf 的一个显然解为: Rq(xq,m)=Rq(xq,0)=qRk(xk,n)=Rk(xk,0)=kRg(xq,xk,nm)=Rg(xq,xk,0)=qk",
        reading=SCRAPED + "('q' is the norm; 'a solution': with separate f_q, f_k it is one choice among several)."),
    entry("n004-angle", "Derivation of RoPE under 2D", "holds", D.angle_split,
        r"$\Theta_q(x_q,m) - \theta_q = \Theta_k(x_k,m) - \theta_k =: \phi(m)$, independent of the vectors.",
        quote="令Θf:=Θq=Θk, 根据Θq(xq,m)θq=Θk(xk,m)θk, 此时明显两侧是相同的函数. 由此, 可以推断出Θf(x{q,k},m)θ{q,k} "
        "是与位置m 相关, 与Word Embedding x{q,k} 无关的函数, 可设Θf(x{q,k},m)θ{q,k}=ϕ(m), 得到: "
        "Θf(x{q,k},m)=ϕ(m)+θ{q,k}",
        reading=SCRAPED + "(the minus signs of 'Θq(xq,m)θq')."),
    entry("n004-recurrence", "Derivation of RoPE under 2D", "holds", D.recurrence_next,
        r"With $n = m + 1$: $\phi(m+1) - \phi(m) = \Theta_g(x_q, x_k, 1) + \theta_q - \theta_k$.",
        quote="n=m+1, 将上式代入到角度关系式当中, 可以得到: ϕ(m+1)ϕ(m)=Θg(xq,xk,1)+θqθk",
        reading=SCRAPED + "(the two minus signs)."),
    entry("n004-arithmetic", "Derivation of RoPE under 2D", "holds", D.arithmetic_solution,
        r"$\phi(m) = m\theta + \gamma$ (arithmetic progression).",
        quote="上式中右侧的常数项与绝对位置m 是无关的, 所以令上式右端整体为θ, ϕ(m) 就是一个等差数列: ϕ(m)=mθ+γ"),
    entry("n004-common-difference", "Derivation of RoPE under 2D", "fails", D.common_difference,
        r"In $\phi(m) = m\theta + \gamma$ 'the absolute position $m$ is also the common difference'.",
        quote="其中γR 为常数(首项), θ 非零, 绝对位置m 在这个式子中也是公差.",
        correction=r"$\phi(m+1) - \phi(m) = \theta$: the common difference is $\theta$, the first term $\gamma$, and "
        r"$m$ the index of the term.",
        reading="Taken literally; the scrape may have lost a symbol, but no reading makes m the common difference."),
    entry("n004-initial-projection", "Derivation of RoPE under 2D", "fails", L.initial_projection_literal,
        "$q = f_q(x_m, 0) = W_q x_n$ (the query at position $m$ is the projection of token $n$).",
        quote="通常q=fq(xm,0),k=fk(xn,0) 是直接由一层投影得到的: q=fq(xm,0)=Wqxnk=fk(xn,0)=Wkxn",
        correction="$q = f_q(x_m, 0) = W_q x_m$ (and $k = f_k(x_n, 0) = W_k x_n$, as written).",
        reading="Subscripts survive the scrape: 'Wqxn' is W_q x_n, a wrong index (rubric rule 1)."),
    entry("n004-gamma", "Derivation of RoPE under 2D", "holds", D.gamma_zero,
        r"'For convenience' set $\gamma = 0$, giving $f_q(x_m, m) = (W_q x_m) e^{im\theta}$.",
        quote="方便起见, 直接设定γ=0, 因此得到最终的RoPE形式: fq(xm,m)=(Wqxm)eimθfk(xn,n)=(Wkxn)einθ",
        reading="gamma = 0 is forced by the initial condition q = f_q(x_q, 0) the note states, not only convenient."),
    entry("n004-solution", "Derivation of RoPE under 2D", "holds", D.solution_2d,
        r"$g(x_m, x_n, m-n) = \mathrm{Re}[(W_q x_m)(W_k x_n)^* e^{i(m-n)\theta}]$, i.e. $f_{\{q,k\}}(x_m, m) = "
        r"R(m\theta) W_{\{q,k\}} x_m$ (a rotation matrix times $\{q,k\}_m$).",
        quote="所以, 我们在二维情况下, 最后找到的函数g 为: g(xm,xn,mn)=Re[(Wqxm)(Wkxn)ei(mn)θ]",
        reading=SCRAPED + "(the star of the conjugate and the minus of 'mn')."),
    entry("n004-theta-10000", "Derivation of RoPE under 2D", "fails", F.theta_is_not_the_base,
        r"'$\theta \in \mathbb R$ is a preset non-zero constant (the base wavelength; following the Transformer it is "
        r"often set to 10000).'",
        quote="θR 为预设好的非零常数(基波长, 沿用Transformer的原论文, 经常设为10000, 底数的选择可以参考这里).",
        correction=r"10000 is the base: $\theta_i = 10000^{-2i/d} \in (10^{-4}, 1]$ (in the 2D case $\theta = 1$)."),
    entry("n004-block", "General form", "holds", R.pairwise_rotation,
        r"$f_{\{q,k\}}(x_m, m) = R^d_{\Theta,m} W_{\{q,k\}} x_m$ with $R^d_{\Theta,m}$ block diagonal over $d/2$ "
        r"planes.",
        quote="非常自然的思路就是将d 维拆成d/2 个的二维子空间, 所以RΘ,md 为: "
        "RΘ,md=(cosmθ1sinmθ10000sinmθ1cosmθ1000000cosmθ2sinmθ20000sinmθ2cosmθ2000000cosmθd/2sinmθd/20000sinmθd/2cosmθd"
        "/2)",
        reading=SCRAPED + "(the minus of each '-sin' and the dots of the matrix)."),
    entry("n004-theta", "General form", "holds", F.theta_one_based,
        r"$\Theta = \{\theta_i = 10000^{-2(i-1)/d},\ i = 1, \dots, d/2\}$.",
        quote="其中, Θ={θi=100002(i1)/d,i[1,2,,d/2]}.", reading=SCRAPED + "1-based, as in RoFormer eq. (15)."),
    entry("n004-theta-order", "General form", "holds", F.theta_decreasing,
        r"The larger $i$, the smaller $\theta_i$: higher-index pairs rotate more slowly.",
        quote="所以i 越大, θi 越小, 即下标越大的维度旋转速度越慢."),
    entry("n004-clock", "General form", "holds", F.clock_hands,
        "Like the hands of a clock, pairs rotating at different speeds together represent a position.",
        quote="这篇文章提供了一个非常有意思的角度, 不同角速度的维度就像时针分针秒针一样, "
        "通过不同的快慢角速度来组合表征一个位置信息.",
        reading="Read as: positions that one pair nearly confuses are separated by the other pairs."),
    entry("n004-weights", "General form", "fails", R.weights_missing_transpose,
        r"$q_m^\top k_n = (R^d_{\Theta,m} W_q x_m)^\top (R^d_{\Theta,n} W_k x_n) = x^\top W_q R^d_{\Theta,n-m} W_k "
        r"x_n$ with $x = x_m$ and no transpose on $W_q$ (RoFormer eq. 16 as printed).",
        quote="将RoPE直接作用于Self-Attention, 可得: qmkn=(RΘ,mdWqxm)(RΘ,ndWkxn)=xWqRΘ,nmdWkxn",
        correction=r"$x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n$",
        reading="The scrape drops every superscript, so a transpose on W_q cannot be seen either way. The visible "
        "'xWq' (x without its index m) is RoFormer eq. (16) verbatim, which prints x^T W_q with no transpose on W_q; "
        "judged as that text, like n000-weights-transpose. Without W_q^T it holds only for symmetric W_q.",
        alternatives=(
            Alternative(r"a transpose on $W_q$ was written but lost in scraping", "holds", R.weights_identity),
        )),
    entry("n004-relative-matrix", "General form", "holds", R.transpose_product,
        r"$R^d_{\Theta,n-m} = (R^d_{\Theta,m})^\top R^d_{\Theta,n}$.", quote="其中, RΘ,nmd=(RΘ,md)RΘ,nd.",
        reading=SCRAPED),
    entry("n004-orthogonal", "General form", "holds", R.orthogonal_rule,
        r"$R^d_\Theta$ is an orthogonal matrix.",
        quote="由于RΘd 是一个正交矩阵, 所以它在编码位置信息的时候是相对稳定的."),
    entry("n004-stability", "General form", "holds", P.orthogonal_is_stable,
        r"Being orthogonal, $R^d_\Theta$ is (relatively) stable when encoding position information.",
        quote="由于RΘd 是一个正交矩阵, 所以它在编码位置信息的时候是相对稳定的.",
        reading="'相对稳定' (relatively stable) is read as: errors are not amplified by R.",
        alternatives=(P.ROUNDED_ANGLES_READING,)),
    entry("n004-multiplicative", "General form", "holds", P.multiplicative,
        "RoPE is multiplicative rather than additive, so relative position enters the inner product naturally.",
        quote="RoPE相较于之前位置编码的最大不同, 在于它是乘性的, 而不是加性的, "
        "因此它在编码的相对位置信息可以天然的融入到Self-Attention的内积中."),
    entry("n004-decay", "Properties of RoPE", "holds-if", F.bound_decreases,
        "RoPE has long-term decay.",
        quote="首先, RoPE具有长程衰减, 和最早版本的Transformer一样, RoPE设定θi=100002i/d, 底数θ 越大长程衰减越慢.",
        condition=r"read as the trend of the upper bound $B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|$ over the "
        r"first few hundred positions (RoFormer Fig. 2): $B$ is not monotone, stops decreasing far out, and single "
        r"scores need not decay."),
    entry("n004-same-frequencies", "Properties of RoPE", "holds", F.same_frequencies_as_sinusoidal,
        r"Like the original Transformer, RoPE uses $\theta_i = 10000^{-2i/d}$.",
        quote="首先, RoPE具有长程衰减, 和最早版本的Transformer一样, RoPE设定θi=100002i/d, 底数θ 越大长程衰减越慢.",
        reading=SCRAPED + "0-based here (i = 0..d/2-1), unlike the 1-based Θ of 'General form'."),
    entry("n004-larger-base", "Properties of RoPE", "holds-if", F.larger_base_slower,
        "The larger the base, the slower the long-term decay.",
        quote="首先, RoPE具有长程衰减, 和最早版本的Transformer一样, RoPE设定θi=100002i/d, 底数θ 越大长程衰减越慢.",
        condition=r"read as 'the bound takes longer to fall': the first $r$ with $B(r) < B(0)/4$ grows with the base; "
        r"pointwise ($B_{10^5}(r) \ge B_{10^4}(r)$ for all $r$) it is false.",
        reading="'底数θ' names the base θ (as LLaMA's rope_theta does), not the frequencies θ_i of the same sentence."),
    entry("n004-linear-attention", "Properties of RoPE", "holds", A.linear_attention,
        r"Linear attention $\sum_n \phi(q_m)^\top\varphi(k_n) v_n / \sum_n \phi(q_m)^\top\varphi(k_n)$ with "
        r"non-negative $\phi, \varphi$ (e.g. $\mathrm{elu}(x) + 1$) has linear complexity, softmax attention $O(N^2)$.",
        quote="Linear Attention的复杂度是比SDPA更低的线性复杂度, 形式如下: "
        "Attention(Q,K,V)m=n=1Nϕ(qm)φ(kn)vnn=1Nϕ(qm)φ(kn)",
        reading=SCRAPED),
    entry("n004-linear-rope-form", "Properties of RoPE", "holds", A.rope_linear_time,
        "RoPE in linear attention (RoFormer eq. 19) does not increase its complexity.",
        quote="Attention(Q,K,V)m=n=1N(RΘ,mdϕ(qm))(RΘ,ndφ(kn))vnn=1Nϕ(qm)φ(kn)",
        reading=SCRAPED + "The numerator is rotated, the denominator not, as in RoFormer eq. (19)."),
    entry("n004-linear-rope-reason", "Properties of RoPE", "fails", A.norm_is_not_the_reason,
        "Because RoPE keeps the norm of hidden states unchanged, it can be multiplied in directly and integrated into "
        "linear attention.",
        quote="由于RoPE的存在, 可以使得Hidden State的范数不变, 因此可以将RoPE直接乘, 从而无缝集成到Linear "
        "Attention中, 从而不增加Linear Attention的复杂度:",
        correction=r"Linearity and $R_m^\top R_n = R_{n-m}$ make the shared sum possible; the rotated numerator can "
        r"be negative, so the denominator is left unrotated.",
        reading="RoFormer §3.3 gives the same reason; the note copies it faithfully. What is judged is the "
        "implication: norms are kept yet the rotated numerator is negative (so keeping norms is not sufficient), and "
        "a norm-doubling 2 R_m combines just as well (not necessary)."),
    entry(
        "n004-sparse", "Computational efficient realization of rotary matrix multiplication", "fails",
        L.sparse_is_inefficient, r"$R^d_{\Theta,m}$ is a sparse matrix, therefore computing with it is inefficient.",
        quote="由于RΘ,md 是一个稀疏矩阵, 所以它的计算效率很低.",
        correction=r"Sparsity is what makes $R^d_{\Theta,m} x$ cheap ($2d$ products, eq. 34); what is inefficient is "
        r"multiplying by it as a dense matrix ($d^2$ products).",
        reading="RoFormer §3.4.2 says this right: because R is sparse, multiplying by it as a dense matrix (eq. 16) is "
        "not efficient, hence eq. 34. The note drops 'as a dense matrix', so the slip is the note's.",
        alternatives=(Alternative(
            "multiplying by R as a dense matrix is inefficient", "holds",
            functools.partial(L.sparse_is_inefficient, storage="dense")),)),
    entry(
        "n004-elementwise", "Computational efficient realization of rotary matrix multiplication", "holds",
        R.elementwise_form, r"$R^d_{\Theta,m} x = x \otimes \cos + (-x_2, x_1, \dots) \otimes \sin$ (eq. 34).",
        quote="RΘ,mdx=(x1x2x3x4xd1xd)(cosmθ1cosmθ1cosmθ2cosmθ2cosmθd/2cosmθd/2)+(x2x1x4x3xdxd1)(sinmθ1sinmθ1sinmθ2sinm"
        "θ2sinmθd/2sinmθd/2)",
        reading=SCRAPED + "(the minus signs of '-x2, x1, -x4, ...' and the two ⊗). 1-based indices."),
    entry("n004-decay-complex", "Long-term decay of RoPE", "holds", F.complex_score_form,
        r"$(R_m W_q x_m)^\top (R_n W_k x_n) = \mathrm{Re}[\sum_{i=0}^{d/2-1} q_{[2i:2i+1]} k^*_{[2i:2i+1]} "
        r"e^{i(m-n)\theta_i}]$.",
        quote="(RΘ,mdWqxm)(RΘ,ndWkxn)=Re[i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi]",
        reading=SCRAPED + "0-based pairs and frequencies θ_i = 10000^(-2i/d), as in the note's 'Properties'."),
    entry("n004-abel", "Long-term decay of RoPE", "holds", F.abel_summation,
        r"With $h_i = q_{[2i:2i+1]} k^*_{[2i:2i+1]}$, $S_j = \sum_{i<j} e^{i(m-n)\theta_i}$, $h_{d/2} = 0$, $S_0 = "
        r"0$: $\sum_i h_i (S_{i+1} - S_i) = -\sum_i S_{i+1}(h_{i+1} - h_i)$.",
        quote="i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi=i=0d/21hi(Si+1Si)=i=0d/21Si+1(hi+1hi)",
        reading=SCRAPED + "(the minus sign before the last sum is not visible in the scrape)."),
    entry("n004-abel-bound", "Long-term decay of RoPE", "holds", F.abel_inequality,
        r"$|\sum_i h_i e^{i(m-n)\theta_i}| \le \sum_i |S_{i+1}||h_{i+1} - h_i| \le (\max_i|h_{i+1} - h_i|)\sum_i "
        r"|S_{i+1}|$.",
        quote="|i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi|=|i=0d/21Si+1(hi+1hi)|i=0d/21|Si+1||(hi+1hi)|(maxi|hi+1hi|)i=0d/21"
        "|Si+1|",
        reading=SCRAPED + "(and the two ≤ signs)."),
    entry("n004-bound-decreasing", "Long-term decay of RoPE", "holds-if", F.bound_decreases,
        r"As $m - n$ grows, $\frac{1}{d/2}\sum_{i=1}^{d/2} |S_i|$ gradually decreases (with $\theta_i = "
        r"10000^{-2i/d}$).",
        quote="即当相对位置mn 增大时, 在θi=100002i/d的设定下, 1d/2i=1d/2|Si| 的值是逐渐减小的, 如下图所示:",
        condition=r"'gradually decreases' read as a trend: the means of $B(r)$ over windows of 32 positions decrease "
        r"for $0 \le r < 256$; $B$ itself is not monotone and levels off far out.",
        reading=SCRAPED),
    entry("n004-translation", "Machine Translation", "not-checkable", A.empirical,
        "On WMT 2014 English-German RoFormer scores slightly above the vanilla Transformer.",
        quote="RoFormer略高于Vallina Transformer.", reason=EMPIRICAL),
    entry("n004-pretraining", "Pre-training Language Modeling", "not-checkable", A.empirical,
        "In pre-training RoFormer converges faster than BERT and trains more stably.",
        quote="RoFormer明显的比BERT要收敛更快一些, 而且从曲线上来看它的训练看起来更加稳定.", reason=EMPIRICAL),
    entry("n004-glue", "Fine-tuning on GLUE tasks", "not-checkable", A.empirical,
        "On GLUE RoFormer is better than BERT on MRPC, STS-B, QQP and worse on SST-2, QNLI, MNLI.",
        quote="RoFormer在MRPC, STS-B, QQP上有显著优势, 它们都是偏语义类的任务, 在SST-2和QNLI, MNLI中表现弱于BERT.",
        reason=EMPIRICAL),
    entry("n004-performer", "Performer with RoPE", "not-checkable", A.empirical,
        "RoPE speeds up the convergence of Performer while keeping its complexity.",
        quote="RoPE能够在维持原复杂度不变的条件下加速收敛.",
        reason="Convergence speed is an empirical training result (the complexity part is n004-linear-rope-form)."),
    entry("n004-extrapolation", "Evaluation on Chinese Data", "not-checkable", F.extrapolation,
        "RoFormer does better as sequences get longer, showing good length extrapolation.",
        quote="随着序列长度的增加, RoFormer总是能取得更好的性能, 说明RoFormer在长度外推设置下表现较好.",
        reason="An empirical claim about trained models."),
    entry("n004-cail", "Evaluation on Chinese Data", "not-checkable", A.empirical,
        "On CAIL2019-SCM RoFormer beats BERT and WoBERT at length 512 and clearly at 1024; word-level WoBERT beats "
        "character-level BERT.",
        quote="当RoFormer输入长为512时, 能够略优于BERT和WoBERT.",
        reason=EMPIRICAL + " (The faster inference of word-level models depends on a tokenizer and a corpus.)"),
    entry("n004-absolute-implements-relative", "Summary", "holds", P.absolute_and_relative,
        "RoPE implements a relative position encoding by means of an absolute one.",
        quote="RoPE用绝对位置编码实现了相对位置编码, 并且能够丝滑无缝的融入到Self-Attention当中."),
    entry("n004-later-work", "Summary", "not-checkable", A.empirical,
        "Possible reasons RoPE did well in information extraction (spans are fixed by boundary positions; span scores "
        "are products, like the inner product); its successor ReRoPE outperforms NTK-RoPE on longer contexts.",
        quote="在更长的上下文场景下, RoPE的续作是ReRoPE, 超过了NTK-RoPE, 感兴趣的可以继续深入.",
        reason="Conjectures about why RoPE did well in information extraction and a comparison of trained "
        "long-context models; neither is reproduced here."))

MERGED: tuple[tuple[str, str], ...] = (
    ("xiRdEN 中第i 个位置上的d 维Embedding.", "n004-attention"),
    ("qm=fq(xm,m)kn=fk(xn,n)vn=fv(xn,n)", "n004-attention"),
    ("其中qm, kn,vn 分别为第m,n 位置通过fq,fk,fv 获得的Query, Key, Value.", "n004-attention"),
    ("am,nm,n Token之间的Attention Score, om为第m 个Token的计算完Self - Attention后的表示.", "n004-attention"),
    ("最经典的ft:t{q,k,v}() 的方法是直接将Embedding xi 与位置信息pi 直接相加", "n004-four-terms"),
    ("ft:t{q,k,v}(xi,i):=Wt:t{q,k,v}(xi+pi)", "n004-four-terms"),
    ("所以可以额外加一个矩阵W~k 让它来编码pn:", "n004-transformer-xl"),
    ("直接将相对位置变为一个Learnable bias term bi,j:", "n004-t5"),
    ("正如它的名字一样, 它是通过旋转来区分不同位置的.", "n004-rotation-angle"),
    ("使得计算Self-Attention的内积时能将相对位置信息注入到其中.", "n004-goal"),
    ("所以目标就是找到满足g 性质的fq(xm,m),fk(xn,n).", "n004-goal"),
    ("两向量的内积等于一个复数与另一个复数的共轭的乘积的实部.", "n004-complex-inner"),
    ("它们的内积定义为: ab=a1b1+a2b2", "n004-complex-inner"),
    ("有复数za=a1+a2i, 其共轭为za=a1a2i, 同理对于复数zb=b1+b2i 有共轭zb=b1b2i.", "n004-complex-inner"),
    ("实部a1b1+a2b2 恰好就是a,b 在实数域内积的值.", "n004-complex-inner"),
    ("需要使得qm,kn 仅依赖于它们的绝对位置m,n: qm=fq(xq,m)kn=fk(xk,n)", "n004-goal"),
    ("使得其内积依赖于相对位置mn, 以此在内积上表征二者的相对位置信息:", "n004-goal"),
    ("qmkn=fq(xm,m),fk(xn,n)=g(xm,xn,nm)", "n004-goal"),
    ("同时, 这种编码方式还应该保证在初始状态下不编码位置信息: q=fq(xq,0)k=fk(xk,0)", "n004-gamma"),
    ('fq(xq,m)=Rq(xq,m)eiΘq(xq,m)fk(xk,n)=Rk(xk,n)eiΘk(xk,n)g(xq,xk,nm)=Rg(xq,xk,nm)eiΘg(xq,xk,nm)',
     "n004-polar-split"),
    ("其中, Rf,Rg,Θf,Θg 分别为f{q,k}g 的幅度(模)和角度.", "n004-polar-split"),
    ("q=qeiθq=Rq(xq,0)eiΘq(xq,0)k=keiθk=Rk(xk,0)eiΘk(xk,0)", "n004-modulus"),
    ("其中, q,kθq,θk 分别为q,k 在二维平面上的幅值(模)和角度.", "n004-modulus"),
    ("Rq(xq,m)Rk(xk,m)=Rg(xq,xk,0)=Rq(xq,0)Rk(xk,0)=qk", "n004-modulus"),
    ("Θk(xk,m)Θq(xq,m)=Θg(xq,xk,0)=Θk(xk,0)Θq(xq,0)=θkθq", "n004-angle"),
    ("它显然不依赖位置信息, 即满足q=fq(xq,0),k=fk(xk,0).", "n004-modulus"),
    ("当位置相同时, 不应该编码任何位置信息.", "n004-angle"),
    ("fq(xq,m)=qei(θq+mθ+γ)=qei(mθ+γ)fk(xk,n)=kei(θk+nθ+γ)=kei(nθ+γ)", "n004-arithmetic"),
    ("其中Re() 为取复数的实部, (Wkxn)(Wkxn) 的共轭复数", "n004-solution"),
    ("f{q,k}(xm,m)=(cosmθsinmθsinmθcosmθ)(W{q,k}(11)W{q,k}(12)W{q,k}(21)W{q,k}(22))(xm(1)xm(2))", "n004-solution"),
    ("它就是{q,k}m 乘了一个旋转矩阵, 对应着空间中的向量旋转操作", "n004-solution"),
    ("更为普遍的, 将上节得到的二维情况扩展到任意偶数维度d.", "n004-block"),
    ("f{q,k}(xm,m)=RΘ,mdW{q,k}xm", "n004-block"),
    ("其次, RoPE在Linear Attention当中可以使得Self-Attention被更一般的形式重写.", "n004-linear-attention"),
    ("Attention(Q,K,V)m=n=1Nsim(qm,kn)vnn=1Nsim(qm,kn)", "n004-linear-attention"),
    ("Self-Attention中采用的是sim(qm,kn)=exp(qmkn/d), 它具有O(N2) 的复杂度.", "n004-linear-attention"),
    ("其中ϕ(),φ() 通常是非负函数, 例如ϕ(x)=φ(x)=elu(x)+1, 或者ϕ(qi)=softmax(qi),φ(kj)=exp(kj).",
     "n004-linear-attention"),
    ("从而不增加Linear Attention的复杂度:", "n004-linear-rope-form"),
    ("其中 为逐元素点乘.", "n004-elementwise"),
    ("在RoPE的作用下, 将向量q=Wqxm,k=Wkxn 两维两维的分组成对, 其内积可以写成:", "n004-decay-complex"),
    ("其中q[2i:2i+1] 代表q 中的第2i 到第2i+1 个元素, k 同理.", "n004-decay-complex"),
    ("hi=q[2i:2i+1]k[2i:2i+1],Sj=i=0j1ei(mn)θi, 同时设hd/2=0,S0=0, 由Abel变换可以得到:", "n004-abel"),
    ("作者将RoFormer与Vallina Transformer在WMT 2014 English-German(450w平行语料)上对比:", "n004-translation"),
    ("上文中提到了RoPE在Linear Attention中的优势", "n004-performer"),
    ("RoPE能够在维持原复杂度不变的条件下加速收敛.", "n004-linear-rope-form"),
    ("当RoFormer的最大输入长度扩展到1024的时候, 显著优于BERT和WoBERT.", "n004-cail"),
    ("此外, 还能观察到在中文场景下, 词建模的WoBERT要优于字建模的BERT.", "n004-cail"),
    ("更大的优势是词建模如果用到生成类任务中能带来更快的推理速度.", "n004-cail"),
    ("其一是因为相对位置对信息抽取的Span抽取影响比较大, 因为每个Span的都是通过起止边界位置确定的", "n004-later-work"),
    ("另外可能是因为信息抽取抽取Span的大多都是通过一个乘积计算得到得分, 与内积形式一致", "n004-later-work"))
