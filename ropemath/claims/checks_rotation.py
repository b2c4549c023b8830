r"""Checks of the notes' claims about the rotation matrices and the RoPE score.

Scope: zero-argument check functions (each returns an :class:`~ropemath.claims.ledger.Outcome`)
for the algebra of :math:`R^d_{\Theta,m}`: transpose, composition, inverse, orthogonality,
norms, the relative-position identity and its wrong variants, the elementwise form, what
"absolute" and "relative" mean for RoPE, and claims about stability.  They call the sympy
proofs and refutations of :mod:`ropemath.symbolic` and the numeric checks of
:mod:`ropemath.checks`; nothing here re-derives what those modules prove.

Example (each check returns an Outcome whose verdict is computed):

>>> transpose_rule().verdict, relative_sign_slip().verdict, stability().verdict
('holds', 'fails', 'holds-if')

Numeric checks draw from ``np.random.default_rng(seed)`` with the seed written in the code.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (13), (15)-(16), (34); the five
notes of ``shared/REFERENCES.md``.
"""

from __future__ import annotations

import numpy as np

from ..apply import apply_rope
from ..checks import (
    composition_error,
    determinant_error,
    elementwise_error,
    norm_error,
    orthogonality_error,
    relative_position_error,
    transpose_error,
)
from ..precision import angles_in_format, largest_distinct_integer, phase_error
from ..rotation import rotation_2d, rotation_matrix
from ..symbolic import proofs, refutations
from ._verdict import GAP, TOL, conditional, from_refutation, identity, not_checkable, num, res
from .ledger import Outcome

DIMS = (2, 8, 64)
POSITIONS = (-7.0, 0.0, 1.0, 3.0, 1000.0, 123456.0)


def _proved(*names: str) -> tuple[bool, str]:
    """Whether every named sympy proof holds, and a short text naming them."""
    ps = [proofs.get_proof(name) for name in names]
    return all(p.holds for p in ps), ", ".join(
        f"sympy proof '{p.name}' {'holds' if p.holds else 'FAILS'}" for p in ps
    )


def _with_proof(residual: float, what: str, *names: str, tol: float = TOL) -> Outcome:
    """``holds`` iff the numeric residual is small and the sympy proofs hold."""
    ok, text = _proved(*names)
    out = identity(residual if ok else float("inf"), what, tol)
    return Outcome(out.verdict, f"{text}; {out.evidence}")


def _random_pairs(seed: int, d: int, count: int) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    rng = np.random.default_rng(seed)
    return [
        (rng.standard_normal(d), rng.standard_normal(d), *map(float, rng.integers(-(10**4), 10**4, 2)))
        for _ in range(count)
    ]


def transpose_rule() -> Outcome:
    r""":math:`(R^d_{\Theta,m})^\top = R^d_{\Theta,-m}`."""
    err = max(transpose_error(m, d) for m in POSITIONS for d in DIMS)
    return _with_proof(err, "dense R_m^T vs R_{-m}, d in {2, 8, 64}, 6 positions", "transpose")


def composition_rule() -> Outcome:
    r""":math:`R_a R_b = R_{a+b}` (angles add)."""
    err = max(composition_error(m, n, d) for m in POSITIONS for n in (-3.0, 5.0) for d in DIMS)
    return _with_proof(err, "dense R_m R_n vs R_{m+n}", "composition", tol=1e-10)


def inverse_rule() -> Outcome:
    r""":math:`R_\theta^{-1} = R_{-\theta} = R_\theta^\top` (transpose equals inverse)."""
    err = max(
        float(np.max(np.abs(np.linalg.inv(rotation_matrix(m, d)) - rotation_matrix(-m, d))))
        for m in POSITIONS
        for d in DIMS
    )
    return _with_proof(err, "numpy inv(R_m) vs R_{-m}", "transpose", "orthogonality")


def orthogonal_rule() -> Outcome:
    r""":math:`R^\top R = I` and :math:`\det R = 1`."""
    err = max(max(orthogonality_error(m, d), determinant_error(m, d)) for m in POSITIONS for d in DIMS)
    return _with_proof(err, "|R^T R - I| and |det R - 1|", "orthogonality", "determinant")


