r"""Checks of the notes' claims about additive absolute encodings and the relative schemes they survey
(Shaw, Transformer-XL, T5, TUPE, DeBERTa), via :mod:`ropemath.theory.encodings`.

>>> tupe_position_term().counterexample["score(0, 0)"], additive_leaks(constant_p=True).verdict
(2.0, 'fails')

References: Vaswani et al. (2017) §3.5; Shaw et al. (2018); Dai et al. (2019); Raffel et al. (T5, 2020);
Ke et al. (TUPE, 2021); He et al. (DeBERTa, 2021); Su et al., *RoFormer*, arXiv:2104.09864 v5, §2.2-2.3.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from ropemath.claims._verdict import GAP, identity, max_diff, num, res, shift_change
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


def additive_leaks(*, constant_p: bool = False) -> Outcome:
    """Additive learned encodings give scores depending on i and j, not only i − j (``constant_p``: one p)."""
    rng = np.random.default_rng(36)  # seed 36
    x = np.tile(rng.standard_normal(8), (12, 1))  # the same token everywhere: only positions differ
    p, wq, wk = rng.standard_normal((12, 8)), *rng.standard_normal((2, 8, 8))
    p = p[[0] * 12] if constant_p else p
    S = additive_scores(x, p, wq, wk)
    gap = abs(S[1, 0] - S[6, 5])
    return Outcome(
        "holds" if gap > GAP else "fails",
        f"Same token at every position, learned p_i (seed 36): score(1, 0) = "
        f"{num(S[1, 0])} but score(6, 5) = {num(S[6, 5])}, although i - j = 1 in both.",
    )


def sinusoidal_leaks(*, generic: bool = True) -> Outcome:
    """The sinusoidal additive encoding leaks absolute position for generic :math:`W_q, W_k` (not for I)."""
    rng = np.random.default_rng(37)  # seed 37
    x, wq, wk = np.tile(rng.standard_normal(8), (12, 1)), *rng.standard_normal((2, 8, 8))
    eye = sinusoidal_scores(np.zeros((12, 8)), np.arange(12.0), np.eye(8), np.eye(8))
    S = sinusoidal_scores(x, np.arange(12.0), wq, wk) if generic else eye
    special, gap = abs(eye[1, 0] - eye[6, 5]), abs(S[1, 0] - S[6, 5])
    return Outcome(
        "holds" if gap > GAP else "fails",
        f"{'Random W_q, W_k (seed 37)' if generic else 'No content, W_q = W_k = I'}: score(1, 0) = {num(S[1, 0])}, "
        f"score(6, 5) = {num(S[6, 5])}. (Special case: with no content and W_q^T W_k = I, p_i^T p_j = sum_t cos((i-j) "
        f"w_t) is relative: residual {res(special)}; so some structure exists, but learned weights break it.)",
    )


def four_terms(*, count: int = 4) -> Outcome:
    r""":math:`(x_i+p_i)^\top W_q^\top W_k (x_j+p_j)` = four terms, the last of positions only."""
    lhs, terms = additive_score_expansion()
    rng = np.random.default_rng(38)  # seed 38
    (xi, pi, xj, pj), (wq, wk) = rng.standard_normal((4, 6)), rng.standard_normal((2, 6, 6))
    full = (wq @ (xi + pi)) @ (wk @ (xj + pj))
    parts = sum([(wq @ a) @ (wk @ b) for a in (xi, pi) for b in (xj, pj)][:count])
    names = ["content-content", "content-position", "position-content", "position-position"]
    rest = sp.expand(sp.expand(lhs) - sp.MatAdd(*[terms[t] for t in names[:count]]))  # what the terms leave out
    ok = list(terms) == names and bool(rest.is_ZeroMatrix)
    out = identity(
        abs(full - parts),
        f"sympy expansion gives {len(terms)} terms, the last "
        f"{terms['position-position']}{'' if ok else f'; the first {count} do NOT sum to the score ({rest} left)'}; "
        f"numeric sum of the {count} terms vs the score (seed 38)",
    )
    return Outcome("holds" if ok and out.verdict == "holds" else "fails", out.evidence)


def sinusoidal_formula(*, parity: int = 0) -> Outcome:
    r""":math:`p_{i,2t} = \sin(i/10000^{2t/d})`, :math:`p_{i,2t+1} = \cos(i/10000^{2t/d})` (k read as i; ``parity``)."""
    d, err = 16, 0.0
    for i in range(20):
        written = [
            np.sin(i / 10000 ** (2 * (j // 2) / d)) if j % 2 == parity else np.cos(i / 10000 ** (2 * (j // 2) / d))
            for j in range(d)
        ]
        err = max(err, max_diff(sinusoidal_encoding(float(i), d), written))
    out = identity(err, "the formula written out (k read as the position i) vs "
                   "ropemath.theory.encodings.sinusoidal_encoding, positions 0..19, d = 16")
    return Outcome(out.verdict, out.evidence + " Read literally, the right side does not contain i, so "
                   "p_0 = p_1 = ... : no position would be encoded.")


def sinusoidal_parity(*, start: int = 1) -> Outcome:
    """:math:`p_{i,2t}`, :math:`p_{i,2t+1}` are the odd / even coordinates when counting from ``start`` = 1."""
    d, p = 8, sinusoidal_encoding(1.0, 8)
    omega = [10000.0 ** (-2 * t / d) for t in range(d // 2)]
    # locate each sin(omega_t) and cos(omega_t) in p by value, without assuming where they are
    sines = sorted(int(np.argmin(np.abs(p - np.sin(w)))) + start for w in omega)  # 1-based coordinate numbers
    cosines = sorted(int(np.argmin(np.abs(p - np.cos(w)))) + start for w in omega)
    ok = all(n % 2 == 1 for n in sines) and all(n % 2 == 0 for n in cosines) and len(set(sines + cosines)) == d
    return Outcome(
        "holds" if ok else "fails",
        f"At position 1 (d = 8) the sines sin(omega_t) sit at the {start}-based coordinates {sines} (odd-numbered) and "
        f"the cosines at {cosines} (even-numbered): the note's 'odd / even' counts from 1, while its subscripts "
        "2t, 2t+1 count from 0 (counting from 0 the labels swap).",
    )


def relative_schemes(*, sign: int = -1) -> Outcome:
    r"""Shaw (clipped), Transformer-XL, T5 and DeBERTa scores depend on positions only through m − n.

    ``sign = 1`` indexes the relative encodings by :math:`m + n` (T5's bias keeps m - n)."""
    rng, N, d, K = np.random.default_rng(39), 10, 6, 3  # seed 39
    x, u, v = rng.standard_normal((N, d)), rng.standard_normal(d), rng.standard_normal(d)
    wq, wk, wk2 = rng.standard_normal((3, d, d))
    table, bias = rng.standard_normal((2 * K + 1, d)), rng.standard_normal(2 * K + 1)
    content = (x @ wq.T) @ (x @ wk.T).T

    def rel(pos: np.ndarray) -> np.ndarray:
        return table[np.clip(pos[:, None] + sign * pos[None, :], -K, K).astype(int) + K]  # p~_(m-n), (N, N, d)

    def sin_rel(pos: np.ndarray) -> np.ndarray:
        return sinusoidal_encoding(pos[:, None] + sign * pos[None, :], d)

    schemes = {
        "Shaw": lambda p: np.einsum("md,mnd->mn", x @ wq.T, (x[None, :, :] + rel(p)) @ wk.T),
        "Transformer-XL": lambda p: (
            content + np.einsum("md,mnd->mn", x @ wq.T, sin_rel(p) @ wk2.T) + (wq @ u) @ (x @ wk.T).T
            + np.einsum("d,mnd->mn", wq @ v, sin_rel(p) @ wk2.T)
        ),
        "T5": lambda p: content + relative_bias(p, bias),
        "DeBERTa": lambda p: (
            content + np.einsum("md,mnd->mn", x @ wq.T, rel(p) @ wk.T)
            + np.einsum("mnd,nd->mn", rel(p) @ wq.T, x @ wk.T)
        ),
    }
    pos = np.arange(N, dtype=float) * 2
    worst = max(shift_change(f, pos, 17.0) for f in schemes.values())
    far = rel(np.array([0.0, 10.0, 20.0]))
    clipped = max_diff(far[1, 0], far[2, 0])
    return identity(
        max(worst, clipped),
        f"scores of {', '.join(schemes)} at positions p and p + 17 (seed 39); and "
        "distances 10 and 20 share the clipped encoding p~_K",
    )


def tupe_position_term(*, m_matrix: tuple[tuple[float, float], ...] = ((1.0, 0.0), (0.0, 2.0))) -> Outcome:
    r"""Refutes "projecting :math:`p_m, p_n` (:math:`p_m^\top U_q^\top U_k p_n`) encodes relative position".

    ``m_matrix`` is :math:`M = U_q^\top U_k` (d = 2); the claim is refuted when M is not of the form aI + bJ."""
    parts = sinusoidal_pair_decomposition()
    a, b, c, e = sp.symbols("a b c e", real=True)
    M = np.array(m_matrix, dtype=float)
    absolute = parts["absolute"].subs({s: sp.nsimplify(v) for s, v in zip((a, b, c, e), M.ravel(), strict=True)})
    p = sinusoidal_encoding(np.array([0.0, 1.0]), 2)
    s00, s11 = float(p[0] @ M @ p[0]), float(p[1] @ M @ p[1])
    fixed = sp.simplify(parts["absolute"].subs({e: a, c: -b}))
    shown = f"diag({M[0, 0]:g}, {M[1, 1]:g})" if M[0, 1] == M[1, 0] == 0 else f"{num(M)}"
    # d = 4: an off-diagonal block couples two frequencies, cos(m w_0 - n w_1), never a function of m - n alone
    M4 = np.block([[np.zeros((2, 2)), np.eye(2)], [np.zeros((2, 2)), np.zeros((2, 2))]])
    p4 = sinusoidal_encoding(np.array([0.0, 1.0, 5.0]), 4)
    cross = [float(v @ M4 @ v) for v in p4]
    example = {"d": 2, "U_q^T U_k": num(M), "score(0, 0)": num(s00), "score(1, 1)": num(s11),
               "d = 4, identity block at (0, 1): score(m, m), m = 0, 1, 5": num(cross)}
    return Outcome(
        "fails" if abs(s00 - s11) > GAP and absolute != 0 else "holds",
        f"Sinusoidal p (d = 2) and U_q^T U_k = {shown}: i - j = 0 in both, yet p_0^T M p_0 = {num(s00)} and "
        f"p_1^T M p_1 = {num(s11)}; sympy's split leaves the absolute part {absolute}. Correction: it is "
        f"relative iff every diagonal 2x2 block is a I + b J (absolute part then {fixed}; split residual "
        f"{parts['residual']}) and, for d > 2 with distinct frequencies, every off-diagonal block is 0: at d = 4 an "
        f"identity block at (0, 1) gives p_m^T M p_m = {num(cross)} at m = 0, 1, 5.",
        example, bool(fixed == 0 and parts["residual"] == 0),
    )


def absolute_carries_relative(*, phase: float = np.pi / 2) -> Outcome:
    r"""Refutes "absolute encodings cannot encode relative position": sinusoidal :math:`p_i^\top p_j` is relative."""
    omega = 10000.0 ** (-2 * np.arange(8) / 16)
    angle = np.arange(8.0)[:, None] * omega[None, :]
    p = np.stack([np.sin(angle), np.sin(angle + phase)], axis=-1).reshape(8, 16)
    a, b = float(p[1] @ p[0]), float(p[6] @ p[5])
    _, _, residual = sinusoidal_dot_identity(4)
    leak = sinusoidal_leaks()
    example = {"d": 16, "p_1 . p_0": num(a), "p_6 . p_5": num(b)}
    return Outcome(
        "fails" if abs(a - b) < 1e-12 and residual == 0 else "holds",
        f"Sinusoidal p: p_1.p_0 = {num(a)} {'=' if abs(a - b) < 1e-12 else '!='} p_6.p_5, and sympy proves "
        f"p_i^T p_j = sum_t cos((i - j) w_t) (residual {residual}). Correction: what fails is that the attention "
        f"score is a function of i - j alone once W_q, W_k and the content enter: {leak.evidence}",
        example, leak.verdict == "holds",
    )
