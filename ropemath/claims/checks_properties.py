r"""Checks of what the notes say RoPE's rotation *does*: absolute and relative at once, no maximum length,
invertible, multiplicative, numerically stable; what :math:`f_q` and ``q`` are; 2D dot products and rotations.

>>> stability().verdict, score_shape().verdict, score_shape(what="f_q^T f_k").verdict
('holds-if', 'fails', 'holds')

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.3, §3.4.
"""

from __future__ import annotations

import numpy as np

from ropemath.claims._verdict import GAP, conditional, identity, max_diff, num, within_tol
from ropemath.claims.checks_rotation import POSITIONS, _relative_residual, relative_identity
from ropemath.claims.ledger import NOTES_ROPE, Alternative, Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.checks import elementwise_error
from ropemath.core.precision import angles_in_format, largest_distinct_integer, phase_error
from ropemath.core.rotation import rotation_2d, rotation_matrix
from ropemath.theory.encodings import sinusoidal_encoding


def absolute_and_relative(*, spacing: float = 1.0, sign: int = 1) -> Outcome:
    r"""Each position :math:`0, s, 2s, \dots` gets its own rotation (absolute); scores depend on m - n only."""
    d, q = 8, np.random.default_rng(7).standard_normal(8)  # seed 7
    pts = apply_rope(np.broadcast_to(q, (512, d)), spacing * np.arange(512.0), **NOTES_ROPE)
    sq = np.sum(pts**2, axis=1)
    dist = sq[:, None] + sq[None, :] - 2 * pts @ pts.T
    np.fill_diagonal(dist, np.inf)
    closest = float(np.sqrt(max(dist.min(), 0.0)) / np.linalg.norm(q))
    rel = relative_identity(sign=sign)
    ok = closest > 1e-3 and rel.verdict == "holds"
    return Outcome(
        "holds" if ok else "fails",
        f"Absolute: R_m q for m = 0..511 (d = 8, seed 7) are {'' if closest > 1e-3 else 'NOT '}pairwise distinct, "
        f"closest pair at relative distance {closest:.3f}. Relative: {rel.evidence}",
    )


def any_length(*, sign: int = 1) -> Outcome:
    r"""The rotation is defined for every position: no table, no maximum length (``sign``: see relative_identity)."""
    q, k = np.random.default_rng(8).standard_normal((2, 64))  # seed 8
    big = [(1e6 + 3, 1e6), (-5e5, 5e5), (2**20, 17.0)]
    err = max(_relative_residual(q, k, m, n, sign) for m, n in big)
    orth = max(max_diff(rotation_matrix(m, 64).T @ rotation_matrix(m, 64), np.eye(64)) for m, _ in big)
    return identity(
        max(err, orth),
        f"relative identity and orthogonality at positions up to 2^20, (m, n) = {_pairs(big)} "
        "(float64 angles; the angle rounding grows like |m| 2^-52)",
        tol=1e-8,
    )


def invertible(*, sign: int = -1) -> Outcome:
    r""":math:`R_{-m} R_m x = x`: the rotation loses no information (undone by :math:`R_{\mathrm{sign}\,m}`)."""
    x = np.random.default_rng(9).standard_normal((16, 64))  # seed 9
    err = max(max_diff(apply_rope(apply_rope(x, m, **NOTES_ROPE), sign * m, **NOTES_ROPE), x) for m in POSITIONS)
    return identity(err, "apply_rope(apply_rope(x, m), -m) - x for 16 random x in R^64 (seed 9)", tol=1e-10)


def multiplicative(*, additive: float = 0.0) -> Outcome:
    r"""RoPE is multiplicative: :math:`f(x, m) = R_m x` is linear in x (no additive position term).

    ``additive`` c measures :math:`f(x, m) = R_m x + c\,p_m` instead (:math:`p_m` sinusoidal)."""
    x, y = np.random.default_rng(10).standard_normal((2, 16))  # seed 10
    a, b = 1.7, -0.4

    def f(v: np.ndarray, m: float) -> np.ndarray:
        return apply_rope(v, m, **NOTES_ROPE) + additive * sinusoidal_encoding(m, 16)

    err = float(np.max([np.max(np.abs(f(a * x + b * y, m) - a * f(x, m) - b * f(y, m))) for m in POSITIONS]))
    zero = float(np.max([np.max(np.abs(f(np.zeros(16), m))) for m in POSITIONS]))  # NaN propagates
    what = "f(a x + b y, m) vs a f(x, m) + b f(y, m), and f(0, m) = 0 (so no p_m is added)"
    return identity(max(err, zero), what, tol=1e-10)


