r"""Checks of the notes' claims about attention, linear attention and other position encodings.

Scope: zero-argument check functions for softmax attention without positions, linear
attention with and without RoPE (via :mod:`ropemath.attention`), additive encodings and the
relative schemes the notes survey (Shaw, Transformer-XL, T5, TUPE, DeBERTa; via
:mod:`ropemath.encodings`), and the claims about where RoPE is applied.

Example:

>>> norm_is_not_the_reason().counterexample["rotated numerator"], rope_linear_time().verdict
(-1.98, 'holds')

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.1-2.3, §3.3 eq. (17)-(19);
Vaswani et al. (2017); Katharopoulos et al. (2020); Shaw et al. (2018); Dai et al. (2019);
Raffel et al. (2020); Ke et al. (TUPE, 2021); He et al. (DeBERTa, 2021).
"""

from __future__ import annotations

import numpy as np

from ..apply import apply_rope
from ..attention import (
    elu_plus_one,
    rope_attention_weights,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    rope_scores,
    rope_softmax_attention,
    smallest_numerator,
    weight_sum_deviation,
)
from ..encodings import (
    additive_score_expansion,
    additive_scores,
    relative_bias,
    sinusoidal_encoding,
    sinusoidal_pair_decomposition,
    sinusoidal_scores,
)
from ..rotation import rotation_matrix
from ._verdict import GAP, identity, not_checkable, num, res
from .ledger import Outcome


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def softmax_weights() -> Outcome:
    r""":math:`a_{mn} = \exp(q_m^\top k_n/\sqrt d)/\sum_j \exp(q_m^\top k_j/\sqrt d)`: positive, rows sum to 1."""
    q, k = _rng(30).standard_normal((2, 5, 8))  # seed 30
    w = rope_attention_weights(q, k, np.zeros(5))  # all positions equal: no rotation
    loop = np.array([[np.exp(q[i] @ k[j] / np.sqrt(8)) for j in range(5)] for i in range(5)])
    loop /= loop.sum(axis=1, keepdims=True)
    err = max(float(np.max(np.abs(w - loop))), float(np.max(np.abs(w.sum(axis=1) - 1))))
    return identity(
        err if np.all(w > 0) else float("inf"),
        "ropemath.attention weights vs the formula written out, and row sums vs 1 (N = 5, d = 8, seed 30)",
    )


def permutation_blind() -> Outcome:
    r"""Without positions, attention is permutation-equivariant: it cannot tell 我吃饭 from 饭吃我."""
    rng = _rng(31)  # seed 31
    tokens, wq, wk, wv = rng.standard_normal((3, 8)), *rng.standard_normal((3, 8, 8))
    order = [2, 1, 0]  # 我 吃 饭 -> 饭 吃 我

    def attend(x: np.ndarray) -> np.ndarray:
        return rope_softmax_attention(x @ wq.T, x @ wk.T, x @ wv.T, np.zeros(len(x)))

    out1, out2 = attend(tokens), attend(tokens[order])
    err = float(np.max(np.abs(out1[order] - out2)))
    return identity(
        err,
        "outputs for 我吃饭 and 饭吃我 (random embeddings and weights, seed 31) are the same vectors, "
        "permuted; 我 gets an identical output in both sentences",
    )


def linear_attention() -> Outcome:
    r"""Linear attention :math:`\phi(q_m)^\top\sum_n \varphi(k_n) v_n^\top / \phi(q_m)^\top\sum_n\varphi(k_n)`: O(N)."""
    q, k, v = _rng(32).standard_normal((3, 16, 8))  # seed 32
    pos = np.zeros(16)  # equal positions: no rotation, plain linear attention
    fq, fk = elu_plus_one(q), elu_plus_one(k)
    loop = np.array(
        [sum((fq[m] @ fk[n]) * v[n] for n in range(16)) / sum(fq[m] @ fk[n] for n in range(16)) for m in range(16)]
    )
    err = max(
        float(
            np.max(
                np.abs(
                    rope_linear_attention_prefix(q, k, v, pos, causal=c)
                    - rope_linear_attention(q, k, v, pos, causal=c)
                )
            )
        )
        for c in (False, True)
    )
    err = max(err, float(np.max(np.abs(rope_linear_attention(q, k, v, pos) - loop))))
    grid = np.linspace(-30, 30, 601)
    positive = bool(np.all(elu_plus_one(grid) > 0) and np.all(np.exp(grid) > 0))  # softmax is exp / a positive sum
    return identity(
        err if positive else float("inf"),
        "shared-sum O(N) form vs per-pair O(N^2) form and a plain loop "
        "(N = 16, seed 32); elu(x) + 1 > 0 and exp(x) > 0 (so softmax too) on [-30, 30]",
        tol=1e-12,
    )


