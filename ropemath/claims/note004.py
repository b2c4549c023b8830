r"""Ledger entries for note 004, "RoPE / RoFormer: Enhanced Transformer with Rotary Position Embedding" (DaNing, zh-CN).

Scope: every mathematical claim of the note, section by section, in the note's order, each with
``quote`` = the note's words as scraped, and :data:`COVERAGE`, the sentence-by-sentence map of the
note's mathematical content onto the entries.  The scrape lost every LaTeX superscript, minus
sign, square root, bar and star (":math:`q_m^\top k_n`" reads "qmkn", ":math:`m - n`" reads "mn");
an entry's ``reading`` says which such symbol it restores.  What the scrape *shows* is judged as
written: a visible wrong letter or index (``k`` for the position ``i``, ``x_n`` for ``x_m``,
:math:`b_{i,j}`) is ``fails`` (rubric rule 1).  Where the scrape cannot show whether a symbol was
there (the transpose on :math:`W_q` in RoFormer's eq. 16, which the note copies), the reading the
visible text supports is the claim and the other is an alternative with its own check.  The
derivation uses separate :math:`f_q, f_k` and the convention :math:`\Theta_k - \Theta_q = \Theta_g(n - m)`.

References: DaNing, "RoPE / RoFormer: Enhanced Transformer with Rotary Position Embedding"
(CC BY 4.0); Su et al., *RoFormer*, arXiv:2104.09864 v5.
"""

from __future__ import annotations

import functools

from ropemath.claims import checks_attention as A
from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_encodings as E
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_literal_001 as L001
from ropemath.claims import checks_literal_004 as L
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.coverage.note004 import COVERAGE
from ropemath.claims.ledger import Alternative, Entry, note_source

__all__ = ["COVERAGE", "ENTRIES"]

SCRAPED = "Superscripts, minus signs, square roots and stars were lost in scraping and are restored as in RoFormer. "
EMPIRICAL = "A result of training runs reported by the paper; nothing computed here can confirm or refute it."


