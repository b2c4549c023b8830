"""What "long-term decay" means: eq. 37 is sharp at every distance, B has no limit, the large-d limit decays.

Each check runs next to a wrong variant that the same code must reject.
"""

import numpy as np
import pytest

from ropemath import apply_rope, frequencies
from ropemath.theory import (
    abel_bound,
    complex_score,
    continuum_cosine_sum,
    decay_bound,
    exact_decay_bound,
    log_regime,
    return_distance,
    sharp_pair_products,
)

D = 128


def _vectors(h):
    q = np.zeros(2 * h.size)
    q[0::2], q[1::2] = h.real, h.imag
    k = np.zeros(2 * h.size)
    k[0::2] = 1.0
    return q, k


@pytest.mark.parametrize("r", [3.0, 100.0, 1000.0, 123457.0])
def test_eq37_is_attained_at_every_distance(r):
    q, k = _vectors(sharp_pair_products(r, D, 1e4))
    score = float(apply_rope(q, r, layout="interleaved", base=1e4) @ apply_rope(k, 0.0, layout="interleaved", base=1e4))
    bound = float(abel_bound(q, k, r, 1e4, layout="interleaved"))
    assert abs(score - bound) <= 1e-9 * bound
    # wrong variant: steps -S/|S| (no conjugate) satisfy the same constraint but do not attain the bound
    s = np.concatenate([[0], np.cumsum(np.exp(1j * r * frequencies(D, 1e4)))])
    wrong = np.cumsum((s[1:] / np.abs(s[1:]))[::-1])[::-1]
    qw, kw = _vectors(wrong)
    assert float(complex_score(qw, kw, r, 1e4, layout="interleaved")) < 0.9 * bound


def test_sharp_bound_value_at_r_100():
    q, k = _vectors(sharp_pair_products(100.0, D, 1e4))
    assert round(float(complex_score(q, k, 100.0, 1e4, layout="interleaved")), 3) == 654.549
    assert round(64 * float(decay_bound(100.0, D, 1e4)), 3) == 654.549


def test_exact_bound_matches_float64_where_float64_is_accurate():
    for r in (0, 10, 12345, 10**6):
        assert abs(exact_decay_bound(r, D, 1e4) - float(decay_bound(float(r), D, 1e4))) < 1e-9
    with pytest.raises(TypeError, match="r must be an integer"):
        exact_decay_bound(1.5, D)


def test_b_returns_near_b0_at_a_large_distance():
    r = return_distance(D, weight_digits=60)
    assert r > 10**50
    assert exact_decay_bound(r, D, 1e4) > 0.95 * 32.5
    # wrong variant: a generic integer of the same size is near the random-walk level, far below B(0)
    rng = np.random.default_rng(0)
    generic = [int(r // 7) + int(x) for x in rng.integers(1, 10**9, size=5)]
    assert max(exact_decay_bound(g, D, 1e4) for g in generic) < 0.6 * 32.5


def test_continuum_limit_of_the_cosine_sum():
    big = 16384
    r = np.array([100.0, 1000.0, 10000.0])
    riemann = 2 / big * np.cos(np.multiply.outer(r, frequencies(big, 1e4))).sum(axis=1)
    assert np.max(np.abs(riemann - continuum_cosine_sum(r, 1e4))) < 0.005
    # wrong variant: a 1/r decay
    assert np.max(np.abs(riemann - 1 / r)) > 0.1
    # it tends to 0 (Riemann-Lebesgue)
    assert abs(float(continuum_cosine_sum(1e8, 1e4))) < 1e-3 < float(continuum_cosine_sum(1e3, 1e4))


def test_log_regime_for_one_much_less_than_r_much_less_than_b():
    r = np.array([100.0, 1000.0])
    assert np.max(np.abs(continuum_cosine_sum(r, 1e4) - log_regime(r, 1e4))) < 0.002
    # wrong variant: ln r instead of ln(r/b)
    wrong = (-np.euler_gamma - np.log(r)) / np.log(1e4)
    assert np.min(np.abs(continuum_cosine_sum(r, 1e4) - wrong)) > 0.5
    # outside the condition (r >= b) the approximation fails
    assert abs(float(continuum_cosine_sum(1e6, 1e4) - log_regime(1e6, 1e4))) > 0.5


def test_dependent_phases_give_the_independent_phase_mean_within_monte_carlo_error():
    from ropemath.theory import dependent_phase_level, random_phase_level

    mean, se = dependent_phase_level(D, samples=100_000, seed=1)
    assert abs(mean - random_phase_level(D)) < 4 * se
    # wrong model of the dependence: the four phases of a group equal (ratio 1 instead of 10)
    wrong, se_w = dependent_phase_level(D, samples=20_000, seed=1, ratio=1.0)
    assert abs(wrong - random_phase_level(D)) > 10 * se_w
