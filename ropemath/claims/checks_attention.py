r"""Checks of the notes' claims about softmax and linear attention, and where RoPE is applied (q, k, not v).

>>> norm_is_not_the_reason().counterexample["rotated numerator"], rope_linear_time().verdict
(-1.98, 'holds')

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.1-2.3, §3.3 eq. (17)-(19); Vaswani et al. (2017);
Katharopoulos et al. (2020); Dai et al. (Transformer-XL, 2019).
"""

from __future__ import annotations

import numpy as np

from ropemath.attention.linear import (
    elu_plus_one,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    smallest_numerator,
    weight_sum_deviation,
)
from ropemath.attention.softmax import rope_attention_weights, rope_scores, rope_softmax_attention
from ropemath.claims._verdict import GAP, identity, max_diff, num, res, shift_change, within_tol
from ropemath.claims.ledger import NOTES_ROPE, Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import rotation_matrix


def softmax_weights(*, power: float = 0.5) -> Outcome:
    r""":math:`a_{mn} = \exp(q_m^\top k_n/d^{p})/\sum_j \exp(q_m^\top k_j/d^{p})`, p = ``power`` = 1/2."""
    q, k = np.random.default_rng(30).standard_normal((2, 5, 8))  # seed 30
    w = rope_attention_weights(q, k, np.zeros(5), **NOTES_ROPE)  # all positions equal: no rotation
    loop = np.array([[np.exp(q[i] @ k[j] / 8.0**power) for j in range(5)] for i in range(5)])
    loop /= loop.sum(axis=1, keepdims=True)
    err = max(max_diff(w, loop), max_diff(w.sum(axis=1), 1))
    return identity(
        err if np.all(w > 0) else float("inf"),
        "ropemath.attention.softmax weights vs the formula written out, and row sums vs 1 (N = 5, d = 8, seed 30)",
    )


def permutation_blind(*, with_positions: bool = False) -> Outcome:
    r"""Without positions, attention is permutation-equivariant: it cannot tell 我吃饭 from 饭吃我."""
    rng = np.random.default_rng(31)  # seed 31
    tokens, wq, wk, wv = rng.standard_normal((3, 8)), *rng.standard_normal((3, 8, 8))
    order = [2, 1, 0]  # 我 吃 饭 -> 饭 吃 我

    def attend(x: np.ndarray) -> np.ndarray:
        pos = np.arange(len(x), dtype=float) if with_positions else np.zeros(len(x))
        return rope_softmax_attention(x @ wq.T, x @ wk.T, x @ wv.T, pos, **NOTES_ROPE)

    out1, out2 = attend(tokens), attend(tokens[order])
    err = max_diff(out1[order], out2)
    return identity(
        err,
        "outputs for 我吃饭 and 饭吃我 (random embeddings and weights, seed 31) are the same vectors, "
        "permuted; 我 gets an identical output in both sentences",
    )


def _prefix_gap(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, pos: np.ndarray, scale: float = 1.0, causal: tuple = (False, True)
) -> float:
    """Largest gap between the prefix-sum form (at positions ``scale * pos``) and the O(N²) form of eq. (19)."""
    return max(
        max_diff(rope_linear_attention_prefix(q, k, v, scale * pos, causal=c, **NOTES_ROPE),
                 rope_linear_attention(q, k, v, pos, causal=c, **NOTES_ROPE)) for c in causal
    )


def linear_attention(*, normalised: bool = True) -> Outcome:
    r"""Linear attention :math:`\phi(q_m)^\top\sum_n \varphi(k_n) v_n^\top / \phi(q_m)^\top\sum_n\varphi(k_n)`: O(N)."""
    q, k, v = np.random.default_rng(32).standard_normal((3, 16, 8))  # seed 32
    pos = np.zeros(16)  # equal positions: no rotation, plain linear attention
    fq, fk = elu_plus_one(q), elu_plus_one(k)
    loop = np.array([
        sum((fq[m] @ fk[n]) * v[n] for n in range(16)) / (sum(fq[m] @ fk[n] for n in range(16)) if normalised else 1)
        for m in range(16)
    ])
    err = max(_prefix_gap(q, k, v, pos), max_diff(rope_linear_attention(q, k, v, pos, **NOTES_ROPE), loop))
    grid = np.linspace(-30, 30, 601)
    positive = bool(np.all(elu_plus_one(grid) > 0) and np.all(np.exp(grid) > 0))  # softmax is exp / a positive sum
    return identity(
        err if positive else float("inf"),
        "shared-sum O(N) form vs per-pair O(N^2) form and a plain loop "
        "(N = 16, seed 32); elu(x) + 1 > 0 and exp(x) > 0 (so softmax too) on [-30, 30]",
    )