def _s(section: str):
    return note_source("004", section)


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "n004-order",
        _s("Background and Related Work"),
        r"Without position information the model cannot tell 我吃饭 from 饭吃我: attention without positions is "
        r"permutation-equivariant.",
        "holds",
        A.permutation_blind,
        quote="位置编码的主要作用是为了保证同样的Token输入到模型中是可以区分的, 从而可以编码它们的位置关系. "
        "一个显然的例子, “我吃饭”和”饭吃我”明显因主宾语的位置不同而具有不同的含义.",
    ),
    Entry(
        "n004-attention",
        _s("Preliminary"),
        r"$a_{m,n} = \exp(q_m^\top k_n/\sqrt d)/\sum_j \exp(q_m^\top k_j/\sqrt d)$, $o_m = \sum_n a_{m,n} v_n$.",
        "holds",
        A.softmax_weights,
        quote="接着计算Scaled Dot-Product Attention: am,n=exp(qmknd)j=1Nexp(qmkjd)om=n=1Nam,nvn",
        reading=SCRAPED + r"('exp(qmknd)' is $\exp(q_m^\top k_n/\sqrt d)$).",
    ),
    Entry(
        "n004-sinusoidal",
        _s("Absolute Position Embedding"),
        r"$p_{i,2t} = \sin(k/10000^{2t/d})$, $p_{i,2t+1} = \cos(k/10000^{2t/d})$, with $k$ a symbol other than "
        r"the position $i$.",
        "fails",
        L.sinusoidal_literal,
        quote="而在Transformer的原论文中, 作者通过正余弦函数来生成pi: {pi,2t=sin(k/100002t/d) pi,2t+1=cos(k/100002t/d)",
        correction=r"$p_{i,2t} = \sin(i/10000^{2t/d})$, $p_{i,2t+1} = \cos(i/10000^{2t/d})$ (Vaswani et al. §3.5).",
        reading=r"The letter $k$ is visible in the scrape; $i$ appears nowhere on the right, so as written $p_i$ does "
        r"not depend on the position (a wrong index, rubric rule 1). Minus sign of the exponent: none is needed.",
        alternatives=(Alternative(r"$k$ is a slip for the position $i$", "holds", E.sinusoidal_formula),),
    ),
    Entry(
        "n004-sinusoidal-parity",
        _s("Absolute Position Embedding"),
        r"$p_{i,2t}$ and $p_{i,2t+1}$ are the odd and the even dimensions of $p_i$, dimensions numbered by their "
        r"subscript (which starts at $0$: $t = 0$ gives the frequency $1$).",
        "fails",
        L.parity_literal,
        quote="pi,2t,pi,2t+1 分别为piRd 的奇数维和偶数维.",
        correction=r"$p_{i,2t}$ (the sines) sit at the even subscripts $2t$; they are the odd-numbered dimensions only "
        r"when dimensions are counted from 1 while subscripts count from 0.",
        reading="Subscript 2t is even; 'odd dimension' needs a second, 1-based numbering the note does not state.",
        alternatives=(
            Alternative(
                "dimensions counted from 1 (subscript 2t is the (2t+1)-th dimension)", "holds", E.sinusoidal_parity
            ),
        ),
    ),
    Entry(
        "n004-absolute-no-relative",
        _s("Relative Position Embedding"),
        r"'Absolute position encodings cannot encode the relative position between two tokens.'",
        "fails",
        E.absolute_carries_relative,
        quote="由于绝对位置编码不能编码两个Token之间的相对位置关系, 一些工作中也通过相对位置的建模, "
        "将相对位置信息作为位置编码:",
        correction=r"Sinusoidal $p_i$ do carry it, $p_i^\top p_j = \sum_t \cos((i-j)\omega_t)$; what additive "
        r"encodings cannot guarantee is a score that depends on $i - j$ alone once $W_q, W_k$ and content enter.",
    ),
    Entry(
        "n004-relative-schemes",
        _s("Relative Position Embedding"),
        r"Shaw et al.: $f_q(x_m) = W_q x_m$, $f_k(x_n, n) = W_k(x_n + \tilde p^k_r)$, $f_v = W_v(x_n + \tilde p^v_r)$, "
        r"$r = \mathrm{clip}(m-n, r_{min}, r_{max})$, give scores that depend on positions only through $m - n$; "
        r"distances beyond the clip share one encoding.",
        "holds",
        E.relative_schemes,
        quote="fq(xm):=Wqxmfk(xn,n):=Wk(xn+p~rk)fv(xn,n):=Wv(xn+p~rv) p~rk,p~rvRd 为可学习的相对位置编码. "
        "其中, rm,n 之间的相对位置, 用r=clip(mn,rmin,rmax) 得到. 这假设了超出一定距离限制的位置信息是不太重要的. "
        "此时直接采用最远距离的相对位置编码即可.",
        reading=SCRAPED + "The check also covers Transformer-XL, DeBERTa and a T5 bias of the distance.",
    ),
    Entry(
        "n004-four-terms",
        _s("Relative Position Embedding"),
        r"$q_m^\top k_n = x_m^\top W_q^\top W_k x_n + x_m^\top W_q^\top W_k p_n + p_m^\top W_q^\top W_k x_n + "
        r"p_m^\top W_q^\top W_k p_n$.",
        "holds",
        E.four_terms,
        quote="一些工作(TransformerXL / XLNet)直接沿用这个形式将它们按项拆分: "
        "qmkn=xmWqWkxn+xmWqWkpn+pmWqWkxn+pmWqWkpn",
        reading=SCRAPED + "(the scrape reads 'xmWqWkxn + ...'); the expansion of "
        r"$(W_q(x_m + p_m))^\top W_k(x_n + p_n)$.",
    ),
    Entry(
        "n004-transformer-xl",
        _s("Relative Position Embedding"),
        r"Transformer-XL: $q_m^\top k_n = x_m^\top W_q^\top W_k x_n + x_m^\top W_q^\top \tilde W_k \tilde p_{m-n} + "
        r"u^\top W_q^\top W_k x_n + v^\top W_q^\top \tilde W_k \tilde p_{m-n}$ depends on positions only through "
        r"$m - n$.",
        "holds",
        E.relative_schemes,
        quote="qmkn=xmWqWkxn+xmWqW~kp~mn+uWqWkxn+vWqW~kp~mn",
        reading=SCRAPED + r"('p~mn' is $\tilde p_{m-n}$), as in RoFormer eq. (6).",
    ),
    Entry(
        "n004-t5",
        _s("Relative Position Embedding"),
        r"T5: $q_m^\top k_n = x_m^\top W_q^\top W_k x_n + b_{i,j}$ with $b_{i,j}$ a learnable bias indexed by the "
        r"positions $i, j$ turns the relative position into a bias term.",
        "fails",
        L.t5_bias_literal,
        quote="qmkn=xmWqWkxn+bi,j",
        correction=r"$q_m^\top k_n = x_m^\top W_q^\top W_k x_n + b_{m-n}$: T5's bias is a learned function of the "
        r"(bucketed) distance; a table $b_{i,j}$ over position pairs is absolute.",
        reading="The subscript 'i,j' is visible (RoFormer eq. 7 prints the same); i, j also differ from the m, n of "
        "the left side.",
        alternatives=(
            Alternative(
                r"$b_{i,j}$ stands for $b(i - j)$ with $i, j = m, n$",
                "holds",
                functools.partial(L.t5_bias_literal, indexed_by="distance"),
            ),
        ),
    ),
    Entry(
        "n004-tupe",
        _s("Relative Position Embedding"),
        r"Adding $p_m^\top U_q^\top U_k p_n$ (two projections of $p_m, p_n$) encodes the relative position.",
        "fails",
        E.tupe_position_term,
        quote="用两个Projection进一步分别编码pm,pn, 即相对位置, 似乎是更合理的: qmkn=xmWqWkxn+pmUqUkpn+bi,j",
        correction=r"$p_m^\top M p_n$ with sinusoidal $p$ depends on $m - n$ only if every 2x2 block of "
        r"$M = U_q^\top U_k$ is $aI + bJ$; in general it carries absolute position (the relative part is $b_{i,j}$).",
        reading="The hedge '似乎' qualifies 'more reasonable'; '即相对位置' (i.e. relative position) is asserted.",
    ),
    Entry(
        "n004-deberta",
        _s("Relative Position Embedding"),
        r"DeBERTa: $q_m^\top k_n = x_m^\top W_q^\top W_k x_n + x_m^\top W_q^\top W_k \tilde p_{m-n} + "
        r"\tilde p_{m-n}^\top W_q^\top W_k x_n$ depends on positions only through $m - n$.",
        "holds",
        E.relative_schemes,
        quote="也有一些工作(DeBERTa)基于绝对位置的形式, 认为简单的将绝对位置pn,pm 替换为相对位置p~mn就可以: "
        "qmkn=xmWqWkxn+xmWqWkp~mn+p~mnWqWkxn",
        reading=SCRAPED + r"('p~mn' is $\tilde p_{m-n}$), as in RoFormer eq. (9).",
    ),
    Entry(
        "n004-rotation-angle",
        _s("RoPE"),
        r"For $d = 2$, RoPE turns the vector at position $m$ through the angle $m\theta$, and distinct positions get "
        r"distinct angles.",
        "holds",
        L.angle_represents_position,
        quote="上图举了一个d=2 时的简单例子, 对于绝对位置m, "
        "RoPE将向量在极坐标系中通过旋转能够代表m 的角度来表征它们的位置.",
        reading=r"'An angle that can represent m' read as $m\theta$ with $\theta = 1$, checked for $m = -50..50$.",
    ),
    Entry(
        "n004-goal",
        _s("Formulation"),
        r"Goal $\langle f_q(x_m, m), f_k(x_n, n)\rangle = g(x_m, x_n, m - n)$ — met by RoPE.",
        "holds",
        R.weights_identity,
        quote="结合前面的分析可知, 想要融入Token之间的相对位置关系, 只需要将qmkn 建模为能注入相对位置mn 的函数g: "
        "fq(xm,m),fk(xn,n)=g(xm,xn,mn)",
        reading=SCRAPED + r"(the angle brackets too).",
    ),
    Entry(
        "n004-sdpa-inner",
        _s("Derivation of RoPE under 2D"),
        r"SDPA (scaled dot-product attention, $o_m = \sum_n a_{m,n} v_n$) is the inner product of two vectors.",
        "fails",
        L.sdpa_is_inner_product,
        quote="SDPA(Scaled Dot-Product Attention)是两向量的内积.",
        correction=r"SDPA's scores are (scaled) inner products, $q_m^\top k_n/\sqrt d$; SDPA itself maps them "
        r"through a softmax to weights of the values.",
        alternatives=(
            Alternative(
                r"the score inside SDPA, $q_m^\top k_n/\sqrt d$, is an inner product",
                "holds",
                functools.partial(L.sdpa_is_inner_product, part="score"),
            ),
        ),
    ),
    Entry(
        "n004-complex-inner",
        _s("Derivation of RoPE under 2D"),
        r"$a\cdot b = a_1b_1 + a_2b_2 = \mathrm{Re}(z_a \bar z_b)$, with "
        r"$z_a \bar z_b = a_1b_1 + a_2b_2 + i(a_2b_1 - a_1b_2)$.",
        "holds",
        D.complex_inner_product,
        quote="zazb=(a1+a2i)(b1b2i)=a1b1+a1(b2i)+a2ib1+a2i(b2i)=a1b1+a2b2+i(a2b1a1b2)",
        reading=SCRAPED + "(the bar of the conjugate and the minus signs of 'b1b2i', 'a1(b2i)', 'a2b1a1b2').",
    ),
    Entry(
        "n004-polar-split",
        _s("Derivation of RoPE under 2D"),
        r"$R_q(x_q, m) R_k(x_k, n) = R_g(x_q, x_k, n-m)$ and "
        r"$\Theta_k(x_k, n) - \Theta_q(x_q, m) = \Theta_g(x_q, x_k, n-m)$.",
        "fails",
        L001.polar_split_literal,
        correction=r"Require the complex product to be relative, $\overline{f_q(x_q,m)}\, f_k(x_k,n) = "
        r"g(x_q, x_k, n - m)$ with complex $g$ (RoFormer §3.4.1); then the moduli multiply and the arguments "
        r"subtract (mod $2\pi$).",
        quote="不难发现, 代入到qm,kn 中, 当二者做内积时, 得到幅度R 和角度Θ 之间的关系: "
        "Rq(xq,m)Rk(xk,n)=Rg(xq,xk,nm)Θk(xk,n)Θq(xq,m)=Θg(xq,xk,nm)",
        reading=SCRAPED + "The note uses n - m here and m - n elsewhere; both describe the same dependence. "
        "'当二者做内积时' (when the two take the inner product): g is the real inner product, as in note 001 §2.4, "
        "so the same gap gets the same verdict (n001-polar-split).",
        alternatives=(
            Alternative(
                r"$g$ read as the complex product, required relative: the split follows; from the real inner "
                r"product alone it follows only under that condition.",
                "holds-if",
                D.polar_split,
            ),
        ),
    ),
    Entry(
        "n004-modulus",
        _s("Derivation of RoPE under 2D"),
        r"$m = n$ gives $R_q(x_q,m) R_k(x_k,m) = \|q\|\|k\|$; an obvious solution is $R_q = \|q\|$, $R_k = \|k\|$, "
        r"$R_g = \|q\|\|k\|$.",
        "holds",
        D.radial_choice,
        quote="此时, 幅值Rf 的一个显然解为: Rq(xq,m)=Rq(xq,0)=qRk(xk,n)=Rk(xk,0)=kRg(xq,xk,nm)=Rg(xq,xk,0)=qk",
        reading=SCRAPED + "('q' is the norm; 'a solution': with separate f_q, f_k it is one choice among several).",
    ),
    Entry(
        "n004-angle",
        _s("Derivation of RoPE under 2D"),
        r"$\Theta_q(x_q,m) - \theta_q = \Theta_k(x_k,m) - \theta_k =: \phi(m)$, independent of the vectors.",
        "holds",
        D.angle_split,
        quote="令Θf:=Θq=Θk, 根据Θq(xq,m)θq=Θk(xk,m)θk, 此时明显两侧是相同的函数. 由此, 可以推断出Θf(x{q,k},m)θ{q,k} "
        "是与位置m 相关, 与Word Embedding x{q,k} 无关的函数, 可设Θf(x{q,k},m)θ{q,k}=ϕ(m), 得到: "
        "Θf(x{q,k},m)=ϕ(m)+θ{q,k}",
        reading=SCRAPED + "(the minus signs of 'Θq(xq,m)θq').",
    ),
    Entry(
        "n004-recurrence",
        _s("Derivation of RoPE under 2D"),
        r"With $n = m + 1$: $\phi(m+1) - \phi(m) = \Theta_g(x_q, x_k, 1) + \theta_q - \theta_k$.",
        "holds",
        D.recurrence_next,
        quote="n=m+1, 将上式代入到角度关系式当中, 可以得到: ϕ(m+1)ϕ(m)=Θg(xq,xk,1)+θqθk",
        reading=SCRAPED + "(the two minus signs).",
    ),
    Entry(
        "n004-arithmetic",
        _s("Derivation of RoPE under 2D"),
        r"$\phi(m) = m\theta + \gamma$ (arithmetic progression).",
        "holds",
        D.arithmetic_solution,
        quote="上式中右侧的常数项与绝对位置m 是无关的, 所以令上式右端整体为θ, ϕ(m) 就是一个等差数列: ϕ(m)=mθ+γ",
    ),
    Entry(
        "n004-common-difference",
        _s("Derivation of RoPE under 2D"),
        r"In $\phi(m) = m\theta + \gamma$ 'the absolute position $m$ is also the common difference'.",
        "fails",
        D.common_difference,
        quote="其中γR 为常数(首项), θ 非零, 绝对位置m 在这个式子中也是公差.",
        correction=r"$\phi(m+1) - \phi(m) = \theta$: the common difference is $\theta$, the first term $\gamma$, "
        r"and $m$ the index of the term.",
        reading="Taken literally; the scrape may have lost a symbol, but no reading makes m the common difference.",
    ),
    Entry(
        "n004-initial-projection",
        _s("Derivation of RoPE under 2D"),
        r"$q = f_q(x_m, 0) = W_q x_n$ (the query at position $m$ is the projection of token $n$).",
        "fails",
        L.initial_projection_literal,
        quote="通常q=fq(xm,0),k=fk(xn,0) 是直接由一层投影得到的: q=fq(xm,0)=Wqxnk=fk(xn,0)=Wkxn",
        correction=r"$q = f_q(x_m, 0) = W_q x_m$ (and $k = f_k(x_n, 0) = W_k x_n$, as written).",
        reading="Subscripts survive the scrape: 'Wqxn' is W_q x_n, a wrong index (rubric rule 1).",
    ),
    Entry(
        "n004-gamma",
        _s("Derivation of RoPE under 2D"),
        r"'For convenience' set $\gamma = 0$, giving $f_q(x_m, m) = (W_q x_m) e^{im\theta}$.",
        "holds",
        D.gamma_zero,
        quote="方便起见, 直接设定γ=0, 因此得到最终的RoPE形式: fq(xm,m)=(Wqxm)eimθfk(xn,n)=(Wkxn)einθ",
        reading="gamma = 0 is forced by the initial condition q = f_q(x_q, 0) the note states, not only convenient.",
    ),
    Entry(
        "n004-solution",
        _s("Derivation of RoPE under 2D"),
        r"$g(x_m, x_n, m-n) = \mathrm{Re}[(W_q x_m)(W_k x_n)^* e^{i(m-n)\theta}]$, i.e. "
        r"$f_{\{q,k\}}(x_m, m) = R(m\theta) W_{\{q,k\}} x_m$ (a rotation matrix times $\{q,k\}_m$).",
        "holds",
        D.solution_2d,
        quote="所以, 我们在二维情况下, 最后找到的函数g 为: g(xm,xn,mn)=Re[(Wqxm)(Wkxn)ei(mn)θ]",
        reading=SCRAPED + "(the star of the conjugate and the minus of 'mn').",
    ),
    Entry(
        "n004-theta-10000",
        _s("Derivation of RoPE under 2D"),
        r"'$\theta \in \mathbb R$ is a preset non-zero constant (the base wavelength; following the Transformer it "
        r"is often set to 10000).'",
        "fails",
        F.theta_is_not_the_base,
        quote="θR 为预设好的非零常数(基波长, 沿用Transformer的原论文, 经常设为10000, 底数的选择可以参考这里).",
        correction=r"10000 is the base: $\theta_i = 10000^{-2i/d} \in (10^{-4}, 1]$ (in the 2D case $\theta = 1$).",
    ),
    Entry(
        "n004-block",
        _s("General form"),
        r"$f_{\{q,k\}}(x_m, m) = R^d_{\Theta,m} W_{\{q,k\}} x_m$ "
        r"with $R^d_{\Theta,m}$ block diagonal over $d/2$ planes.",
        "holds",
        R.pairwise_rotation,
        quote="非常自然的思路就是将d 维拆成d/2 个的二维子空间, 所以RΘ,md 为: "
        "RΘ,md=(cosmθ1sinmθ10000sinmθ1cosmθ1000000cosmθ2sinmθ20000sinmθ2cosmθ2000000cosmθd/2sinmθd/20000"
        "sinmθd/2cosmθd/2)",
        reading=SCRAPED + "(the minus of each '-sin' and the dots of the matrix).",
    ),
    Entry(
        "n004-theta",
        _s("General form"),
        r"$\Theta = \{\theta_i = 10000^{-2(i-1)/d},\ i = 1, \dots, d/2\}$.",
        "holds",
        F.theta_one_based,
        quote="其中, Θ={θi=100002(i1)/d,i[1,2,,d/2]}.",
        reading=SCRAPED + "1-based, as in RoFormer eq. (15).",
    ),
    Entry(
        "n004-theta-order",
        _s("General form"),
        r"The larger $i$, the smaller $\theta_i$: higher-index pairs rotate more slowly.",
        "holds",
        F.theta_decreasing,
        quote="所以i 越大, θi 越小, 即下标越大的维度旋转速度越慢.",
    ),
    Entry(
        "n004-clock",
        _s("General form"),
        r"Like the hands of a clock, pairs rotating at different speeds together represent a position.",
        "holds",
        F.clock_hands,
        quote="这篇文章提供了一个非常有意思的角度, 不同角速度的维度就像时针分针秒针一样, "
        "通过不同的快慢角速度来组合表征一个位置信息.",
        reading="Read as: positions that one pair nearly confuses are separated by the other pairs.",
    ),
    Entry(
        "n004-weights",
        _s("General form"),
        r"$q_m^\top k_n = (R^d_{\Theta,m} W_q x_m)^\top (R^d_{\Theta,n} W_k x_n) = "
        r"x^\top W_q R^d_{\Theta,n-m} W_k x_n$ with $x = x_m$ and no transpose on $W_q$ (RoFormer eq. 16 as printed).",
        "fails",
        R.weights_missing_transpose,
        quote="将RoPE直接作用于Self-Attention, 可得: qmkn=(RΘ,mdWqxm)(RΘ,ndWkxn)=xWqRΘ,nmdWkxn",
        correction=r"$x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n$",
        reading="The scrape drops every superscript, so a transpose on W_q cannot be seen either way. The visible "
        "'xWq' (x without its index m) is RoFormer eq. (16) verbatim, which prints x^T W_q with no transpose on W_q; "
        "judged as that text, like n000-weights-transpose. Without W_q^T it holds only for symmetric W_q.",
        alternatives=(
            Alternative(r"a transpose on $W_q$ was written but lost in scraping", "holds", R.weights_identity),
        ),
    ),
    Entry(
        "n004-relative-matrix",
        _s("General form"),
        r"$R^d_{\Theta,n-m} = (R^d_{\Theta,m})^\top R^d_{\Theta,n}$.",
        "holds",
        R.transpose_product,
        quote="其中, RΘ,nmd=(RΘ,md)RΘ,nd.",
        reading=SCRAPED,
    ),
    Entry(
        "n004-orthogonal",
        _s("General form"),
        r"$R^d_\Theta$ is an orthogonal matrix.",
        "holds",
        R.orthogonal_rule,
        quote="由于RΘd 是一个正交矩阵, 所以它在编码位置信息的时候是相对稳定的.",
    ),
    Entry(
        "n004-stability",
        _s("General form"),
        r"Being orthogonal, $R^d_\Theta$ is (relatively) stable when encoding position information.",
        "holds",
        P.orthogonal_is_stable,
        quote="由于RΘd 是一个正交矩阵, 所以它在编码位置信息的时候是相对稳定的.",
        reading="'相对稳定' (relatively stable) is read as: errors are not amplified by R.",
        alternatives=(
            P.ROUNDED_ANGLES_READING,
        ),
    ),
    Entry(
        "n004-multiplicative",
        _s("General form"),
        r"RoPE is multiplicative rather than additive, so relative position enters the inner product naturally.",
        "holds",
        P.multiplicative,
        quote="RoPE相较于之前位置编码的最大不同, 在于它是乘性的, 而不是加性的, "
        "因此它在编码的相对位置信息可以天然的融入到Self-Attention的内积中.",
    ),
    Entry(
        "n004-decay",
        _s("Properties of RoPE"),
        r"RoPE has long-term decay.",
        "holds-if",
        F.bound_decreases,
        quote="首先, RoPE具有长程衰减, 和最早版本的Transformer一样, RoPE设定θi=100002i/d, 底数θ 越大长程衰减越慢.",
        condition=r"read as the trend of the upper bound $B(r) = \frac{1}{d/2}\sum_{j=1}^{d/2}|S_j(r)|$ over the "
        r"first few hundred positions (RoFormer Fig. 2): $B$ is not monotone, stops decreasing far out, and single "
        r"scores need not decay.",
    ),
    Entry(
        "n004-same-frequencies",
        _s("Properties of RoPE"),
        r"Like the original Transformer, RoPE uses $\theta_i = 10000^{-2i/d}$.",
        "holds",
        F.same_frequencies_as_sinusoidal,
        quote="首先, RoPE具有长程衰减, 和最早版本的Transformer一样, RoPE设定θi=100002i/d, 底数θ 越大长程衰减越慢.",
        reading=SCRAPED + "0-based here (i = 0..d/2-1), unlike the 1-based Θ of 'General form'.",
    ),
    Entry(
        "n004-larger-base",
        _s("Properties of RoPE"),
        r"The larger the base, the slower the long-term decay.",
        "holds-if",
        F.larger_base_slower,
        quote="首先, RoPE具有长程衰减, 和最早版本的Transformer一样, RoPE设定θi=100002i/d, 底数θ 越大长程衰减越慢.",
        condition=r"read as 'the bound takes longer to fall': the first $r$ with $B(r) < B(0)/4$ grows with the base; "
        r"pointwise ($B_{10^5}(r) \ge B_{10^4}(r)$ for all $r$) it is false.",
        reading="'底数θ' names the base θ (as LLaMA's rope_theta does), not the frequencies θ_i of the same sentence.",
    ),
    Entry(
        "n004-linear-attention",
        _s("Properties of RoPE"),
        r"Linear attention $\sum_n \phi(q_m)^\top\varphi(k_n) v_n "
        r"/ \sum_n \phi(q_m)^\top\varphi(k_n)$ with non-negative "
        r"$\phi, \varphi$ (e.g. $\mathrm{elu}(x) + 1$) has linear complexity, softmax attention $O(N^2)$.",
        "holds",
        A.linear_attention,
        quote="Linear Attention的复杂度是比SDPA更低的线性复杂度, 形式如下: "
        "Attention(Q,K,V)m=n=1Nϕ(qm)φ(kn)vnn=1Nϕ(qm)φ(kn)",
        reading=SCRAPED,
    ),
    Entry(
        "n004-linear-rope-form",
        _s("Properties of RoPE"),
        r"RoPE in linear attention (RoFormer eq. 19) does not increase its complexity.",
        "holds",
        A.rope_linear_time,
        quote="Attention(Q,K,V)m=n=1N(RΘ,mdϕ(qm))(RΘ,ndφ(kn))vnn=1Nϕ(qm)φ(kn)",
        reading=SCRAPED + "The numerator is rotated, the denominator not, as in RoFormer eq. (19).",
    ),
    Entry(
        "n004-linear-rope-reason",
        _s("Properties of RoPE"),
        r"Because RoPE keeps the norm of hidden states unchanged, it can be multiplied in directly and integrated "
        r"into linear attention.",
        "fails",
        A.norm_is_not_the_reason,
        quote="由于RoPE的存在, 可以使得Hidden State的范数不变, 因此可以将RoPE直接乘, 从而无缝集成到Linear Attention中, "
        "从而不增加Linear Attention的复杂度:",
        correction=r"Linearity and $R_m^\top R_n = R_{n-m}$ make the shared sum possible; the rotated numerator can be "
        r"negative, so the denominator is left unrotated.",
        reading="RoFormer §3.3 gives the same reason; the note copies it faithfully. What is judged is the "
        "implication: norms are kept yet the rotated numerator is negative (so keeping norms is not sufficient), "
        "and a norm-doubling 2 R_m combines just as well (not necessary).",
    ),
    Entry(
        "n004-sparse",
        _s("Computational efficient realization of rotary matrix multiplication"),
        r"$R^d_{\Theta,m}$ is a sparse matrix, therefore computing with it is inefficient.",
        "fails",
        L.sparse_is_inefficient,
        quote="由于RΘ,md 是一个稀疏矩阵, 所以它的计算效率很低.",
        correction=r"Sparsity is what makes $R^d_{\Theta,m} x$ cheap ($2d$ products, eq. 34); what is inefficient is "
        r"multiplying by it as a dense matrix ($d^2$ products).",
        alternatives=(
            Alternative(
                "multiplying by R as a dense matrix is inefficient",
                "holds",
                functools.partial(L.sparse_is_inefficient, storage="dense"),
            ),
        ),
    ),
    Entry(
        "n004-elementwise",
        _s("Computational efficient realization of rotary matrix multiplication"),
        r"$R^d_{\Theta,m} x = x \otimes \cos + (-x_2, x_1, \dots) \otimes \sin$ (eq. 34).",
        "holds",
        R.elementwise_form,
        quote="RΘ,mdx=(x1x2x3x4xd1xd)(cosmθ1cosmθ1cosmθ2cosmθ2cosmθd/2cosmθd/2)+(x2x1x4x3xdxd1)"
        "(sinmθ1sinmθ1sinmθ2sinmθ2sinmθd/2sinmθd/2)",
        reading=SCRAPED + "(the minus signs of '-x2, x1, -x4, ...' and the two ⊗). 1-based indices.",
    ),
    Entry(
        "n004-decay-complex",
        _s("Long-term decay of RoPE"),
        r"$(R_m W_q x_m)^\top (R_n W_k x_n) = \mathrm{Re}[\sum_{i=0}^{d/2-1} "
        r"q_{[2i:2i+1]} k^*_{[2i:2i+1]} e^{i(m-n)\theta_i}]$.",
        "holds",
        F.complex_score_form,
        quote="(RΘ,mdWqxm)(RΘ,ndWkxn)=Re[i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi]",
        reading=SCRAPED + "0-based pairs and frequencies θ_i = 10000^(-2i/d), as in the note's 'Properties'.",
    ),
    Entry(
        "n004-abel",
        _s("Long-term decay of RoPE"),
        r"With $h_i = q_{[2i:2i+1]} k^*_{[2i:2i+1]}$, $S_j = \sum_{i<j} e^{i(m-n)\theta_i}$, $h_{d/2} = 0$, $S_0 = 0$: "
        r"$\sum_i h_i (S_{i+1} - S_i) = -\sum_i S_{i+1}(h_{i+1} - h_i)$.",
        "holds",
        F.abel_summation,
        quote="i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi=i=0d/21hi(Si+1Si)=i=0d/21Si+1(hi+1hi)",
        reading=SCRAPED + "(the minus sign before the last sum is not visible in the scrape).",
    ),
    Entry(
        "n004-abel-bound",
        _s("Long-term decay of RoPE"),
        r"$|\sum_i h_i e^{i(m-n)\theta_i}| \le \sum_i |S_{i+1}||h_{i+1} "
        r"- h_i| \le (\max_i|h_{i+1} - h_i|)\sum_i |S_{i+1}|$.",
        "holds",
        F.abel_inequality,
        quote="|i=0d/21q[2i:2i+1]k[2i:2i+1]ei(mn)θi|=|i=0d/21Si+1(hi+1hi)|i=0d/21|Si+1||(hi+1hi)|(maxi|hi+1hi|)"
        "i=0d/21|Si+1|",
        reading=SCRAPED + "(and the two ≤ signs).",
    ),
    Entry(
        "n004-bound-decreasing",
        _s("Long-term decay of RoPE"),
        r"As $m - n$ grows, $\frac{1}{d/2}\sum_{i=1}^{d/2} |S_i|$ "
        r"gradually decreases (with $\theta_i = 10000^{-2i/d}$).",
        "holds-if",
        F.bound_decreases,
        quote="即当相对位置mn 增大时, 在θi=100002i/d的设定下, 1d/2i=1d/2|Si| 的值是逐渐减小的, 如下图所示:",
        condition=r"'gradually decreases' read as a trend: the means of $B(r)$ over windows of 32 positions "
        r"decrease for $0 \le r < 256$; $B$ itself is not monotone and levels off far out.",
        reading=SCRAPED,
    ),
    Entry(
        "n004-translation",
        _s("Machine Translation"),
        r"On WMT 2014 English-German RoFormer scores slightly above the vanilla Transformer.",
        "not-checkable",
        A.empirical,
        quote="RoFormer略高于Vallina Transformer.",
        reason=EMPIRICAL,
    ),
    Entry(
        "n004-pretraining",
        _s("Pre-training Language Modeling"),
        r"In pre-training RoFormer converges faster than BERT and trains more stably.",
        "not-checkable",
        A.empirical,
        quote="RoFormer明显的比BERT要收敛更快一些, 而且从曲线上来看它的训练看起来更加稳定.",
        reason=EMPIRICAL,
    ),
    Entry(
        "n004-glue",
        _s("Fine-tuning on GLUE tasks"),
        r"On GLUE RoFormer is better than BERT on MRPC, STS-B, QQP and worse on SST-2, QNLI, MNLI.",
        "not-checkable",
        A.empirical,
        quote="RoFormer在MRPC, STS-B, QQP上有显著优势, 它们都是偏语义类的任务, 在SST-2和QNLI, MNLI中表现弱于BERT.",
        reason=EMPIRICAL,
    ),
    Entry(
        "n004-performer",
        _s("Performer with RoPE"),
        r"RoPE speeds up the convergence of Performer while keeping its complexity.",
        "not-checkable",
        A.empirical,
        quote="RoPE能够在维持原复杂度不变的条件下加速收敛.",
        reason="Convergence speed is an empirical training result (the complexity part is n004-linear-rope-form).",
    ),
    Entry(
        "n004-extrapolation",
        _s("Evaluation on Chinese Data"),
        r"RoFormer does better as sequences get longer, showing good length extrapolation.",
        "not-checkable",
        F.extrapolation,
        quote="随着序列长度的增加, RoFormer总是能取得更好的性能, 说明RoFormer在长度外推设置下表现较好.",
        reason="An empirical claim about trained models.",
    ),
    Entry(
        "n004-cail",
        _s("Evaluation on Chinese Data"),
        r"On CAIL2019-SCM RoFormer beats BERT and WoBERT at length 512 and clearly at 1024; word-level WoBERT beats "
        r"character-level BERT.",
        "not-checkable",
        A.empirical,
        quote="当RoFormer输入长为512时, 能够略优于BERT和WoBERT.",
        reason=EMPIRICAL + " (The faster inference of word-level models depends on a tokenizer and a corpus.)",
    ),
    Entry(
        "n004-absolute-implements-relative",
        _s("Summary"),
        r"RoPE implements a relative position encoding by means of an absolute one.",
        "holds",
        P.absolute_and_relative,
        quote="RoPE用绝对位置编码实现了相对位置编码, 并且能够丝滑无缝的融入到Self-Attention当中.",
    ),
    Entry(
        "n004-later-work",
        _s("Summary"),
        r"Possible reasons RoPE did well in information extraction (spans are fixed by boundary positions; span "
        r"scores are products, like the inner product); its successor ReRoPE outperforms NTK-RoPE on longer contexts.",
        "not-checkable",
        A.empirical,
        quote="在更长的上下文场景下, RoPE的续作是ReRoPE, 超过了NTK-RoPE, 感兴趣的可以继续深入.",
        reason="Conjectures about why RoPE did well in information extraction and a comparison of trained long-context "
        "models; neither is reproduced here.",
    ),
)
