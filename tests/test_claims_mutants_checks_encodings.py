"""Tests that tell mutants of ropemath.claims.checks_encodings from the original (``make mutants``).

What they pin, and why:

* the numbers the evidence reports reproduce from what the evidence states: the control of additive_leaks puts
  p_0 (not another p_i) at every position; sinusoidal_parity's coordinate numbers are where sin and cos sit in
  Vaswani's encoding, counted from ``start``; absolute_carries_relative's dot products follow from its d and its
  phase (for a phase other than pi/2 too); tupe_position_term's d is the size of its M;
* the samples are what the evidence says: sinusoidal_formula compares positions 0..19 at d = 16, four_terms sums
  as many terms as sympy gives, and relative_schemes measures at p and p + 17 the scores of the four schemes it
  names, recomputed here term by term from the seed-39 draws (Shaw: q_m . W_k (x_n + a_(m-n)); Transformer-XL:
  its four terms with the sinusoidal R_(m-n); T5: a clipped bias; DeBERTa: content plus both cross terms);
* the verdicts on both sides of their conditions: a gap of exactly GAP is no gap (leaks, TUPE); the correction of
  tupe_position_term needs sympy's absolute part to vanish (after simplifying) and its split to be exact;
  four_terms proves the sum by expansion (a term in another but equal form still counts); relative_schemes'
  comparison of distances 10 and 20 catches a table that wraps distances around instead of clipping them.
"""

import math
import re
import types

import numpy as np
import sympy as sp

from ropemath.claims import checks_encodings as E
from ropemath.claims._verdict import GAP


def _numbers(pattern, text):
    m = re.search(pattern, text)
    assert m, text
    return [float(g) for g in m.groups()]


# --- additive_leaks, sinusoidal_leaks ----------------------------------------------------------------


def test_additive_leaks_control_puts_p0_at_every_position():
    rng = np.random.default_rng(36)
    x = rng.standard_normal(8)
    p, wq, wk = rng.standard_normal((12, 8)), *rng.standard_normal((2, 8, 8))
    s = float((wq @ (x + p[0])) @ (wk @ (x + p[0])))  # the same p_0 on both sides, any i, j
    out = E.additive_leaks(constant_p=True)
    s10, s65 = _numbers(r"score\(1, 0\) = (-?[\d.]+) but score\(6, 5\) = (-?[\d.]+)", out.evidence)
    assert abs(s10 - s) < 1e-3 and abs(s65 - s) < 1e-3
    assert abs(float((wq @ (x + p[1])) @ (wk @ (x + p[1]))) - s) > 1  # p_1 would give another score


def _scores_with_gap(gap):
    def scores(*args, **kwargs):
        S = np.zeros((12, 12))
        S[1, 0] = gap
        return S

    return scores


def test_a_gap_of_exactly_gap_is_no_leak(monkeypatch):
    monkeypatch.setattr(E, "additive_scores", _scores_with_gap(GAP))
    assert E.additive_leaks().verdict == "fails"
    monkeypatch.setattr(E, "additive_scores", _scores_with_gap(2 * GAP))
    assert E.additive_leaks().verdict == "holds"
    monkeypatch.setattr(E, "sinusoidal_scores", _scores_with_gap(GAP))
    assert E.sinusoidal_leaks().verdict == "fails"
    monkeypatch.setattr(E, "sinusoidal_scores", _scores_with_gap(2 * GAP))
    assert E.sinusoidal_leaks().verdict == "holds"


# --- four_terms -----------------------------------------------------------------------------------


def test_four_terms_sums_as_many_terms_as_sympy_gives():
    out = E.four_terms()
    (given,) = _numbers(r"gives (\d+) terms", out.evidence)
    (summed,) = _numbers(r"numeric sum of the (\d+) terms", out.evidence)
    assert given == summed == 4


def test_four_terms_proves_the_sum_by_expansion(monkeypatch):
    real = E.additive_score_expansion

    def factored_first_term(*args, **kwargs):  # x_i^T A (x_j + p_j) - x_i^T A p_j is x_i^T A x_j
        lhs, terms = real(*args, **kwargs)
        cc, cp = terms["content-content"], terms["content-position"]
        x_j = cc.args[-1]
        p_j = cp.args[-1]
        equal = sp.MatMul(*cc.args[:-1], x_j + p_j) - cp
        assert sp.expand(equal) == cc and equal != cc
        return lhs, {**terms, "content-content": equal}

    monkeypatch.setattr(E, "additive_score_expansion", factored_first_term)
    out = E.four_terms()
    assert out.verdict == "holds" and "do NOT sum" not in out.evidence


