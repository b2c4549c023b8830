"""Coverage of note 003 (see :mod:`ropemath.claims.coverage`).

References: note 003 of :data:`ropemath.claims.ledger.NOTES`.
"""

from __future__ import annotations

# Coverage pass (sentence by sentence): 17 sentences or formula lines with mathematical content, 12 entries,
# 6 of the 17 merged into an entry that judges a neighbouring line (marked "merged"). Left out: the figure link.
COVERAGE: tuple[tuple[str, str], ...] = (
    (
        "Transformer-based language modeling usually leverages the position information of individual tokens "
        "through a self-attention mechanism.",
        "n003-knowledge-transfer",
    ),  # merged
    (r"typically enables knowledge transfer between tokens at different positions.", "n003-knowledge-transfer"),
    (
        r"we require the inner product of query \(\mathbf{q}_{m}\) and key \(\mathbf{k}_{n}\) to be formulated by "
        r"a function \(g\)",
        "n003-goal",
    ),  # merged
    (r"f_{k}(\mathbf{x}_{n}, n) = g(\mathbf{x}_{m}, \mathbf{x}_{n}, m-n)\]", "n003-goal"),
    (r"\mathbf{R}_{m\theta} &= \begin{pmatrix} \cos m\theta & -\sin m\theta", "n003-ccw"),  # merged
    (r"\mathbf{R}_{m\theta}^{\intercal} &= \mathbf{R}_{-m\theta}", "n003-transpose"),
    (r"\mathbf{R}_{m\theta}\mathbf{R}_{n\theta} &= \mathbf{R}_{(m+n)\theta}", "n003-composition"),
    (r"f_{q}(\mathbf{x}_{m}, m) &= \mathbf{R}_{m\theta}\mathbf{W}_{q}\mathbf{x}_{m}", "n003-2d-score"),  # merged
    (r"&= (\mathbf{W}_{q}\mathbf{x}_{m})^{\intercal}\mathbf{R}_{(n-m)\theta}", "n003-2d-score"),
    (r"equals counterclockwise rotation of \(\mathbf{v}\) through angle \(\theta\).", "n003-ccw"),
    (r"we divide the d-dimensional space into \(d/2\) sub-spaces:", "n003-block"),
    (r"R_{m,\Theta}^{d} = \begin{pmatrix} \cos m\theta_{1} & -\sin m\theta_{1}", "n003-block"),  # merged
    (r"\(\Theta = \{\theta_{i}=10000^{-2(i-1)/d},i\in[1,2,\dots,d/2]\}\)", "n003-theta"),
    (r"RoPE encodes the absolute position with a rotation matrix", "n003-absolute-relative"),
    (r"\[1 = \theta_{1} > \theta_{2} > \dots > \theta_{d/2}", "n003-theta-order"),
    (r"\theta_{d/2} \approx \frac{1}{10000}\]", "n003-theta-last"),
    (r"\(\theta_{1}\) corresponds to the highest frequency.", "n003-theta-order"),  # merged
    (r"Smaller \(i\) encodes high frequency information (information nearby).", "n003-high-frequency"),
)