def xl_breaks_linear(*, relative: bool = True) -> Outcome:
    r"""With :math:`\phi(k_n + r_{m-n})` the key features depend on the query position m: no shared sum."""
    rng = np.random.default_rng(33)  # seed 33
    k, table = rng.standard_normal(8), rng.standard_normal((9, 8))  # table[r + 4] = r_{r}

    def feature(m: int, n: int = 0) -> np.ndarray:
        return elu_plus_one(k + table[(m - n if relative else n) + 4])

    f1, f2 = feature(1), feature(2)  # n = 0, m = 1 and m = 2
    gap = max_diff(f1, f2)
    return Outcome(
        "holds" if gap > GAP else "fails",
        f"For one key (n = 0), phi(k_0 + r_(m-n)) differs between m = 1 and m = 2 by up to {gap:.3f} (seed 33): sum_n "
        f"phi(k_n + r_(m-n)) v_n^T must be recomputed for every m, N^2 feature evaluations in all.",
    )


def rope_linear_time(*, scale: float = 1.0) -> Outcome:
    r"""RoFormer eq. (19) (rotated numerator, plain denominator) keeps the O(N) prefix-sum form."""
    q, k, v = np.random.default_rng(34).standard_normal((3, 32, 8))  # seed 34
    pos = np.arange(32.0) * 7 - 50  # pragma: no mutate (test positions: the identity holds at all; no digits shown)
    return identity(
        _prefix_gap(q, k, v, pos, scale),
        "ropemath.attention.linear prefix-sum form vs the O(N^2) form of eq. (19), causal and not (N = 32, seed 34)",
    )


def norm_is_not_the_reason(*, distance: int = 3) -> Outcome:
    r"""Refutes "RoPE keeps norms, *therefore* it combines with linear attention"."""
    low = smallest_numerator(np.zeros((2, 2)), np.zeros((2, 2)), [distance, 0], **NOTES_ROPE)  # phi = (1, 1)
    q, k, v = np.random.default_rng(35).standard_normal((3, 32, 8))  # seed 35
    pos = np.arange(32.0)
    dev = weight_sum_deviation(q, k, pos, **NOTES_ROPE)
    # a map that does NOT keep norms, 2 R_m, factorises just as well
    rq, rk = 2 * apply_rope(elu_plus_one(q), pos, **NOTES_ROPE), 2 * apply_rope(elu_plus_one(k), pos, **NOTES_ROPE)
    scaled = float(np.max(np.abs((rq @ rk.T) @ v - rq @ (rk.T @ v))) / np.max(np.abs((rq @ rk.T) @ v)))
    corr = _prefix_gap(q, k, v, pos, causal=(False,))
    _, den = rope_linear_terms(q, k, pos, **NOTES_ROPE)
    example = {
        "d": 2, "phi(q_m) = phi(k_n)": [1.0, 1.0], "m": distance, "n": 0, "|R_3 phi(q)| = |phi(q)|": num(np.sqrt(2)),
        "rotated numerator": num(low),
    }
    return Outcome(
        "fails" if low < 0 and scaled < 1e-12 else "holds",
        f"Norms are kept, yet the rotated numerator is {num(low)} < 0 at d = 2, phi = (1, 1), m - n = {distance}, and "
        f"the weights no longer sum to 1 (largest deviation {dev:.3f}, N = 32, seed 35); a map that doubles "
        f"norms, 2 R_m, factorises just as well (residual {within_tol(scaled)}). Correction: R is linear and "
        f"R_m^T R_n = R_(n-m), so sum_n R_n phi(k_n) v_n^T is accumulated once (prefix form vs quadratic: "
        f"residual {within_tol(corr)}); the denominator is left unrotated so it stays positive (smallest "
        f"{den.min():.3f}).",
        example, bool(corr <= 1e-12 and den.min() > 0),
    )