def norm_rule() -> Outcome:
    r""":math:`\|R^d_{\Theta,m} x\| = \|x\|`."""
    x = np.random.default_rng(1).standard_normal((32, 64))  # seed 1
    err = max(norm_error(x, m) for m in POSITIONS)
    return identity(err, "relative norm change of 32 random x in R^64 (seed 1), 6 positions")


def same_rotation_invariance() -> Outcome:
    r""":math:`(R q)^\top (R k) = q^\top k` for one rotation applied to both vectors."""
    err = max(
        abs(float(apply_rope(q, m) @ apply_rope(k, m) - q @ k)) / (np.linalg.norm(q) * np.linalg.norm(k))
        for q, k, m, _ in _random_pairs(2, 16, 20)
    )  # seed 2
    return identity(err, "(R_m q).(R_m k) vs q.k, 20 random pairs in R^16 (seed 2)")


def relative_identity() -> Outcome:
    r""":math:`(R_m q)^\top (R_n k) = q^\top R_{n-m} k` — depends on m, n only through n - m."""
    err = max(relative_position_error(q, k, m, n) for d in DIMS for q, k, m, n in _random_pairs(3, d, 5))
    return _with_proof(
        err,
        "dense (R_m q)^T(R_n k) vs q^T R_{n-m} k, 15 random cases (seed 3)",
        "relative_position_2d",
        "block_diagonal_d4",
        "block_diagonal_d6",
        tol=1e-10,
    )


def transpose_product() -> Outcome:
    r""":math:`(R^d_{\Theta,m})^\top R^d_{\Theta,n} = R^d_{\Theta,n-m}`."""
    err = max(
        float(np.max(np.abs(rotation_matrix(m, d).T @ rotation_matrix(n, d) - rotation_matrix(n - m, d))))
        for m in POSITIONS
        for n in (-3.0, 5.0, 777.0)
        for d in DIMS
    )
    return _with_proof(
        err, "dense R_m^T R_n vs R_{n-m}, d in {2, 8, 64}", "block_diagonal_d4", "block_diagonal_d6", tol=1e-10
    )


def relative_sign_slip() -> Outcome:
    r"""Refutes :math:`(R_m q)^\top (R_n k) = q^\top R_{m-n} k` (wrong sign)."""
    return from_refutation("relative_sign")


def weights_identity() -> Outcome:
    r""":math:`(R_m W_q x_m)^\top (R_n W_k x_n) = x_m^\top W_q^\top R_{n-m} W_k x_n`."""
    rng = np.random.default_rng(4)  # seed 4
    err = 0.0
    for _ in range(10):
        wq, wk = rng.standard_normal((2, 8, 8))
        xm, xn = rng.standard_normal((2, 8))
        m, n = map(float, rng.integers(-1000, 1000, 2))
        lhs = (rotation_matrix(m, 8) @ wq @ xm) @ (rotation_matrix(n, 8) @ wk @ xn)
        rhs = xm @ wq.T @ rotation_matrix(n - m, 8) @ wk @ xn
        err = max(err, abs(lhs - rhs) / (np.linalg.norm(wq @ xm) * np.linalg.norm(wk @ xn)))
    return _with_proof(err, "10 random (W_q, W_k, x_m, x_n) in d = 8 (seed 4)", "weights_transpose_2d", tol=1e-10)


def weights_missing_transpose() -> Outcome:
    r"""Refutes :math:`x_m^\top W_q R_{n-m} W_k x_n` (no transpose on :math:`W_q`)."""
    return from_refutation("missing_weight_transpose")


def weights_transpose_lost() -> Outcome:
    r"""The identity with :math:`W_q^\top` (as meant) holds; the literal one fails (checked too)."""
    meant, literal = weights_identity(), refutations.get_refutation("missing_weight_transpose")
    return Outcome(
        meant.verdict,
        f"As meant (with W_q^T): {meant.evidence} Read literally (no transpose) it would fail: {literal.summary()}.",
    )


