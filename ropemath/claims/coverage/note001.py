r"""Coverage pass of note 001: every sentence with mathematical content, mapped to the entry that judges it.

Scope: :data:`COVERAGE`, rows of (the note's words, verbatim up to whitespace; the id of the entry in
:mod:`ropemath.claims.note001` that judges them or into which they are merged).  Kept apart from the
entries so that each module stays readable; ``tests/test_claims_rubric.py`` checks that every row is
verbatim and every entry is listed.

References: note 001 of :data:`ropemath.claims.ledger.NOTES`.
"""

from __future__ import annotations

# Coverage pass, sentence by sentence (formula lines count as sentences): 88 sentences with mathematical
# content, 36 entries, 52 merged (sentences judged by an entry that also judges another sentence).
# Not counted: the history of §0 (RoPE 从Sinusoidal位置编码改进而来), the setup "已知向量 q、k" of §2.8.1
# and the description of m ("m 是一个常数").
COVERAGE: tuple[tuple[str, str], ...] = (
    (r"z = r e^{i\theta} = r(\cos(\theta) + i \sin(\theta))", "n001-euler"),
    ("r r r 是复数的模, θ \\theta θ 是复数的幅角, i i i 是虚数单位。", "n001-euler"),
    (r"z_1 z_2 = r_1 r_2 e^{i(\theta_1 + \theta_2)}", "n001-complex-product"),
    (r"z^* = r e^{-i\theta}", "n001-conjugate"),
    ("用来表示一个向量绕原点旋转 θ \\theta θ 角度", "n001-rotation-matrix"),
    (r"R(\theta) = \begin{pmatrix} \cos(\theta) & -\sin(\theta) \\ \sin(\theta) & \cos(\theta) \end{pmatrix}",
     "n001-rotation-matrix"),
    (r"是由对一个二维向量$\begin{pmatrix} x \ y \end{pmatrix} 在复数平面上进行旋转", "n001-complex-rotation"),
    (r"z &= (cos(\theta) + i sin(\theta))(x + y i)", "n001-complex-rotation"),
    (r"&= (cos(\theta)x + cos(\theta)y i + sin(\theta)xi - sin(\theta)y)", "n001-complex-rotation"),
    (r"&= (cos(\theta) + sin(\theta)i)x + (-sin(\theta) + cos(\theta)i)y", "n001-complex-rotation"),
    (r"\begin{pmatrix} cos(\theta)x & -sin(\theta)y \\ sin(\theta)x & cos(\theta)y \end{pmatrix}", "n001-matrix-step"),
    (r"&= (1, i) \begin{pmatrix} cos(\theta) & -sin(\theta) \\ sin(\theta) & cos(\theta) \end{pmatrix} "
     r"\begin{pmatrix} x \\ y \end{pmatrix}", "n001-complex-rotation"),
    (r"R θ ⊤ R_{\theta}^{\top} Rθ= R − θ R_{- \theta} Rθ", "n001-transpose"),
    (r"是正交矩阵,满足 R θ ⊤ = R − θ \mathbf{R}_\theta^\top = \mathbf{R}_{-\theta} Rθ=Rθ 。", "n001-transpose"),
    (r"是正交矩阵,如果它的转置等于它的逆,即: Q ⊤ = Q − 1 \mathbf{Q}^\top = \mathbf{Q}^{-1}", "n001-inverse"),
    (r"这意味着 Q ⊤ Q = I \mathbf{Q}^\top \mathbf{Q} = \mathbf{I}", "n001-inverse"),
    ("用来将一个向量逆时针旋转角度", "n001-rotation-matrix"),
    (r"\mathbf{R}_\theta = \begin{bmatrix} \cos\theta & -\sin\theta \\ \sin\theta & \cos\theta \end{bmatrix}",
     "n001-rotation-matrix"),
    (r"\mathbf{R}_\theta^\top = \begin{bmatrix} \cos\theta & \sin\theta \\ -\sin\theta & \cos\theta \end{bmatrix}",
     "n001-transpose"),
    (r"\mathbf{R}_{-\theta} = \begin{bmatrix} \cos(-\theta) & -\sin(-\theta) \\ \sin(-\theta) & \cos(-\theta) "
     r"\end{bmatrix}", "n001-negative-angle"),
    (r"\cos(-\theta) = \cos\theta cos(θ)=cosθ sin ( − θ ) = − sin θ \sin(-\theta) = -\sin\theta",
     "n001-negative-angle"),
    (r"所以: R − θ = [ cos θ sin θ − sin θ cos θ ] \mathbf{R}_{-\theta} = \begin{bmatrix} \cos\theta & "
     r"\sin\theta \\ -\sin\theta & \cos\theta \end{bmatrix}", "n001-negative-angle"),
    ("这说明旋转矩阵的转置等于其逆矩阵,因此旋转矩阵是正交矩阵。", "n001-inverse"),
    ("我们希望通过旋转位置编码(RoPE)来将绝对位置编码转化为相对位置编码。", "n001-goal"),
    ("核心操作是通过旋转来使得位置编码携带相对位置信息。", "n001-goal"),
    ("分别是对查询向量 q q q 和键向量 k k k 的位置编码操作,目的是使得它们携带位置 m m m n n n 的信息。", "n001-goal"),
    (r"\langle f(q, m), f(k, n) \rangle = g(q, k, m - n)", "n001-goal"),
    ("表示一个与 m − n m - n mn 相关的函数。", "n001-goal"),
    (r"\langle q, k \rangle = \mathrm{Re}(q k^*)", "n001-complex-inner"),
    ("其中, q ∗ q^* q q q q 的共轭复数。", "n001-complex-inner"),
    (r"\mathrm{Re}(f(q, m) f^*(k, n)) = g(q, k, m - n)", "n001-complex-inner"),
    (r"f(q, m) = R_f(q, m) e^{i \Theta_f(q, m)}, \quad f(k, n) = R_f(k, n) e^{i \Theta_f(k, n)}, \quad "
     r"g(q, k, m - n) = R_g(q, k, m - n) e^{i \Theta_g(q, k, m - n)}", "n001-polar-split"),
    (r"R_f(q, m) R_f(k, n) = R_g(q, k, m - n), \quad \Theta_f(q, m) - \Theta_f(k, n) = \Theta_g(q, k, m - n)",
     "n001-polar-split"),
    (r"R_f(q, m) R_f(k, n) = R_g(q, k, 0) = R_f(q, 0) R_f(k, 0) = \| q \| \| k \|", "n001-modulus"),
    (r"所以我们可以设定: R f ( q , m ) = ∥ q ∥ , R f ( k , n ) = ∥ k ∥ R_f(q, m) = \| q \|, \quad R_f(k, n) = \| k \|",
     "n001-modulus"),
    ("即它们的模长不依赖于 m m m n n n", "n001-modulus"),
    (r"\Theta_f(q, m) - \Theta_f(k, m) = \Theta_g(q, k, 0) = \Theta_f(q, 0) - \Theta_f(k, 0) = \Theta(q) - \Theta(k)",
     "n001-angle"),
    (r"\Theta_f(q, m) - \Theta(q) = \Theta_f(k, m) - \Theta(k)", "n001-angle"),
    ("是一个只与 m m m 相关、与 q q q 无关的函数,记为 φ ( m ) φ(m) φ(m)。", "n001-angle"),
    (r"\Theta_f(q, m) = \Theta(q) + \varphi(m)", "n001-angle"),
    (r"\varphi(m) - \varphi(m - 1) = \Theta_g(q, k, 1) + \Theta(k) - \Theta(q)", "n001-recurrence"),
    ("是等差数列,设右端为 θ θ θ,我们得到:", "n001-arithmetic"),
    (r"\varphi(m) = m \theta", "n001-arithmetic"),
    (r"f(q, m) = R_f(q, m) e^{i \Theta_f(q, m)} = \| q \| e^{i (\Theta(q) + m \theta)} = q e^{im \theta}",
     "n001-solution"),
    ("根据复数乘法的几何意义,该变换实际上对应着向量的旋转", "n001-solution"),
    (r"f(q, m) = \begin{pmatrix} \cos(m\theta) & -\sin(m\theta) \\ \sin(m\theta) & \cos(m\theta) \end{pmatrix} "
     r"\begin{pmatrix} q_0 \\ q_1 \end{pmatrix}", "n001-solution"),
    ("公式的具体推导过程,可以参考前置数学知识里 1.4 的旋转矩阵公式里的推导过程。", "n001-complex-rotation"),
    (r"\mathbf{q}^\top \mathbf{R}_{n-m} \mathbf{k} (Rmq)(Rnk)=qRnmk 的推导过程", "n001-relative-derivation"),
    (r"(\mathbf{R}_m \mathbf{q})^\top (\mathbf{R}_n \mathbf{k}) = \mathbf{q}^\top \mathbf{R}_m^\top \mathbf{R}_n "
     r"\mathbf{k}", "n001-relative-derivation"),
    (r"Rθ=Rθ(具体证明过程可看1.6的内容)。因此: R m ⊤ = R − m \mathbf{R}_m^\top = \mathbf{R}_{-m}",
     "n001-relative-derivation"),
    (r"\mathbf{q}^\top \mathbf{R}_m^\top \mathbf{R}_n \mathbf{k} = \mathbf{q}^\top \mathbf{R}_{-m} \mathbf{R}_n "
     r"\mathbf{k}", "n001-relative-derivation"),
    (r"旋转矩阵的乘积对应角度的相加,即 R − m R n = R n − m \mathbf{R}_{-m} \mathbf{R}_n = \mathbf{R}_{n-m}",
     "n001-composition"),
    (r"\mathbf{q}^\top \mathbf{R}_{-m} \mathbf{R}_n \mathbf{k} = \mathbf{q}^\top \mathbf{R}_{n-m} \mathbf{k}",
     "n001-relative-derivation"),
    (r"最终得到: ( R m q ) ⊤ ( R n k ) = q ⊤ R n − m k", "n001-relative-derivation"),
    (r"满足 R θ ⊤ R θ = I \mathbf{R}_\theta^\top \mathbf{R}_\theta = \mathbf{I} RθRθ=I,因此 R θ ⊤ = R − θ",
     "n001-inverse"),
    (r"\mathbf{R}_\theta \mathbf{R}_\phi = \mathbf{R}_{\theta+\phi}", "n001-composition"),
    ("使得我们可以将旋转矩阵的乘积简化为一个单一的旋转矩阵。", "n001-composition"),
    (r"\mathbf{\mathbf{R}_m \mathbf{q} \cdot \mathbf{R}_n \mathbf{k} = \mathbf{q} \cdot \mathbf{k} \cdot "
     r"\cos((m - n)\theta)}", "n001-cross-term"),
    (r"\|\mathbf{R}_m \mathbf{q}\| = \|\mathbf{q}\|", "n001-lengths"),
    (r"= \|\mathbf{R}_m \mathbf{q}\| \|\mathbf{R}_n \mathbf{k}\| \cos((m - n)\theta) = \|\mathbf{q}\| "
     r"\|\mathbf{k}\| \cos((m - n)\theta)", "n001-norms-times-cos"),
    (r"\mathbf{q} \cdot \mathbf{k} = \|\mathbf{q}\| \|\mathbf{k}\| \cos \alpha qk=q∥∥kcosα ,其中 α \alpha α q "
     r"\mathbf{q} q k \mathbf{k} k 之间的夹角", "n001-lengths"),
    (r"= (\mathbf{q} \cdot \mathbf{k}) \cdot \cos((m - n)\theta)", "n001-cross-term"),
    (r"某些情况下上式也可化简为:", "n001-cos-theta"),
    ("Sinusoidal的复数形式的公式如下: p m = x + y i p_m = x + y i", "n001-multiply-rotation"),
    (r"以向量形式表示为 p m = ( x y ) p_m = \begin{pmatrix} x \\ y \end{pmatrix}", "n001-multiply-rotation"),
    ("RoPE 多了旋转操作,也就是左边多乘了", "n001-multiply-rotation"),
    ("因此 RoPE 在左边多了个旋转矩阵", "n001-multiply-rotation"),
    ("由于内积满足线性叠加性,因此任意偶数维的RoPE,我们都可以表示为二维情形的拼接", "n001-pairs"),
    (r"R_m = \begin{pmatrix} \cos(m\theta_0) & -\sin(m\theta_0) & 0 & 0 & \cdots & 0 & 0 \\", "n001-pairs"),
    (r"R_m \begin{pmatrix} q_0 \\ q_1 \\ q_2 \\ q_3 \\ \vdots \\ q_{d-2} \\ q_{d-1} \end{pmatrix}", "n001-pairs"),
    ("那么Attention就自动包含相对位置信息了", "n001-attention-relative"),
    (r"(R_m q)^\top (R_n k) = q^\top R_m^\top R_n k = q^\top R_{m-n} k", "n001-relative-sign"),
    ("是一个正交矩阵,它不会改变向量的模长", "n001-norm"),
    ("因此通常来说它不会改变原模型的稳定性。", "n001-stability"),
    ("的稀疏性,所以直接用矩阵乘法来实现会很浪费算力,推荐通过下述方式来实现RoPE:", "n001-elementwise"),
    (r"\odot \begin{pmatrix} \cos(m\theta_0) \\ \cos(m\theta_0)", "n001-elementwise"),
    ("这是位置编码向量,其中 q 0 , q 1 , … , q d − 1 q_0, q_1, \\ldots, q_{d-1} q0,q1,,qd1 是位置编码向量的每一个分量。",
     "n001-q-description"),
    ("通常 d d d 为偶数,且每个维度对应一个不同的频率。", "n001-each-dimension"),
    ("通常由某种方法(如正弦波或余弦波)生成,表示位置在某种空间中的表示。", "n001-q-description"),
    ("这是旋转角度,控制了在不同维度上的位置编码旋转程度。", "n001-theta"),
    (r"\theta_i = 10000^{\frac{-2i}{d}}", "n001-theta"),
    ("这种旋转带来远程位置编码的衰减效应,即随着维度的增加,远离当前位置的编码向量的内积趋近于0。",
     "n001-decay-dimension"),
    (r"i = \left\lfloor \frac{j}{2} \right\rfloor", "n001-pair-index"),
    ("是位置编码向量的总维度。", "n001-q-description"),
    ("这是表示逐位对应相乘的符号,也称为哈达玛积(Hadamard Product)。即两个向量中的对应元素按元素相乘。",
     "n001-elementwise"),
    ("RoPE 可以视为是乘性位置编码的变体。", "n001-multiplicative"),
    ("我们将位置编码转化为旋转形式,从而实现了相对位置编码。", "n001-goal"),
    ("通过旋转,位置之间的相对关系可以被有效地编码,并且可以在计算注意力时使用。", "n001-attention-relative"),
)
