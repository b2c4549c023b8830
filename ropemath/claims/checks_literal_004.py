r"""Checks of note 004 read as written: ``k`` for the position, "p_{i,2t} is the odd dimension", T5's bias
indexed by absolute positions, :math:`W_q x_n`, "SDPA is the inner product", "R is sparse, so inefficient".

>>> t5_bias_literal().verdict, t5_bias_literal(indexed_by="distance").verdict
('fails', 'holds')

References: note 004 (DaNing, CC BY 4.0); Vaswani et al. (2017) §3.5; Raffel et al. (T5, 2020) §2.1;
Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (2), (12)-(13).
"""

from __future__ import annotations

import numpy as np

from ropemath.attention.softmax import rope_attention_weights, rope_softmax_attention
from ropemath.claims._verdict import GAP, TOL, identity, num, refuted, shift_change, within_tol
from ropemath.claims.ledger import Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import rotation_matrix
from ropemath.theory.encodings import relative_bias, sinusoidal_encoding

__all__ = [
    "angle_represents_position", "initial_projection_literal", "parity_literal", "sdpa_is_inner_product",
    "sparse_is_inefficient", "t5_bias_literal",
]


def parity_literal(*, count_from: int = 0) -> Outcome:
    r"""Refutes ":math:`p_{i,2t}, p_{i,2t+1}` are the odd and even dimensions", dimensions numbered by subscript.

    The subscripts start at 0 (:math:`t = 0` gives the frequency 1), so :math:`2t` is even; the sines sit at
    odd-numbered dimensions only when the dimensions are counted from 1.
    """
    d = 8
    p = sinusoidal_encoding(1.0, d)
    omega = [10000.0 ** (-2 * t / d) for t in range(d // 2)]
    # locate each sin(omega_t) and cos(omega_t) in p by value (0-based array index), without assuming where they are
    sines = sorted(int(np.argmin(np.abs(p - np.sin(w)))) for w in omega)
    cosines = sorted(int(np.argmin(np.abs(p - np.cos(w)))) for w in omega)
    numbered = [s + count_from for s in sines]
    ok = all(n % 2 == 1 for n in numbered) and all((c + count_from) % 2 == 0 for c in cosines)
    corrected = all(s % 2 == 0 for s in sines) and all((s + 1) % 2 == 1 for s in sines)
    example = {"d": d, "subscripts 2t of the sines": sines, "dimension numbers (from 0)": sines, "stated parity": "odd"}
    return Outcome(
        "holds" if ok else "fails",
        f"At position 1 (d = 8) the sines sin(omega_t) sit at subscripts {sines} and the cosines at {cosines}; "
        f"numbered from {count_from} the sine dimensions are {numbered}. Correction: the sines p_(i,2t) are the "
        f"even subscripts 2t, i.e. the odd-numbered dimensions only when counting from 1 "
        f"({'checked' if corrected else 'NOT so'}).",
        None if ok else example,
        bool(corrected),
    )


def t5_bias_literal(*, indexed_by: str = "absolute") -> Outcome:
    r"""Refutes ":math:`q_m^\top k_n = x_m^\top W_q^\top W_k x_n + b_{i,j}` is relative", b a table over (i, j).

    The plug-in table is :math:`b_{i,j} = (i + 2j)/10`; the correction is a bias of the distance,
    :math:`b_{i-j}` (:func:`ropemath.theory.encodings.relative_bias`), which a common shift cannot change.
    """
    rng = np.random.default_rng(60)  # seed 60
    N, d = 8, 4
    x, wq, wk = np.tile(rng.standard_normal(d), (N + 3, 1)), *rng.standard_normal((2, d, d))  # one token everywhere
    table = rng.standard_normal(2 * N + 1)  # b_r for r = -N..N

    def score(pos: np.ndarray) -> np.ndarray:
        idx = pos.astype(int)
        content = (x[idx] @ wq.T) @ (x[idx] @ wk.T).T
        if indexed_by == "absolute":
            return content + (idx[:, None] + 2 * idx[None, :]) / 10
        return content + relative_bias(pos, table)

    def relative(pos: np.ndarray) -> np.ndarray:
        idx = pos.astype(int)
        return (x[idx] @ wq.T) @ (x[idx] @ wk.T).T + relative_bias(pos, table)

    S = score(np.arange(5.0))
    gap = float(S[1, 0] - S[4, 3])
    corr = shift_change(relative, np.arange(N, dtype=float), 3.0)
    example = {
        "b_(i,j)": "(i + 2 j) / 10", "x_i": "the same token at every position (seed 60)", "i - j": 1,
        "score(1, 0) - score(4, 3)": num(gap),
    }
    broken = abs(gap) > GAP
    return Outcome(
        "fails" if broken else "holds",
        f"Bias indexed by {indexed_by}: with the same token everywhere, score(1, 0) - score(4, 3) = {num(gap)}, "
        f"and i - j = 1 in both. Correction b_(i-j) (ropemath.theory.encodings.relative_bias): shifting all 8 "
        f"positions by 3 changes the scores by {within_tol(corr)} (relative).",
        example if broken else None,
        bool(corr <= TOL),
    )


def initial_projection_literal(*, token: str = "n") -> Outcome:
    r"""Refutes :math:`q = f_q(x_m, 0) = W_q x_n` (the note's line); :math:`f_q(x_m, 0) = W_q x_m`.

    :math:`f_q(x_m, 0)` is the note's own final form :math:`(W_q x_m)e^{i0\theta}`, computed as RoPE at
    position 0 (:func:`ropemath.core.apply.apply_rope`); plug-in values :math:`W_q = [[2, 1], [0, 1]]`,
    :math:`x_m = (1, 0)`, :math:`x_n = (0, 1)`.
    """
    wq = np.array([[2.0, 1.0], [0.0, 1.0]])
    x = {"m": np.array([1.0, 0.0]), "n": np.array([0.0, 1.0])}
    f_q0 = apply_rope(wq @ x["m"], 0.0, layout="interleaved", base=10000.0)
    stated = wq @ x[token]
    rng = np.random.default_rng(61)  # seed 61: the correction for random W_q, x_m
    corr = 0.0
    for _ in range(10):
        w, xm = rng.standard_normal((2, 2)), rng.standard_normal(2)
        corr = max(corr, float(np.max(np.abs(apply_rope(w @ xm, 0.0, layout="interleaved", base=10000.0) - w @ xm))))
    out = refuted(
        float(stated[0]), float(f_q0[0]),
        {"W_q": [[2.0, 1.0], [0.0, 1.0]], "x_m": [1.0, 0.0], "x_n": [0.0, 1.0], "coordinate": 0}, corr,
        f"first coordinate of W_q x_{token} vs f_q(x_m, 0) = (W_q x_m) e^(i 0 theta)",
    )
    return Outcome(
        out.verdict,
        f"{out.evidence} (W_q x_{token} = {num(stated)}, f_q(x_m, 0) = {num(f_q0)}; the correction "
        "W_q x_m = f_q(x_m, 0) is checked for 10 random W_q, x_m, seed 61.)",
        out.counterexample,
        out.correction_holds,
    )


def angle_represents_position(*, per_position: float = 1.0) -> Outcome:
    r"""For d = 2, RoPE turns a vector through :math:`m\theta` (θ = 1): the angle tells the position apart.

    For :math:`m = -50, \dots, 50` the angle from x to :math:`R(m\theta)x` equals :math:`m\theta` (mod 2π), and
    the 101 angles are pairwise distinct (closest pair at least 1e-3 rad apart).
    """
    x = np.array([0.6, -0.8])
    ms = np.arange(-50.0, 51.0)
    y = apply_rope(np.broadcast_to(x, (ms.size, 2)), per_position * ms, layout="interleaved", base=10000.0)
    turned = np.arctan2(x[0] * y[:, 1] - x[1] * y[:, 0], y @ x)  # signed angle from x to y
    err = float(np.max(np.abs(np.exp(1j * turned) - np.exp(1j * per_position * ms))))
    diff = np.angle(np.exp(1j * (turned[:, None] - turned[None, :])))
    np.fill_diagonal(diff, np.inf)
    closest = float(np.min(np.abs(diff)))
    ok = err <= TOL and closest > 1e-3
    return Outcome(
        "holds" if ok else "fails",
        f"d = 2, theta = 1, x = (0.6, -0.8), m = -50..50 rotated by {per_position} m: the turned angle vs m theta "
        f"(mod 2 pi) residual {within_tol(err)}; the closest two positions are {closest:.4f} rad apart "
        f"({'distinct' if closest > 1e-3 else 'NOT distinct'}).",
    )


def sdpa_is_inner_product(*, part: str = "output") -> Outcome:
    r"""Refutes "SDPA is the inner product of two vectors": its output :math:`o_m = \sum_n a_{m,n} v_n` is a vector.

    What is an inner product is its score :math:`q_m^\top k_n/\sqrt d = (q_m/\sqrt d)^\top k_n`
    (checked against :func:`ropemath.attention.softmax.rope_attention_weights` at equal positions).
    """
    q, k, v = np.random.default_rng(62).standard_normal((3, 5, 4))  # seed 62
    pos = np.zeros(5)  # all positions equal: plain SDPA
    out = rope_softmax_attention(q, k, v, pos, layout="interleaved", base=10000.0)
    w = rope_attention_weights(q, k, pos, layout="interleaved", base=10000.0)
    logits = np.array([[(q[a] / 2.0) @ k[b] for b in range(5)] for a in range(5)])  # sqrt(4) = 2
    soft = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    corr = float(np.max(np.abs(w - soft)))
    if part == "score":
        inner = identity(corr, "SDPA weights vs softmax of (q_m / sqrt d)^T k_n (N = 5, d = 4, seed 62)")
        return Outcome(inner.verdict, inner.evidence)
    example = {"N": 5, "d": 4, "shape of o_0": list(out[0].shape), "shape of an inner product": []}
    return Outcome(
        "fails" if out[0].shape != () else "holds",
        f"SDPA maps (Q, K, V) to N = 5 vectors o_m of shape {list(out[0].shape)} (seed 62); an inner product of two "
        f"vectors is one number. Correction: its scores are inner products, softmax((q_m / sqrt d)^T k_n) equals "
        f"its weights (residual {within_tol(corr)}).",
        example,
        bool(corr <= TOL),
    )


def sparse_is_inefficient(*, storage: str = "sparse") -> Outcome:
    r"""Refutes "R^d_{Θ,m} is sparse, so it computes inefficiently": stored sparse, :math:`R x` costs 2d products.

    Counted multiplications for :math:`R^d_{\Theta,m} x` (d = 8 and 128): dense :math:`d^2`, sparse (its non-zeros)
    and RoFormer eq. (34) :math:`2d`.  What is wasteful is the *dense* product (the correction).
    """
    costs = {}
    for d in (8, 128):
        nonzero = int(np.count_nonzero(rotation_matrix(1.0, d)))
        costs[d] = {"dense": d * d, "sparse": nonzero, "eq. (34)": 2 * d}
    stated_slow = all(c[storage] > c["eq. (34)"] for c in costs.values())  # the claim: R's product is the slow way
    dense_slow = all(c["dense"] > c["eq. (34)"] for c in costs.values())
    example = {"d": 8, "multiplications dense": 64, "sparse (non-zeros of R)": costs[8]["sparse"], "eq. (34)": 16}
    return Outcome(
        "holds" if stated_slow else "fails",
        f"Multiplications for R x: {costs}. With R stored {storage}, its product costs "
        f"{'more than' if stated_slow else 'the same as'} eq. (34). Correction: the dense product "
        f"({costs[128]['dense']} at d = 128) is what wastes work ({'checked' if dense_slow else 'NOT so'}); "
        "sparsity is what eq. (34) exploits.",
        None if stated_slow else example,
        bool(dense_slow),
    )