def elementwise_form() -> Outcome:
    r"""RoFormer eq. (34): :math:`R x = x \otimes \cos + (-x_1, x_0, \dots) \otimes \sin` (interleaved)."""
    x = np.random.default_rng(5).standard_normal(64)  # seed 5
    err = max(elementwise_error(x[:d], m) for m in POSITIONS for d in DIMS)
    return _with_proof(
        err, "apply_rope (eq. 34) vs dense R x, interleaved, d in {2, 8, 64}", "elementwise_interleaved_d6"
    )


def pairwise_rotation() -> Outcome:
    r""":math:`R^d_{\Theta,m}` rotates pair i by :math:`m\theta_i`; the score is the sum of the d/2 pair scores."""
    rng = np.random.default_rng(6)  # seed 6
    d, err = 8, 0.0
    theta = [10000.0 ** (-2 * i / d) for i in range(d // 2)]  # written out, independent of ropemath
    for _ in range(5):
        q, k = rng.standard_normal((2, d))
        m, n = map(float, rng.integers(-100, 100, 2))
        pairs = [complex(q[2 * i], q[2 * i + 1]) * np.exp(1j * m * theta[i]) for i in range(d // 2)]
        dense = rotation_matrix(m, d) @ q
        err = max(err, max(abs(dense[2 * i] - z.real) + abs(dense[2 * i + 1] - z.imag) for i, z in enumerate(pairs)))
        per_pair = sum(
            (rotation_2d(m * t) @ q[2 * i : 2 * i + 2]) @ (rotation_2d(n * t) @ k[2 * i : 2 * i + 2])
            for i, t in enumerate(theta)
        )
        err = max(err, abs(per_pair - (rotation_matrix(m, d) @ q) @ (rotation_matrix(n, d) @ k)))
    return _with_proof(
        err,
        "dense R^8 vs per-pair complex products, and the score vs the sum of 4 pair scores",
        "block_diagonal_d4",
        "block_diagonal_d6",
        tol=1e-10,
    )


def counterclockwise() -> Outcome:
    r""":math:`R(\theta) v` turns v counter-clockwise by :math:`\theta` (for :math:`0 < \theta < \pi`)."""
    v = np.array([1.0, 0.0])
    err = float(np.max(np.abs(rotation_2d(np.pi / 2) @ v - [0.0, 1.0])))
    for t in (0.3, 1.0, 2.5):
        w = np.array([0.6, -0.8])
        u = rotation_2d(t) @ w
        turned = np.arctan2(w[0] * u[1] - w[1] * u[0], w @ u)  # signed angle from w to u
        err = max(err, abs(turned - t))
    return identity(err, "R(pi/2)(1, 0) = (0, 1) and the signed angle from w to R(t) w equals +t")


def absolute_and_relative() -> Outcome:
    r"""Each position gets its own rotation (absolute) while scores depend on m - n only (relative)."""
    d, q = 8, np.random.default_rng(7).standard_normal(8)  # seed 7
    pts = apply_rope(np.broadcast_to(q, (512, d)), np.arange(512.0))
    sq = np.sum(pts**2, axis=1)
    dist = sq[:, None] + sq[None, :] - 2 * pts @ pts.T
    np.fill_diagonal(dist, np.inf)
    closest = float(np.sqrt(max(dist.min(), 0.0)) / np.linalg.norm(q))
    rel = relative_identity()
    ok = closest > 1e-3 and rel.verdict == "holds"
    return Outcome(
        "holds" if ok else "fails",
        f"Absolute: R_m q for m = 0..511 (d = 8, seed 7) are pairwise distinct, closest pair at relative "
        f"distance {closest:.3f}. Relative: {rel.evidence}",
    )


def any_length() -> Outcome:
    r"""The rotation is defined for every position: no table, no maximum length."""
    q, k = np.random.default_rng(8).standard_normal((2, 64))  # seed 8
    big = [(1e6 + 3, 1e6), (-5e5, 5e5), (2**20, 17.0)]
    err = max(relative_position_error(q, k, m, n) for m, n in big)
    orth = max(orthogonality_error(m, 64) for m, _ in big)
    return identity(
        max(err, orth),
        "relative identity and orthogonality at positions up to 2^20 (float64 angles; "
        "the angle rounding grows like |m| 2^-52)",
        tol=1e-8,
    )


def invertible() -> Outcome:
    r""":math:`R_{-m} R_m x = x`: the rotation loses no information."""
    x = np.random.default_rng(9).standard_normal((16, 64))  # seed 9
    err = max(float(np.max(np.abs(apply_rope(apply_rope(x, m), -m) - x))) for m in POSITIONS)
    return identity(err, "apply_rope(apply_rope(x, m), -m) - x for 16 random x in R^64 (seed 9)", tol=1e-10)


def multiplicative() -> Outcome:
    r"""RoPE is multiplicative: :math:`f(x, m) = R_m x` is linear in x (no additive position term)."""
    rng = np.random.default_rng(10)  # seed 10
    x, y = rng.standard_normal((2, 16))
    a, b = 1.7, -0.4
    err = max(
        float(np.max(np.abs(apply_rope(a * x + b * y, m) - a * apply_rope(x, m) - b * apply_rope(y, m))))
        for m in POSITIONS
    )
    zero = max(float(np.max(np.abs(apply_rope(np.zeros(16), m)))) for m in POSITIONS)
    out = identity(
        max(err, zero), "f(a x + b y, m) vs a f(x, m) + b f(y, m), and f(0, m) = 0 (so no p_m is added)", tol=1e-10
    )
    return out


def stability() -> Outcome:
    r"""Orthogonality makes :math:`\kappa_2(R) = 1`, but cannot protect angles rounded in a short format."""
    kappa = max(float(np.linalg.cond(rotation_matrix(m, 64))) for m in POSITIONS)
    bf = angles_in_format([256, 257], 128, dtype="bfloat16")[:, 0]
    drift = {m: float(np.max(phase_error(m, 128, dtype="float32"))) for m in (2048, 10**6)}
    q, k = np.random.default_rng(14).standard_normal((2, 128))  # seed 14
    far = relative_position_error(q, k, 10**6 + 3, 10**6)  # float64 angles
    broken = bool(bf[0] == bf[1]) and drift[10**6] > 1e-2
    inside = abs(kappa - 1.0) < 1e-12 and far < 1e-9
    example = {
        "dtype": "bfloat16",
        "d": 128,
        "positions": [256, 257],
        "angle of pair 0": num(bf),
        "float32 angle error at m = 10^6 (rad)": num(drift[10**6]),
    }
    evidence = (
        f"Condition number of R_m is {kappa:.12f} (d = 64, 6 positions): errors in x are not amplified. But the "
        f"angles themselves can be wrong: formed in bfloat16, positions 256 and 257 both get angle {num(bf[0])} on "
        f"pair 0 (indistinguishable); formed in float32 they drift by up to {drift[2048]:.1e} rad at m = 2048 and "
        f"{drift[10**6]:.1e} rad at m = 10^6 (float32 stores integers exactly only up to "
        f"{largest_distinct_integer('float32')}). With float64 angles the relative identity holds at m = 10^6 "
        f"(relative residual {'below' if far < 1e-9 else 'ABOVE'} 1e-9, seed 14)."
    )
    return conditional(broken, inside, example, evidence)


def score_shape() -> Outcome:
    r""":math:`f_{q}(x_m, m) = R_m W_q x_m` is a d-vector; the score is the inner product of two of them."""
    rng = np.random.default_rng(11)  # seed 11
    wq, wk = rng.standard_normal((2, 4, 4))
    xm, xn = rng.standard_normal((2, 4))
    f_q = rotation_matrix(3.0, 4) @ wq @ xm
    score = f_q @ (rotation_matrix(1.0, 4) @ wk @ xn)
    residual = abs(score - xm @ wq.T @ rotation_matrix(-2.0, 4) @ wk @ xn)
    broken = f_q.shape != ()
    example = {"d": 4, "m": 3, "f_q(x_m, m)": num(f_q), "score f_q^T f_k (n = 1)": num(score)}
    return Outcome(
        "fails" if broken else "holds",
        f"f_q(x_m, m) has shape {f_q.shape} (a rotated query), the score is a scalar: {num(score)} for "
        f"random W, x (seed 11). Correction f_q^T f_k = x_m^T W_q^T R_(n-m) W_k x_n: residual {res(residual)}.",
        example,
        bool(residual <= 1e-10),
    )


def dot_and_angle() -> Outcome:
    r""":math:`a\cdot b` depends only on the angle when the norms are fixed (as under rotation), not in general."""
    a, b1, b2 = np.array([1.0, 0.0]), np.array([1.0, 0.0]), np.array([2.0, 0.0])
    rng = np.random.default_rng(12)  # seed 12: rotated copies of fixed q, k in 2D
    q, k = rng.standard_normal((2, 2))
    alpha_q, alpha_k = np.arctan2(q[1], q[0]), np.arctan2(k[1], k[0])
    worst = 0.0
    for _ in range(20):
        m, n = rng.uniform(-50, 50, 2)
        dot = (rotation_2d(m) @ q) @ (rotation_2d(n) @ k)
        angle = (alpha_q + m) - (alpha_k + n)  # polar angles after turning by m and n radians
        worst = max(worst, abs(dot - np.linalg.norm(q) * np.linalg.norm(k) * np.cos(angle)))
    example = {
        "a": [1.0, 0.0],
        "b": [1.0, 0.0],
        "b'": [2.0, 0.0],
        "angle": 0.0,
        "a.b": float(a @ b1),
        "a.b'": float(a @ b2),
    }
    return conditional(
        bool(abs(a @ b1 - a @ b2) > GAP),
        worst < 1e-12,
        example,
        "Same angle (0), different dot products (1 vs 2): in general the dot product also scales with the norms. "
        f"For rotated copies of fixed q, k (seed 12) it is |q||k| cos(angle between them): residual {res(worst)} "
        "over 20 rotations, so there only the angle matters.",
    )


def rotations_2d_vs_3d() -> Outcome:
    r"""Every 2D rotation is :math:`R(a)` for one angle and 2D rotations commute; 3D rotations do not."""
    rng = np.random.default_rng(13)  # seed 13
    err = 0.0
    for _ in range(10):
        Q, _ = np.linalg.qr(rng.standard_normal((2, 2)))
        Q = Q if np.linalg.det(Q) > 0 else Q[:, ::-1]
        err = max(err, float(np.max(np.abs(Q - rotation_2d(np.arctan2(Q[1, 0], Q[0, 0]))))))
        a, b = rng.standard_normal(2)
        err = max(err, float(np.max(np.abs(rotation_2d(a) @ rotation_2d(b) - rotation_2d(b) @ rotation_2d(a)))))
    rx = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])  # 90 degrees about x
    rz = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]])  # 90 degrees about z
    gap = float(np.max(np.abs(rx @ rz - rz @ rx)))
    out = identity(
        err if gap > 0.5 else float("inf"),
        "10 random proper orthogonal 2x2 matrices equal R(atan2) and 2D rotations commute (seed 13)",
    )
    return Outcome(
        out.verdict,
        out.evidence + f" In 3D, 90-degree turns about x and z do not commute (|R_x R_z - R_z R_x| = {gap:.0f}).",
    )


def what_q_is() -> Outcome:
    r"""What the symbol q stands for (a description, not a statement): the rotation acts on any vector."""
    q = np.arange(1.0, 9.0)  # deliberately not sinusoidal
    err = max(elementwise_error(q, m) for m in POSITIONS)
    return not_checkable(
        f"Measured: for q = (1, 2, ..., 8), not built from sines or cosines, the elementwise formula "
        f"still equals R_m q (residual {res(err)}); the sines and cosines enter only as cos(m theta_i), "
        f"sin(m theta_i)."
    )
