r"""Ledger entries for note 003, "RoPE" (a Jupyter Book page, en), in the note's order.

The note uses the paper's 1-based :math:`\theta_i` and writes :math:`\mathbf R_{m\theta} = R(m\theta)`.

References: "RoPE", a Jupyter Book page (no author given); Su et al., *RoFormer*, arXiv:2104.09864 v5.
"""

from __future__ import annotations

from ropemath.claims import checks_attention as A
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Entry, note_entry

__all__ = ["ENTRIES", "MERGED"]

entry = note_entry("003")

ENTRIES: tuple[Entry, ...] = (
    entry("n003-goal", "RoPE", "holds", R.weights_identity,
        r"Requirement $f_q(x_m, m)^\top f_k(x_n, n) = g(x_m, x_n, m - n)$ — met by $f_{\{q,k\}}(x, m) = R_m "
        r"W_{\{q,k\}} x$.",
        reading="The note states a requirement; the entry judges that the f of the sections '2D case' and 'General "
        "form' meets it.",
        quote=r"\[f_{q}(\mathbf{x}_{m}, m)^{\intercal}f_{k}(\mathbf{x}_{n}, n) = g(\mathbf{x}_{m}, \mathbf{x}_{n}, "
        r"m-n)\]"),
    entry("n003-knowledge-transfer", "RoPE", "not-checkable", A.empirical,
        r"Language models use token positions through self-attention, where $q_m^\top k_n$ 'enables knowledge "
        r"transfer between tokens at different positions'.",
        reason="What trained attention does with the scores ('knowledge transfer', 'usually leverages') describes "
        "trained models and common practice; beyond the score q_m^T k_n itself (judged in n003-goal) it states no "
        "formula a computation could test.",
        quote=r"\(\mathbf{q}_{m}^{\intercal}\mathbf{k}_{n}\) typically enables knowledge transfer between tokens at "
        r"different positions."),
    entry("n003-transpose", "2D case", "holds", R.transpose_rule,
        r"$R_{m\theta}^\top = R_{-m\theta}$.", quote=r"\mathbf{R}_{m\theta}^{\intercal} &= \mathbf{R}_{-m\theta}"),
    entry("n003-composition", "2D case", "holds", R.composition_rule,
        r"$R_{m\theta} R_{n\theta} = R_{(m+n)\theta}$.",
        quote=r"\mathbf{R}_{m\theta}\mathbf{R}_{n\theta} &= \mathbf{R}_{(m+n)\theta}"),
    entry("n003-2d-score", "2D case", "holds", R.weights_identity,
        r"$f_q(x_m, m)^\top f_k(x_n, n) = (R_{m\theta} W_q x_m)^\top R_{n\theta} W_k x_n = (W_q x_m)^\top "
        r"R_{(n-m)\theta} (W_k x_n)$.",
        reading=r"The transpose is on the product $W_q x_m$, so $W_q^\top$ is there (unlike note 000's $x_m^\top W_q "
        r"R_{n-m}$).",
        quote=r"\[\begin{split} \begin{aligned} f_{q}(\mathbf{x}_{m}, m)^{\intercal}f_{k}(\mathbf{x}_{n}, n) &= "
        r"(\mathbf{R}_{m\theta}\mathbf{W}_{q}\mathbf{x}_{m})^{\intercal}\mathbf{R}_{n\theta}\mathbf{W}_{k}\mathbf{x}_{"
        r"n} \\ &= (\mathbf{W}_{q}\mathbf{x}_{m})^{\intercal}\mathbf{R}_{(n-m)\theta}(\mathbf{W}_{k}\mathbf{x}_{n}) "
        r"\end{aligned} \end{split}\]"),
    entry("n003-ccw", "2D case", "holds", R.counterclockwise,
        r"$R_\theta v$, with $R_\theta = \begin{pmatrix}\cos\theta & -\sin\theta\\ \sin\theta & "
        r"\cos\theta\end{pmatrix}$, is the counter-clockwise rotation of $v$ through $\theta$.",
        quote=r"\( \mathbf{R}_{\theta}\mathbf{v}\) equals counterclockwise rotation of \(\mathbf{v}\) through angle "
        r"\(\theta\)."),
    entry("n003-block", "General form", "holds", R.pairwise_rotation,
        r"For even $d$, divide $\mathbb R^d$ into $d/2$ planes: $R^d_{m,\Theta} = \mathrm{diag}(R(m\theta_1), \dots, "
        r"R(m\theta_{d/2}))$ rotates each pair independently.",
        reading="1-based theta index (the paper's); adjacent pairs (the interleaved layout).",
        quote=r"In order to generalize our results in 2D to any \(\mathbf{x}_{i}\in\mathbb{R}^{d}\) where \(d\) is "
        r"even, we divide the d-dimensional space into \(d/2\) sub-spaces:"),
    entry("n003-theta", "General form", "holds", F.theta_one_based,
        r"$\Theta = \{\theta_i = 10000^{-2(i-1)/d},\ i = 1, \dots, d/2\}$.",
        reading="1-based, as in RoFormer eq. (15).",
        quote=r"is the rotary matrix with pre-defined parameters \(\Theta = "
        r"\{\theta_{i}=10000^{-2(i-1)/d},i\in[1,2,\dots,d/2]\}\)."),
    entry("n003-absolute-relative", "General form", "holds", P.absolute_and_relative,
        "RoPE encodes the absolute position with a rotation matrix and yields an explicit relative-position "
        "dependence in self-attention.",
        quote="RoPE encodes the absolute position with a rotation matrix and meanwhile incorporates the explicit "
        "relative position dependency in self-attention formulation."),
    entry("n003-theta-order", "General form", "holds", F.theta_decreasing,
        r"$1 = \theta_1 > \theta_2 > \dots > \theta_{d/2}$; $\theta_1$ is the highest frequency.",
        reading=r"1-based: the note's $\theta_1$ is ropemath's $\theta_0$.",
        quote=r"\[1 = \theta_{1} > \theta_{2} > \dots > \theta_{d/2} \approx \frac{1}{10000}\]"),
    entry("n003-theta-last", "General form", "holds-if", F.theta_range,
        r"$\theta_{d/2} \approx 1/10000$.",
        condition=r"$d$ is large: $\theta_{d/2} = 10000^{-(d-2)/d} = 10000^{2/d}/10000$, within 20% of $1/10000$ only "
        r"for $d \ge 102$ (15% above it at $d = 128$) but ten times it at $d = 8$.",
        quote=r"\[1 = \theta_{1} > \theta_{2} > \dots > \theta_{d/2} \approx \frac{1}{10000}\]"),
    entry("n003-high-frequency", "General form", "holds", F.fast_near_slow_far,
        "Smaller $i$ encodes high-frequency information (information about nearby positions).",
        reading="Read as a statement about resolution: a fast pair separates neighbours but wraps around after about "
        "6 positions.",
        quote=r"Smaller \(i\) encodes high frequency information (information nearby)."))

MERGED: tuple[tuple[str, str], ...] = (
    ("Transformer-based language modeling usually leverages the position information of individual tokens "
     "through a self-attention mechanism.", "n003-knowledge-transfer"),
    (r"we require the inner product of query \(\mathbf{q}_{m}\) and key \(\mathbf{k}_{n}\) to be formulated "
     r"by a function \(g\)", "n003-goal"),
    (r"\mathbf{R}_{m\theta} &= \begin{pmatrix} \cos m\theta & -\sin m\theta", "n003-ccw"),
    (r"f_{q}(\mathbf{x}_{m}, m) &= \mathbf{R}_{m\theta}\mathbf{W}_{q}\mathbf{x}_{m}", "n003-2d-score"),
    (r"R_{m,\Theta}^{d} = \begin{pmatrix} \cos m\theta_{1} & -\sin m\theta_{1}", "n003-block"),
    (r"\(\theta_{1}\) corresponds to the highest frequency.", "n003-theta-order"))