def _before_after(identity_weights: bool = False) -> tuple[float, float]:
    """Relative score change under a common shift of 5: rotating before / after W_q, W_k (seed 40)."""
    rng = np.random.default_rng(40)  # seed 40
    x, wq, wk = rng.standard_normal((6, 8)), *rng.standard_normal((2, 8, 8))
    if identity_weights:
        wq = wk = np.eye(8)
    pos = np.arange(6.0)

    def before(p: np.ndarray) -> np.ndarray:
        xr = apply_rope(x, p, **NOTES_ROPE)
        return (xr @ wq.T) @ (xr @ wk.T).T

    def after(p: np.ndarray) -> np.ndarray:
        return rope_scores(x @ wq.T, x @ wk.T, p, **NOTES_ROPE)

    return shift_change(before, pos, 5.0), shift_change(after, pos, 5.0)


def rotate_after_projection() -> Outcome:
    r"""Where RoPE goes: after :math:`W_q, W_k` in every layer. Why it must (information dilution) is empirical."""
    before, after = _before_after()
    return Outcome(
        "not-checkable",
        f"Measured (seed 40): rotating the layer input before W_q, W_k loses the relative property "
        f"(scores change by {before:.2f} relative when every position moves by 5), rotating q, k after "
        f"the projection keeps it ({res(after)})."
    )


def rotate_inside_attention(*, identity_weights: bool = False) -> Outcome:
    r"""Rotating q and k inside attention (after the projections) is what makes the scores relative."""
    before, after = _before_after(identity_weights)
    ok = before > 1e-3 and after < 1e-12
    return Outcome(
        "holds" if ok else "fails",
        f"Moving every position by 5 (random x, W_q, W_k, seed 40): scores from "
        f"q, k rotated after the projections change by {within_tol(after)}; rotating the input before the "
        f"projections changes them by {before:.2f} (relative), because W_q^T W_k need not commute with R_m.",
    )


def rotated_scores(*, sign: int = 1) -> Outcome:
    r""":math:`(Q_{rot} K_{rot}^\top)_{mn} = q_m^\top R_{n-m} k_n`."""
    q, k = np.random.default_rng(41).standard_normal((2, 6, 8))  # seed 41
    pos = np.array([0.0, 3.0, 4.0, 10.0, 11.0, 50.0])
    S = rope_scores(q, k, pos, **NOTES_ROPE)
    loop = np.array([[q[a] @ rotation_matrix(sign * (pos[b] - pos[a]), 8) @ k[b] for b in range(6)] for a in range(6)])
    what = "ropemath.attention.softmax.rope_scores vs q_m^T R_(n-m) k_n from dense matrices (seed 41)"
    return identity(max_diff(S, loop), what)


def values_not_rotated(*, rotate_v: bool = False) -> Outcome:
    r"""v is left unrotated: outputs :math:`o_m = \sum_n a_{mn} v_n` then depend on positions only through m − n."""
    q, k, v = np.random.default_rng(42).standard_normal((3, 6, 8))  # seed 42
    pos = np.array([0.0, 1.0, 2.0, 5.0, 9.0, 10.0])

    def plain(p: np.ndarray) -> np.ndarray:
        values = apply_rope(v, p, **NOTES_ROPE) if rotate_v else v
        return rope_softmax_attention(q, k, values, p, **NOTES_ROPE)

    def rotated_v(p: np.ndarray) -> np.ndarray:
        return rope_softmax_attention(q, k, apply_rope(v, p, **NOTES_ROPE), p, **NOTES_ROPE)

    kept, leaked = shift_change(plain, pos, 5.0), shift_change(rotated_v, pos, 5.0)
    return Outcome(
        "holds" if kept <= 1e-12 and leaked > GAP else "fails",
        f"Moving every position by 5 (N = 6, d = 8, seed 42): with q, k rotated and v not, the outputs change by "
        f"{within_tol(kept)} (relative); rotating v too, they change by {leaked:.2f}: o_m then carries R_n v_n, an "
        "absolute rotation, so only q and k need RoPE.",
    )


def empirical() -> Outcome:
    """A claim about trained models (accuracy, convergence, extrapolation): no computation here decides it."""
    return Outcome("not-checkable", "Nothing measured: deciding it needs training runs, not algebra.")
