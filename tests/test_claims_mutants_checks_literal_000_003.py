"""Tests that tell mutants of ropemath.claims.checks_literal from the original (``make mutants``).

What they pin, and why:

* the counterexamples reproduce from the inputs they report: sinusoidal_position_variable's control (the corrected
  formula) gives the encoding's p_(1,t) - p_(0,t) at the t and d it names; complex_score_frequency_index's score and
  "frequency used" follow from its d, q = k, m, n (both shifts); elementwise_as_kronecker's R x and stated right side
  (d^2 entries for the Kronecker reading) follow from its d, m, x; absolute_breaks_linear's relative miss is
  recomputed here from the seed, N and d it reports (which must also be the ones its evidence names), with the
  features and outputs written out per query, and on the draws of the next seed too (where a shared sum normalized
  by another query's key features misses by a different amount);
* the samples are what the docstrings say: sinusoidal_position_variable compares positions -5..19 and every one of
  the d/2 frequency pairs; elementwise_as_kronecker's correction reaches a negative position and position 0 (a
  rotation that is wrong there is caught);
* the tolerance of complex_score_frequency_index's correction is relative to |q| |k|: a dense score off by a
  relative 5e-10 still passes, one off by 5e-8 does not;
* the evidence of sinusoidal_position_variable explains the zero only for the formula as written.
"""

import math
import re

import numpy as np
import pytest

from ropemath.claims import checks_literal as L
from ropemath.core.rotation import rotation_matrix

# --- sinusoidal_position_variable ------------------------------------------------------------------


def test_sinusoidal_control_counterexample_follows_its_reported_t_and_d():
    ce = L.sinusoidal_position_variable(variable="i").counterexample
    d, t, (i0, i1) = ce["d"], ce["t"], ce["positions i"]
    w = 10000.0 ** (-2 * t / d)
    expected = math.sin(i1 * w) - math.sin(i0 * w)  # the corrected formula, and Vaswani's p_(i,2t)
    assert ce["stated"] == pytest.approx(expected, abs=1e-4)
    assert ce["actual"] == pytest.approx(expected, abs=1e-4)
    written = L.sinusoidal_position_variable().counterexample
    assert written["stated"] == 0.0 and written["actual"] == pytest.approx(expected, abs=1e-4)


def test_sinusoidal_evidence_explains_the_zero_only_as_written():
    assert "0 for every fixed k" in L.sinusoidal_position_variable().evidence
    assert "0 for every fixed k" not in L.sinusoidal_position_variable(variable="i").evidence


def test_sinusoidal_correction_compares_positions_minus5_to_19(monkeypatch):
    seen = set()
    original = L.sinusoidal_encoding

    def recording(positions, d, **kw):
        if np.ndim(positions) == 0:
            seen.add((float(positions), d))
        return original(positions, d, **kw)

    monkeypatch.setattr(L, "sinusoidal_encoding", recording)
    assert L.sinusoidal_position_variable().correction_holds is True
    assert seen == {(float(i), 8) for i in range(-5, 20)}


@pytest.mark.parametrize("coord", [0, 7])
def test_sinusoidal_correction_catches_an_encoding_wrong_in_any_frequency_pair(monkeypatch, coord):
    original = L.sinusoidal_encoding

    def wrong(positions, d, **kw):
        p = np.array(original(positions, d, **kw), dtype=float)
        p[..., coord] += 1e-3  # coordinate 7 = cos of the lowest frequency (t = d/2 - 1)
        return p

    monkeypatch.setattr(L, "sinusoidal_encoding", wrong)
    assert L.sinusoidal_position_variable().correction_holds is False


# --- complex_score_frequency_index -----------------------------------------------------------------


def _rot2(a, x):
    return [x[0] * math.cos(a) - x[1] * math.sin(a), x[0] * math.sin(a) + x[1] * math.cos(a)]


@pytest.mark.parametrize("shift", [0, 1])
def test_complex_counterexample_reproduces_from_its_inputs(shift):
    ce = L.complex_score_frequency_index(shift=shift).counterexample
    d, q, m, n = ce["d"], ce["q = k"], ce["m"], ce["n"]
    assert d == len(q) == 2
    theta = 10000.0 ** (-2 * (shift - 1) / d)  # the note's theta_j at j = shift (pair i = 0)
    assert ce["frequency used"] == pytest.approx(theta, abs=1e-4)
    rq, rk = _rot2(m, q), _rot2(n, q)
    assert ce["actual"] == pytest.approx(rq[0] * rk[0] + rq[1] * rk[1], abs=1e-4)
    assert ce["stated"] == pytest.approx((q[0] ** 2 + q[1] ** 2) * math.cos((m - n) * theta), abs=1e-4)


