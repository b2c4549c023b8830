r"""Ledger entries for note 004, "RoPE / RoFormer: Enhanced Transformer with Rotary Position Embedding" (DaNing, zh-CN).

Scope: every checkable claim of the note, section by section, in the note's order.  The
scraped text lost every LaTeX superscript and most operators (":math:`q_m^\top k_n`" reads
"qmkn"); where a transpose, a minus sign or a conjugate cannot be seen, the entry is judged
as the formula of RoFormer the note follows, and the ``reading`` says so.  The derivation
uses separate :math:`f_q, f_k` and the convention :math:`\Theta_k - \Theta_q = \Theta_g(n - m)`.

References: DaNing, "RoPE / RoFormer: Enhanced Transformer with Rotary Position Embedding"
(CC BY 4.0); Su et al., *RoFormer*, arXiv:2104.09864 v5.
"""

from __future__ import annotations

from ropemath.claims import checks_attention as A
from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_encodings as E
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Entry, note_source

SCRAPED = "Superscripts were lost in scraping; read as RoFormer's formula. "


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
    ),
    Entry(
        "n004-attention",
        _s("Preliminary"),
        r"$a_{m,n} = \exp(q_m^\top k_n/\sqrt d)/\sum_j \exp(q_m^\top k_j/\sqrt d)$, $o_m = \sum_n a_{m,n} v_n$.",
        "holds",
        A.softmax_weights,
    ),
    Entry(
        "n004-sinusoidal",
        _s("Absolute Position Embedding"),
        r"$p_{i,2t} = \sin(i/10000^{2t/d})$, $p_{i,2t+1} = \cos(i/10000^{2t/d})$.",
        "holds",
        E.sinusoidal_formula,
        reading=r"The note writes $k$ inside $\sin$ and $\cos$ while the position is $i$; $k$ is read as $i$.",
    ),
    Entry(
        "n004-sinusoidal-parity",
        _s("Absolute Position Embedding"),
        r"$p_{i,2t}$ and $p_{i,2t+1}$ are the odd and the even coordinates of $p_i$.",
        "holds",
        E.sinusoidal_parity,
        reading="True when coordinates are numbered from 1 (index 2t is the (2t+1)-th coordinate); from 0 they swap.",
    ),
    Entry(
        "n004-absolute-no-relative",
        _s("Relative Position Embedding"),
        r"'Absolute position encodings cannot encode the relative position between two tokens.'",
        "fails",
        E.absolute_carries_relative,
        correction=r"Sinusoidal $p_i$ do carry it, $p_i^\top p_j = \sum_t \cos((i-j)\omega_t)$; what additive "
        r"encodings cannot guarantee is a score that depends on $i - j$ alone once $W_q, W_k$ and content enter.",
    ),
    Entry(
        "n004-relative-schemes",
        _s("Relative Position Embedding"),
        r"Shaw et al. ($f_k = W_k(x_n + \tilde p^k_r)$, $r = \mathrm{clip}(m-n, r_{min}, r_{max})$), Transformer-XL "
        r"($u$, $v$, $\tilde W_k \tilde p_{m-n}$), T5 ($b_{i,j}$) "
        r"and DeBERTa ($\tilde p_{m-n}$) give scores that depend "
        r"on positions only through $m - n$; distances beyond the clip share one encoding.",
        "holds",
        E.relative_schemes,
        reading=r"T5's $b_{i,j}$ read as a learned function of $i - j$ (the note writes absolute indices).",
    ),
    Entry(
        "n004-four-terms",
        _s("Relative Position Embedding"),
        r"$q_m^\top k_n = x_m^\top W_q^\top W_k x_n + x_m^\top W_q^\top W_k p_n + p_m^\top W_q^\top W_k x_n + "
        r"p_m^\top W_q^\top W_k p_n$.",
        "holds",
        E.four_terms,
        reading=SCRAPED + "(the scrape reads 'xmWqWkxn + ...').",
    ),
    Entry(
        "n004-tupe",
        _s("Relative Position Embedding"),
        r"Adding $p_m^\top U_q^\top U_k p_n$ (two projections of $p_m, p_n$) encodes the relative position.",
        "fails",
        E.tupe_position_term,
        correction=r"$p_m^\top M p_n$ with sinusoidal $p$ depends on $m - n$ only if every 2x2 block of "
        r"$M = U_q^\top U_k$ is $aI + bJ$; in general it carries absolute position (the relative part is $b_{i,j}$).",
        reading="Read as: the term p_m^T U_q^T U_k p_n is a relative-position term.",
    ),
    Entry(
        "n004-rotation-angle",
        _s("RoPE"),
        r"For $d = 2$, RoPE represents absolute position $m$ by rotating the vector through an angle proportional "
        r"to $m$ (counter-clockwise by $m\theta$).",
        "holds",
        R.counterclockwise,
    ),
    Entry(
        "n004-goal",
        _s("Formulation"),
        r"Goal $\langle f_q(x_m, m), f_k(x_n, n)\rangle = g(x_m, x_n, m - n)$ — met by RoPE.",
        "holds",
        R.weights_identity,
    ),
    Entry(
        "n004-complex-inner",
        _s("Derivation of RoPE under 2D"),
        r"$a\cdot b = a_1b_1 + a_2b_2 = \mathrm{Re}(z_a \bar z_b)$, with "
        r"$z_a \bar z_b = a_1b_1 + a_2b_2 + i(a_2b_1 - a_1b_2)$.",
        "holds",
        D.complex_inner_product,
    ),
    Entry(
        "n004-polar-split",
        _s("Derivation of RoPE under 2D"),
        r"$R_q(x_q, m) R_k(x_k, n) = R_g(x_q, x_k, n-m)$ and "
        r"$\Theta_k(x_k, n) - \Theta_q(x_q, m) = \Theta_g(x_q, x_k, n-m)$.",
        "holds-if",
        D.polar_split,
        condition=r"the complex product $\overline{f_q(x_q,m)}\, f_k(x_k,n) "
        r"= g(x_q, x_k, n - m)$ is required, not only "
        r"its real part (the inner product).",
        reading="The note uses n - m here and m - n elsewhere; both describe the same dependence.",
    ),
    Entry(
        "n004-modulus",
        _s("Derivation of RoPE under 2D"),
        r"$m = n$ gives $R_q(x_q,m) R_k(x_k,m) = \|q\|\|k\|$; an obvious solution is $R_q = \|q\|$, $R_k = \|k\|$, "
        r"$R_g = \|q\|\|k\|$.",
        "holds",
        D.radial_choice,
        reading="'An obvious solution': with separate f_q, f_k it is one choice among several (evidence).",
    ),
    Entry(
        "n004-angle",
        _s("Derivation of RoPE under 2D"),
        r"$\Theta_q(x_q,m) - \theta_q = \Theta_k(x_k,m) - \theta_k =: \phi(m)$, independent of the vectors.",
        "holds",
        D.angle_split,
    ),
    Entry(
        "n004-recurrence",
        _s("Derivation of RoPE under 2D"),
        r"With $n = m + 1$: $\phi(m+1) - \phi(m) = \Theta_g(x_q, x_k, 1) + \theta_q - \theta_k$.",
        "holds",
        D.recurrence_next,
    ),
    Entry(
        "n004-arithmetic",
        _s("Derivation of RoPE under 2D"),
        r"$\phi(m) = m\theta + \gamma$ (arithmetic progression), $\theta \ne 0$.",
        "holds",
        D.arithmetic_solution,
    ),
    Entry(
        "n004-common-difference",
        _s("Derivation of RoPE under 2D"),
        r"In $\phi(m) = m\theta + \gamma$ 'the absolute position $m$ is also the common difference'.",
        "fails",
        D.common_difference,
        correction=r"$\phi(m+1) - \phi(m) = \theta$: the common difference is $\theta$, the first term $\gamma$, "
        r"and $m$ the index of the term.",
        reading="Taken literally; the scrape may have lost a symbol, but no reading makes m the common difference.",
    ),
    Entry(
        "n004-gamma",
        _s("Derivation of RoPE under 2D"),
        r"'For convenience' set $\gamma = 0$, giving $f_q(x_m, m) = (W_q x_m) e^{im\theta}$.",
        "holds",
        D.gamma_zero,
        reading="gamma = 0 is forced by the initial condition q = f_q(x_q, 0) the note states, not only convenient.",
    ),
    Entry(
        "n004-solution",
        _s("Derivation of RoPE under 2D"),
        r"$f_q = (W_q x_m)e^{im\theta}$, $f_k = (W_k x_n) e^{in\theta}$, "
        r"$g = \mathrm{Re}[(W_q x_m)(W_k x_n)^* e^{i(m-n)\theta}]$, i.e. $f = R(m\theta) W x$.",
        "holds",
        D.solution_2d,
        reading=r"The note's line $q = f_q(x_m, 0) = W_q x_n$ has a typo ($x_m$ meant).",
    ),
    Entry(
        "n004-theta-10000",
        _s("Derivation of RoPE under 2D"),
        r"'$\theta \in \mathbb R$ is a preset non-zero constant (the base wavelength; following the Transformer it "
        r"is often set to 10000).'",
        "fails",
        F.theta_is_not_the_base,
        correction=r"10000 is the base: $\theta_i = 10000^{-2i/d} \in (10^{-4}, 1]$ (in the 2D case $\theta = 1$).",
    ),
    Entry(
        "n004-block",
        _s("General form"),
        r"$f_{\{q,k\}}(x_m, m) = R^d_{\Theta,m} W_{\{q,k\}} x_m$ "
        r"with $R^d_{\Theta,m}$ block diagonal over $d/2$ planes.",
        "holds",
        R.pairwise_rotation,
    ),
    Entry(
        "n004-theta",
        _s("General form"),
        r"$\Theta = \{\theta_i = 10000^{-2(i-1)/d},\ i = 1, \dots, d/2\}$.",
        "holds",
        F.theta_one_based,
        reading="1-based, as in RoFormer eq. (15).",
    ),
    Entry(
        "n004-theta-order",
        _s("General form"),
        r"The larger $i$, the smaller $\theta_i$: higher-index pairs rotate more slowly.",
        "holds",
        F.theta_decreasing,
    ),
    Entry(
        "n004-clock",
        _s("General form"),
        r"Like the hands of a clock, pairs rotating at different speeds together represent a position.",
        "holds",
        F.clock_hands,
        reading="Read as: positions that one pair nearly confuses are separated by the other pairs.",
    ),
    Entry(
        "n004-weights",
        _s("General form"),
        r"$q_m^\top k_n = (R^d_{\Theta,m} W_q x_m)^\top (R^d_{\Theta,n} "
        r"W_k x_n) = x_m^\top W_q^\top R^d_{\Theta,n-m} W_k x_n$.",
        "holds",
        R.weights_transpose_lost,
        reading=SCRAPED + "The scrape reads 'xWqRΘ,nmdWkxn' (like RoFormer eq. 16, no subscript m); with W_q^T "
        "it holds, and the evidence shows the version without the transpose would fail.",
    ),
    Entry(
        "n004-relative-matrix",
        _s("General form"),
        r"$R^d_{\Theta,n-m} = (R^d_{\Theta,m})^\top R^d_{\Theta,n}$.",
        "holds",
        R.transpose_product,
    ),
    Entry(
        "n004-orthogonal", _s("General form"), r"$R^d_\Theta$ is an orthogonal matrix.", "holds", R.orthogonal_rule
    ),
    Entry(
        "n004-stability",
        _s("General form"),
        r"Being orthogonal, $R^d_\Theta$ is stable when encoding position information.",
        "holds-if",
        P.stability,
        condition=r"the angles $m\theta_i$ are formed in float64 (or in float32 while the drift of about "
        r"$m \cdot 2^{-24}$ rad is negligible): orthogonality gives $\kappa_2(R) = 1$ but does not protect "
        r"rounded angles (bfloat16 merges positions 256 and 257).",
    ),
    Entry(
        "n004-multiplicative",
        _s("General form"),
        r"RoPE is multiplicative rather than additive, so relative position enters the inner product naturally.",
        "holds",
        P.multiplicative,
    ),
    Entry(
        "n004-decay",
        _s("Properties of RoPE"),
        r"RoPE has long-term decay.",
        "holds-if",
        F.bound_decreases,
        condition="read as the trend of the upper bound over the first few hundred positions (RoFormer Fig. 2): "
        "the bound is not monotone, stops decreasing far out, and single scores need not decay.",
    ),
    Entry(
        "n004-same-frequencies",
        _s("Properties of RoPE"),
        r"Like the original Transformer, RoPE uses $\theta_i = 10000^{-2i/d}$.",
        "holds",
        F.same_frequencies_as_sinusoidal,
    ),
    Entry(
        "n004-larger-base",
        _s("Properties of RoPE"),
        r"The larger the base, the slower the long-term decay.",
        "holds-if",
        F.larger_base_slower,
        condition="read as 'the bound takes longer to fall' (first distance below a quarter of its start); "
        "it is false pointwise.",
        reading="The note writes 'the larger the base θ'; the base 10000 is meant (see n004-theta-10000).",
    ),
    Entry(
        "n004-linear-attention",
        _s("Properties of RoPE"),
        r"Linear attention $\sum_n \phi(q_m)^\top\varphi(k_n) v_n "
        r"/ \sum_n \phi(q_m)^\top\varphi(k_n)$ with non-negative "
        r"$\phi, \varphi$ (e.g. $\mathrm{elu}(x) + 1$) has linear complexity, softmax attention $O(N^2)$.",
        "holds",
        A.linear_attention,
    ),
    Entry(
        "n004-linear-rope-form",
        _s("Properties of RoPE"),
        r"RoPE in linear attention (RoFormer eq. 19) does not increase its complexity.",
        "holds",
        A.rope_linear_time,
    ),
    Entry(
        "n004-linear-rope-reason",
        _s("Properties of RoPE"),
        r"Because RoPE keeps the norm of hidden states unchanged, it can be multiplied in directly and integrated "
        r"into linear attention.",
        "fails",
        A.norm_is_not_the_reason,
        correction=r"Linearity and $R_m^\top R_n = R_{n-m}$ make the shared sum possible; the rotated numerator can be "
        r"negative, so the denominator is left unrotated.",
    ),
    Entry(
        "n004-elementwise",
        _s("Computational efficient realization of rotary matrix multiplication"),
        r"$R^d_{\Theta,m}$ is sparse, so a dense product wastes work; "
        r"$R^d_{\Theta,m} x = x \otimes \cos + (-x_2, x_1, \dots) \otimes \sin$ (eq. 34).",
        "holds",
        R.elementwise_form,
        reading="The note says the sparse matrix 'has low computational efficiency'; read as: multiplying by it "
        "densely is wasteful (the check counts its 2d non-zeros). 1-based indices.",
    ),
    Entry(
        "n004-decay-complex",
        _s("Long-term decay of RoPE"),
        r"$(R_m W_q x_m)^\top (R_n W_k x_n) = \mathrm{Re}[\sum_{i=0}^{d/2-1} "
        r"q_{[2i:2i+1]} k^*_{[2i:2i+1]} e^{i(m-n)\theta_i}]$.",
        "holds",
        F.complex_score_form,
    ),
    Entry(
        "n004-abel",
        _s("Long-term decay of RoPE"),
        r"With $h_i = q_{[2i:2i+1]} k^*_{[2i:2i+1]}$, $S_j = \sum_{i<j} e^{i(m-n)\theta_i}$, $h_{d/2} = 0$, $S_0 = 0$: "
        r"$\sum_i h_i (S_{i+1} - S_i) = -\sum_i S_{i+1}(h_{i+1} - h_i)$.",
        "holds",
        F.abel_summation,
        reading=SCRAPED + "(the minus sign is not visible in the scrape).",
    ),
    Entry(
        "n004-abel-bound",
        _s("Long-term decay of RoPE"),
        r"$|\sum_i h_i e^{i(m-n)\theta_i}| \le \sum_i |S_{i+1}||h_{i+1} "
        r"- h_i| \le (\max_i|h_{i+1} - h_i|)\sum_i |S_{i+1}|$.",
        "holds",
        F.abel_inequality,
    ),
    Entry(
        "n004-bound-decreasing",
        _s("Long-term decay of RoPE"),
        r"As $m - n$ grows, $\frac{1}{d/2}\sum_{i=1}^{d/2} |S_i|$ "
        r"gradually decreases (with $\theta_i = 10000^{-2i/d}$).",
        "holds-if",
        F.bound_decreases,
        condition="read as a trend over the first few hundred positions (means over windows of 32 decrease on "
        "[0, 256)); it is not monotone and levels off far out.",
    ),
    Entry(
        "n004-performer",
        _s("Performer with RoPE"),
        r"RoPE speeds up the convergence of Performer while keeping its complexity.",
        "not-checkable",
        A.empirical,
        reason="Convergence speed is an empirical training result (the complexity part is n004-linear-rope-form).",
    ),
    Entry(
        "n004-extrapolation",
        _s("Evaluation on Chinese Data"),
        r"RoFormer does better as sequences get longer, showing good length extrapolation.",
        "not-checkable",
        F.extrapolation,
        reason="An empirical claim about trained models.",
    ),
    Entry(
        "n004-absolute-implements-relative",
        _s("Summary"),
        r"RoPE implements a relative position encoding by means of an absolute one.",
        "holds",
        P.absolute_and_relative,
    ),
)