def orthogonal_is_stable(*, stretch: float = 1.0) -> Outcome:
    r"""Orthogonality makes the encoding numerically stable: :math:`\kappa_2(R_m) = 1`, errors are not amplified.

    .. math:: \|R_m(x + e) - R_m x\| = \|e\|, \qquad \kappa_2(R_m) = \|R_m\|\,\|R_m^{-1}\| = 1

    ``stretch`` multiplies the last coordinate (a non-orthogonal map). Rounded angles: :func:`stability`."""
    scale = np.append(np.ones(63), stretch)
    rng, worst = np.random.default_rng(15), 0.0  # seed 15
    for m in POSITIONS:
        a = rotation_matrix(m, 64) * scale  # columns scaled: R_m diag(scale)
        worst = max(worst, abs(float(np.linalg.cond(a)) - 1.0))
        for e in rng.standard_normal((16, 64)):
            worst = max(worst, abs(float(np.linalg.norm(a @ e) / np.linalg.norm(e)) - 1.0))
    return identity(worst, "|kappa_2(R_m) - 1| and | |R_m e| / |e| - 1 | (d = 64, 16 random e, seed 15)", tol=1e-9)


def stability(*, formats: tuple[str, str] = ("bfloat16", "float32"), inside: str = "float64") -> Outcome:
    r"""Orthogonality makes :math:`\kappa_2(R) = 1`, but cannot protect angles rounded in a short format.

    ``formats``: angles for the collision (positions 256, 257) and drift tests; ``inside``: inside the condition."""
    short, mid = formats
    kappa = max(float(np.linalg.cond(rotation_matrix(m, 64))) for m in POSITIONS)
    bf = angles_in_format([256, 257], 128, dtype=short)[:, 0]
    drift = {m: float(np.max(phase_error(m, 128, dtype=mid))) for m in (2048, 10**6)}
    q, k = np.random.default_rng(14).standard_normal((2, 128))  # seed 14
    far = _relative_residual(q, k, *(far_mn := (10**6 + 3, 10**6)))  # float64 angles
    broken = bool(bf[0] == bf[1]) and drift[10**6] > 1e-2
    inside_angles = angles_in_format([256, 257], 128, dtype=inside)[:, 0]
    inside_drift = float(np.max(phase_error(2048, 128, dtype=inside)))
    inside_ok = bool(inside_angles[0] != inside_angles[1]) and inside_drift < 1e-6
    unit = abs(kappa - 1.0) < 1e-12
    holds_inside = unit and far < 1e-9 and inside_ok
    example = {
        "dtype": short, "d": 128, "positions": [256, 257], "angle of pair 0": num(bf),
        "float32 angle error at m = 10^6 (rad)": num(drift[10**6]),
    }
    same = f"both get angle {num(bf[0])}" if bf[0] == bf[1] else f"get angles {num(bf[0])} and {num(bf[1])}"
    evidence = (
        f"Condition number of R_m is {'1 to within 1e-12' if unit else 'NOT 1'} (d = 64, 6 positions): errors in x "
        f"are {'not ' if unit else ''}amplified. But the angles themselves can be wrong: formed in {short}, positions "
        f"256 and 257 {same} on pair 0{' (indistinguishable)' if bf[0] == bf[1] else ''}; formed in {mid} they drift "
        f"by up to {drift[2048]:.1e} rad at m = 2048 and {drift[10**6]:.1e} rad at m = 10^6 (float32 stores integers "
        f"exactly only up to {largest_distinct_integer('float32')}). With float64 angles the relative identity holds "
        f"at (m, n) = {_pairs([far_mn])} (relative residual {'below' if far < 1e-9 else 'ABOVE'} 1e-9, seed 14). "
        f"Angles formed in {inside}: {'distinct and accurate' if inside_ok else 'NOT distinct or drifting'}."
    )
    return conditional(broken, holds_inside, example, evidence)


#: The notes' stability sentences (notes 000, 001, 004) read as being about rounded angles: :func:`stability`.
ROUNDED_ANGLES_READING = Alternative(
    "Read as: the encoding is numerically stable however its angles are computed (they are rounded in "
    "the format the model runs in).",
    "holds-if", stability,
)


def score_shape(*, what: str = "f_q") -> Outcome:
    r""":math:`f_{q}(x_m, m) = R_m W_q x_m` is a d-vector; the score (``what`` claims it) is :math:`f_q^\top f_k`."""
    rng = np.random.default_rng(11)  # seed 11
    wq, wk = rng.standard_normal((2, 4, 4))
    xm, xn = rng.standard_normal((2, 4))
    f_q = rotation_matrix(3.0, 4) @ wq @ xm
    score = f_q @ (rotation_matrix(1.0, 4) @ wk @ xn)
    residual = abs(score - xm @ wq.T @ rotation_matrix(-2.0, 4) @ wk @ xn)
    broken = {"f_q": f_q, "f_q^T f_k": score}[what].shape != ()
    example = {"d": 4, "m": 3, "f_q(x_m, m)": num(f_q), "score f_q^T f_k (n = 1)": num(score)}
    return Outcome(
        "fails" if broken else "holds",
        f"f_q(x_m, m) has shape {f_q.shape} (a rotated query), the score is a scalar: {num(score)} for "
        f"random W, x (seed 11). Correction f_q^T f_k = x_m^T W_q^T R_(n-m) W_k x_n: residual "
        f"{within_tol(residual, 1e-10)}.",
        example, bool(residual <= 1e-10),
    )


