r"""Ledger entries for note 001, "旋转位置编码(RoPE)公式详细推导过程" (kler.cn, zh-CN), in the note's order.

It follows Su Jianlin's derivation but writes only the real part of the requirement and never states f(x, 0) = x.

References: kler.cn/a/538912.html; Su Jianlin, kexue.fm/archives/8265; Su et al., *RoFormer*, arXiv:2104.09864 v5.
"""

from __future__ import annotations

from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_literal as L
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Alternative, Entry, note_entry

__all__ = ["ENTRIES", "MERGED"]

SECTION_1_5 = "1.5 旋转矩阵 R θ ⊤ R_{\\theta}^{\\top} Rθ= R − θ R_{- \\theta} Rθ"
INITIAL = r"$f(x, 0) = x$ (RoFormer's initial condition $f(q, 0) = q$; the note never states it)"
_R_M_Q_R_N_K = r"\mathbf{R}_m \mathbf{q} \cdot \mathbf{R}_n \mathbf{k}"

entry = note_entry("001")

ENTRIES: tuple[Entry, ...] = (
    entry("n001-euler", "1.1 复数的指数形式", "holds", D.euler,
        r"Euler: $z = r e^{i\theta} = r(\cos\theta + i\sin\theta)$.",
        quote=r"复数可以通过欧拉公式表示为: z = r e i θ = r ( cos ( θ ) + i sin ( θ ) ) z = r e^{i\theta} = "
        r"r(\cos(\theta) + i \sin(\theta)) z=reiθ=r(cos(θ)+isin(θ))"),
    entry("n001-complex-product", "1.2 复数的乘法", "holds", D.complex_product,
        r"$z_1 z_2 = r_1 r_2 e^{i(\theta_1 + \theta_2)}$.",
        quote=r"z 1 z 2 = r 1 r 2 e i ( θ 1 + θ 2 ) z_1 z_2 = r_1 r_2 e^{i(\theta_1 + \theta_2)} z1z2=r1r2ei(θ1+θ2)"),
    entry("n001-conjugate", "1.3 复数的共轭", "holds", D.complex_conjugate,
        r"$z^* = \overline{r e^{i\theta}} = r e^{-i\theta}$.",
        quote=r"复数 z = r e i θ z = r e^{i\theta} z=reiθ 的共轭为: z ∗ = r e − i θ z^* = r e^{-i\theta} z=reiθ",
        reading="The LaTeX source is judged; the last plain-text rendering 'z=reiθ' lost the star and the minus "
        "(scraping)."),
    entry("n001-rotation-matrix", "1.4 旋转矩阵", "holds", R.counterclockwise,
        r"$R(\theta) = \begin{pmatrix}\cos\theta & -\sin\theta\\ \sin\theta & \cos\theta\end{pmatrix}$ rotates a "
        r"vector about the origin by $\theta$, counter-clockwise for $\theta > 0$ (§1.5 item 2 says 逆时针).",
        quote=r"二维空间中的旋转矩阵 R ( θ ) R(\theta) R(θ) 用来表示一个向量绕原点旋转 θ \theta θ 角度,表示为: R ( θ "
        r") = ( cos ( θ ) − sin ( θ ) sin ( θ ) cos ( θ ) ) R(\theta) = \begin{pmatrix} \cos(\theta) & -\sin(\theta) "
        r"\\ \sin(\theta) & \cos(\theta) \end{pmatrix} R(θ)=(cos(θ)sin(θ)sin(θ)cos(θ))"),
    entry("n001-complex-rotation", "1.4 旋转矩阵", "holds", D.complex_times_is_rotation,
        r"$(\cos\theta + i\sin\theta)(x + iy) = (1, i)\, R(\theta) (x, y)^\top$ with $R(\theta) = "
        r"\begin{pmatrix}\cos\theta & -\sin\theta\\ \sin\theta & \cos\theta\end{pmatrix}$: multiplying by "
        r"$e^{i\theta}$ rotates $(x, y)$ by $\theta$ (first, second, third and last lines of the derivation).",
        quote=r"\begin{aligned} z &= (cos(\theta) + i sin(\theta))(x + y i) \\ &= (cos(\theta)x + cos(\theta)y i + "
        r"sin(\theta)xi - sin(\theta)y) \\ &= (cos(\theta) + sin(\theta)i)x + (-sin(\theta) + cos(\theta)i)y \\ &= "
        r"(1, i) \begin{pmatrix} cos(\theta)x & -sin(\theta)y \\ sin(\theta)x & cos(\theta)y \end{pmatrix} \\ &= (1, "
        r"i) \begin{pmatrix} cos(\theta) & -sin(\theta) \\ sin(\theta) & cos(\theta) \end{pmatrix} \begin{pmatrix} x "
        r"\\ y \end{pmatrix} \end{aligned}",
        reading=r"The LaTeX source of the derivation line (the scrape renders it twice more); its fourth line is "
        r"n001-matrix-step. cos and sin are typed without a backslash (rendered 'c o s'); read as the functions. The "
        r"sentence before it writes the vector as '$\begin{pmatrix} x \ y \end{pmatrix}' (a lost '\\', and a '$' that "
        r"swallows the Chinese text): read as the column $(x, y)^\top$ of the last line."),
    entry("n001-matrix-step", "1.4 旋转矩阵", "fails", D.matrix_step_slip,
        r"Fourth line: $z = (1, i)\begin{pmatrix}\cos\theta\, x & -\sin\theta\, y\\ \sin\theta\, x & \cos\theta\, "
        r"y\end{pmatrix}$.",
        correction=r"$z = (1, i)\begin{pmatrix}\cos\theta\, x - \sin\theta\, y\\ \sin\theta\, x + \cos\theta\, "
        r"y\end{pmatrix}$",
        quote=r"&= (1, i) \begin{pmatrix} cos(\theta)x & -sin(\theta)y \\ sin(\theta)x & cos(\theta)y \end{pmatrix} \\",
    ),
    entry("n001-transpose", SECTION_1_5, "holds", R.transpose_rule,
        r"$R_\theta^\top = R_{-\theta}$, and (step 3) $R_\theta^\top = \begin{pmatrix}\cos\theta & \sin\theta\\ "
        r"-\sin\theta & \cos\theta\end{pmatrix}$.",
        quote=r"旋转矩阵 R θ \mathbf{R}_\theta Rθ 是正交矩阵,满足 R θ ⊤ = R − θ \mathbf{R}_\theta^\top = "
        r"\mathbf{R}_{-\theta} Rθ=Rθ 。",
        reading="The LaTeX source is judged; the plain-text rendering 'Rθ=Rθ' (here and in the heading) lost the "
        "transpose and the minus (scraping)."),
    entry("n001-negative-angle", SECTION_1_5, "holds", L.negative_angle,
        r"Step 4: $\cos(-\theta) = \cos\theta$, $\sin(-\theta) = -\sin\theta$, so substituting $-\theta$ gives "
        r"$R_{-\theta} = \begin{pmatrix}\cos\theta & \sin\theta\\ -\sin\theta & \cos\theta\end{pmatrix}$.",
        quote=r"利用三角函数的性质 cos ( − θ ) = cos θ \cos(-\theta) = \cos\theta cos(θ)=cosθ sin ( − θ ) = − sin θ "
        r"\sin(-\theta) = -\sin\theta sin(θ)=sinθ ,所以: R − θ = [ cos θ sin θ − sin θ cos θ ] \mathbf{R}_{-\theta} = "
        r"\begin{bmatrix} \cos\theta & \sin\theta \\ -\sin\theta & \cos\theta \end{bmatrix} Rθ=[cosθsinθsinθcosθ]"),
    entry("n001-inverse", SECTION_1_5, "holds", R.inverse_rule,
        r"$R_{-\theta}$ is the inverse of $R_\theta$, so $R_\theta^\top = R_\theta^{-1}$: $R_\theta$ is orthogonal.",
        quote=r"R θ ⊤ = R − θ \mathbf{R}_\theta^\top = \mathbf{R}_{-\theta} Rθ=Rθ "
        r"这说明旋转矩阵的转置等于其逆矩阵,因此旋转矩阵是正交矩阵。",
        reading=r"The note computes $R_{-\theta}$ under the heading 'the inverse' without showing $R_{-\theta} "
        r"R_\theta = I$; the check supplies that step."),
    entry("n001-goal", "2.2 假设", "holds", R.relative_identity,
        r"Requirement: $\langle f(q, m), f(k, n)\rangle = g(q, k, m - n)$ — met by $f(x, m) = R_m x$.",
        quote=r"假设它们满足内积恒等式: ⟨ f ( q , m ) , f ( k , n ) ⟩ = g ( q , k , m − n ) \langle f(q, m), f(k, n) "
        r"\rangle = g(q, k, m - n) f(q,m),f(k,n)⟩=g(q,k,mn)",
        reading="An assumption; judged as the claim that it can be met, by the rotation the note derives."),
    entry("n001-complex-inner", "2.3 复数的引入", "holds", D.complex_inner_product,
        r"$\langle q, k\rangle = \mathrm{Re}(q k^*)$ for 2D vectors read as complex numbers.",
        quote=r"对于复数,内积可以表示为: ⟨ q , k ⟩ = R e ( q k ∗ ) \langle q, k \rangle = \mathrm{Re}(q k^*) "
        r"q,k=Re(qk)",
        reading="The next sentence defines $q^*$ (q^* 是 q 的共轭复数) while the formula uses $k^*$: read as the "
        "conjugate of $k$."),
    entry("n001-polar-split", "2.4 使用复数的指数形式", "fails", L.polar_split_literal,
        r"Substituting polar forms into $\mathrm{Re}(f(q,m) f^*(k,n)) = g(q,k,m-n)$: $R_f(q,m) R_f(k,n) = "
        r"R_g(q,k,m-n)$ and $\Theta_f(q,m) - \Theta_f(k,n) = \Theta_g(q,k,m-n)$.",
        correction=r"Require the complex product to be relative, $f(q,m) f^*(k,n) = g(q,k,m-n)$ with complex $g$ (Su; "
        r"RoFormer §3.4.1); then $R_f(q,m) R_f(k,n) = R_g$ and $\Theta_f(q,m) - \Theta_f(k,n) = \Theta_g$ (mod "
        r"$2\pi$).",
        quote=r"代入方程后得到: R f ( q , m ) R f ( k , n ) = R g ( q , k , m − n ) , Θ f ( q , m ) − Θ f ( k , n ) = "
        r"Θ g ( q , k , m − n ) R_f(q, m) R_f(k, n) = R_g(q, k, m - n), \quad \Theta_f(q, m) - \Theta_f(k, n) = "
        r"\Theta_g(q, k, m - n) Rf(q,m)Rf(k,n)=Rg(q,k,mn),Θf(q,m)Θf(k,n)=Θg(q,k,mn)",
        reading=r"'The equation' is §2.3's $\mathrm{Re}(f(q,m) f^*(k,n)) = g(q,k,m-n)$, so $g$ is the real inner "
        r"product of §2.2 and its polar form has $R_g = |g|$.",
        alternatives=(Alternative(
            r"$g$ read as the complex product, required relative as Su does ($f(q,m) f^*(k,n) = g$): the split "
            r"follows; from the real part alone it follows only under that condition.",
            "holds-if", D.polar_split),)),
    entry("n001-modulus", "2.5 求解模长", "holds-if", L.modulus_initial_condition,
        r"Setting $n = m$ (in §2.4's relations): $R_f(q,m) R_f(k,m) = R_g(q,k,0) = R_f(q,0) R_f(k,0) = \|q\|\|k\|$, "
        r"so $R_f(q,m) = \|q\|$.",
        condition=INITIAL,
        quote=r"代入 m = n m = n m=n 后,我们得到: R f ( q , m ) R f ( k , n ) = R g ( q , k , 0 ) = R f ( q , 0 ) R f "
        r"( k , 0 ) = ∥ q ∥ ∥ k ∥ R_f(q, m) R_f(k, n) = R_g(q, k, 0) = R_f(q, 0) R_f(k, 0) = \| q \| \| k \| "
        r"Rf(q,m)Rf(k,n)=Rg(q,k,0)=Rf(q,0)Rf(k,0)=q∥∥k",
        reading=r"The last equality is $|f(x, 0)| = |x|$. With one $f$ for queries and keys, $k = q$ gives "
        r"$R_f(q,m)^2 = \|q\|^2$, so the 'we can set' (我们可以设定) is forced."),
    entry("n001-angle", "2.6 求解角度", "holds-if", L.angle_initial_condition,
        r"$\Theta_f(q,m) - \Theta_f(k,m) = \Theta_g(q,k,0) = \Theta_f(q,0) - \Theta_f(k,0) = \Theta(q) - \Theta(k)$, "
        r"hence $\Theta_f(q,m) = \Theta(q) + \varphi(m)$.",
        condition=INITIAL,
        quote=r"Θ f ( q , m ) − Θ f ( k , m ) = Θ g ( q , k , 0 ) = Θ f ( q , 0 ) − Θ f ( k , 0 ) = Θ ( q ) − Θ ( k ) "
        r"\Theta_f(q, m) - \Theta_f(k, m) = \Theta_g(q, k, 0) = \Theta_f(q, 0) - \Theta_f(k, 0) = \Theta(q) - "
        r"\Theta(k) Θf(q,m)Θf(k,m)=Θg(q,k,0)=Θf(q,0)Θf(k,0)=Θ(q)Θ(k)",
        reading=r"Angles modulo $2\pi$. The last equality is $\Theta_f(x, 0) = \Theta(x)$ up to a common constant."),
    entry("n001-recurrence", "2.7 得到解", "holds", D.recurrence,
        r"With $n = m - 1$: $\varphi(m) - \varphi(m-1) = \Theta_g(q,k,1) + \Theta(k) - \Theta(q)$, a constant "
        r"$\theta$.",
        quote=r"φ ( m ) − φ ( m − 1 ) = Θ g ( q , k , 1 ) + Θ ( k ) − Θ ( q ) \varphi(m) - \varphi(m - 1) = "
        r"\Theta_g(q, k, 1) + \Theta(k) - \Theta(q) φ(m)φ(m1)=Θg(q,k,1)+Θ(k)Θ(q)"),
    entry("n001-arithmetic", "2.7 得到解", "holds-if", L.phase_initial_condition,
        r"$\varphi$ is an arithmetic progression with difference $\theta$, so $\varphi(m) = m\theta$.",
        condition=INITIAL + r", which gives $\varphi(0) = \Theta_f(q, 0) - \Theta(q) = 0$",
        quote=r"φ ( m ) { \varphi(m) } φ(m) 是等差数列,设右端为 θ θ θ,我们得到: φ ( m ) = m θ \varphi(m) = m \theta "
        r"φ(m)=mθ",
        reading=r"An arithmetic progression is $\varphi(m) = m\theta + \varphi(0)$; the note drops $\varphi(0)$."),
    entry("n001-solution", "2.8 二维编码形式", "holds", D.solution_2d,
        r"$f(q,m) = \|q\| e^{i(\Theta(q) + m\theta)} = q e^{im\theta} = R(m\theta)(q_0, q_1)^\top$.",
        quote=r"f ( q , m ) = R f ( q , m ) e i Θ f ( q , m ) = ∥ q ∥ e i ( Θ ( q ) + m θ ) = q e i m θ f(q, m) = "
        r"R_f(q, m) e^{i \Theta_f(q, m)} = \| q \| e^{i (\Theta(q) + m \theta)} = q e^{im \theta} "
        r"f(q,m)=Rf(q,m)eiΘf(q,m)=qei(Θ(q)+mθ)=qeimθ"),
    entry("n001-relative-derivation", "2.8.1 推导公式", "holds", R.relative_identity,
        r"$(R_m q)^\top (R_n k) = q^\top R_m^\top R_n k = q^\top R_{-m} R_n k = q^\top R_{n-m} k$.",
        quote=r"公式 ( R m q ) ⊤ ( R n k ) = q ⊤ R n − m k (\mathbf{R}_m \mathbf{q})^\top (\mathbf{R}_n \mathbf{k}) = "
        r"\mathbf{q}^\top \mathbf{R}_{n-m} \mathbf{k} (Rmq)(Rnk)=qRnmk 的推导过程",
        reading=r"$R_m$ read as $R(m\theta)$ (in §1.5 the subscript is the angle; read so, $R_m = R(m)$, it holds "
        r"too). Step 2 cites '1.6' for $R_\theta^\top = R_{-\theta}$: the note has no §1.6, the proof is §1.5."),
    entry("n001-composition", "2.8.1 推导公式", "holds", R.composition_rule,
        r"Rotations compose by adding angles: $R_\theta R_\phi = R_{\theta+\phi}$ (so $R_{-m} R_n = R_{n-m}$).",
        quote=r"旋转矩阵的加法性质:旋转矩阵的乘积对应角度的相加,即 R θ R ϕ = R θ + ϕ \mathbf{R}_\theta "
        r"\mathbf{R}_\phi = \mathbf{R}_{\theta+\phi} RθRϕ=Rθ+ϕ"),
    entry("n001-lengths", "2.8.1 推导公式", "holds", R.lengths_and_angle,
        r"Rotation keeps lengths, $\|R_m q\| = \|q\|$, $\|R_n k\| = \|k\|$; and $q \cdot k = \|q\|\|k\|\cos\alpha$ "
        r"with $\alpha$ the angle between $q$ and $k$.",
        quote=r"旋转矩阵保持向量的长度不变,即 ∥ R m q ∥ = ∥ q ∥ \|\mathbf{R}_m \mathbf{q}\| = \|\mathbf{q}\| Rmq=q ∥ "
        r"R n k ∥ = ∥ k ∥ \|\mathbf{R}_n \mathbf{k}\| = \|\mathbf{k}\| Rnk=k"),
    entry("n001-norms-times-cos", "2.8.1 推导公式", "fails", D.norms_times_cos,
        r"$R_m q \cdot R_n k = \|R_m q\|\|R_n k\|\cos((m-n)\theta) = \|q\|\|k\|\cos((m-n)\theta)$.",
        correction=r"$\|q\|\|k\|\cos(\alpha_q - \alpha_k + (m-n)\theta)$, $\alpha_q, \alpha_k$ the angles of $q, k$: "
        r"the angle between $q$ and $k$ must be kept.",
        quote=r"旋转后的向量内积可以表示为: R m q ⋅ R n k = ∥ R m q ∥ ∥ R n k ∥ cos ( ( m − n ) θ ) = "
        r"∥ q ∥ ∥ k ∥ cos ( ( m − n ) θ ) " + _R_M_Q_R_N_K + r" = \|\mathbf{R}_m \mathbf{q}\| "
        r"\|\mathbf{R}_n \mathbf{k}\| \cos((m - n)\theta) = \|\mathbf{q}\| \|\mathbf{k}\| \cos((m - n)\theta) "
        r"RmqRnk=Rmq∥∥Rnkcos((mn)θ)=q∥∥kcos((mn)θ)"),
    entry("n001-cross-term", "2.8.1 推导公式", "fails", D.missing_cross_term,
        r"$R_m q \cdot R_n k = (q \cdot k)\cos((m-n)\theta)$.",
        correction=r"$(q\cdot k)\cos((m-n)\theta) + (q_0 k_1 - q_1 k_0)\sin((m-n)\theta)$",
        quote=r"所以: R m q ⋅ R n k = ( q ⋅ k ) ⋅ cos ( ( m − n ) θ ) " + _R_M_Q_R_N_K + r" = (\mathbf{q} \cdot "
        r"\mathbf{k}) \cdot \cos((m - n)\theta) RmqRnk=(qk)cos((mn)θ)"),
    entry("n001-cos-theta", "2.8.1 推导公式", "fails", D.cos_theta_generic,
        r"'In some cases' $R_m q \cdot R_n k = (q\cdot k)\cos\theta$, the cases not stated.",
        correction=r"$R_m q \cdot R_n k = (q\cdot k)\cos((m-n)\theta) + (q_0 k_1 - q_1 k_0)\sin((m-n)\theta)$; it "
        r"reduces to $(q\cdot k)\cos\theta$ only for $q \parallel k$ at $m - n = \pm 1$, a set of measure zero.",
        quote=r"某些情况下上式也可化简为: R m q ⋅ R n k = ( q ⋅ k ) ⋅ cos ( θ ) " + _R_M_Q_R_N_K + r" = "
        r"(\mathbf{q} \cdot \mathbf{k}) \cdot \cos(\theta) RmqRnk=(qk)cos(θ)",
        reading=r"$\theta$ is the angle per position of the lines above, so 'the above formula simplifies' at $m - n "
        r"= \pm 1$; the cases where it does ($q \parallel k$) have measure zero, so by rule 5 the unstated condition "
        r"does not make it holds-if.",
        alternatives=(
            Alternative(
                "The hedge read as an existence claim: there are q, k, m, n for which it holds.", "holds",
                L.cos_theta_some_case),
            Alternative(
                r"With the unstated condition $q \parallel k$ and $m - n = \pm 1$ added.", "holds-if", D.cos_theta_case,
            ),
        )),
    entry("n001-multiply-rotation", "2.9 跟Sinusoidal公式比较", "fails", L.sinusoidal_rotated,
        r"Compared with the sinusoidal $p_m = x + yi$, RoPE multiplies it on the left by $\cos m\theta + i\sin "
        r"m\theta$, i.e. RoPE's vector is $R(m\theta) p_m$.",
        correction=r"RoPE multiplies the query (or key) $q = q_0 + i q_1$, not $p_m$: $f(q, m) = e^{im\theta} q$; the "
        r"sinusoidal encoding adds $p_m$ to the input instead. Rotating $p_m$ itself by $m\theta$ gives the constant "
        r"$e^{im\theta}(\sin m\theta + i\cos m\theta) = i$.",
        quote=r"跟 RoPE 的公式比较可以看出来,RoPE 多了旋转操作,也就是左边多乘了 cos ( m θ ) + i sin ( m θ ) \cos(m "
        r"\theta) + i\sin(m \theta) cos(mθ)+isin(mθ),因此 RoPE 在左边多了个旋转矩阵",
        reading="$p_m = x + yi$ is, in the note's words, 'the complex form of the sinusoidal formula'; '多乘了' "
        "compares RoPE's formula with it.",
        alternatives=(Alternative(
            r"'x + yi' read as the vector RoPE encodes (its query or key), not the sinusoidal $p_m$: RoPE "
            r"left-multiplies it by $e^{im\theta}$, i.e. by $R(m\theta)$.",
            "holds", D.complex_times_is_rotation),)),
    entry("n001-pairs", "2.10 多维情况", "holds", R.pairwise_rotation,
        r"Inner products add over coordinates, so even-$d$ RoPE is $d/2$ concatenated 2D cases: $R_m = "
        r"\mathrm{diag}(R(m\theta_0), \dots, R(m\theta_{d/2-1}))$.",
        quote="由于内积满足线性叠加性,因此任意偶数维的RoPE,我们都可以表示为二维情形的拼接,即:"),
    entry("n001-attention-relative", "2.10 多维情况", "holds", L.attention_relative,
        "Attention on $R_m q_m$, $R_n k_n$ automatically carries relative position: its weights depend on the "
        "positions only through $m - n$, and do depend on it.",
        quote="也就是说,给位置为 m m m的向量 q q q乘上矩阵 R m R_m Rm、位置为 n n n的向量 k k k乘上矩阵 R n R_n "
        "Rn,用变换后的 Q Q Q K K K序列做Attention,那么Attention就自动包含相对位置信息了,因为成立恒等式:",
        reading="The identity given as the reason is n001-relative-sign (wrong sign); the claim itself is judged here.",
    ),
    entry("n001-relative-sign", "2.10 多维情况", "fails", R.relative_sign_slip,
        r"$(R_m q)^\top (R_n k) = q^\top R_m^\top R_n k = q^\top R_{m-n} k$.",
        correction=r"$q^\top R_m^\top R_n k = q^\top R_{n-m} k$",
        quote=r"( R m q ) ⊤ ( R n k ) = q ⊤ R m ⊤ R n k = q ⊤ R m − n k (R_m q)^\top (R_n k) = q^\top R_m^\top R_n k "
        r"= q^\top R_{m-n} k (Rmq)(Rnk)=qRmRnk=qRmnk"),
    entry("n001-norm", "2.10 多维情况", "holds", R.norm_rule,
        "$R_m$ is orthogonal and does not change vector norms.",
        quote="值得指出的是, R m R_m Rm是一个正交矩阵,它不会改变向量的模长"),
    entry("n001-stability", "2.10 多维情况", "holds", P.orthogonal_is_stable,
        "Being orthogonal, $R_m$ 'usually' (通常来说) does not change the model's stability.",
        quote="值得指出的是, R m R_m Rm是一个正交矩阵,它不会改变向量的模长,因此通常来说它不会改变原模型的稳定性。",
        reading="Read as numerical stability of the encoding (the effect on training is not checkable).",
        alternatives=(P.ROUNDED_ANGLES_READING,)),
    entry("n001-elementwise", "2.10 多维情况", "holds", R.elementwise_form,
        r"$R_m$ is sparse, so a dense matrix product wastes work; instead $R_m q = q \odot (\cos m\theta_0, \cos "
        r"m\theta_0, \dots) + (-q_1, q_0, -q_3, q_2, \dots) \odot (\sin m\theta_0, \sin m\theta_0, \dots)$.",
        quote=r"\begin{pmatrix} q_0 \\ q_1 \\ q_2 \\ q_3 \\ \vdots \\ q_{d-2} \\ q_{d-1} \end{pmatrix} \odot "
        r"\begin{pmatrix} \cos(m\theta_0) \\ \cos(m\theta_0) \\ \cos(m\theta_1) \\ \cos(m\theta_1) \\ \vdots \\ "
        r"\cos(m\theta_{\frac{d}{2} - 1}) \\ \cos(m\theta_{\frac{d}{2} - 1}) \end{pmatrix} + \begin{pmatrix} -q_1 \\ "
        r"q_0 \\ -q_3 \\ q_2 \\ \vdots \\ -q_{d-1} \\ q_{d-2} \end{pmatrix} \odot \begin{pmatrix} \sin(m\theta_0) \\ "
        r"\sin(m\theta_0) \\ \sin(m\theta_1) \\ \sin(m\theta_1) \\ \vdots \\ \sin(m\theta_{\frac{d}{2} - 1}) \\ "
        r"\sin(m\theta_{\frac{d}{2} - 1}) \end{pmatrix}",
        reading="0-based indices, interleaved pairs. The quote is the LaTeX source of the formula line."),
    entry("n001-theta", "2.10 多维情况", "holds", F.theta_zero_based,
        r"$\theta_i = 10000^{-2i/d}$.",
        quote=r"旋转角度通常通过以下公式计算: θ i = 1000 0 − 2 i d \theta_i = 10000^{\frac{-2i}{d}} θi=10000d2i",
        reading=r"0-based i = 0..d/2-1, as the $\theta_0, \dots, \theta_{d/2-1}$ of the note's $R_m$. The note calls "
        r"$\theta_i$ 'the rotation angle'; the angle at position $m$ is $m\theta_i$."),
    entry("n001-decay-dimension", "2.10 多维情况", "fails", F.decay_with_dimension,
        "'As the dimension increases, the inner product of encodings far from the current position tends to 0.'",
        correction=r"For a fixed distance $r$ and $q = k = \mathbf 1$, $\frac{2}{d}\sum_i \cos(r\theta_i) \to "
        r"\int_0^1 \cos(r\,10000^{-t})\,dt = (\operatorname{Ci}(r) - \operatorname{Ci}(r/10^4))/\ln 10^4$ as $d \to "
        r"\infty$, which is not 0 (0.682, 0.437, 0.188, −0.037 at $r = 10, 100, 1000, 10^4$); only the iterated "
        r"limit, $d \to \infty$ and then $r \to \infty$, is 0 (the alternative reading below).",
        quote=r"θ i \theta_i θi "
        r"控制了在每个维度上的旋转,通常在高维空间中,这种旋转带来远程位置编码的衰减效应,即随着维度的增加,远离当前位置的"
        r"编码向量的内积趋近于0。",
        reading="Taken literally (growing dimension d), as the sentence's 即 clause spells the decay out. The note "
        r"fixes no distance: the check takes $q = k = \mathbf 1$ at $r = 10, 100, 1000, 10^4$, $d = 2^6 \dots 2^{22}$, "
        "and refutes the limit 0 where it is over 10 times farther from the large-d limit than the sum at d = 2^22.",
        alternatives=(
            Alternative("Read as growing distance at fixed d: the score itself tends to 0.", "fails", F.score_decays),
            Alternative(
                "Read as RoFormer's long-term decay: the upper bound of the score decreases with distance.", "holds-if",
                F.bound_decreases,
            ),
            Alternative(
                "Read as the iterated limit: as d grows the normalised score tends to a function of r, and that "
                "function tends to 0 as r grows.",
                "holds", F.decay_iterated_limit),
        )),
    entry("n001-pair-index", "2.10 多维情况", "holds", F.pair_index,
        r"Coordinate $j$ uses the angle $\theta_i$ with $i = \lfloor j/2 \rfloor$.",
        quote=r"i i i 表示第 i i i 个旋转角度,它跟偶数维向量的第 j j j个维度的关系是 i = ⌊ j 2 ⌋ i = \left\lfloor "
        r"\frac{j}{2} \right\rfloor i=2j",
        reading=r"0-based j, as the note's $q_0, \dots, q_{d-1}$.",
        alternatives=(Alternative(
            "'第 j 个维度' read as an ordinal counted from 1 (the first coordinate is j = 1).", "fails",
            L.pair_index_one_based),)),
    entry("n001-each-dimension", "2.10 多维情况", "fails", F.shared_frequencies,
        "'$d$ is usually even, and each dimension corresponds to a different frequency.'",
        correction=r"Each pair $(2i, 2i+1)$ has its own frequency $\theta_i$; there are $d/2$ distinct frequencies.",
        quote="d d d 是位置编码的维度。通常 d d d 为偶数,且每个维度对应一个不同的频率。",
        alternatives=(Alternative(
            "'Dimension' read as a coordinate pair (2i, 2i+1): the d/2 frequencies are distinct.", "holds",
            L.distinct_pair_frequencies),)),
    entry("n001-q-description", "2.10 多维情况", "fails", P.q_is_the_query,
        "'$q$ is the position-encoding vector; its components are generated by sines or cosines.'",
        correction=r"$q = W_q x_m$ is the query (content) vector, as in the note's own §2.2 and RoFormer eq. 16; the "
        r"sines and cosines are the multipliers $\cos(m\theta_i)$, $\sin(m\theta_i)$ applied to it.",
        quote="每个 q i q_i qi "
        "表示一个位置编码的分量,通常由某种方法(如正弦波或余弦波)生成,表示位置在某种空间中的表示。"),
    entry("n001-multiplicative", "2.10.1 乘性位置编码的变体", "holds", P.multiplicative,
        "RoPE is a multiplicative position encoding: $f(x, m) = R_m x$ is linear in $x$, no $p_m$ is added.",
        quote="从这个实现也可以看到,RoPE 可以视为是乘性位置编码的变体。"))

