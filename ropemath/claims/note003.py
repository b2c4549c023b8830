r"""Ledger entries for note 003, "RoPE" (a Jupyter Book page, en).

Scope: every checkable claim of the note, section by section (the "Note" and "Tip" boxes
belong to the section they sit in).  The note uses the paper's 1-based :math:`\theta_i`.

References: "RoPE", a Jupyter Book page (no author given); Su et al., *RoFormer*,
arXiv:2104.09864 v5.
"""

from __future__ import annotations

from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Entry, note_source


def _s(section: str):
    return note_source("003", section)


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "n003-goal",
        _s("RoPE"),
        r"Requirement $f_q(x_m, m)^\top f_k(x_n, n) = g(x_m, x_n, m - n)$ — met by "
        r"$f_{\{q,k\}}(x, m) = R_m W_{\{q,k\}} x$.",
        "holds",
        R.weights_identity,
    ),
    Entry("n003-transpose", _s("2D case"), r"$R_{m\theta}^\top = R_{-m\theta}$.", "holds", R.transpose_rule),
    Entry(
        "n003-composition",
        _s("2D case"),
        r"$R_{m\theta} R_{n\theta} = R_{(m+n)\theta}$.",
        "holds",
        R.composition_rule,
    ),
    Entry(
        "n003-2d-score",
        _s("2D case"),
        r"$f_q(x_m, m)^\top f_k(x_n, n) = (R_{m\theta} W_q x_m)^\top R_{n\theta} W_k x_n = "
        r"(W_q x_m)^\top R_{(n-m)\theta} (W_k x_n)$.",
        "holds",
        R.weights_identity,
    ),
    Entry(
        "n003-ccw",
        _s("2D case"),
        r"$R_\theta v$ is the counter-clockwise rotation of $v$ through $\theta$.",
        "holds",
        R.counterclockwise,
    ),
    Entry(
        "n003-block",
        _s("General form"),
        r"Divide $\mathbb R^d$ into $d/2$ planes: $R^d_{m,\Theta} = \mathrm{diag}(R(m\theta_1), \dots, "
        r"R(m\theta_{d/2}))$.",
        "holds",
        R.pairwise_rotation,
        reading="1-based theta index (the paper's).",
    ),
    Entry(
        "n003-theta",
        _s("General form"),
        r"$\Theta = \{\theta_i = 10000^{-2(i-1)/d},\ i = 1, \dots, d/2\}$.",
        "holds",
        F.theta_one_based,
        reading="1-based, as in RoFormer eq. (15).",
    ),
    Entry(
        "n003-absolute-relative",
        _s("General form"),
        r"RoPE encodes the absolute position with a rotation matrix and yields an explicit relative-position "
        r"dependence in self-attention.",
        "holds",
        P.absolute_and_relative,
    ),
    Entry(
        "n003-theta-order",
        _s("General form"),
        r"$1 = \theta_1 > \theta_2 > \dots > \theta_{d/2}$; $\theta_1$ is the highest frequency.",
        "holds",
        F.theta_decreasing,
    ),
    Entry(
        "n003-theta-last",
        _s("General form"),
        r"$\theta_{d/2} \approx 1/10000$.",
        "holds-if",
        F.theta_range,
        condition=r"$d$ is large: $\theta_{d/2} = 10000^{-(d-2)/d} = 10000^{2/d}/10000$, about 15% above $1/10000$ at "
        r"$d = 128$ but ten times it at $d = 8$.",
    ),
    Entry(
        "n003-high-frequency",
        _s("General form"),
        r"Smaller $i$ encodes high-frequency information (information about nearby positions).",
        "holds",
        F.fast_near_slow_far,
        reading="Read as a statement about resolution: a fast pair separates neighbours but wraps around after "
        "about 6 positions.",
    ),
)