def dot_and_angle(*, scale: float = 2.0, inside_scale: float = 1.0) -> Outcome:
    r""":math:`a\cdot b` depends only on the angle when the norms are fixed (as under rotation), not in general.

    Outside: b vs :math:`b' = \mathrm{scale}\cdot b`; ``inside_scale`` multiplies the rotated k of the inside sample."""
    a, b1, b2 = np.array([1.0, 0.0]), np.array([1.0, 0.0]), np.array([scale, 0.0])
    rng = np.random.default_rng(12)  # seed 12: rotated copies of fixed q, k in 2D
    q, k = rng.standard_normal((2, 2))
    alpha_q, alpha_k = np.arctan2(q[1], q[0]), np.arctan2(k[1], k[0])
    worst = 0.0
    for _ in range(20):
        m, n = rng.uniform(-50, 50, 2)
        dot = (rotation_2d(m) @ q) @ (inside_scale * rotation_2d(n) @ k)
        angle = (alpha_q + m) - (alpha_k + n)  # polar angles after turning by m and n radians
        worst = max(worst, abs(dot - np.linalg.norm(q) * np.linalg.norm(k) * np.cos(angle)))
    example = {"a": num(a), "b": num(b1), "b'": num(b2), "angle": 0.0, "a.b": float(a @ b1), "a.b'": float(a @ b2)}
    return conditional(
        bool(abs(a @ b1 - a @ b2) > GAP), worst < 1e-12, example,
        f"Same angle (0), {'different' if a @ b1 != a @ b2 else 'equal'} dot products ({a @ b1:g} vs {a @ b2:g}): in "
        f"general the dot product also scales with the norms. For rotated copies of fixed q, k (seed 12) it is |q||k| "
        f"cos(angle between them): residual {within_tol(worst)} over 20 rotations, so there only the angle matters.",
    )


def rotations_2d_vs_3d(*, proper: bool = True) -> Outcome:
    r"""Every 2D rotation is :math:`R(a)` for one angle and 2D rotations commute; 3D rotations do not.

    ``proper=False`` draws improper orthogonal matrices (det = -1) instead of rotations."""
    rng, err = np.random.default_rng(13), 0.0  # seed 13
    for _ in range(10):
        Q, _ = np.linalg.qr(rng.standard_normal((2, 2)))
        Q = Q if (np.linalg.det(Q) > 0) == proper else Q[:, ::-1]
        err = max(err, max_diff(Q, rotation_2d(np.arctan2(Q[1, 0], Q[0, 0]))))
        a, b = rng.standard_normal(2)
        err = max(err, max_diff(rotation_2d(a) @ rotation_2d(b), rotation_2d(b) @ rotation_2d(a)))
    rx, rz = np.eye(3), np.eye(3)
    rx[1:, 1:] = rotation_2d(np.pi / 2)  # 90 degrees about x (turns the y-z plane)
    rz[:2, :2] = rotation_2d(np.pi / 2)  # 90 degrees about z (turns the x-y plane)
    gap = max_diff(rx @ rz, rz @ rx)
    out = identity(
        err if gap > 0.5 else float("inf"),
        "10 random proper orthogonal 2x2 matrices equal R(atan2) and 2D rotations commute (seed 13)",
    )
    return Outcome(out.verdict, f"{out.evidence} In 3D, 90-degree turns about x and z do not commute "
                   f"(|R_x R_z - R_z R_x| = {gap:.0f}).")


def q_is_the_query(*, position_only: bool = False) -> Outcome:
    r"""Refutes "q is the position-encoding vector, generated by sines or cosines": in RoFormer q = W_q x_m.

    .. math:: q_m = R^d_{\Theta,m} W_q x_m \quad (\text{RoFormer eq. 14, 16})

    Two tokens at one position give different q; ``position_only=True`` builds q as the sinusoidal :math:`p_m`."""
    rng, m = np.random.default_rng(16), 5.0  # seed 16
    w_q = rng.standard_normal((8, 8))
    x, x2 = rng.standard_normal((2, 8))
    q, q2 = (sinusoidal_encoding(m, 8), sinusoidal_encoding(m, 8)) if position_only else (w_q @ x, w_q @ x2)
    gap = max_diff(q, q2)
    err = max(elementwise_error(np.arange(1.0, 9.0), p) for p in POSITIONS)
    example = {"d": 8, "m": int(m), "q for token x": num(q), "q for token x'": num(q2)}
    return Outcome(
        "fails" if gap > GAP else "holds",
        f"At the same position m = {m:.0f}, two tokens give q that differ by up to {num(gap)} (d = 8, seed 16): "
        f"q = W_q x_m carries the token, not the position. Correction: the sines and cosines are the multipliers "
        f"cos(m theta_i), sin(m theta_i); the elementwise formula equals R_m q for q = (1, 2, ..., 8) "
        f"(residual {within_tol(err, 1e-10)}).",
        example if gap > GAP else None, bool(err <= 1e-10),
    )


def _pairs(pairs: list[tuple[float, float]]) -> str:
    """Position pairs as integers, for evidence texts."""
    return ", ".join(f"({m:.0f}, {n:.0f})" for m, n in pairs)
