r"""Checks of the notes' claims about the rotation matrices and the RoPE score.

Scope: zero-argument check functions (each returns an :class:`~ropemath.claims.ledger.Outcome`)
for the algebra of :math:`R^d_{\Theta,m}`: transpose, composition, inverse, orthogonality,
norms, the relative-position identity and its wrong variants, the elementwise form and the
sparsity it exploits, the block structure (and the even :math:`d` it needs), and the
counter-clockwise sense.  What the notes say the rotation *does* (stability, no lost
information, ...) is checked in :mod:`.checks_properties`.  They call the sympy
proofs and refutations of :mod:`ropemath.symbolic` and the numeric checks of
:mod:`ropemath.core.checks`; nothing here re-derives what those modules prove.

Example (each check returns an Outcome whose verdict is computed):

>>> transpose_rule().verdict, relative_sign_slip().verdict, even_dimension().verdict
('holds', 'fails', 'holds-if')

Numeric checks draw from ``np.random.default_rng(seed)`` with the seed written in the code.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (13), (15)-(16), (34); the five
notes of ``shared/REFERENCES.md``.
"""

from __future__ import annotations

import numpy as np

from ropemath.claims._verdict import TOL, conditional, from_refutation, identity, res
from ropemath.claims.ledger import Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.checks import (
    composition_error,
    determinant_error,
    elementwise_error,
    norm_error,
    orthogonality_error,
    relative_position_error,
    transpose_error,
)
from ropemath.core.rotation import rotation_2d, rotation_matrix
from ropemath.symbolic import proofs, refutations

DIMS = (2, 8, 64)
POSITIONS = (-7.0, 0.0, 1.0, 3.0, 1000.0, 123456.0)


def _proved(*names: str) -> tuple[bool, str]:
    """Whether every named sympy proof holds, and a short text naming them."""
    ps = [proofs.get_proof(name) for name in names]
    return all(p.holds for p in ps), ", ".join(f"sympy proof '{p.name}' {'holds' if p.holds else 'FAILS'}" for p in ps)


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
        abs(float(apply_rope(q, m, layout="interleaved") @ apply_rope(k, m, layout="interleaved") - q @ k))
        / (np.linalg.norm(q) * np.linalg.norm(k))
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
    r"""RoFormer eq. (34): :math:`R x = x \otimes \cos + (-x_1, x_0, \dots) \otimes \sin` (interleaved).

    Also measures the sparsity the notes invoke: :math:`R^d_{\Theta,m}` has 2d non-zero entries of
    :math:`d^2`, so the dense product spends :math:`d^2` multiplications where eq. (34) needs 2d.
    """
    x = np.random.default_rng(5).standard_normal(64)  # seed 5
    err = max(elementwise_error(x[:d], m) for m in POSITIONS for d in DIMS)
    nonzero = {d: int(np.count_nonzero(rotation_matrix(1.0, d))) for d in (8, 128)}
    sparse = all(n == 2 * d for d, n in nonzero.items())
    out = _with_proof(
        err if sparse else float("inf"),
        "apply_rope (eq. 34) vs dense R x, interleaved, d in {2, 8, 64}",
        "elementwise_interleaved_d6",
    )
    return Outcome(
        out.verdict,
        f"{out.evidence} Sparsity: R^d_(Theta,1) has {nonzero[8]} non-zero entries of 64 at d = 8 and "
        f"{nonzero[128]} of 16384 at d = 128 (2d of d^2), so eq. (34) needs 2d multiplications instead of d^2.",
    )


def even_dimension() -> Outcome:
    r""":math:`R^d_{\Theta,m}` is built from d/2 planes: defined for even d, not for odd d."""
    err = 0.0
    for d in (2, 8, 64):  # even d: the block-diagonal matrix built by a loop is d x d and equals R^d
        loop = np.zeros((d, d))
        for i in range(d // 2):
            loop[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = rotation_2d(3.0 * 10000.0 ** (-2 * i / d))
        err = max(err, float(np.max(np.abs(loop - rotation_matrix(3.0, d)))))
    d = 3  # odd d: Theta = {theta_i, i = 1..d/2} has no last index, the blocks cover 2 floor(d/2) < d coordinates
    covered = 2 * (d // 2)
    try:
        rotation_matrix(1.0, d)
        refused = "accepted"
    except ValueError as exc:
        refused = f"refused ({exc})"
    example = {"d": d, "d/2": d / 2, "coordinates covered by the 2x2 blocks": covered}
    return conditional(
        covered != d,
        err <= TOL,
        example,
        f"Even d in {{2, 8, 64}}: the d/2 blocks R(m theta_i) built by a loop fill the d x d matrix R^d "
        f"(residual {res(err)}). Odd d = 3: d/2 = 1.5 is not an index bound and the blocks cover only "
        f"{covered} of {d} coordinates; ropemath.rotation_matrix(1, 3) is {refused}.",
    )


def lengths_and_angle() -> Outcome:
    r""":math:`\|R_m q\| = \|q\|`, and :math:`q\cdot k = \|q\|\|k\|\cos\alpha` with α the angle from k to q."""
    rng = np.random.default_rng(15)  # seed 15
    worst = 0.0
    for _ in range(20):
        q, k = rng.standard_normal((2, 2))
        m = float(rng.integers(-1000, 1000))
        nq, nk = float(np.hypot(*q)), float(np.hypot(*k))
        alpha = np.arctan2(q[1], q[0]) - np.arctan2(k[1], k[0])  # polar angles, independent of the dot product
        worst = max(worst, abs(float(np.hypot(*(rotation_2d(m) @ q))) - nq) / nq, abs(q @ k - nq * nk * np.cos(alpha)))
    return identity(
        worst, "|R(m) q| vs |q| and q.k vs |q||k| cos(alpha_q - alpha_k) from polar angles, 20 cases (seed 15)"
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
