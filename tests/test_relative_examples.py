"""Notebook 01's computations (ropemath.theory.relative_position, and the maps its cells compute): score maps,
expansion values, scaled-rotation conditions, shifts of the position term, linear attention with column vectors."""

import numpy as np
import pytest
import sympy as sp

from ropemath import apply_rope, rope_scores, sinusoidal_encoding
from ropemath.theory.encodings import additive_score_expansion
from ropemath.theory.relative_position import (
    expansion_term_values,
    linear_attention_two_ways,
    scaled_rotation_blocks,
    scaled_rotation_conditions,
)


def same_token_score_maps(x, pos, wq, wk):
    """Notebook 01's maps: S_mn = (R_m W_q x)^T (R_n W_k x) and (x + p_m)^T W_q^T W_k (x + p_n)."""
    q = apply_rope(np.tile(wq @ x, (pos.size, 1)), pos, layout="interleaved", base=10000.0)
    k = apply_rope(np.tile(wk @ x, (pos.size, 1)), pos, layout="interleaved", base=10000.0)
    xp = x + sinusoidal_encoding(pos, x.size)
    return {"rope": q @ k.T, "absolute": xp @ wq.T @ wk @ xp.T}


def toeplitz_deviation(s):
    """max |S[m+1, n+1] - S[m, n]|: 0 exactly when S is constant along every diagonal."""
    return float(np.max(np.abs(s[1:, 1:] - s[:-1, :-1])))


def position_term_shift_change(m, pos, shift):
    """max |p_{i+s}^T M p_{j+s} - p_i^T M p_j| for sinusoidal p (base 10000)."""
    term = [(e := sinusoidal_encoding(p, m.shape[0])) @ m @ e.T for p in (pos, pos + shift)]
    return float(np.max(np.abs(term[1] - term[0])))


def _setup(d=16, n=40, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(d), np.arange(n), *(rng.standard_normal((2, d, d)) / np.sqrt(d))


def test_rope_map_is_toeplitz_absolute_map_is_not():
    x, pos, wq, wk = _setup()
    maps = same_token_score_maps(x, pos, wq, wk)
    scale = np.max(np.abs(maps["rope"]))
    assert toeplitz_deviation(maps["rope"]) <= 1e-12 * scale
    assert toeplitz_deviation(maps["absolute"]) >= 0.1 * np.max(np.abs(maps["absolute"]))


def test_score_maps_match_loops():
    x, pos, wq, wk = _setup(d=8, n=6, seed=1)
    maps = same_token_score_maps(x, pos, wq, wk)
    q = np.tile(wq @ x, (6, 1))
    k = np.tile(wk @ x, (6, 1))
    assert np.allclose(maps["rope"], rope_scores(q, k, pos, layout="interleaved", base=10000.0), atol=1e-12)
    p = sinusoidal_encoding(pos, 8)
    for m in range(6):
        for n in range(6):
            expect = (wq @ (x + p[m])) @ (wk @ (x + p[n]))
            assert abs(maps["absolute"][m, n] - expect) < 1e-12
            assert abs(maps["rope"][m, n] - apply_rope(wq @ x, m, layout="interleaved", base=10000.0)
                       @ apply_rope(wk @ x, n, layout="interleaved", base=10000.0)) < 1e-12


def test_toeplitz_deviation_says_no():
    t = np.array([[1.0, 2.0, 3.0], [4.0, 1.0, 2.0], [5.0, 4.0, 1.0]])
    assert toeplitz_deviation(t) == 0.0
    t[2, 2] = 1.5
    assert toeplitz_deviation(t) == 0.5


def test_expansion_term_values_sum_to_the_score():
    rng = np.random.default_rng(7)
    d, dk = 4, 3
    _, terms = additive_score_expansion(d, dk)
    x, p = rng.standard_normal((2, d)), rng.standard_normal((2, d))
    wq, wk = rng.standard_normal((dk, d)), rng.standard_normal((dk, d))
    values = {"x_i": x[0], "x_j": x[1], "p_i": p[0], "p_j": p[1], "W_q": wq, "W_k": wk}
    got = expansion_term_values(terms, values)
    assert abs(sum(got.values()) - (wq @ (x[0] + p[0])) @ (wk @ (x[1] + p[1]))) < 1e-12
    assert abs(got["content-position"] - (wq @ x[0]) @ (wk @ p[1])) < 1e-12
    # A wrong substitution (x_j and p_j swapped) changes a term: the evaluation can say no.
    swapped = expansion_term_values(terms, {**values, "x_j": p[1], "p_j": x[1]})
    assert abs(swapped["content-position"] - got["content-position"]) > 1e-3


def test_scaled_rotation_conditions():
    out = scaled_rotation_conditions()
    i, j, w = sp.symbols("i j", real=True) + (sp.Symbol("omega", positive=True),)
    assert out["scaled rotation"] == 0
    assert sp.simplify(out["diag(1, 0)"] + sp.cos(w * (i + j)) / 2) == 0
    a, b, c, e = sp.symbols("a b c e", real=True)
    assert out["forced"] == [{c: -b, e: a}]


def test_scaled_rotation_blocks_keep_the_position_term_relative():
    rng = np.random.default_rng(11)
    M = scaled_rotation_blocks(rng.standard_normal((4, 2)))
    assert M[0, 1] == -M[1, 0] and M[0, 0] == M[1, 1] and M[0, 2] == 0.0
    pos = np.arange(6.0)
    assert position_term_shift_change(np.eye(8), pos, 37.0) < 1e-12
    assert position_term_shift_change(M, pos, 37.0) < 1e-12
    assert position_term_shift_change(rng.standard_normal((8, 8)), pos, 37.0) > 0.1  # says no
    with pytest.raises(ValueError):
        scaled_rotation_blocks([1.0, 2.0])


def test_linear_attention_two_ways_agree_and_transposed_state_fails():
    rng = np.random.default_rng(5)
    fq, fk, v = rng.random((3, 4)), rng.random((7, 4)), rng.standard_normal((7, 3))
    quad, fact = linear_attention_two_ways(fq, fk, v)
    assert quad.shape == fact.shape == (3, 3)
    assert np.allclose(quad, fact, rtol=1e-12, atol=1e-12)
    loop = np.array([sum((f @ fk[n]) * v[n] for n in range(7)) / sum(f @ fk[n] for n in range(7)) for f in fq])
    assert np.allclose(quad, loop, rtol=1e-12)
    # The row/column mix-up: the state sum_n phi(k_n) v_n^T is D x d_v; multiplying it by phi(q) fails for D != d_v.
    with pytest.raises(ValueError):
        (fk.T @ v) @ fq[0]
