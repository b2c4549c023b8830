r"""Checks of the notes' claims about the rotation matrices :math:`R^d_{\Theta,m}` and the RoPE score.

Where a sympy proof backs a check, the wrong variant (:mod:`.controls`) also alters the proof's right side.

>>> transpose_rule().verdict, transpose_rule(sign=-1).verdict, even_dimension().verdict
('holds', 'fails', 'holds-if')

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (13), (15)-(16), (34).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import sympy as sp

from ropemath.claims._verdict import TOL, conditional, identity, max_diff, refutation_outcome, within_tol
from ropemath.claims.ledger import NOTES_ROPE, Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.blocks import block_diagonal
from ropemath.core.rotation import rotation_2d, rotation_matrix
from ropemath.symbolic import proofs, refutations
from ropemath.symbolic.common import a, b, is_zero, k0, k1, m, n, q0, q1, rotation, theta, thetas

DIMS = (2, 8, 64)
POSITIONS = (-7.0, 0.0, 1.0, 3.0, 1000.0, 123456.0)


def _unchanged(expr: sp.Basic) -> sp.Basic:
    return expr


_zero = functools.cache(is_zero)  # a non-zero expression costs a full simplify: each is tested once


def _proved(*names: str, wrong: Callable[[sp.Basic], sp.Basic] = _unchanged) -> tuple[bool, str]:
    """Whether every named sympy proof holds *and* sympy reduces ``lhs - wrong(rhs)`` to 0, with a short text."""
    ok, texts = True, []
    for p in (proofs.get_proof(name) for name in names):
        holds = bool(p.holds) and _zero(p.lhs - wrong(p.rhs))
        ok = ok and holds
        texts.append(f"sympy proof '{p.name}' {'holds' if holds else 'FAILS'}")
    return ok, ", ".join(texts)


def _with_proof(
    residual: float, what: str, *names: str, tol: float = TOL, wrong: Callable[[sp.Basic], sp.Basic] = _unchanged
) -> Outcome:
    """``holds`` iff the numeric residual is small and the sympy proofs (right sides through ``wrong``) hold."""
    ok, text = _proved(*names, wrong=wrong)
    out = identity(residual, what, tol)
    return Outcome("holds" if ok and out.verdict == "holds" else "fails", f"{text}; {out.evidence}")


def _relative_sign(sign: int) -> Callable[[sp.Basic], sp.Basic]:
    """Right side with R_{n-m} turned into R_{sign (n-m)} (m -> sign m, n -> sign n)."""
    return lambda e: e.subs({m: sign * m, n: sign * n}, simultaneous=True)


def _random_pairs(seed: int, d: int, count: int) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(d), rng.standard_normal(d), *map(float, rng.integers(-(10**4), 10**4, 2)))
            for _ in range(count)]


def _relative_residual(q: np.ndarray, k: np.ndarray, pm: float, pn: float, sign: int = 1) -> float:
    """|(R_m q)^T (R_n k) - q^T R_{sign (n-m)} k| / (|q| |k|) with dense matrices (sign = 1: RoFormer eq. 16)."""
    d = q.shape[-1]
    lhs = (rotation_matrix(pm, d) @ q) @ (rotation_matrix(pn, d) @ k)
    rhs = q @ (rotation_matrix(sign * (pn - pm), d) @ k)
    return float(abs(lhs - rhs) / (np.linalg.norm(q) * np.linalg.norm(k)))


def transpose_rule(*, sign: int = 1) -> Outcome:
    r""":math:`(R^d_{\Theta,m})^\top = R^d_{\Theta,-m}`; ``sign`` states :math:`R_{-\mathrm{sign}\,m}` instead."""
    err = max(max_diff(rotation_matrix(pm, d).T, rotation_matrix(-sign * pm, d)) for pm in POSITIONS for d in DIMS)
    return _with_proof(
        err, "dense R_m^T vs R_{-m}, d in {2, 8, 64}, 6 positions", "transpose", wrong=lambda e: e.subs(a, sign * a)
    )


def composition_rule(*, sign: int = 1) -> Outcome:
    r""":math:`R_a R_b = R_{a+b}` (angles add); ``sign`` states :math:`R_{a + \mathrm{sign}\, b}`."""
    err = max(
        max_diff(rotation_matrix(pm, d) @ rotation_matrix(pn, d), rotation_matrix(pm + sign * pn, d))
        for pm in POSITIONS for pn in (-3.0, 5.0) for d in DIMS
    )
    return _with_proof(err, "dense R_m R_n vs R_{m+n}", "composition", tol=1e-10, wrong=lambda e: e.subs(b, sign * b))


def inverse_rule(*, sign: int = 1) -> Outcome:
    r""":math:`R_\theta^{-1} = R_{-\theta} = R_\theta^\top` (transpose equals inverse); ``sign`` flips the claim."""
    err = max(
        max_diff(np.linalg.inv(rotation_matrix(pm, d)), rotation_matrix(-sign * pm, d))
        for pm in POSITIONS for d in DIMS
    )
    return _with_proof(
        err, "numpy inv(R_m) vs R_{-m}", "transpose", "orthogonality", wrong=lambda e: e.subs(a, sign * a)
    )


def orthogonal_rule(*, unit: int = 1) -> Outcome:
    r""":math:`R^\top R = I` and :math:`\det R = 1`; the claim is :math:`R^\top R = uI`, :math:`\det R = u`."""
    err = 0.0
    for pm in POSITIONS:
        for d in DIMS:
            r = rotation_matrix(pm, d)
            err = max(err, max_diff(r.T @ r, unit * np.eye(d)), abs(float(np.linalg.det(r)) - unit))
    return _with_proof(err, "|R^T R - I| and |det R - 1|", "orthogonality", "determinant", wrong=lambda e: e * unit)


def norm_rule(*, factor: float = 1.0) -> Outcome:
    r""":math:`\|R^d_{\Theta,m} x\| = \|x\|`; the claim is :math:`\|R x\| = \mathrm{factor}\,\|x\|`."""
    x = np.random.default_rng(1).standard_normal((32, 64))  # seed 1
    nx = np.linalg.norm(x, axis=-1)
    err = max(
        float(np.max(np.abs(np.linalg.norm(apply_rope(x, pm, **NOTES_ROPE), axis=-1) - factor * nx) / nx))
        for pm in POSITIONS
    )
    return identity(err, "relative norm change of 32 random x in R^64 (seed 1), 6 positions")


def same_rotation_invariance(*, shift: float = 0.0) -> Outcome:
    r""":math:`(R_m q)^\top (R_m k) = q^\top k` for one rotation applied to both vectors (k at m + ``shift``)."""
    err = max(
        abs(
            float(
                apply_rope(q, pm, **NOTES_ROPE)
                @ apply_rope(k, pm + shift, **NOTES_ROPE)
                - q @ k
            )
        )
        / (np.linalg.norm(q) * np.linalg.norm(k)) for q, k, pm, _ in _random_pairs(2, 16, 20)
    )  # seed 2
    return identity(err, "(R_m q).(R_m k) vs q.k, 20 random pairs in R^16 (seed 2)")


def relative_identity(*, sign: int = 1) -> Outcome:
    r""":math:`(R_m q)^\top (R_n k) = q^\top R_{n-m} k` — depends on m, n only through n - m."""
    err = max(_relative_residual(q, k, pm, pn, sign) for d in DIMS for q, k, pm, pn in _random_pairs(3, d, 5))
    return _with_proof(
        err, "dense (R_m q)^T(R_n k) vs q^T R_{n-m} k, 15 random cases (seed 3)", "relative_position_2d",
        "block_diagonal_d4", "block_diagonal_d6", tol=1e-10, wrong=_relative_sign(sign),
    )


def transpose_product(*, sign: int = 1) -> Outcome:
    r""":math:`(R^d_{\Theta,m})^\top R^d_{\Theta,n} = R^d_{\Theta,n-m}` (``sign = -1``: :math:`R_{m-n}`)."""
    err = max(
        max_diff(rotation_matrix(pm, d).T @ rotation_matrix(pn, d), rotation_matrix(sign * (pn - pm), d))
        for pm in POSITIONS for pn in (-3.0, 5.0, 777.0) for d in DIMS
    )
    return _with_proof(
        err, "dense R_m^T R_n vs R_{n-m}, d in {2, 8, 64}", "block_diagonal_d4", "block_diagonal_d6", tol=1e-10,
        wrong=_relative_sign(sign),
    )


def _refute(name: str, claim: sp.Expr, gap: sp.Expr) -> refutations.Refutation:
    """The registered refutation ``name`` rebuilt for ``claim``; ``gap`` is the true side minus ``claim``."""
    r0 = refutations.get_refutation(name)
    return refutations.refute(
        r0.name, r0.claim_latex, source=r0.source, correct=r0.correct, claim=claim, values=dict(r0.values),
        gap=(r0.gap.latex, gap), holds_when=r0.holds_when,
    )


_Q, _K = sp.ImmutableMatrix([q0, q1]), sp.ImmutableMatrix([k0, k1])


def relative_sign_slip(*, sign: int = 1) -> Outcome:
    r"""Refutes :math:`(R_m q)^\top (R_n k) = q^\top R_{m-n} k` (wrong sign)."""
    if sign not in (1, -1):
        raise ValueError(f"sign must be 1 or -1 (the gap below is proved for those), got {sign!r}")
    claim = (_Q.T * rotation(sign * (m - n) * theta) * _K)[0, 0]
    gap = (1 + sign) * (q0 * k1 - q1 * k0) * sp.sin((m - n) * theta)
    return refutation_outcome(_refute("relative_sign", claim, gap))


def weights_missing_transpose(*, transpose: bool = False) -> Outcome:
    r"""Refutes :math:`x_m^\top W_q R_{n-m} W_k x_n` (no transpose on :math:`W_q`; ``transpose`` restores it)."""
    wq, wk = proofs.W_q.as_explicit(), proofs.W_k.as_explicit()
    xm, xn = proofs.x_m.as_explicit(), proofs.x_n.as_explicit()
    tail = rotation((n - m) * theta) * wk * xn
    used = wq.T if transpose else wq
    claim, gap = (xm.T * used * tail)[0, 0], (xm.T * (wq.T - used) * tail)[0, 0]  # gap: the true side minus the claim
    return refutation_outcome(_refute("missing_weight_transpose", claim, gap))


def _transpose_wq(e: sp.Basic) -> sp.Basic:
    """``e`` with W_q's off-diagonal entries swapped (W_q^T written where W_q stood, and back)."""
    w = proofs.W_q
    return e.subs({w[0, 1]: w[1, 0], w[1, 0]: w[0, 1]}, simultaneous=True)