# --- sinusoidal_formula, sinusoidal_parity ---------------------------------------------------------------


def test_sinusoidal_formula_compares_the_positions_it_names(monkeypatch):
    real, calls = E.sinusoidal_encoding, []

    def recording(pos, d, **kwargs):
        calls.append((pos, d))
        return real(pos, d, **kwargs)

    monkeypatch.setattr(E, "sinusoidal_encoding", recording)
    out = E.sinusoidal_formula()
    first, last, d = _numbers(r"positions (\d+)\.\.(\d+), d = (\d+)", out.evidence)
    assert out.verdict == "holds"
    assert calls == [(float(i), d) for i in range(int(first), int(last) + 1)]


def test_sinusoidal_parity_reports_where_sin_and_cos_sit():
    # Vaswani: sin(omega_t) at the 0-based coordinate 2t, cos(omega_t) at 2t + 1 (d = 8: t = 0..3)
    for start in (1, 0):
        out = E.sinusoidal_parity(start=start)
        sines = [2 * t + start for t in range(4)]
        cosines = [2 * t + 1 + start for t in range(4)]
        assert f"{start}-based coordinates {sines} (odd-numbered) and the cosines at {cosines}" in out.evidence


# --- relative_schemes -------------------------------------------------------------------------------


def _schemes_by_hand():
    """The four schemes' scores at positions P, from the draws of seed 39 (N = 10, d = 6, K = 3)."""
    rng = np.random.default_rng(39)
    N, d, K = 10, 6, 3
    x, u, v = rng.standard_normal((N, d)), rng.standard_normal(d), rng.standard_normal(d)
    wq, wk, wk2 = rng.standard_normal((3, d, d))
    table, bias = rng.standard_normal((2 * K + 1, d)), rng.standard_normal(2 * K + 1)
    omega = 10000.0 ** (-2 * np.arange(d // 2) / d)

    def learned(r):  # Shaw's clipped table a_r = table[clip(r, -K, K)]
        return table[min(max(int(r), -K), K) + K]

    def sinusoid(r):  # Vaswani's encoding of the distance r: sin, cos interleaved
        return np.ravel(np.column_stack([np.sin(r * omega), np.cos(r * omega)]))

    def t5_bias(r):
        return bias[min(max(int(r), -K), K) + K]

    def each(term):
        return lambda P: np.array([[term(m, n, P[m] - P[n]) for n in range(N)] for m in range(N)])

    def q(m):
        return wq @ x[m]

    def k(n):
        return wk @ x[n]

    return {
        "Shaw": each(lambda m, n, r: q(m) @ (wk @ (x[n] + learned(r)))),
        "Transformer-XL": each(
            lambda m, n, r: q(m) @ k(n) + q(m) @ (wk2 @ sinusoid(r)) + (wq @ u) @ k(n) + (wq @ v) @ (wk2 @ sinusoid(r))
        ),
        "T5": each(lambda m, n, r: q(m) @ k(n) + t5_bias(r)),
        "DeBERTa": each(lambda m, n, r: q(m) @ k(n) + q(m) @ (wk @ learned(r)) + (wq @ learned(r)) @ k(n)),
    }


def test_relative_schemes_measure_the_schemes_they_name(monkeypatch):
    real, calls = E.shift_change, []

    def recording(f, positions, shift):
        calls.append((f, positions, shift))
        return real(f, positions, shift)

    monkeypatch.setattr(E, "shift_change", recording)
    out = E.relative_schemes()
    assert out.verdict == "holds"
    names = re.search(r"scores of (.*) at positions p and p \+ (\d+) ", out.evidence)
    assert names, out.evidence
    by_hand = _schemes_by_hand()
    assert names.group(1).split(", ") == list(by_hand) and len(calls) == len(by_hand)
    for (f, positions, shift), name in zip(calls, by_hand, strict=True):
        assert shift == float(names.group(2))
        for P in (positions, positions + shift):
            expected = by_hand[name](P)
            assert np.max(np.abs(f(P) - expected)) < 1e-9 * np.max(np.abs(expected)), name


class _WrappingNumpy(types.ModuleType):
    """numpy whose clip wraps a distance around the table (mod 2K + 1) instead of clipping it."""

    def __init__(self):
        super().__init__("numpy")
        self.__dict__.update(np.__dict__)
        self.clip = lambda a, lo, hi: (np.asarray(a) - lo) % (hi - lo + 1) + lo


def test_relative_schemes_catch_a_table_that_is_not_clipped(monkeypatch):
    # wrapped, the learned encoding still depends on m - n only (no shift change), but distances 10 and 20 get the
    # rows of 10 mod 7 = 3 and 20 mod 7 = -1: not the shared clipped p~_K
    monkeypatch.setattr(E, "np", _WrappingNumpy())
    out = E.relative_schemes()
    assert out.verdict == "fails"


# --- tupe_position_term ----------------------------------------------------------------------------


def test_tupe_counterexample_d_is_the_size_of_m():
    for matrix in (((1.0, 0.0), (0.0, 2.0)), ((1.0, 0.5), (-0.5, 1.0))):
        out = E.tupe_position_term(m_matrix=matrix)
        M = out.counterexample["U_q^T U_k"]
        assert out.counterexample["d"] == len(M) == len(M[0]) and "(d = 2)" in out.evidence


def test_tupe_a_score_gap_of_exactly_gap_is_no_counterexample(monkeypatch):
    # frequency pi/2: p_0 = (0, 1), p_1 = (1, 6e-17); M = diag(0, g): score(0, 0) = g, score(1, 1) = g * 4e-33 ~ 0
    real = E.sinusoidal_encoding
    monkeypatch.setattr(E, "sinusoidal_encoding", lambda pos, d: real(np.asarray(pos) * np.pi / 2, d))
    assert E.tupe_position_term(m_matrix=((0.0, 0.0), (0.0, GAP))).verdict == "holds"
    assert E.tupe_position_term(m_matrix=((0.0, 0.0), (0.0, 2 * GAP))).verdict == "fails"


def test_tupe_correction_needs_the_simplified_absolute_part_to_vanish(monkeypatch):
    real = E.sinusoidal_pair_decomposition
    i, j = sp.symbols("i j", real=True)
    omega = sp.Symbol("omega", positive=True)
    a, b, c, e = sp.symbols("a b c e", real=True)
    one = (omega**2 + 2 * omega + 1) / (omega + 1) ** 2  # 1, once cancelled
    # the same absolute part with a written as a (w + 1)^2 / (w + 1)^2: zero at e = a, c = -b only after simplifying
    absolute = (e - a * one) / 2 * sp.cos(omega * (i + j)) + (b + c) / 2 * sp.sin(omega * (i + j))
    assert absolute.subs({e: a, c: -b}) != 0
    monkeypatch.setattr(E, "sinusoidal_pair_decomposition", lambda: {**real(), "absolute": absolute})
    out = E.tupe_position_term()
    assert out.verdict == "fails" and out.correction_holds is True and "(absolute part then 0;" in out.evidence


def test_tupe_correction_needs_an_exact_split(monkeypatch):
    real = E.sinusoidal_pair_decomposition
    i, j = sp.symbols("i j", real=True)
    omega = sp.Symbol("omega", positive=True)
    # a split that leaves a remainder: its absolute part vanishing at M = aI + bJ proves nothing
    monkeypatch.setattr(E, "sinusoidal_pair_decomposition", lambda: {**real(), "residual": sp.cos(omega * (i - j))})
    out = E.tupe_position_term()
    assert out.verdict == "fails" and out.correction_holds is False


# --- absolute_carries_relative ---------------------------------------------------------------------------


def test_absolute_carries_relative_numbers_follow_from_d_and_phase():
    out = E.absolute_carries_relative()
    d = out.counterexample["d"]
    assert d % 2 == 0
    # p_1 . p_0 = sum_t cos(w_t) over the d/2 frequencies w_t = 10000^(-2t/d)
    expected = sum(math.cos(10000.0 ** (-2 * t / d)) for t in range(d // 2))
    assert abs(out.counterexample["p_1 . p_0"] - expected) < 1e-4
    # phase 1: p_(i,2t+1) = sin(i w_t + 1), so p_1 . p_0 = sum_t sin(w_t + 1) sin(1), not relative
    out = E.absolute_carries_relative(phase=1.0)
    w = [10000.0 ** (-2 * t / 16) for t in range(8)]
    p10 = sum(math.sin(wt + 1) * math.sin(1) for wt in w)
    p65 = sum(math.sin(6 * wt) * math.sin(5 * wt) + math.sin(6 * wt + 1) * math.sin(5 * wt + 1) for wt in w)
    assert abs(out.counterexample["p_1 . p_0"] - p10) < 1e-4 and abs(out.counterexample["p_6 . p_5"] - p65) < 1e-4
    assert out.verdict == "holds"
