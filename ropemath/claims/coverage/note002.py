"""Coverage of note 002 (see :mod:`ropemath.claims.coverage`).

References: note 002 of :data:`ropemath.claims.ledger.NOTES`.
"""

from __future__ import annotations

# the two displayed formulas of §4 and §4.1, whitespace-normalised (the rubric test compares normalised text)
_MATRIX_DISPLAY = (
    r"\boldsymbol{R}_{\Theta, m}^d = \begin{pmatrix} \cos m\theta_1 & -\sin m\theta_1 & 0 & 0 & "
    r"\cdots & 0 & 0 \\ \sin m\theta_1 & \cos m\theta_1 & 0 & 0 & \cdots & 0 & 0 \\ 0 & 0 & \cos "
    r"m\theta_2 & -\sin m\theta_2 & \cdots & 0 & 0 \\ 0 & 0 & \sin m\theta_2 & \cos m\theta_2 & "
    r"\cdots & 0 & 0 \\ \vdots & \vdots & \vdots & \vdots & \ddots & \vdots & \vdots \\ 0 & 0 & 0 & 0 "
    r"& \cdots & \cos m\theta_{d/2} & -\sin m\theta_{d/2} \\ 0 & 0 & 0 & 0 & \cdots & \sin "
    r"m\theta_{d/2} & \cos m\theta_{d/2} \end{pmatrix}"
)
_ELEMENTWISE_DISPLAY = (
    r"R_m q = \begin{pmatrix} q_0 \\ q_1 \\ q_2 \\ q_3 \\ q_4 \\ \vdots \\ q_{d-2} \\ q_{d-1} "
    r"\end{pmatrix} \otimes \begin{pmatrix} \cos m\theta_0 \\ \cos m\theta_0 \\ \cos m\theta_1 \\ "
    r"\cos m\theta_1 \\ \vdots \\ \cos m\theta_{d/2-1} \\ \cos m\theta_{d/2-1} \end{pmatrix} + "
    r"\begin{pmatrix} -q_1 \\ q_0 \\ -q_3 \\ \vdots \\ -q_{d-1} \\ q_{d-2} \end{pmatrix} \otimes "
    r"\begin{pmatrix} \sin m\theta_0 \\ \sin m\theta_0 \\ \sin m\theta_1 \\ \sin m\theta_1 \\ \sin "
    r"m\theta_1 \\ \vdots \\ \sin m\theta_{d/2-1} \\ \sin m\theta_{d/2-1} \end{pmatrix}"
)
_NORM_ANGLE = (
    "旋转是一种**正交变换**,它不会改变向量的模长(长度),也不会改变两个向量之间的相对角度"
    "(如果它们都以相同的方式或基于位置差异的方式旋转)."
)
_SPARSE = "上面这个矩阵在高维时相当稀疏,因此工程实现中常用下面这个"

