r"""Ledger entries for note 001, "旋转位置编码(RoPE)公式详细推导过程" (kler.cn, zh-CN).

Scope: every checkable claim of the note, section by section, in the note's order.  Section
headings are copied verbatim from the scraped text, including the mangled LaTeX of §1.5.
The note's derivation follows Su Jianlin's blog with one ``f`` for queries and keys; its
steps are checked against :func:`ropemath.symbolic.derivation.derivation_steps`.

References: "旋转位置编码(RoPE)公式详细推导过程", kler.cn/a/538912.html; Su Jianlin,
kexue.fm/archives/8265; Su et al., *RoFormer*, arXiv:2104.09864 v5.
"""

from __future__ import annotations

from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Entry, note_source

SECTION_1_5 = "1.5 旋转矩阵 R θ ⊤ R_{\\theta}^{\\top} Rθ= R − θ R_{- \\theta} Rθ"


def _s(section: str):
    return note_source("001", section)


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "n001-euler",
        _s("1.1 复数的指数形式"),
        r"Euler: $z = r e^{i\theta} = r(\cos\theta + i\sin\theta)$.",
        "holds",
        D.euler,
    ),
    Entry(
        "n001-complex-product",
        _s("1.2 复数的乘法"),
        r"$z_1 z_2 = r_1 r_2 e^{i(\theta_1 + \theta_2)}$.",
        "holds",
        D.complex_product,
    ),
    Entry(
        "n001-conjugate",
        _s("1.3 复数的共轭"),
        r"$\overline{r e^{i\theta}} = r e^{-i\theta}$.",
        "holds",
        D.complex_conjugate,
    ),
    Entry(
        "n001-complex-rotation",
        _s("1.4 旋转矩阵"),
        r"$(\cos\theta + i\sin\theta)(x + iy) = (1, i)\, R(\theta) (x, y)^\top$ with "
        r"$R(\theta) = \begin{pmatrix}\cos\theta & -\sin\theta\\ \sin\theta & \cos\theta\end{pmatrix}$: multiplying by "
        r"$e^{i\theta}$ rotates $(x, y)$ by $\theta$ (first, second, third and last lines of the derivation).",
        "holds",
        D.complex_times_is_rotation,
    ),
    Entry(
        "n001-matrix-step",
        _s("1.4 旋转矩阵"),
        r"Fourth line: $z = (1, i)\begin{pmatrix}\cos\theta\, x & "
        r"-\sin\theta\, y\\ \sin\theta\, x & \cos\theta\, y\end{pmatrix}$.",
        "fails",
        D.matrix_step_slip,
        correction=r"$z = (1, i)\begin{pmatrix}\cos\theta\, x - \sin\theta\, "
        r"y\\ \sin\theta\, x + \cos\theta\, y\end{pmatrix}$",
    ),
    Entry("n001-transpose", _s(SECTION_1_5), r"$R_\theta^\top = R_{-\theta}$.", "holds", R.transpose_rule),
    Entry(
        "n001-inverse",
        _s(SECTION_1_5),
        r"$R_{-\theta}$ is the inverse of $R_\theta$, so $R_\theta^\top = R_\theta^{-1}$: $R_\theta$ is orthogonal.",
        "holds",
        R.inverse_rule,
        reading=r"The note computes $R_{-\theta}$ under the heading 'the inverse' without showing "
        r"$R_{-\theta} R_\theta = I$; the check supplies that step.",
    ),
    Entry(
        "n001-goal",
        _s("2.2 假设"),
        r"Requirement: $\langle f(q, m), f(k, n)\rangle = g(q, k, m - n)$ — met by $f(x, m) = R_m x$.",
        "holds",
        R.relative_identity,
    ),
    Entry(
        "n001-complex-inner",
        _s("2.3 复数的引入"),
        r"$\langle q, k\rangle = \mathrm{Re}(q k^*)$ for 2D vectors read as complex numbers.",
        "holds",
        D.complex_inner_product,
    ),
    Entry(
        "n001-polar-split",
        _s("2.4 使用复数的指数形式"),
        r"Substituting polar forms: $R_f(q,m) R_f(k,n) = R_g(q,k,m-n)$ and "
        r"$\Theta_f(q,m) - \Theta_f(k,n) = \Theta_g(q,k,m-n)$.",
        "holds-if",
        D.polar_split,
        condition=r"the complex product itself is required to be relative, $f(q,m) f^*(k,n) = g(q,k,m-n)$ (as in "
        r"RoFormer §3.4.1); the note only wrote its real part, which admits non-rotation solutions.",
    ),
    Entry(
        "n001-modulus",
        _s("2.5 求解模长"),
        r"Setting $n = m$: $R_f(q,m) R_f(k,m) = R_g(q,k,0) = R_f(q,0) R_f(k,0) = \|q\|\|k\|$, so $R_f(q,m) = \|q\|$.",
        "holds",
        D.radial_forced,
        reading=r"Uses $f(x, 0) = x$ (left implicit). With one $f$ for queries and keys, $k = q$ gives "
        r"$R_f(q,m)^2 = \|q\|^2$, so the 'we can set' is in fact forced.",
    ),
    Entry(
        "n001-angle",
        _s("2.6 求解角度"),
        r"$\Theta_f(q,m) - \Theta_f(k,m) = \Theta(q) - \Theta(k)$, hence $\Theta_f(q,m) = \Theta(q) + \varphi(m)$.",
        "holds",
        D.angle_split,
    ),
    Entry(
        "n001-recurrence",
        _s("2.7 得到解"),
        r"With $n = m - 1$: $\varphi(m) - \varphi(m-1) = \Theta_g(q,k,1) + \Theta(k) - \Theta(q)$, a constant "
        r"$\theta$.",
        "holds",
        D.recurrence,
    ),
    Entry(
        "n001-arithmetic",
        _s("2.7 得到解"),
        r"$\varphi$ is an arithmetic progression: $\varphi(m) = m\theta$.",
        "holds",
        D.arithmetic_solution,
        reading=r"Complete form $\varphi(m) = m\theta + \gamma$; $\gamma = \varphi(0) = 0$ follows from $f(q, 0) = q$ "
        r"(§2.6 uses $\Theta_f(q, 0) = \Theta(q)$).",
    ),
    Entry(
        "n001-solution",
        _s("2.8 二维编码形式"),
        r"$f(q,m) = \|q\| e^{i(\Theta(q) + m\theta)} = q e^{im\theta} = R(m\theta)(q_0, q_1)^\top$.",
        "holds",
        D.solution_2d,
    ),
    Entry(
        "n001-relative-derivation",
        _s("2.8.1 推导公式"),
        r"$(R_m q)^\top (R_n k) = q^\top R_m^\top R_n k = q^\top R_{-m} R_n k = q^\top R_{n-m} k$.",
        "holds",
        R.relative_identity,
        reading=r"The note cites '1.6' for $R_\theta^\top = R_{-\theta}$; the proof is in §1.5 (there is no §1.6).",
    ),
    Entry(
        "n001-composition",
        _s("2.8.1 推导公式"),
        r"Rotations compose by adding angles: $R_\theta R_\phi = R_{\theta+\phi}$.",
        "holds",
        R.composition_rule,
    ),
    Entry(
        "n001-lengths",
        _s("2.8.1 推导公式"),
        r"Rotation keeps lengths, $\|R_m q\| = \|q\|$, $\|R_n k\| = \|k\|$; and $q \cdot k = \|q\|\|k\|\cos\alpha$ "
        r"with $\alpha$ the angle between $q$ and $k$.",
        "holds",
        R.lengths_and_angle,
    ),
    Entry(
        "n001-norms-times-cos",
        _s("2.8.1 推导公式"),
        r"$R_m q \cdot R_n k = \|R_m q\|\|R_n k\|\cos((m-n)\theta) = \|q\|\|k\|\cos((m-n)\theta)$.",
        "fails",
        D.norms_times_cos,
        correction=r"$\|q\|\|k\|\cos(\alpha_q - \alpha_k + (m-n)\theta)$, $\alpha_q, \alpha_k$ the angles of $q, k$: "
        r"the angle between $q$ and $k$ must be kept.",
    ),
    Entry(
        "n001-cross-term",
        _s("2.8.1 推导公式"),
        r"$R_m q \cdot R_n k = (q \cdot k)\cos((m-n)\theta)$.",
        "fails",
        D.missing_cross_term,
        correction=r"$(q\cdot k)\cos((m-n)\theta) + (q_0 k_1 - q_1 k_0)\sin((m-n)\theta)$",
    ),
    Entry(
        "n001-cos-theta",
        _s("2.8.1 推导公式"),
        r"'In some cases' $R_m q \cdot R_n k = (q\cdot k)\cos\theta$.",
        "holds-if",
        D.cos_theta_case,
        condition=r"$q \parallel k$ and $m - n = \pm 1$ (for parallel "
        r"vectors the score is $(q\cdot k)\cos((m-n)\theta)$).",
    ),
    Entry(
        "n001-multiply-rotation",
        _s("2.9 跟Sinusoidal公式比较"),
        r"RoPE multiplies $x + yi$ on the left by $\cos m\theta + i\sin m\theta$, i.e. left-multiplies $(x, y)$ by "
        r"$R(m\theta)$.",
        "holds",
        D.complex_times_is_rotation,
        reading=r"The comparison with the sinusoidal encoding is loose: that encoding adds $p_m = (\sin m\omega, "
        r"\cos m\omega)$ to the input, it is not the input $x + yi$ itself.",
    ),
    Entry(
        "n001-pairs",
        _s("2.10 多维情况"),
        r"Inner products add over coordinates, so even-$d$ RoPE is $d/2$ concatenated 2D cases: "
        r"$R_m = \mathrm{diag}(R(m\theta_0), \dots, R(m\theta_{d/2-1}))$.",
        "holds",
        R.pairwise_rotation,
    ),
    Entry(
        "n001-relative-sign",
        _s("2.10 多维情况"),
        r"$(R_m q)^\top (R_n k) = q^\top R_m^\top R_n k = q^\top R_{m-n} k$.",
        "fails",
        R.relative_sign_slip,
        correction=r"$q^\top R_m^\top R_n k = q^\top R_{n-m} k$",
    ),
    Entry(
        "n001-norm",
        _s("2.10 多维情况"),
        r"$R_m$ is orthogonal and does not change vector norms.",
        "holds",
        R.norm_rule,
    ),
    Entry(
        "n001-stability",
        _s("2.10 多维情况"),
        r"Being orthogonal, $R_m$ does not change the model's stability.",
        "holds-if",
        P.stability,
        condition=r"the angles $m\theta_i$ are formed in float64 (or in float32 while the drift of about "
        r"$m \cdot 2^{-24}$ rad is negligible): orthogonality gives $\kappa_2(R) = 1$ but does not protect "
        r"rounded angles (bfloat16 merges positions 256 and 257).",
        reading="Read as numerical stability of the encoding (the effect on training is not checkable).",
    ),
    Entry(
        "n001-elementwise",
        _s("2.10 多维情况"),
        r"$R_m$ is sparse, so a dense matrix product wastes work; instead "
        r"$R_m q = q \odot (\cos m\theta_0, \cos m\theta_0, \dots) + (-q_1, q_0, -q_3, q_2, \dots) \odot "
        r"(\sin m\theta_0, \sin m\theta_0, \dots)$.",
        "holds",
        R.elementwise_form,
        reading="0-based indices, interleaved pairs.",
    ),
    Entry(
        "n001-theta",
        _s("2.10 多维情况"),
        r"$\theta_i = 10000^{-2i/d}$.",
        "holds",
        F.theta_zero_based,
        reading="0-based i = 0..d/2-1.",
    ),
    Entry(
        "n001-decay-dimension",
        _s("2.10 多维情况"),
        r"'As the dimension increases, the inner product of encodings far from the current position tends to 0.'",
        "fails",
        F.decay_with_dimension,
        correction=r"For fixed distance $r$ and $q = k = \mathbf 1$, $\frac{2}{d}\sum_i \cos(r\theta_i) \to "
        r"\int_0^1 \cos(r\,10000^{-t})\,dt \ne 0$ as $d \to \infty$; decay with distance is a property of "
        r"the bound, not of each score (see n000-decay).",
        reading="Taken literally (growing dimension d). Read as 'growing distance' it is note 000's decay claim, "
        "which fails for single scores.",
    ),
    Entry(
        "n001-pair-index",
        _s("2.10 多维情况"),
        r"Coordinate $j$ uses the angle $\theta_i$ with $i = \lfloor j/2 \rfloor$.",
        "holds",
        F.pair_index,
    ),
    Entry(
        "n001-each-dimension",
        _s("2.10 多维情况"),
        r"'$d$ is usually even, and each dimension corresponds to a different frequency.'",
        "fails",
        F.shared_frequencies,
        correction=r"Each pair $(2i, 2i+1)$ has its own frequency $\theta_i$; there are $d/2$ distinct frequencies.",
    ),
    Entry(
        "n001-q-description",
        _s("2.10 多维情况"),
        r"'$q$ is the position-encoding vector; its components are generated by sines or cosines.'",
        "not-checkable",
        P.what_q_is,
        reason="A description of what a symbol stands for, not a statement with a truth value to compute. In "
        "RoFormer q = W_q x_m is the projected token (content) vector; the sines and cosines are the "
        "multiplier vectors cos(m theta_i), sin(m theta_i). The "
        "check applies the formula to a q not built from sinusoids.",
    ),
    Entry(
        "n001-multiplicative",
        _s("2.10.1 乘性位置编码的变体"),
        r"RoPE is a multiplicative position encoding: $f(x, m) = R_m x$ is linear in $x$, no $p_m$ is added.",
        "holds",
        P.multiplicative,
    ),
)