def weights_identity(*, transpose: bool = True) -> Outcome:
    r""":math:`(R_m W_q x_m)^\top (R_n W_k x_n) = x_m^\top W_q^\top R_{n-m} W_k x_n` (``transpose=False``: no T)."""
    rng, err = np.random.default_rng(4), 0.0  # seed 4
    for _ in range(10):
        wq, wk = rng.standard_normal((2, 8, 8))
        xm, xn = rng.standard_normal((2, 8))
        pm, pn = map(float, rng.integers(-1000, 1000, 2))  # pragma: no mutate (test positions: same verdict and text)
        lhs = (rotation_matrix(pm, 8) @ wq @ xm) @ (rotation_matrix(pn, 8) @ wk @ xn)
        rhs = xm @ (wq.T if transpose else wq) @ rotation_matrix(pn - pm, 8) @ wk @ xn
        err = max(err, abs(lhs - rhs) / (np.linalg.norm(wq @ xm) * np.linalg.norm(wk @ xn)))
    return _with_proof(
        err, "10 random (W_q, W_k, x_m, x_n) in d = 8 (seed 4)", "weights_transpose_2d", tol=1e-10,
        wrong=_unchanged if transpose else _transpose_wq,
    )


def elementwise_form(*, sign: int = 1) -> Outcome:
    r"""RoFormer eq. (34): :math:`R x = x \otimes \cos + (-x_1, x_0, \dots) \otimes \sin` (interleaved).

    ``sign = -1`` states :math:`R_{-m} x`. Also counts the non-zero entries of :math:`R^d_{\Theta,m}` (2d of d²)."""
    x = np.random.default_rng(5).standard_normal(64)  # seed 5
    err = max(
        max_diff(apply_rope(x[:d], sign * pm, **NOTES_ROPE), rotation_matrix(pm, d) @ x[:d])
        / float(np.linalg.norm(x[:d])) for pm in POSITIONS for d in DIMS
    )
    nonzero = {d: int(np.count_nonzero(rotation_matrix(1.0, d))) for d in (8, 128)}
    sparse = all(count == 2 * d for d, count in nonzero.items())
    out = _with_proof(
        err if sparse else float("inf"), "apply_rope (eq. 34) vs dense R x, interleaved, d in {2, 8, 64}",
        "elementwise_interleaved_d6", wrong=lambda e: e.subs(m, sign * m),
    )
    return Outcome(
        out.verdict,
        f"{out.evidence} Sparsity: R^d_(Theta,1) has {nonzero[8]} non-zero entries of 64 at d = 8 and "
        f"{nonzero[128]} of 16384 at d = 128 (2d of d^2), so eq. (34) needs 2d multiplications instead of d^2.",
    )


