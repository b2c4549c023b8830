r"""Checks of the notes' claims about additive absolute encodings and the relative schemes they survey.

Scope: zero-argument check functions for the sinusoidal encoding (its formula, which coordinates
hold sines, that :math:`p_i^\top p_j` is relative), additive encodings leaking absolute position
into the score, the four-term expansion, and the relative schemes of note 004 (Shaw,
Transformer-XL, T5, TUPE, DeBERTa), via :mod:`ropemath.theory.encodings`.

Example:

>>> tupe_position_term().counterexample["score(0, 0)"], additive_leaks().verdict
(2.0, 'holds')

Numeric checks draw from ``np.random.default_rng(seed)`` with the seed written in the code.

References: Vaswani et al. (2017) §3.5; Shaw et al. (2018); Dai et al. (Transformer-XL, 2019);
Raffel et al. (T5, 2020); Ke et al. (TUPE, 2021); He et al. (DeBERTa, 2021); Su et al.,
*RoFormer*, arXiv:2104.09864 v5, §2.2-2.3; note 004 (DaNing) and note 002.
"""

from __future__ import annotations

import numpy as np

from ropemath.claims._verdict import GAP, identity, num, res, shift_change
from ropemath.claims.ledger import Outcome
from ropemath.theory.encodings import (
    additive_score_expansion,
    additive_scores,
    relative_bias,
    sinusoidal_dot_identity,
    sinusoidal_encoding,
    sinusoidal_pair_decomposition,
    sinusoidal_scores,
)


def additive_leaks() -> Outcome:
    r"""Additive (learned) absolute encodings give scores that depend on i and j, not only on i − j."""
    rng = np.random.default_rng(36)  # seed 36
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
    rng = np.random.default_rng(37)  # seed 37
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
    rng = np.random.default_rng(38)  # seed 38
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
        "the formula written out (k read as the position i) vs ropemath.theory.encodings.sinusoidal_encoding, "
        "positions 0..19, d = 16",
    )
    return Outcome(
        out.verdict,
        out.evidence + " Read literally, the right side does not contain i, so p_0 = p_1 = ... : "
        "no position would be encoded.",
    )


def sinusoidal_parity() -> Outcome:
    r""":math:`p_{i,2t}` and :math:`p_{i,2t+1}` are the odd- and even-numbered coordinates when counting from 1."""
    d = 8
    omega = [10000.0 ** (-2 * t / d) for t in range(d // 2)]
    p = sinusoidal_encoding(1.0, d)
    # locate each sin(omega_t) and cos(omega_t) in p by value, without assuming where they are
    sines = sorted(int(np.argmin(np.abs(p - np.sin(w)))) + 1 for w in omega)  # 1-based coordinate numbers
    cosines = sorted(int(np.argmin(np.abs(p - np.cos(w)))) + 1 for w in omega)
    ok = all(n % 2 == 1 for n in sines) and all(n % 2 == 0 for n in cosines) and len(set(sines + cosines)) == d
    return Outcome(
        "holds" if ok else "fails",
        f"At position 1 (d = 8) the sines sin(omega_t) sit at the 1-based coordinates {sines} (odd-numbered) and "
        f"the cosines at {cosines} (even-numbered): the note's 'odd / even' counts from 1, while its subscripts "
        "2t, 2t+1 count from 0 (counting from 0 the labels swap).",
    )


def relative_schemes() -> Outcome:
    r"""Shaw (clipped), Transformer-XL, T5 and DeBERTa scores depend on positions only through m − n."""
    rng = np.random.default_rng(39)  # seed 39
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
    worst = max(shift_change(f, pos, 17.0) for f in schemes.values())
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


def absolute_carries_relative() -> Outcome:
    r"""Refutes "absolute encodings cannot encode relative position": sinusoidal :math:`p_i^\top p_j` is relative."""
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

