"""Coverage of note 000 (see :mod:`ropemath.claims.coverage`).

References: note 000 of :data:`ropemath.claims.ledger.NOTES`.
"""

from __future__ import annotations

# Coverage pass (sentence by sentence): 31 sentences or formula lines with mathematical content, 22 entries,
# 12 of the 31 merged into an entry that judges a neighbouring line (marked "merged"). Left out as not
# mathematical: the heading line "舊的 Position-agnostic 編碼法分別有:", the list labels and the Reference block.
COVERAGE: tuple[tuple[str, str], ...] = (
    (r"pi,2t=sin(k/100002t/d)p_{i,2t} = \sin(k/10000^{2t/d})", "n000-sinusoidal"),
    ("但這種編碼只是把位置資訊加入上下文表示, 一樣不適用線性注意力架構:", "n000-xl-not-linear"),
    (r"\phi(\boldsymbol{k}_n) \boldsymbol{v}_n^\top \right)}{\phi(\boldsymbol{q}_m)^\top", "n000-linear-attention"),
    ("Transformer-XL 的相對位置編碼同時依賴", "n000-xl-not-linear"),  # merged
    (r"\boldsymbol{k}_n + \boldsymbol{q}_m^\top \boldsymbol{r}_{m-n}", "n000-xl-not-linear"),  # merged
    (r"若使用線性注意力就沒辦法預先求出 n\sum_n:", "n000-xl-not-linear"),
    (r"\phi(\boldsymbol{k}_n + \boldsymbol{r}_{m-n}) \boldsymbol{v}_n", "n000-xl-not-linear"),  # merged
    ("所以最後又變回 O(N2)O (N^2)", "n000-xl-not-linear"),  # merged
    (r"\mathbb{S}_N = \{w_i\}_{i=1}^{N}", "n000-definitions"),  # merged
    (r"\boldsymbol{x}_i \in \mathbb{R}^d", "n000-definitions"),
    (r"a_{m,n} = \frac{\exp(\boldsymbol{q}_m^\top \boldsymbol{k}_n / \sqrt{d})}", "n000-attention"),
    ("RoPE: 將 Query 與 Key 的內積轉為只有相對位置資訊:", "n000-goal"),  # merged
    (r"\rangle = g(\boldsymbol{x}_m, \boldsymbol{x}_n, m-n)", "n000-goal"),
    ("用複數的基本性質可以求得:", "n000-2d-complex"),  # merged
    (r"\mathrm{Re}[(W_q \boldsymbol{x}_m)(W_k \boldsymbol{x}_n)^* e^{i(m-n)\theta}]", "n000-2d-complex"),
    ("先把整個體分成 d/2d/2 個二維空間:", "n000-definitions"),  # merged: the split needs an even d
    (r"= \boldsymbol{R}_{\Theta,m}^d W_{\{q,k\}} \boldsymbol{x}_m", "n000-block-diagonal"),  # merged
    (r"\boldsymbol{R}_{\Theta,m}^d = \begin{pmatrix} \cos m\theta_1 & -\sin m\theta_1", "n000-block-diagonal"),
    (r"\Theta = \{\theta_i = 10000^{-2(i-1)/d}, i \in [1, 2, \ldots, d/2]\}", "n000-theta"),
    (r"= \boldsymbol{x}_m^\top W_q \boldsymbol{R}_{\Theta,n-m}^d W_k \boldsymbol{x}_n", "n000-weights-transpose"),
    (r"\boldsymbol{R}_{\Theta,n-m}^d = (\boldsymbol{R}_{\Theta,m}^d)^\top", "n000-relative-matrix"),
    ("利用旋轉矩陣稀疏性實作高效能計算:", "n000-elementwise"),  # merged
    (r"\end{pmatrix} \otimes \begin{pmatrix} \cos m\theta_1", "n000-elementwise"),
    (r"\boldsymbol{k}_{[2i:2i+1]}^* e^{i(m-n)\theta_i}\right]", "n000-decay-complex"),
    ("相對距離增加時, 內積值會衰減, 與自然語言的性質很類似", "n000-decay"),
    (r"\mathrm{sim}(\boldsymbol{q}_m, \boldsymbol{k}_n) \boldsymbol{v}_n}", "n000-attention"),  # merged
    (r"\phi(\boldsymbol{q}_m)^\top \varphi(\boldsymbol{k}_n) \boldsymbol{v}_n}", "n000-linear-attention"),  # merged
    ("RoPE 保持向量範數不變", "n000-norm-preserved"),
    ("RoPE 保持向量範數不變, 因此可以與線性注意力結合:", "n000-linear-rope-reason"),
    (r"(\boldsymbol{R}_{\Theta,n}^d \varphi(\boldsymbol{k}_n)) \boldsymbol{v}_n}", "n000-linear-rope-form"),
    ("使用乘法方式編碼位置", "n000-multiplicative"),
    ("不需要預定義最大序列長度", "n000-no-max-length"),
    ("且天然支持外推到更長序列", "n000-extrapolation"),
    ("旋轉矩陣是正交矩陣", "n000-orthogonal"),
    ("可以確保編碼的數值穩定性", "n000-stability"),
)
