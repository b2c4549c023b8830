"""Tests of ropemath.symbolic.proofs: every registered identity holds, wrong variants are reported
as not holding, and the symbolic constructions agree numerically with independent ones (numpy
rotation_matrix / rotation_2d, plain Python loops)."""

import cmath
import dataclasses

import numpy as np
import pytest
import sympy as sp

from ropemath.core.rotation import frequencies, rotation_2d, rotation_matrix
from ropemath.symbolic import proofs
from ropemath.symbolic.common import (
    Rot,
    a,
    b,
    block_rotation,
    check_identity,
    is_zero,
    k0,
    k1,
    m,
    n,
    q0,
    q1,
    rotation,
    theta,
    thetas,
)

NAMES = [
    "transpose",
    "composition",
    "orthogonality",
    "determinant",
    "relative_position_2d",
    "relative_position_complex_2d",
    "score_cross_term_2d",
    "score_polar_2d",
    "weights_transpose_2d",
    "block_diagonal_d4",
    "block_diagonal_d6",
    "elementwise_interleaved_d6",
    "elementwise_half_d6",
    "abel_summation_d8",
    "abel_partial_sums_d8",
]


def test_registry_names_in_order():
    assert proofs.proof_names() == tuple(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_each_proof_holds(name):
    p = proofs.get_proof(name)
    assert p.name == name
    assert p.holds is True
    assert p.latex and p.source and p.conditions


def test_recheck_recomputes_holds():
    p = proofs.prove_composition()
    assert p.recheck() is True
    wrong = dataclasses.replace(p, shown_rhs=Rot(a - b, (1,)))
    assert wrong.recheck() is False and wrong.holds is False


def test_named_functions_are_the_registry_entries():
    assert proofs.prove_transpose() is proofs.get_proof("transpose")
    assert proofs.prove_block_diagonal(6) is proofs.get_proof("block_diagonal_d6")
    assert proofs.prove_elementwise(6, "half") is proofs.get_proof("elementwise_half_d6")
    assert len(proofs.all_proofs()) == len(NAMES)


# ---- the zero test can fail: wrong identities are reported as not holding ----------------------

S1, h0 = sp.symbols("S_1 h_0")
WRONG = {
    "transpose is itself": (rotation(a).T, rotation(a)),
    "composition subtracts": (rotation(a) * rotation(b), rotation(a - b)),
    "R R = I": (rotation(a) * rotation(a), sp.eye(2)),
    "det = -1": (rotation(a).det(), -1),
    "relative with R_{m-n}": (proofs.score_2d(), (proofs.Q.T * rotation((m - n) * theta) * proofs.K)[0, 0]),
    "block diagonal with R_{m-n}": (block_rotation(m, thetas(2)).T * block_rotation(n, thetas(2)),
                                    block_rotation(m - n, thetas(2))),
    "layout mix-up": (block_rotation(m, thetas(3), layout="half"), block_rotation(m, thetas(3))),
    "cross term with the wrong sign": (
        proofs.score_2d(),
        (q0 * k0 + q1 * k1) * sp.cos((m - n) * theta) - (q0 * k1 - q1 * k0) * sp.sin((m - n) * theta),
    ),
}


@pytest.mark.parametrize("label", sorted(WRONG))
def test_wrong_identity_does_not_hold(label):
    lhs, rhs = WRONG[label]
    assert check_identity(label, lhs, rhs, source="test").holds is False


def test_abel_with_wrong_sign_does_not_hold():
    p = proofs.prove_abel_summation(4)
    assert check_identity("abel +", p.lhs, -p.rhs, source="test").holds is False


def test_is_zero_on_matrices_and_scalars():
    assert is_zero(sp.zeros(2, 2)) is True
    assert is_zero(sp.Matrix([[0, sp.sin(a) ** 2 + sp.cos(a) ** 2 - 1]])) is True
    assert is_zero(sp.Matrix([[0, sp.sin(a)]])) is False


# ---- independent numeric constructions -------------------------------------------------------


@pytest.mark.parametrize("layout", ["interleaved", "half"])
def test_symbolic_block_rotation_matches_numpy(layout):
    # sympy block_rotation (entry-by-entry loop) vs ropemath.core.rotation.rotation_matrix (numpy)
    d, pos, base = 6, 7.0, 100.0
    t = thetas(d // 2)
    subs = dict(zip(t, frequencies(d, base).tolist(), strict=True)) | {m: pos}
    value = np.array(block_rotation(m, t, layout=layout).subs(subs).evalf(), dtype=float)
    assert np.max(np.abs(value - rotation_matrix(pos, d, base, layout=layout))) < 1e-15


def test_score_2d_matches_numpy():
    rng = np.random.default_rng(0)
    qv, kv = rng.normal(size=2), rng.normal(size=2)
    mv, nv, t = 3, -2, 0.7
    expected = float((rotation_2d(mv * t) @ qv) @ (rotation_2d(nv * t) @ kv))
    subs = {q0: qv[0], q1: qv[1], k0: kv[0], k1: kv[1], m: mv, n: nv, theta: t}
    assert abs(float(proofs.score_2d().subs(subs)) - expected) < 1e-14


def test_elementwise_rhs_matches_a_python_loop():
    # RoFormer eq. 34 typed as a loop over pairs, evaluated at seeded random numbers
    rng = np.random.default_rng(1)
    x, t, pos = rng.normal(size=6), rng.uniform(0, 1, size=3), 2.5
    out = np.empty(6)
    for i in range(3):
        c, s = np.cos(pos * t[i]), np.sin(pos * t[i])
        out[2 * i], out[2 * i + 1] = x[2 * i] * c - x[2 * i + 1] * s, x[2 * i] * s + x[2 * i + 1] * c
    p = proofs.get_proof("elementwise_interleaved_d6")
    subs = dict(zip(sp.symbols("x_0:6", real=True), x.tolist(), strict=True))
    subs |= dict(zip(thetas(3), t.tolist(), strict=True)) | {m: pos}
    value = np.array(p.rhs.subs(subs).evalf(), dtype=float).ravel()
    assert np.max(np.abs(value - out)) < 1e-14


def test_abel_identity_numerically_with_rope_partial_sums():
    # plain Python loop: h_i random complex, S_j partial sums of e^{i r theta_i}, d/2 = 4
    rng = np.random.default_rng(2)
    half, r = 4, 5.0
    t = frequencies(2 * half, 10000.0)
    h = [complex(*rng.normal(size=2)) for _ in range(half)] + [0j]
    S = [0j]
    for i in range(half):
        S.append(S[-1] + cmath.exp(1j * r * t[i]))
    left = sum(h[i] * (S[i + 1] - S[i]) for i in range(half))
    right = -sum(S[i + 1] * (h[i + 1] - h[i]) for i in range(half))
    assert abs(left - right) < 1e-12
    assert abs(left - sum(h[i] * cmath.exp(1j * r * t[i]) for i in range(half))) < 1e-12


# ---- input validation ------------------------------------------------------------------------


def test_get_proof_rejects_unknown_names():
    with pytest.raises(ValueError, match="name must be one of"):
        proofs.get_proof("no_such_proof")
    with pytest.raises(TypeError, match="name must be"):
        proofs.get_proof(3)


def test_parametrised_proofs_validate_arguments():
    with pytest.raises(ValueError, match="d must be a positive even integer"):
        proofs.prove_block_diagonal(5)
    with pytest.raises(ValueError, match="layout must be one of"):
        proofs.prove_elementwise(6, "diagonal")
    with pytest.raises(ValueError, match="half must be an integer >= 1"):
        proofs.prove_abel_summation(0)
    with pytest.raises(ValueError, match="2\\*len\\(angles\\) must be a positive even integer"):
        block_rotation(m, [])


def test_fixed_size_identities_are_labelled_checks_not_proofs():
    from ropemath.symbolic import get_proof

    assert get_proof("transpose").scope == "proved"
    assert get_proof("block_diagonal_d6").scope == "checked at d = 6"
    assert get_proof("abel_summation_d8").scope == "checked at d = 8"
    assert get_proof("elementwise_half_d6").scope == "checked at d = 6"