MERGED: tuple[tuple[str, str], ...] = (
    (r"r r r 是复数的模, θ \theta θ 是复数的幅角, i i i 是虚数单位。", "n001-euler"),
    (r"是由对一个二维向量$\begin{pmatrix} x \ y \end{pmatrix} 在复数平面上进行旋转", "n001-complex-rotation"),
    (r"R θ ⊤ R_{\theta}^{\top} Rθ= R − θ R_{- \theta} Rθ", "n001-transpose"),
    (r"是正交矩阵,如果它的转置等于它的逆,即: Q ⊤ = Q − 1 \mathbf{Q}^\top = \mathbf{Q}^{-1}", "n001-inverse"),
    (r"这意味着 Q ⊤ Q = I \mathbf{Q}^\top \mathbf{Q} = \mathbf{I}", "n001-inverse"),
    ("用来将一个向量逆时针旋转角度", "n001-rotation-matrix"),
    (r"\mathbf{R}_\theta = \begin{bmatrix} \cos\theta & -\sin\theta \\ \sin\theta & \cos\theta \end{bmatrix}",
     "n001-rotation-matrix"),
    (r"\mathbf{R}_\theta^\top = \begin{bmatrix} \cos\theta & \sin\theta \\ -\sin\theta & \cos\theta \end{bmatrix}",
     "n001-transpose"),
    (r"\mathbf{R}_{-\theta} = \begin{bmatrix} \cos(-\theta) & -\sin(-\theta) \\ \sin(-\theta) & \cos(-\theta) \end{b"
     r"matrix}",
     "n001-negative-angle"),
    ("我们希望通过旋转位置编码(RoPE)来将绝对位置编码转化为相对位置编码。", "n001-goal"),
    ("核心操作是通过旋转来使得位置编码携带相对位置信息。", "n001-goal"),
    ("分别是对查询向量 q q q 和键向量 k k k 的位置编码操作,目的是使得它们携带位置 m m m n n n 的信息。", "n001-goal"),
    ("表示一个与 m − n m - n mn 相关的函数。", "n001-goal"),
    ("其中, q ∗ q^* q q q q 的共轭复数。", "n001-complex-inner"),
    (r"\mathrm{Re}(f(q, m) f^*(k, n)) = g(q, k, m - n)", "n001-complex-inner"),
    (r"f(q, m) = R_f(q, m) e^{i \Theta_f(q, m)}, \quad f(k, n) = R_f(k, n) e^{i \Theta_f(k, n)}, \quad g(q, k, m - n"
     r") = R_g(q, k, m - n) e^{i \Theta_g(q, k, m - n)}",
     "n001-polar-split"),
    (r"所以我们可以设定: R f ( q , m ) = ∥ q ∥ , R f ( k , n ) = ∥ k ∥ R_f(q, m) = \| q \|, \quad R_f(k, n) = \| k \|",
     "n001-modulus"),
    ("即它们的模长不依赖于 m m m n n n", "n001-modulus"),
    (r"\Theta_f(q, m) - \Theta(q) = \Theta_f(k, m) - \Theta(k)", "n001-angle"),
    ("是一个只与 m m m 相关、与 q q q 无关的函数,记为 φ ( m ) φ(m) φ(m)。", "n001-angle"),
    (r"\Theta_f(q, m) = \Theta(q) + \varphi(m)", "n001-angle"),
    ("根据复数乘法的几何意义,该变换实际上对应着向量的旋转", "n001-solution"),
    (r"f(q, m) = \begin{pmatrix} \cos(m\theta) & -\sin(m\theta) \\ \sin(m\theta) & \cos(m\theta) \end{pmatrix} \begi"
     r"n{pmatrix} q_0 \\ q_1 \end{pmatrix}",
     "n001-solution"),
    ("公式的具体推导过程,可以参考前置数学知识里 1.4 的旋转矩阵公式里的推导过程。", "n001-complex-rotation"),
    (r"(\mathbf{R}_m \mathbf{q})^\top (\mathbf{R}_n \mathbf{k}) = \mathbf{q}^\top \mathbf{R}_m^\top \mathbf{R}_n \ma"
     r"thbf{k}",
     "n001-relative-derivation"),
    (r"Rθ=Rθ(具体证明过程可看1.6的内容)。因此: R m ⊤ = R − m \mathbf{R}_m^\top = \mathb"
     r"f{R}_{-m}", "n001-relative-derivation"),
    (r"\mathbf{q}^\top \mathbf{R}_m^\top \mathbf{R}_n \mathbf{k} = \mathbf{q}^\top \mathbf{R}_{-m} \mathbf{R}_n \mat"
     r"hbf{k}",
     "n001-relative-derivation"),
    (r"旋转矩阵的乘积对应角度的相加,即 R − m R n = R n − m \mathbf{R}_{-m} \mathbf{R}_n = \math"
     r"bf{R}_{n-m}", "n001-composition"),
    (r"\mathbf{q}^\top \mathbf{R}_{-m} \mathbf{R}_n \mathbf{k} = \mathbf{q}^\top \mathbf{R}_{n-m} \mathbf{k}",
     "n001-relative-derivation"),
    ("最终得到: ( R m q ) ⊤ ( R n k ) = q ⊤ R n − m k", "n001-relative-derivation"),
    (r"满足 R θ ⊤ R θ = I \mathbf{R}_\theta^\top \mathbf{R}_\theta = \mathbf{I} RθRθ=I,因此 R θ ⊤ ="
     r" R − θ", "n001-inverse"),
    ("使得我们可以将旋转矩阵的乘积简化为一个单一的旋转矩阵。", "n001-composition"),
    (r"\mathbf{\mathbf{R}_m \mathbf{q} \cdot \mathbf{R}_n \mathbf{k} = \mathbf{q} \cdot \mathbf{k} \cdot \cos((m - n"
     r")\theta)}",
     "n001-cross-term"),
    (r"\mathbf{q} \cdot \mathbf{k} = \|\mathbf{q}\| \|\mathbf{k}\| \cos \alpha qk=q∥∥kcosα ,其中 α \alpha α q \mathb"
     r"f{q} q k \mathbf{k} k 之间的夹角",
     "n001-lengths"),
    ("Sinusoidal的复数形式的公式如下: p m = x + y i p_m = x + y i", "n001-multiply-rotation"),
    (r"以向量形式表示为 p m = ( x y ) p_m = \begin{pmatrix} x \\ y \end{pmatrix}", "n001-multiply-rotation"),
    (r"R_m = \begin{pmatrix} \cos(m\theta_0) & -\sin(m\theta_0) & 0 & 0 & \cdots & 0 & 0 \\", "n001-pairs"),
    (r"R_m \begin{pmatrix} q_0 \\ q_1 \\ q_2 \\ q_3 \\ \vdots \\ q_{d-2} \\ q_{d-1} \end{pmatrix}", "n001-pairs"),
    ("的稀疏性,所以直接用矩阵乘法来实现会很浪费算力,推荐通过下述方式来实现RoPE:", "n001-elementwise"),
    (r"这是位置编码向量,其中 q 0 , q 1 , … , q d − 1 q_0, q_1, \ldots, q_{d-1} q0,q1,,qd1 是"
     r"位置编码向量的每一个分量。", "n001-q-description"),
    ("这是旋转角度,控制了在不同维度上的位置编码旋转程度。", "n001-theta"),
    ("是位置编码向量的总维度。", "n001-q-description"),
    ("这是表示逐位对应相乘的符号,也称为哈达玛积(Hadamard Product)。即两个向量中的对应元素按元素"
     "相乘。", "n001-elementwise"),
    ("我们将位置编码转化为旋转形式,从而实现了相对位置编码。", "n001-goal"),
    ("通过旋转,位置之间的相对关系可以被有效地编码,并且可以在计算注意力时使用。", "n001-attention-relative"))