@pytest.mark.parametrize(("relative_error", "holds"), [(5e-10, True), (5e-8, False)])
def test_complex_correction_tolerance_is_relative_to_q_and_k(monkeypatch, relative_error, holds):
    scale = math.sqrt(1.0 + relative_error)  # both rotations scaled: dense score off by relative_error * score

    monkeypatch.setattr(L, "rotation_matrix", lambda m, d: scale * rotation_matrix(m, d))
    assert L.complex_score_frequency_index().correction_holds is holds


# --- elementwise_as_kronecker ----------------------------------------------------------------------


@pytest.mark.parametrize("product", ["kronecker", "elementwise"])
def test_elementwise_counterexample_reproduces_from_its_inputs(product):
    ce = L.elementwise_as_kronecker(product=product).counterexample
    d, m, x = ce["d"], ce["m"], ce["x"]
    assert d == len(x) == 2
    assert ce["R x"] == pytest.approx(_rot2(m, x), abs=1e-4)  # theta_1 = 1 at d = 2
    c, s, swapped = math.cos(m), math.sin(m), [-x[1], x[0]]
    if product == "kronecker":
        # kron(x, (cos, cos)) + kron(swapped, (sin, sin)): d^2 entries, not a d-vector
        stated = [a * c + b * s for a, b in zip(x, swapped, strict=True) for _ in range(d)]
        assert len(stated) == d * d
    else:
        stated = [x[0] * c + swapped[0] * s, x[1] * c + swapped[1] * s]
    assert ce["stated right side"] == pytest.approx(stated, abs=1e-4)


@pytest.mark.parametrize(
    "wrong",
    [
        lambda m, d: rotation_matrix(abs(m), d),  # ignores the sign of a negative position
        lambda m, d: rotation_matrix(m, d) if m != 0 else -np.eye(d),  # loses R_0 = I
    ],
    ids=["negative-position", "position-zero"],
)
def test_elementwise_correction_reaches_negative_and_zero_positions(monkeypatch, wrong):
    monkeypatch.setattr(L, "rotation_matrix", wrong)
    assert L.elementwise_as_kronecker().correction_holds is False


# --- absolute_breaks_linear ------------------------------------------------------------------------


_DEFAULT_RNG = np.random.default_rng


def _phi(z):
    return np.where(z > 0, z + 1.0, np.exp(np.minimum(z, 0.0)))


def _relative_miss(seed, N, d):
    """Shared key sums (features query 0 sees) vs per-query outputs with phi(W_k x_n + r_(m-n)), written out."""
    rng = _DEFAULT_RNG(seed)
    x, _, v = rng.standard_normal((3, N, d))
    wq, wk = rng.standard_normal((2, d, d))
    r = {delta: row for delta, row in zip(range(-(N - 1), N), rng.standard_normal((2 * N - 1, d)), strict=True)}
    pairs, shared = np.zeros((N, d)), np.zeros((N, d))
    for m in range(N):
        fq = _phi(wq @ x[m])
        w_pair = np.array([fq @ _phi(wk @ x[n] + r[m - n]) for n in range(N)])
        w_shared = np.array([fq @ _phi(wk @ x[n] + r[0 - n]) for n in range(N)])
        pairs[m] = w_pair @ v / w_pair.sum()
        shared[m] = w_shared @ v / w_shared.sum()
    return np.max(np.abs(shared - pairs)) / np.max(np.abs(pairs))


@pytest.mark.parametrize("encoding", ["absolute", "relative"])
def test_absolute_breaks_linear_reports_the_relative_miss_of_its_own_sample(encoding):
    o = L.absolute_breaks_linear(encoding=encoding)
    ce = o.counterexample
    n_text, d_text, seed_text = _ints(r"N = (\d+), d = (\d+), elu \+ 1 features \(seed (\d+)\)", o.evidence)
    assert (ce["N"], ce["d"], ce["seed"]) == (n_text, d_text, seed_text)
    (miss,) = re.search(r"miss by (\d+\.\d\d)", o.evidence).groups()
    assert float(miss) == pytest.approx(_relative_miss(ce["seed"], ce["N"], ce["d"]), abs=0.006)


def test_absolute_breaks_linear_reports_the_relative_miss_of_another_sample_too(monkeypatch):
    # the same computation on the draws of seed 54 (a normalizer from another query's features shows there)
    monkeypatch.setattr(np.random, "default_rng", lambda seed: _DEFAULT_RNG(seed + 1))
    o = L.absolute_breaks_linear()
    assert o.verdict == "fails"
    (miss,) = re.search(r"miss by (\d+\.\d\d)", o.evidence).groups()
    assert float(miss) == pytest.approx(_relative_miss(54, 8, 8), abs=0.006)


def _ints(pattern, text):
    m = re.search(pattern, text)
    assert m, text
    return tuple(int(g) for g in m.groups())