# Coverage pass (sentence by sentence): 92 sentences or formula lines with mathematical content, 35 entries
# (39 sentences are quoted by an entry), 53 sentences merged into an entry that quotes another sentence.
# Rows: (verbatim fragment, entry id); a sentence judged by two entries has a row for each.
COVERAGE: tuple[tuple[str, str], ...] = (
    ("是当前解决此问题的最先进、最主流的方法", "n002-long-sequences"),
    ("它通过一种优雅的数学方式,将相对位置信息编码到自注意力机制中.", "n002-relative-angle"),
    ("RoPE的核心:向量之间的点积只和夹角有关", "n002-dot-angle"),
    ("因此在做任何变换的时候保证相对位置不变即可在不丢失语义的情况下", "n002-no-loss"),
    ("自注意力的核心是计算查询(Query)和键(Key)向量之间的点积,以得到注意力分数.", "n002-goal"),
    ("一个理想的位置编码方案应该使得这个点积只依赖于两个词的**内容**和它们的**相对位置**", "n002-goal"),
    ("`<f(x, i), f(y, j)> = g(x, y, i - j)`", "n002-goal"),
    ("其中 `<,>` 代表点积,`g` 是某个只依赖于相对位置`i - j`的函数.", "n002-goal"),
    (r"=g(\boldsymbol{q}_m,\boldsymbol{k}_n,m-n)$", "n002-goal"),
    (r"其中 $\boldsymbol{k}_n$是在位置 m的query向量", "n002-kn-query"),
    ("我们的任务就是要找到一组 $f_q,f_k$和 g,使得上式成立", "n002-goal"),
    ("早期的位置编码方法**无法**完美实现这一点:", "n002-additive-leak"),
    ("`f(x, i) = token_embedding(x) + pos_embedding(i)`", "n002-additive-leak"),
    ("点积展开后会包含与绝对位置`i`和`j`相关的交叉项,泄露了绝对位置信息.", "n002-additive-leak"),
    ("**正弦/余弦位置编码 (原始Transformer)**: 同样是加性嵌入,存在类似问题.", "n002-sinusoidal-leak"),
    ("对加性位置编码的线性分解,会暴露出与绝对位置 i 和 j 相关的独立项.", "n002-four-terms"),
    ("输入: $h_i = TokenEmb(i) + PosEmb(i) $", "n002-four-terms"),
    ("点积: $Score(i, j) = <h_i * W_Q, h_j * W_K> $", "n002-four-terms"),
    ("展开这个点积会包含一个纯粹由绝对位置向量构成的项:$<PosEmb(i) * W_Q, PosEmb(j) * W_K>$", "n002-four-terms"),
    ("在这个计算中,PosEmb(i) 和 PosEmb(j) 作为独立的向量直接参与运算.", "n002-position-term"),
    ("没有任何数学结构强制它们的结果只与相对位置 i-j 有关.", "n002-position-term"),
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
    ("**两个向量的点积在它们被同时旋转相同角度后保持不变**", "n002-same-rotation"),
    ("它不把位置信息作为加性向量,而是将位置信息视为一个**旋转操作**.", "n002-not-additive"),
    ("其最终的向量 `f(x, m)` 是通过将词嵌入向量 `x` **旋转**一个角度 `m * θ` 得到的.", "n002-relative-angle"),
    ("其最终的向量 `f(y, n)` 是通过将词嵌入向量 `y` **旋转**一个角度 `n * θ` 得到的.", "n002-relative-angle"),
    ("当计算它们的注意力分数时,实际上是计算旋转后的向量的点积.", "n002-relative-angle"),
    ("即 `(m * θ) - (n * θ) = (m - n) * θ`", "n002-relative-angle"),
    ("这样,注意力分数就只依赖于相对位置 `m - n` 了.", "n002-relative-angle"),
    ("只要它们的相对距离保持不变,它们对应的旋转后向量之间的夹角就保持不变,从而点积(注意力分数)也保持稳定.",
     "n002-relative-angle"),
    ("如果单词(token)在句子序列中的相对位置变化了,那么它们的注意力分数也会随之变化", "n002-converse"),
    ("反之则不变,真正做到了注意力分数只与m-n有关,即m-n计算出的那个夹角", "n002-relative-angle"),
    ("在二维空间中,旋转是唯一的.", "n002-2d-unique"),
    ("但在高维的词嵌入空间中(例如`d_model = 4096`),旋转的定义很复杂.", "n002-2d-unique"),
    ("**分组**: 将`d`维的向量两两一组,看作`d/2`个二维平面(或复数).", "n002-grouping"),
    ("高维的“旋转”(叫变换)矩阵有多个小旋转矩阵组成", "n002-block-rotation"),
    ("**独立旋转**: 在每个二维平面上独立地进行旋转.", "n002-block-rotation"),
    ("**不同频率**: 为每个二维平面分配一个不同的旋转“基频” `θ_k`.", "n002-frequencies"),
    ("这些频率通常被设计成从高频到低频排列(`θ_k = 10000^(-2k/d)`),与原始Transformer的正弦编码类似.",
     "n002-frequencies"),
    ("这使得模型既能通过quick rotate捕捉到近距离的精细位置关系(高频)", "n002-near-far"),
    ("(以及通过不quick 也不 slow的信息捕捉不那么远的频率不高不低的临近信息)", "n002-near-far"),
    ("进行角度 `mθ` 的旋转,等价于左乘一个2x2的旋转矩阵.", "n002-rotation-2d"),
    ("对于`d`维向量,这个操作等价于左乘一个块对角矩阵,其中每个对角块都是一个2x2的旋转矩阵.", "n002-rotation-2d"),
    (r"\boldsymbol{R}_{\theta, m}^d \boldsymbol{W}_{{q,k}} \boldsymbol{x}_m$", "n002-f-definition"),
    (_MATRIX_DISPLAY, "n002-index-shift"),
    (r"$f_{{q,k}}(\boldsymbol{x}_m, m)$就是计算出的注意力分数", "n002-f-is-score"),
    ("$W_{q,k}x_m$是注意力权重*嵌入词向量", "n002-f-is-score"),
    (r"$\boldsymbol{R}_{\Theta, m}^d$是旋转的矩阵(变换矩阵)", "n002-rotation-2d"),
    (_SPARSE, "n002-sparse"),
    (_SPARSE, "n002-index-shift"),
    (_ELEMENTWISE_DISPLAY, "n002-elementwise"),
    ("在实践中,RoPE**并非在输入层一次性完成,而是在每个Transformer层的自注意力模块内部动态应用**.",
     "n002-inside-attention"),
    ("当计算注意力时,模型会先生成常规的Q和K向量.", "n002-inside-attention"),
    ("然后,根据每个token的位置,实时计算出对应的旋转矩阵(或等效的乘法因子).", "n002-elementwise-code"),
    ("将这个旋转操作分别应用到Q和K向量上,得到旋转后的$Q_{rot}$和$K_{rot}$.", "n002-rotated-scores"),
    ("来计算注意力分数 $softmax(Q_{rot} * K_{rot}^T / sqrt(d_k))$.", "n002-rotated-scores"),
    ("Llama的实现中 在每层计算注意力分数前都给kq向量加上了位置信息", "n002-inside-attention"),
    ("都会对输入的向量进行复杂的线性变换和非线性激活.", "n002-every-layer"),
    ("如果只在输入层添加一次位置信息,随着层数加深,这些原始的位置信息会不断被新的语义特征所稀释、混合",
     "n002-every-layer"),
    ("RoPE 编码的是**相对位置**信息.", "n002-relative-angle"),
    ("在每一层重新应用 RoPE,能够确保无论当前层学习到何种复杂的特征", "n002-every-layer"),
    ("RoPE 不会损失语义信息,反而是在语义信息的基础上**叠加和增强**了位置信息.", "n002-no-loss"),
    ("这得益于其数学本质是一种**旋转变换**:", "n002-no-loss"),
    ("RoPE 的核心是利用向量的旋转操作.", "n002-no-loss"),
    (_NORM_ANGLE, "n002-norm-angle"),
    (_NORM_ANGLE, "n002-angle-different"),
    ("向量的模长和相对角度在语义表示中至关重要,它们通常编码了词的重要性或与其他词的相似度.", "n002-semantic-norms"),
    ("能够自然地表达为原始语义相似度与它们**相对位置**的函数.", "n002-similarity"),
    ("能够同时考虑它们的语义内容和它们之间的相对距离,而不是单纯地改变词的含义.", "n002-similarity"),
    ("RoPE 并非“修改”或“替换”了词的原始语义嵌入,而是在其之上增加了位置维度上的“上下文”.", "n002-no-loss"),
    ("加一次是**不够的**.是的,位置信息会随着层数增加而**衰减**.", "n002-every-layer"),
    ("深层的注意力机制将难以有效利用这些信息.", "n002-every-layer"),
    ("原始的位置信息会被逐渐“洗掉”或“模糊化”.", "n002-every-layer"),
    ("自注意力层会将所有 token 的信息进行加权平均,前馈网络层则进行非线性变换.", "n002-weighted-average"),
    ("使得最初注入的、相对离散的位置信号在多层传播后变得稀薄.", "n002-every-layer"),
    ("因此,在每一层都重新应用 RoPE,就像在每一层都重新“滴入”了位置信息的墨水", "n002-every-layer"),
    ("Flash attention 要求输入数据的形状为 [batch_size x seq_length x head_dim x hidden_dim]", "n002-shape-comment"),
    ("因此需要调整形状以保持原始维度,通常会重塑并转置,以适应多头注意力的计算", "n002-shape-comment"),
    ("self.rotary_emb 负责生成旋转位置编码的 cos 和 sin 分量.", "n002-elementwise-code"),
    ("position_ids: 通常是序列中每个token的绝对位置索引,用于计算不同位置的旋转角度.", "n002-relative-angle"),
    ("但实际生成cos/sin是基于位置ID的.", "n002-elementwise-code"),
    ("apply_rotary_pos_emb 函数将上面生成的 cos 和 sin 分量应用到 Query 和 Key 向量上.", "n002-elementwise-code"),
    ("这通过元素的乘法和加法实现向量的旋转,从而在嵌入中引入位置信息.", "n002-elementwise-code"),
    ("Value 向量通常不直接应用 RoPE,因为 RoPE 主要影响 QK 相似度计算.", "n002-values"),
    ("后续的注意力计算(如 QK^T / sqrt(d_k) -> softmax -> * V)", "n002-rotated-scores"),
    ("核心强调:RoPE 在计算注意力分数前对 Q 和 K 进行了处理.", "n002-inside-attention"),
    ("这种在注意力计算时即时应用的“侵入式”方法,是保证相对位置编码有效性的关键.", "n002-inside-attention"),
    ("RoPE因其理论的优雅性和在长序列建模上的卓越表现,已成为现代LLM架构的黄金标准.", "n002-long-sequences"),
)