def xl_breaks_linear() -> Outcome:
    r"""With :math:`\phi(k_n + r_{m-n})` the key features depend on the query position m: no shared sum."""
    rng = _rng(33)  # seed 33
    k, table = rng.standard_normal(8), rng.standard_normal((9, 8))  # table[r + 4] = r_{r}
    f1, f2 = elu_plus_one(k + table[1 + 4]), elu_plus_one(k + table[2 + 4])  # n = 0, m = 1 and m = 2
    gap = float(np.max(np.abs(f1 - f2)))
    return Outcome(
        "holds" if gap > GAP else "fails",
        f"For one key (n = 0), phi(k_0 + r_(m-n)) differs between m = 1 and "
        f"m = 2 by up to {gap:.3f} (seed 33): sum_n phi(k_n + r_(m-n)) v_n^T must be recomputed for every m, "
        "N^2 feature evaluations in all.",
    )


def rope_linear_time() -> Outcome:
    r"""RoFormer eq. (19) (rotated numerator, plain denominator) keeps the O(N) prefix-sum form."""
    q, k, v = _rng(34).standard_normal((3, 32, 8))  # seed 34
    pos = np.arange(32.0) * 7 - 50
    err = max(
        float(
            np.max(
                np.abs(
                    rope_linear_attention_prefix(q, k, v, pos, causal=c)
                    - rope_linear_attention(q, k, v, pos, causal=c)
                )
            )
        )
        for c in (False, True)
    )
    return identity(
        err, "ropemath.attention prefix-sum form vs the O(N^2) form of eq. (19), causal and not (N = 32, seed 34)"
    )


def norm_is_not_the_reason() -> Outcome:
    r"""Refutes "RoPE keeps norms, *therefore* it combines with linear attention"."""
    low = smallest_numerator(np.zeros((2, 2)), np.zeros((2, 2)), [3, 0])  # phi = (1, 1), distance 3
    q, k, v = _rng(35).standard_normal((3, 32, 8))  # seed 35
    pos = np.arange(32.0)
    dev = weight_sum_deviation(q, k, pos)
    # a map that does NOT keep norms, 2 R_m, factorises just as well
    rq, rk = 2 * apply_rope(elu_plus_one(q), pos), 2 * apply_rope(elu_plus_one(k), pos)
    scaled = float(np.max(np.abs((rq @ rk.T) @ v - rq @ (rk.T @ v))) / np.max(np.abs((rq @ rk.T) @ v)))
    corr = float(np.max(np.abs(rope_linear_attention_prefix(q, k, v, pos) - rope_linear_attention(q, k, v, pos))))
    _, den = rope_linear_terms(q, k, pos)
    example = {
        "d": 2,
        "phi(q_m) = phi(k_n)": [1.0, 1.0],
        "m": 3,
        "n": 0,
        "|R_3 phi(q)| = |phi(q)|": num(np.sqrt(2)),
        "rotated numerator": num(low),
    }
    return Outcome(
        "fails" if low < 0 and scaled < 1e-12 else "holds",
        f"Norms are kept, yet the rotated numerator is {num(low)} < 0 at d = 2, phi = (1, 1), m - n = 3, and "
        f"the weights no longer sum to 1 (largest deviation {dev:.3f}, N = 32, seed 35); a map that doubles "
        f"norms, 2 R_m, factorises just as well (residual {res(scaled)}). Correction: R is linear and "
        f"R_m^T R_n = R_(n-m), so sum_n R_n phi(k_n) v_n^T is accumulated once (prefix form vs quadratic: "
        f"residual {res(corr)}); the denominator is left unrotated so it stays positive (smallest {den.min():.3f}).",
        example,
        bool(corr <= 1e-12 and den.min() > 0),
    )


