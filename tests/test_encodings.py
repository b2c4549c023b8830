"""Additive position encodings (ropemath.theory.encodings) against independent constructions.

Independent sides: Vaswani et al.'s formula written with Python's math module, scores built by
explicit loops, sympy's expansion evaluated on random numeric matrices, and numpy dot products
of the sinusoidal vectors.  Notebook 01 names the tests that pin its equations.
"""

import math
import subprocess
import sys

import numpy as np
import pytest
import sympy as sp

from ropemath import (
    additive_score_expansion,
    additive_scores,
    relative_bias,
    rope_linear_terms,
    rope_scores,
    rotation_matrix,
    sinusoidal_dot_closed_form,
    sinusoidal_dot_identity,
    sinusoidal_encoding,
    sinusoidal_pair_decomposition,
    sinusoidal_scores,
)


def vaswani_vector(pos: float, d: int, base: float = 10000.0) -> list[float]:
    """PE(pos, 2t) = sin(pos / base^(2t/d)), PE(pos, 2t+1) = cos(pos / base^(2t/d)) (Vaswani et al. §3.5)."""
    out = []
    for t in range(d // 2):
        denom = base ** (2 * t / d)
        out += [math.sin(pos / denom), math.cos(pos / denom)]
    return out


# --- the sinusoidal encoding ----------------------------------------------------------------


@pytest.mark.parametrize("d", [2, 4, 16, 128])
@pytest.mark.parametrize("pos", [0, 1, 7, -3, 2.5, 1000, 123456])
def test_sinusoidal_encoding_matches_vaswani_formula(d, pos):
    np.testing.assert_allclose(sinusoidal_encoding(pos, d), vaswani_vector(pos, d), rtol=0, atol=1e-13 + 1e-15 * pos)


def test_sinusoidal_encoding_shape_and_base():
    out = sinusoidal_encoding(np.arange(6).reshape(2, 3), 8, base=100.0)
    assert out.shape == (2, 3, 8) and out.dtype == np.float64
    np.testing.assert_allclose(out[1, 2], vaswani_vector(5, 8, base=100.0), atol=1e-15)


@pytest.mark.parametrize("i", [0, 1, 5, -9, 300])
def test_sinusoidal_vector_is_a_clockwise_rotation_of_e(i):
    """p_i = R^d_{Θ,-i} e with e = (0, 1, 0, 1, ...): the additive vector is a rotated constant."""
    d = 8
    e = np.tile([0.0, 1.0], d // 2)
    np.testing.assert_allclose(sinusoidal_encoding(i, d), rotation_matrix(-i, d) @ e, atol=1e-13)


# --- p_i^T p_j is relative; the projections break it ---------------------------------------


@pytest.mark.parametrize("d", [2, 8, 64])
def test_sinusoidal_dot_is_relative(d):
    """p_i^T p_j = Σ_t cos((i-j) ω_t): numpy dot products against the closed form (a loop of cosines)."""
    rng = np.random.default_rng(d)
    for i, j in rng.integers(-1000, 1000, size=(20, 2)):
        lhs = float(sinusoidal_encoding(i, d) @ sinusoidal_encoding(j, d))
        loop = sum(math.cos((i - j) * 10000.0 ** (-2 * t / d)) for t in range(d // 2))
        assert abs(lhs - loop) < 1e-11
        assert abs(float(sinusoidal_dot_closed_form(i - j, d)) - loop) < 1e-12


@pytest.mark.parametrize("d", [2, 4, 8])
def test_sinusoidal_dot_identity_symbolic(d):
    lhs, rhs, residual = sinusoidal_dot_identity(d)
    assert residual == 0
    assert len(rhs.args) == d // 2 or d == 2
    # The same lhs evaluated numerically is the numpy dot product of the encodings.
    i, j = sp.symbols("i j", real=True)
    omegas = sp.symbols(f"omega_0:{d // 2}", positive=True)
    values = {i: 13, j: -4}
    values.update({w: 10000.0 ** (-2 * t / d) for t, w in enumerate(omegas)})
    assert abs(float(lhs.subs(values)) - float(sinusoidal_encoding(13, d) @ sinusoidal_encoding(-4, d))) < 1e-12


def test_sinusoidal_dot_identity_residual_can_fail():
    """The proof method (expand with trig=True) detects a wrong right-hand side."""
    lhs, _, _ = sinusoidal_dot_identity(2)
    i, j = sp.symbols("i j", real=True)
    w = sp.Symbol("omega_0", positive=True)
    assert sp.expand(sp.cos((i + j) * w) - lhs, trig=True) != 0


def test_sinusoidal_pair_decomposition_symbolic_and_numeric():
    parts = sinusoidal_pair_decomposition()
    assert parts["residual"] == 0
    assert sp.expand(parts["lhs"] - parts["relative"], trig=True) != 0  # the absolute part is really there
    a, b, c, e = sp.symbols("a b c e", real=True)
    i, j = sp.symbols("i j", real=True)
    omega = sp.Symbol("omega", positive=True)
    rng = np.random.default_rng(5)
    M = rng.standard_normal((2, 2))
    values = {a: M[0, 0], b: M[0, 1], c: M[1, 0], e: M[1, 1], i: 7, j: 3, omega: 1.0}
    direct = sinusoidal_encoding(7, 2) @ M @ sinusoidal_encoding(3, 2)  # d = 2: ω_0 = 1
    assert abs(float(parts["lhs"].subs(values)) - direct) < 1e-12
    total = float((parts["relative"] + parts["absolute"]).subs(values))
    assert abs(total - direct) < 1e-12


def test_absolute_part_vanishes_exactly_for_scaled_rotations():
    """M = aI + bJ (e = a, c = -b) kills the absolute part; M = diag(1, 0) does not."""
    parts = sinusoidal_pair_decomposition()
    a, b, c, e = sp.symbols("a b c e", real=True)
    assert sp.simplify(parts["absolute"].subs({e: a, c: -b})) == 0
    assert sp.simplify(parts["absolute"].subs({a: 1, b: 0, c: 0, e: 0})) != 0


def test_absolute_part_vanishing_forces_a_scaled_rotation():
    """The 'only if': vanishing at (i+j)ω = 0 and (i+j)ω = π/2 already forces e = a and c = -b (sympy solve)."""
    parts = sinusoidal_pair_decomposition()
    a, b, c, e = sp.symbols("a b c e", real=True)
    i, j = sp.symbols("i j", real=True)
    omega = sp.Symbol("omega", positive=True)
    at = [parts["absolute"].subs({i: 0, j: 0}), parts["absolute"].subs({i: sp.pi / (2 * omega), j: 0})]
    assert sp.solve(at, [e, c], dict=True) == [{e: a, c: -b}]


def _position_term(M, positions, d):
    p = sinusoidal_encoding(positions, d)
    return p @ M @ p.T


def test_position_term_shift_invariant_only_for_block_scaled_rotations():
    """p_i^T M p_j is unchanged by a common shift if M = I or block-diagonal aI + bJ, not for random M."""
    d, pos, s = 8, np.arange(6.0), 37.0
    rng = np.random.default_rng(11)
    blocks = np.zeros((d, d))
    for t in range(d // 2):
        a_, b_ = rng.standard_normal(2)
        blocks[2 * t : 2 * t + 2, 2 * t : 2 * t + 2] = [[a_, b_], [-b_, a_]]
    for M in (np.eye(d), blocks):
        assert np.max(np.abs(_position_term(M, pos + s, d) - _position_term(M, pos, d))) < 1e-12
    M = rng.standard_normal((d, d))
    assert np.max(np.abs(_position_term(M, pos + s, d) - _position_term(M, pos, d))) > 0.1


# --- additive scores and their four-term expansion -------------------------------------------


def test_additive_scores_match_loop():
    rng = np.random.default_rng(3)
    N, d, dk = 5, 6, 4
    x, p = rng.standard_normal((N, d)), rng.standard_normal((N, d))
    wq, wk = rng.standard_normal((dk, d)), rng.standard_normal((dk, d))
    S = additive_scores(x, p, wq, wk)
    for i in range(N):
        for j in range(N):
            qi = [sum(wq[r, c] * (x[i, c] + p[i, c]) for c in range(d)) for r in range(dk)]
            kj = [sum(wk[r, c] * (x[j, c] + p[j, c]) for c in range(d)) for r in range(dk)]
            assert abs(S[i, j] - sum(a * b for a, b in zip(qi, kj, strict=True))) < 1e-12


def test_additive_score_expansion_matches_numeric_evaluation():
    """sympy's four terms, evaluated on random matrices, equal numpy products and sum to the score."""
    d, dk = 4, 3
    lhs, terms = additive_score_expansion(d, dk)
    rng = np.random.default_rng(7)
    vals = {name: rng.standard_normal((d, 1)) for name in ("x_i", "p_i", "x_j", "p_j")}
    vals["W_q"], vals["W_k"] = rng.standard_normal((dk, d)), rng.standard_normal((dk, d))
    subs = {sym: sp.Matrix(vals[sym.name]) for sym in lhs.free_symbols}
    M = vals["W_q"].T @ vals["W_k"]
    expected = {
        "content-content": vals["x_i"].T @ M @ vals["x_j"],
        "content-position": vals["x_i"].T @ M @ vals["p_j"],
        "position-content": vals["p_i"].T @ M @ vals["x_j"],
        "position-position": vals["p_i"].T @ M @ vals["p_j"],
    }
    for name, term in terms.items():
        assert abs(float(term.subs(subs).doit()[0, 0]) - float(expected[name][0, 0])) < 1e-12
    X = np.vstack([vals["x_i"].T, vals["x_j"].T])
    P = np.vstack([vals["p_i"].T, vals["p_j"].T])
    score = additive_scores(X, P, vals["W_q"], vals["W_k"])[0, 1]
    assert abs(sum(float(e[0, 0]) for e in expected.values()) - score) < 1e-12
    assert abs(float(lhs.subs(subs).doit()[0, 0]) - score) < 1e-12


def test_additive_score_expansion_symbolic_dims():
    lhs, terms = additive_score_expansion()
    assert sp.expand(lhs - sp.Add(*terms.values())) == sp.ZeroMatrix(1, 1)
    assert str(terms["content-position"]) == "x_i.T*W_q.T*W_k*p_j"


def test_sinusoidal_scores_change_under_common_shift():
    """Additive sinusoidal scores depend on absolute positions (random projections)."""
    rng = np.random.default_rng(0)
    N, d = 8, 16
    x = rng.standard_normal((N, d))
    wq, wk = rng.standard_normal((d, d)) / 4, rng.standard_normal((d, d)) / 4
    pos = np.arange(N)
    S0 = sinusoidal_scores(x, pos, wq, wk)
    S1 = sinusoidal_scores(x, pos + 100, wq, wk)
    assert np.max(np.abs(S1 - S0)) / np.max(np.abs(S0)) > 0.1
    # With identity projections the cross terms x_i^T p_j still depend on absolute positions.
    eye = np.eye(d)
    assert np.max(np.abs(sinusoidal_scores(x, pos + 100, eye, eye) - sinusoidal_scores(x, pos, eye, eye))) > 0.1
    # Without content (x = 0) and with identity projections only p_i^T p_j is left: relative.
    z = np.zeros((N, d))
    assert np.max(np.abs(sinusoidal_scores(z, pos + 100, eye, eye) - sinusoidal_scores(z, pos, eye, eye))) < 1e-12


def test_rope_scores_do_not_change_under_common_shift():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 8, 16))
    pos = np.arange(8)
    assert (
        np.max(
            np.abs(
                rope_scores(q, k, pos + 100, layout="interleaved", base=1e4)
                - rope_scores(q, k, pos, layout="interleaved", base=1e4)
            )
        )
        < 1e-12
    )


def test_learned_table_scores_change_under_common_shift():
    rng = np.random.default_rng(2)
    table = rng.standard_normal((64, 8))
    z, eye = np.zeros((4, 8)), np.eye(8)
    S0 = additive_scores(z, table[0:4], eye, eye)
    S1 = additive_scores(z, table[10:14], eye, eye)
    assert np.max(np.abs(S1 - S0)) > 0.1


# --- relative bias, and why it does not fit linear attention -------------------------------


def test_relative_bias_matches_loop_and_is_shift_invariant():
    rng = np.random.default_rng(4)
    table = rng.standard_normal(7)  # K = 3
    pos = [0, 1, 2, 5, 9, 10]
    B = relative_bias(pos, table)
    for a, m in enumerate(pos):
        for b_, n in enumerate(pos):
            assert B[a, b_] == table[max(-3, min(3, m - n)) + 3]
    assert np.array_equal(relative_bias(np.array(pos) + 50, table), B)


def test_sinusoidal_relative_vector_factors_through_rotations():
    """Notebook 01: r_(m-n) = R_(n-m) e, so q^T W r_(m-n) = (R_m W^T q)^T (R_n e): a query-side times a key-side
    vector.  Independent sides: Vaswani's formula (math module) for r, dense rotation matrices for the right side."""
    rng = np.random.default_rng(9)
    d = 8
    e = np.tile([0.0, 1.0], d // 2)
    for _ in range(5):
        q, W = rng.standard_normal(d), rng.standard_normal((d, d))
        m, n = (int(v) for v in rng.integers(-300, 300, size=2))
        lhs = q @ W @ np.array(vaswani_vector(m - n, d))
        rhs = (rotation_matrix(m, d) @ W.T @ q) @ (rotation_matrix(n, d) @ e)
        assert abs(lhs - rhs) < 1e-11


def test_relative_bias_matrix_has_full_rank():
    """Notebook 01: a T5-style bias matrix has rank N (no fixed-size feature factorisation)."""
    rng = np.random.default_rng(0)
    N, K = 32, 4
    B = relative_bias(np.arange(N), rng.standard_normal(2 * K + 1))
    assert np.linalg.matrix_rank(B) == N


def test_rope_linear_numerator_rank_at_most_d():
    """Notebook 01: RoPE numerators factor through d-dimensional vectors, so rank <= d < N."""
    rng = np.random.default_rng(0)
    N, d = 32, 8
    q, k = rng.standard_normal((2, N, d))
    A, _ = rope_linear_terms(q, k, np.arange(N), layout="interleaved", base=1e4)
    assert np.linalg.matrix_rank(A) <= d


def test_import_ropemath_does_not_import_sympy():
    code = "import sys, ropemath; raise SystemExit('sympy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# --- bad input --------------------------------------------------------------------------------


def test_bad_inputs_sinusoidal_encoding():
    with pytest.raises(ValueError, match=r"^d must be a positive even integer, got 3$"):
        sinusoidal_encoding(1, 3)
    with pytest.raises(TypeError, match=r"^d must be a positive even integer"):
        sinusoidal_encoding(1, 4.0)
    with pytest.raises(TypeError, match=r"^positions must be a real number"):
        sinusoidal_encoding("1", 4)
    with pytest.raises(ValueError, match=r"^positions must contain only finite values"):
        sinusoidal_encoding([0.0, np.nan], 4)
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0"):
        sinusoidal_encoding(1, 4, base=-1.0)
    with pytest.raises(TypeError, match=r"^r must be a real number"):
        sinusoidal_dot_closed_form(1j, 4)


def test_bad_inputs_additive_scores():
    x = np.zeros((3, 4))
    w = np.eye(4)
    with pytest.raises(ValueError, match=r"^x must have shape \(N, d\)"):
        additive_scores(np.zeros(4), np.zeros(4), w, w)
    with pytest.raises(ValueError, match=r"^p must have the shape of x"):
        additive_scores(x, np.zeros((2, 4)), w, w)
    with pytest.raises(ValueError, match=r"^p must have last axis of length d=4"):
        additive_scores(x, np.zeros((3, 6)), w, w)
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array"):
        additive_scores(np.zeros((3, 4), dtype=int), x, w, w)
    with pytest.raises(ValueError, match=r"^w_q must have shape \(d_k, 4\)"):
        additive_scores(x, x, np.eye(3), w)
    with pytest.raises(TypeError, match=r"^w_k must be a real floating-point matrix"):
        additive_scores(x, x, w, np.eye(4, dtype=int))
    with pytest.raises(ValueError, match=r"^w_k must have the shape of w_q"):
        additive_scores(x, x, w, np.ones((2, 4)))
    with pytest.raises(ValueError, match=r"^w_q must contain only finite values"):
        additive_scores(x, x, np.full((4, 4), np.inf), w)
    with pytest.raises(ValueError, match=r"^positions must have shape \(3,\)"):
        sinusoidal_scores(x, [0, 1], w, w)
    with pytest.raises(ValueError, match=r"^positions must have shape \(N,\)"):
        sinusoidal_scores(x, np.zeros((3, 1)), w, w)
    with pytest.raises(ValueError, match=r"^x must contain only finite values"):
        additive_scores(np.full((3, 4), np.nan), x, w, w)
    with pytest.raises(ValueError, match=r"^p must contain only finite values"):
        additive_scores(x, np.full((3, 4), np.inf), w, w)
    with pytest.raises(ValueError, match=r"^x must contain only finite values"):
        sinusoidal_scores(np.full((3, 4), np.nan), [0, 1, 2], w, w)


def test_bad_inputs_relative_bias():
    with pytest.raises(ValueError, match=r"^table must have shape \(2K\+1,\) \(odd length\)"):
        relative_bias([0, 1], np.zeros(4))
    with pytest.raises(TypeError, match=r"^table must be a real floating-point vector"):
        relative_bias([0, 1], np.zeros(3, dtype=int))
    with pytest.raises(ValueError, match=r"^positions must be integers"):
        relative_bias([0, 0.5], np.zeros(3))
    with pytest.raises(ValueError, match=r"^positions must have shape \(N,\) with N >= 1"):
        relative_bias([], np.zeros(3))
    with pytest.raises(ValueError, match=r"^table must contain only finite values"):
        relative_bias([0, 1], np.array([0.0, np.nan, 1.0]))
    with pytest.raises(ValueError, match=r"^positions must be integers of magnitude <= 2\*\*52, got 1e\+30$"):
        relative_bias([0.0, 1e30], np.zeros(3))


def test_bad_inputs_symbolic():
    with pytest.raises(ValueError, match=r"^d must be a positive even integer, got 3$"):
        additive_score_expansion(3)
    with pytest.raises(ValueError, match=r"^d_k must be an integer >= 1, got 0$"):
        additive_score_expansion(2, 0)
    with pytest.raises(TypeError, match=r"^d must be a positive even integer"):
        sinusoidal_dot_identity("4")