def even_dimension(*, d: int = 3, inside: tuple[int, ...] = (2, 8, 64)) -> Outcome:
    r""":math:`R^d_{\Theta,m}` is built from d/2 planes: defined for even d (``inside``), not for odd ``d``."""
    err = 0.0
    for e in inside:  # even d: the block-diagonal matrix built by a loop is d x d and equals R^d
        try:
            loop = block_diagonal([rotation_2d(3.0 * 10000.0 ** (-2 * i / e)) for i in range(e // 2)])
            err = max(err, max_diff(loop, rotation_matrix(3.0, e)))
        except ValueError:  # odd e: there is no R^e to compare with
            err = float("inf")
    # odd d: Theta = {theta_i, i = 1..d/2} has no last index, the blocks cover 2 floor(d/2) < d coordinates
    covered = 2 * (d // 2)
    refused = "accepted"
    try:
        rotation_matrix(1.0, d)
    except ValueError as exc:
        refused = f"refused ({exc})"
    example = {"d": d, "d/2": d / 2, "coordinates covered by the 2x2 blocks": covered}
    return conditional(
        covered != d, err <= TOL, example,
        f"d in {list(inside)}: the d/2 blocks R(m theta_i) built by a loop "
        f"{'fill the d x d matrix R^d' if err <= TOL else 'do NOT fill a d x d matrix R^d'} (residual "
        f"{within_tol(err)}). {'Odd' if d % 2 else 'Even'} d = {d}: d/2 = "
        f"{d / 2}{' is not an index bound and' if d % 2 else ' and'} the blocks cover "
        f"{'only ' if covered != d else ''}{covered} of {d} coordinates; ropemath.rotation_matrix(1, {d}) is "
        f"{refused}.",
    )


def lengths_and_angle(*, sign: int = -1) -> Outcome:
    r""":math:`\|R_m q\| = \|q\|`, and :math:`q\cdot k = \|q\|\|k\|\cos\alpha` with α the angle from k to q."""
    rng, worst = np.random.default_rng(15), 0.0  # seed 15
    for _ in range(20):
        q, k = rng.standard_normal((2, 2))
        pm = float(rng.integers(-1000, 1000))
        nq, nk = float(np.hypot(*q)), float(np.hypot(*k))
        alpha = np.arctan2(q[1], q[0]) + sign * np.arctan2(k[1], k[0])  # polar angles, not the dot product
        worst = max(worst, abs(float(np.hypot(*(rotation_2d(pm) @ q))) - nq) / nq, abs(q @ k - nq * nk * np.cos(alpha)))
    what = "|R(m) q| vs |q| and q.k vs |q||k| cos(alpha_q - alpha_k) from polar angles, 20 cases (seed 15)"
    return identity(worst, what)


def pairwise_rotation(*, shift: int = 0) -> Outcome:
    r""":math:`R^d_{\Theta,m}` turns pair i by :math:`m\theta_{i+\mathrm{shift}}`; the score sums the pair scores."""
    rng = np.random.default_rng(6)  # seed 6
    d, err = 8, 0.0
    theta_i = [10000.0 ** (-2 * (i + shift) / d) for i in range(d // 2)]  # written out, independent of ropemath
    for _ in range(5):
        q, k = rng.standard_normal((2, d))
        pm, pn = map(float, rng.integers(-100, 100, 2))
        pairs = [complex(q[2 * i], q[2 * i + 1]) * np.exp(1j * pm * theta_i[i]) for i in range(d // 2)]
        dense = rotation_matrix(pm, d) @ q
        err = max(err, max(abs(dense[2 * i] - z.real) + abs(dense[2 * i + 1] - z.imag) for i, z in enumerate(pairs)))
        per_pair = sum(
            (rotation_2d(pm * t) @ q[2 * i : 2 * i + 2]) @ (rotation_2d(pn * t) @ k[2 * i : 2 * i + 2])
            for i, t in enumerate(theta_i)
        )
        err = max(err, abs(per_pair - (rotation_matrix(pm, d) @ q) @ (rotation_matrix(pn, d) @ k)))
    symbols = thetas(3 + shift)
    return _with_proof(
        err, "dense R^8 vs per-pair complex products, and the score vs the sum of 4 pair scores", "block_diagonal_d4",
        "block_diagonal_d6", tol=1e-10,
        wrong=lambda e: e.subs({symbols[i]: symbols[i + shift] for i in range(3)}, simultaneous=True),
    )


def counterclockwise(*, sign: int = 1) -> Outcome:
    r""":math:`R(\theta) v` turns v counter-clockwise by :math:`\theta` (0 < θ < π); ``sign = -1``: clockwise."""
    v = np.array([1.0, 0.0])
    err = max_diff(rotation_2d(np.pi / 2) @ v, [0.0, sign * 1.0])
    w = np.array([0.6, -0.8])
    for t in (0.3, 1.0, 2.5):  # pragma: no mutate (test angles: any in (0, pi) give the same verdict and text)
        u = rotation_2d(t) @ w
        turned = np.arctan2(w[0] * u[1] - w[1] * u[0], w @ u)  # signed angle from w to u
        err = max(err, abs(turned - sign * t))
    return identity(err, "R(pi/2)(1, 0) = (0, 1) and the signed angle from w to R(t) w equals +t")