def additive_leaks() -> Outcome:
    r"""Additive (learned) absolute encodings give scores that depend on i and j, not only on i − j."""
    rng = _rng(36)  # seed 36
    x = np.tile(rng.standard_normal(8), (12, 1))  # the same token everywhere: only positions differ
    p, wq, wk = rng.standard_normal((12, 8)), *rng.standard_normal((2, 8, 8))
    S = additive_scores(x, p, wq, wk)
    gap = abs(S[1, 0] - S[6, 5])
    return Outcome(
        "holds" if gap > GAP else "fails",
        f"Same token at every position, learned p_i (seed 36): score(1, 0) = "
        f"{num(S[1, 0])} but score(6, 5) = {num(S[6, 5])}, although i - j = 1 in both.",
    )


def sinusoidal_leaks() -> Outcome:
    r"""The sinusoidal additive encoding leaks absolute positions too, for generic :math:`W_q, W_k`."""
    rng = _rng(37)  # seed 37
    x, wq, wk = np.tile(rng.standard_normal(8), (12, 1)), *rng.standard_normal((2, 8, 8))
    S = sinusoidal_scores(x, np.arange(12.0), wq, wk)
    eye = sinusoidal_scores(np.zeros((12, 8)), np.arange(12.0), np.eye(8), np.eye(8))
    special = abs(eye[1, 0] - eye[6, 5])
    gap = abs(S[1, 0] - S[6, 5])
    return Outcome(
        "holds" if gap > GAP else "fails",
        f"Random W_q, W_k (seed 37): score(1, 0) = {num(S[1, 0])}, score(6, 5) "
        f"= {num(S[6, 5])}. (Special case: with no content and W_q^T W_k = I, p_i^T p_j = sum_t cos((i-j) w_t) "
        f"is relative: residual {res(special)}; so some structure exists, but learned weights break it.)",
    )


def four_terms() -> Outcome:
    r""":math:`(x_i+p_i)^\top W_q^\top W_k (x_j+p_j)` = four terms, one made of positions only."""
    _, terms = additive_score_expansion()
    rng = _rng(38)  # seed 38
    xi, pi, xj, pj = rng.standard_normal((4, 6))
    wq, wk = rng.standard_normal((2, 6, 6))
    full = (wq @ (xi + pi)) @ (wk @ (xj + pj))
    parts = sum((wq @ a) @ (wk @ b) for a in (xi, pi) for b in (xj, pj))
    ok = list(terms) == ["content-content", "content-position", "position-content", "position-position"]
    out = identity(
        abs(full - parts) if ok else float("inf"),
        f"sympy expansion gives {len(terms)} terms, the last "
        f"{terms['position-position']}; numeric sum of the 4 terms vs the score (seed 38)",
    )
    return out


def sinusoidal_formula() -> Outcome:
    r""":math:`p_{i,2t} = \sin(i/10000^{2t/d})`, :math:`p_{i,2t+1} = \cos(i/10000^{2t/d})` (with k read as i)."""
    d, err = 16, 0.0
    for i in range(20):
        written = [
            np.sin(i / 10000 ** (2 * (j // 2) / d)) if j % 2 == 0 else np.cos(i / 10000 ** (2 * (j // 2) / d))
            for j in range(d)
        ]
        err = max(err, float(np.max(np.abs(sinusoidal_encoding(float(i), d) - written))))
    out = identity(
        err,
        "the formula written out (k read as the position i) vs ropemath.encodings.sinusoidal_encoding, "
        "positions 0..19, d = 16",
    )
    return Outcome(
        out.verdict,
        out.evidence + " Read literally, the right side does not contain i, so p_0 = p_1 = ... : "
        "no position would be encoded.",
    )


def sinusoidal_parity() -> Outcome:
    r""":math:`p_{i,2t}` and :math:`p_{i,2t+1}` are the odd- and even-numbered coordinates when counting from 1."""
    p = sinusoidal_encoding(1.0, 8)
    sines = [j + 1 for j in range(8) if abs(p[j] - np.sin(10000 ** (-(j // 2) * 2 / 8))) < 1e-15 and j % 2 == 0]
    ok = all(n % 2 == 1 for n in sines) and len(sines) == 4
    return Outcome(
        "holds" if ok else "fails",
        f"The sines sit at 0-based indices 0, 2, 4, 6, i.e. the 1-based coordinates "
        f"{sines} (odd-numbered); counting from 0 the labels swap.",
    )


def _shift(score, positions: np.ndarray, shift: float) -> float:
    a, b = score(positions), score(positions + shift)
    return float(np.max(np.abs(a - b)) / np.max(np.abs(a)))


def relative_schemes() -> Outcome:
    r"""Shaw (clipped), Transformer-XL, T5 and DeBERTa scores depend on positions only through m − n."""
    rng = _rng(39)  # seed 39
    N, d, K = 10, 6, 3
    x, u, v = rng.standard_normal((N, d)), rng.standard_normal(d), rng.standard_normal(d)
    wq, wk, wk2 = rng.standard_normal((3, d, d))
    table, bias = rng.standard_normal((2 * K + 1, d)), rng.standard_normal(2 * K + 1)
    content = (x @ wq.T) @ (x @ wk.T).T

    def rel(pos: np.ndarray) -> np.ndarray:
        return table[np.clip(pos[:, None] - pos[None, :], -K, K).astype(int) + K]  # p~_(m-n), shape (N, N, d)

    def sin_rel(pos: np.ndarray) -> np.ndarray:
        return sinusoidal_encoding(pos[:, None] - pos[None, :], d)

    schemes = {
        "Shaw": lambda p: np.einsum("md,mnd->mn", x @ wq.T, (x[None, :, :] + rel(p)) @ wk.T),
        "Transformer-XL": lambda p: (
            content
            + np.einsum("md,mnd->mn", x @ wq.T, sin_rel(p) @ wk2.T)
            + (wq @ u) @ (x @ wk.T).T
            + np.einsum("d,mnd->mn", wq @ v, sin_rel(p) @ wk2.T)
        ),
        "T5": lambda p: content + relative_bias(p, bias),
        "DeBERTa": lambda p: (
            content
            + np.einsum("md,mnd->mn", x @ wq.T, rel(p) @ wk.T)
            + np.einsum("mnd,nd->mn", rel(p) @ wq.T, x @ wk.T)
        ),
    }
    pos = np.arange(N, dtype=float) * 2
    worst = max(_shift(f, pos, 17.0) for f in schemes.values())
    far = rel(np.array([0.0, 10.0, 20.0]))
    clipped = float(np.max(np.abs(far[1, 0] - far[2, 0])))
    return identity(
        max(worst, clipped),
        f"scores of {', '.join(schemes)} at positions p and p + 17 (seed 39); and "
        "distances 10 and 20 share the clipped encoding p~_K",
    )


def tupe_position_term() -> Outcome:
    r"""Refutes "projecting :math:`p_m, p_n` (:math:`p_m^\top U_q^\top U_k p_n`) encodes relative position"."""
    parts = sinusoidal_pair_decomposition()
    import sympy as sp

    a, b, c, e = sp.symbols("a b c e", real=True)
    absolute = parts["absolute"].subs({a: 1, b: 0, c: 0, e: 2})
    M = np.diag([1.0, 2.0])
    p = sinusoidal_encoding(np.array([0.0, 1.0]), 2)
    s00, s11 = float(p[0] @ M @ p[0]), float(p[1] @ M @ p[1])
    fixed = sp.simplify(parts["absolute"].subs({e: a, c: -b}))
    example = {"d": 2, "U_q^T U_k": [[1.0, 0.0], [0.0, 2.0]], "score(0, 0)": num(s00), "score(1, 1)": num(s11)}
    return Outcome(
        "fails" if abs(s00 - s11) > GAP else "holds",
        f"Sinusoidal p (d = 2) and U_q^T U_k = diag(1, 2): i - j = 0 in both, yet p_0^T M p_0 = {num(s00)} and "
        f"p_1^T M p_1 = {num(s11)}; sympy's split leaves the absolute part {absolute}. Correction: it is "
        f"relative iff every 2x2 block is a I + b J (absolute part then {fixed}; split residual "
        f"{parts['residual']}).",
        example,
        bool(fixed == 0 and parts["residual"] == 0),
    )


def _before_after() -> tuple[float, float]:
    """Relative score change under a common shift of 5: rotating before / after W_q, W_k (seed 40)."""
    rng = _rng(40)  # seed 40
    x, wq, wk = rng.standard_normal((6, 8)), *rng.standard_normal((2, 8, 8))
    pos = np.arange(6.0)

    def before(p: np.ndarray) -> np.ndarray:
        return (apply_rope(x, p) @ wq.T) @ (apply_rope(x, p) @ wk.T).T

    def after(p: np.ndarray) -> np.ndarray:
        return rope_scores(x @ wq.T, x @ wk.T, p)

    return _shift(before, pos, 5.0), _shift(after, pos, 5.0)


def rotate_after_projection() -> Outcome:
    r"""Where RoPE goes: after :math:`W_q, W_k` in every layer. Why it must (information dilution) is empirical."""
    before, after = _before_after()
    return not_checkable(
        f"Measured (seed 40): rotating the layer input before W_q, W_k loses the relative property "
        f"(scores change by {before:.2f} relative when every position moves by 5), rotating q, k after "
        f"the projection keeps it ({res(after)})."
    )


def rotate_inside_attention() -> Outcome:
    r"""Rotating q and k inside attention (after the projections) is what makes the scores relative."""
    before, after = _before_after()
    ok = before > 1e-3 and after < 1e-12
    return Outcome(
        "holds" if ok else "fails",
        f"Moving every position by 5 (random x, W_q, W_k, seed 40): scores from "
        f"q, k rotated after the projections change by {res(after)}; rotating the input before the "
        f"projections changes them by {before:.2f} (relative), because W_q^T W_k need not commute with R_m.",
    )


def rotated_scores() -> Outcome:
    r""":math:`(Q_{rot} K_{rot}^\top)_{mn} = q_m^\top R_{n-m} k_n`."""
    q, k = _rng(41).standard_normal((2, 6, 8))  # seed 41
    pos = np.array([0.0, 3.0, 4.0, 10.0, 11.0, 50.0])
    S = rope_scores(q, k, pos)
    loop = np.array([[q[a] @ rotation_matrix(pos[b] - pos[a], 8) @ k[b] for b in range(6)] for a in range(6)])
    return identity(
        float(np.max(np.abs(S - loop))),
        "ropemath.attention.rope_scores vs q_m^T R_(n-m) k_n from dense matrices (seed 41)",
        tol=1e-12,
    )


def empirical() -> Outcome:
    """A claim about trained models (accuracy, convergence, extrapolation): no computation here decides it."""
    return not_checkable("Nothing measured: deciding it needs training runs, not algebra.")


def absolute_carries_relative() -> Outcome:
    r"""Refutes "absolute encodings cannot encode relative position": sinusoidal :math:`p_i^\top p_j` is relative."""
    from ..encodings import sinusoidal_dot_identity

    p = sinusoidal_encoding(np.arange(8.0), 16)
    a, b = float(p[1] @ p[0]), float(p[6] @ p[5])
    _, _, residual = sinusoidal_dot_identity(4)
    leak = sinusoidal_leaks()
    example = {"d": 16, "p_1 . p_0": num(a), "p_6 . p_5": num(b)}
    return Outcome(
        "fails" if abs(a - b) < 1e-12 and residual == 0 else "holds",
        f"Sinusoidal p: p_1.p_0 = {num(a)} = p_6.p_5, and sympy proves p_i^T p_j = sum_t cos((i - j) w_t) "
        f"(residual {residual}). Correction: what fails is that the attention score is a function of i - j "
        f"alone once W_q, W_k and the content enter: {leak.evidence}",
        example,
        leak.verdict == "holds",
    )
