"""Tests of ropemath.theory.decay, .abel and .plateau: partial sums, the Figure 2 bound, its
far-out level, and the Abel bound on one score (RoFormer eq. 35-37).

Every expected value comes from a construction that shares no code with ropemath: plain
Python loops over ``cmath`` (frequencies from the paper's 1-based formula), dense rotation
matrices assembled block by block, mpmath at 40 digits, or a closed form derived by hand.
"""

import cmath
import math

import numpy as np
import pytest
from constructions import loop_block_diagonal, paper_theta

from ropemath import apply_rope, frequencies
from ropemath.theory.abel import (
    abel_bound,
    abel_check,
    abel_constant,
    abel_identity_error,
    complex_score,
    pair_products,
)
from ropemath.theory.decay import (
    binned_bound,
    decay_bound,
    decay_bound_slope,
    partial_sums,
    rising_intervals,
)
from ropemath.theory.plateau import random_phase_level

# --- independent constructions ---------------------------------------------------------------


def loop_sums(r: float, d: int, base: float = 10000.0, thetas=None) -> list[complex]:
    """[S_1(r), ..., S_{d/2}(r)] with S_j = sum_{j'=1}^{j} e^{i r θ_j'} (paper's 1-based θ)."""
    thetas = thetas if thetas is not None else [paper_theta(j, d, base) for j in range(1, d // 2 + 1)]
    out, s = [], 0j
    for t in thetas:
        s += cmath.exp(1j * r * t)
        out.append(s)
    return out


def loop_bound(r: float, d: int, base: float = 10000.0, thetas=None) -> float:
    """(1/(d/2)) sum_j |S_j(r)|, one Python float at a time."""
    sums = loop_sums(r, d, base, thetas)
    return sum(abs(s) for s in sums) / len(sums)


def loop_pairs(q, k) -> list[complex]:
    """h_i = (q_{2i} + i q_{2i+1}) * conj(k_{2i} + i k_{2i+1})."""
    return [complex(q[2 * i], q[2 * i + 1]) * complex(k[2 * i], k[2 * i + 1]).conjugate() for i in range(len(q) // 2)]


# Pinned values of the Figure 2 bound at d = 128, base 10000: mpmath at 40 significant digits
# (a loop over mp.expj with θ_j = 10000^(-2(j-1)/128)), rounded to 17 digits.
MPMATH_D128 = {
    10: 17.954137137084834,
    50: 12.629452488319241,
    100: 10.227329948505143,
    250: 6.5481790319415992,
}
W3 = 1.5745972375518937  # mean length of a 3-step unit random walk, Borwein-Straub-Wan-Zudilin closed form


# --- partial sums and the bound ---------------------------------------------------------------


@pytest.mark.parametrize("d", [2, 8, 64, 128])
def test_partial_sums_match_loop(d):
    rng = np.random.default_rng(1)
    r = np.concatenate([[0.0, 1.0, -1.0], rng.uniform(-1e4, 1e4, 12), [1e6, -987654.5]])
    got = partial_sums(r, d)
    assert got.shape == (r.size, d // 2)
    for row, rv in zip(got, r, strict=True):
        want = loop_sums(float(rv), d)
        assert np.max(np.abs(row - np.array(want))) < 1e-12 * max(1.0, abs(rv)) * d


def test_partial_sums_shape_and_conjugate_symmetry():
    r = np.arange(12.0).reshape(3, 4) * 7.3
    s = partial_sums(r, 16)
    assert s.shape == (3, 4, 8)
    assert np.allclose(partial_sums(-r, 16), np.conj(s), rtol=0, atol=1e-12)


@pytest.mark.parametrize("d", [2, 4, 6, 64, 128, 1024])
def test_bound_at_zero_closed_form(d):
    # S_j(0) = j, so B(0) = (1/(d/2)) * sum_{j=1}^{d/2} j = (d/2 + 1)/2; at d = 128: 65/2 = 32.5.
    closed = (d // 2 + 1) / 2
    assert float(decay_bound(0, d)) == pytest.approx(closed, rel=1e-15)
    assert loop_bound(0.0, d) == pytest.approx(closed, rel=1e-15)
    if d == 128:
        assert closed == 32.5


@pytest.mark.parametrize("r", sorted(MPMATH_D128))
def test_bound_values_pinned_by_mpmath(r):
    assert float(decay_bound(r, 128)) == pytest.approx(MPMATH_D128[r], rel=1e-13)
    assert loop_bound(float(r), 128) == pytest.approx(MPMATH_D128[r], rel=1e-13)


def test_bound_matches_loop_and_partial_sums_both_signs():
    rng = np.random.default_rng(2)
    r = np.concatenate([rng.uniform(-300, 300, 20), rng.integers(-10**6, 10**6, 10)])
    got = decay_bound(r, 128)
    assert np.allclose(got, decay_bound(-r, 128), rtol=1e-12, atol=0)
    assert np.allclose(got, np.abs(partial_sums(r, 128)).mean(axis=-1), rtol=1e-12, atol=0)
    want = np.array([loop_bound(float(v), 128) for v in r])
    assert np.max(np.abs(got - want) / want) < 1e-9


@pytest.mark.parametrize("chunk", [1, 7, 1000, 100000])
def test_bound_independent_of_chunk_and_keeps_shape(chunk):
    r = np.linspace(-500, 500, 2001).reshape(3, 667)
    ref = np.abs(partial_sums(r, 32)).mean(axis=-1)
    got = decay_bound(r, 32, chunk=chunk)
    assert got.shape == r.shape
    assert np.max(np.abs(got - ref)) < 1e-12
    assert decay_bound(np.empty((0, 3)), 32).shape == (0, 3)


def test_theta_override_is_used():
    # Position Interpolation by s: θ_i -> θ_i / s, so B_{θ/s}(r) = B_θ(r / s).
    r = np.linspace(0, 4000, 301)
    th = frequencies(64) / 4.0
    assert np.allclose(decay_bound(r, 64, theta=th), decay_bound(r / 4.0, 64), rtol=1e-12, atol=0)
    custom = [1.0, 0.3, 0.02, 1e-3]
    for rv in (0.0, 3.0, 77.7):
        assert float(decay_bound(rv, 8, theta=custom)) == pytest.approx(loop_bound(rv, 8, thetas=custom), rel=1e-13)
        assert np.allclose(partial_sums(rv, 8, theta=custom), loop_sums(rv, 8, thetas=custom), atol=1e-13)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"r": 1.0, "d": 7}, ValueError, "d must be a positive even integer"),
        ({"r": np.nan, "d": 8}, ValueError, "r must contain only finite values"),
        ({"r": "far", "d": 8}, TypeError, "r must be a real number"),
        ({"r": 1.0, "d": 8, "base": -1.0}, ValueError, "base must be"),
        ({"r": 1.0, "d": 8, "theta": [1.0, 2.0]}, ValueError, r"theta must be 4 frequencies > 0"),
        ({"r": 1.0, "d": 8, "theta": [1j, 1, 1, 1]}, TypeError, "theta must be a real number or an array"),
        ({"r": 1.0, "d": 8, "theta": [1.0, np.inf, 1, 1]}, ValueError, "theta must contain only finite"),
        ({"r": 1.0, "d": 8, "chunk": 0}, ValueError, "chunk must be an integer >= 1"),
    ],
)
def test_bound_rejects_bad_input(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        decay_bound(**kwargs)


# --- shape of the curve on [0, 256] -----------------------------------------------------------


def test_slope_matches_finite_differences_of_the_loop():
    eps = 1e-5
    for r in (0.5, 3.0, 12.3, 40.0, 99.9, 250.0, 12345.6):
        fd = (loop_bound(r + eps, 128) - loop_bound(r - eps, 128)) / (2 * eps)
        assert float(decay_bound_slope(r, 128)) == pytest.approx(fd, abs=2e-6)
    assert float(decay_bound_slope(0.0, 128)) == 0.0  # B is even in r


def test_rising_intervals_match_a_loop_grid():
    # Independent: the loop evaluated every 0.02 on [0, 256]; a rise is B(r + 0.02) > B(r).
    grid = [i / 50 for i in range(12801)]
    values = [loop_bound(r, 128) for r in grid]
    rises, start = [], None
    for i in range(len(grid) - 1):
        up = values[i + 1] > values[i]
        if up and start is None:
            start = grid[i]
        elif not up and start is not None:
            rises.append((start, grid[i]))
            start = None
    intervals = rising_intervals(128, r_max=256.0)
    # 33 rises on [0, 256] (loop grid); none before r = 12.14: B falls monotonically from 32.5.
    assert len(rises) == len(intervals) == 33
    for (a, b), (a2, b2) in zip(rises, intervals, strict=True):
        assert abs(a - a2) <= 0.021 and abs(b - b2) <= 0.021
    assert rises[0][0] == pytest.approx(12.14, abs=0.021)
    assert all(values[i + 1] < values[i] for i in range(607))
    # A finer sampling step finds the same intervals (no rise hides between grid points).
    fine = rising_intervals(128, r_max=256.0, step=0.0025)
    assert len(fine) == 33
    assert max(abs(x - y) for p, q in zip(fine, intervals, strict=True) for x, y in zip(p, q, strict=True)) < 1e-6


def test_paper_frame_hides_only_the_first_distances():
    # RoFormer Fig. 2 clips its y-axis near 20.5: B crosses 20.5 once, between r = 5.43 and 5.44
    # (loop), and stays below it up to 256, so the paper's frame hides only r < 5.44.
    assert loop_bound(5.43, 128) > 20.5 > loop_bound(5.44, 128)
    r = np.arange(5.44, 256.0, 0.01)
    assert float(decay_bound(r, 128).max()) < 20.5


# --- the far-out level ------------------------------------------------------------------------


def test_random_phase_level_small_cases():
    assert random_phase_level(2) == 1.0  # one unit step
    assert random_phase_level(4) == pytest.approx((1 + 4 / math.pi) / 2, rel=1e-15)  # E|1 + e^{iφ}| = 4/π
    assert random_phase_level(6) == pytest.approx((1 + 4 / math.pi + W3) / 3, rel=1e-9)


def test_random_phase_level_matches_monte_carlo():
    rng = np.random.default_rng(3)
    phases = rng.uniform(0, 2 * np.pi, size=(40000, 64))
    per_sample = np.abs(np.cumsum(np.exp(1j * phases), axis=1)).mean(axis=1)
    se = per_sample.std() / math.sqrt(per_sample.size)
    assert abs(per_sample.mean() - random_phase_level(128)) < 4 * se
    rayleigh = sum(math.sqrt(math.pi * j) / 2 for j in range(1, 65)) / 64  # E|S_j| ≈ sqrt(π j)/2
    assert 1e-3 < random_phase_level(128) / rayleigh - 1 < 5e-3  # Rayleigh's asymptotic form is close, not exact


def test_far_out_bound_does_not_tend_to_zero():
    # Seeded sample of 20000 distances in [1e5, 1e6]: mean close to the random-phase level
    # (4.79 at d = 128, 15 % of B(0) = 32.5), never close to 0.
    rng = np.random.default_rng(4)
    r = rng.integers(10**5, 10**6, size=20000).astype(float)
    b = decay_bound(r, 128)
    level = random_phase_level(128)
    assert level == pytest.approx(4.7926, abs=1e-4)
    assert abs(b.mean() - level) < 0.06
    assert b.min() > 1.0
    # Over many distances the frequencies are distinct, so the cross terms average out: mean |S_j|^2 ≈ j.
    s = partial_sums(r, 128)
    for j in (8, 32, 64):
        assert np.mean(np.abs(s[:, j - 1]) ** 2) / j == pytest.approx(1.0, abs=0.05)
    for rv in r[:5]:
        assert float(decay_bound(rv, 128)) == pytest.approx(loop_bound(float(rv), 128), rel=1e-9)


def test_far_out_level_is_the_same_for_every_base_once_r_is_far_beyond_the_slowest_wavelength():
    # The plateau depends on d only, but only where r >> 1/θ_{d/2-1} (93, 8660 and 4.1e5 for the three
    # bases): seeded 20000 distances in [1e7, 1e8]; the standard error of each mean is about 0.013.
    level = random_phase_level(128)
    for base in (1e2, 1e4, 5e5):
        assert 1e7 > 20 / paper_theta(64, 128, base)  # every r >= 1e7 is over 20 times 1/θ_{d/2-1}
        r = np.random.default_rng(4).uniform(1e7, 1e8, 20000)
        b = decay_bound(r, 128, base)
        assert abs(b.mean() - level) < 0.06
        for rv in r[:3]:
            assert float(decay_bound(rv, 128, base)) == pytest.approx(loop_bound(float(rv), 128, base), rel=1e-8)
    # Not yet at base 5e5 for r in [1e5, 1e6] (r < 2.5 / θ_min): the mean is 3.7 standard errors low.
    b = decay_bound(np.random.default_rng(4).uniform(1e5, 1e6, 20000), 128, 5e5)
    assert level - b.mean() > 0.04


# --- claims about the base --------------------------------------------------------------------


def test_larger_base_decays_more_slowly_on_average_but_not_pointwise():
    # Decade means of B at d = 128 are ordered base 1e2 < 1e4 < 5e5 up to 1000 tokens ...
    for lo, hi in [(1, 10), (10, 100), (100, 1000)]:
        r = np.arange(lo, hi, 0.25)
        means = [float(decay_bound(r, 128, b).mean()) for b in (1e2, 1e4, 5e5)]
        assert means[0] < means[1] < means[2]
    # ... and the first integer distance where B falls below half of B(0) = 16.25 is 6, 16, 34 (loop values).
    for base, first in [(1e2, 6), (1e4, 16), (5e5, 34)]:
        assert loop_bound(first - 1, 128, base) >= 16.25 > loop_bound(first, 128, base)
    # ... but not at every distance: at r = 328 base 10000 is above base 500000 (mpmath: 10.7966 vs 10.5947).
    assert loop_bound(328.0, 128, 1e4) == pytest.approx(10.796573514692582, rel=1e-12)
    assert loop_bound(328.0, 128, 5e5) == pytest.approx(10.594746753313016, rel=1e-12)
    assert float(decay_bound(328, 128, 1e4)) > float(decay_bound(328, 128, 5e5))


def test_binned_bound_summarises_each_bin():
    edges = np.array([1.0, 10.0, 100.0])
    mean, low, high = binned_bound(edges, 16, per_bin=5)
    for k in range(2):
        pts = [edges[k] + (t + 0.5) * (edges[k + 1] - edges[k]) / 5 for t in range(5)]
        vals = sorted(loop_bound(p, 16) for p in pts)
        assert mean[k] == pytest.approx(sum(vals) / 5, rel=1e-12)
        assert low[k] <= mean[k] <= high[k]
        assert vals[0] <= low[k] and high[k] <= vals[-1]
    with pytest.raises(ValueError, match="edges must be a strictly increasing"):
        binned_bound([1.0, 1.0], 16)
    with pytest.raises(ValueError, match="quantiles must satisfy"):
        binned_bound(edges, 16, quantiles=(0.9, 0.1))


# --- the Abel bound on one score (eq. 35-37) --------------------------------------------------


def test_pair_products_match_loop():
    rng = np.random.default_rng(5)
    q, k = rng.standard_normal(10), rng.standard_normal(10)
    assert np.allclose(pair_products(q, k, layout="interleaved"), loop_pairs(q, k), rtol=0, atol=1e-15)


@pytest.mark.parametrize(("m", "n"), [(0, 0), (7, 3), (3, 7), (-50, 1000), (123456, -654)])
def test_complex_score_equals_dense_rotation_score(m, n):
    # (R_m q)^T (R_n k) with block-by-block dense matrices (constructions.py) = Re[sum h_i e^{i(m-n)θ_i}].
    rng = np.random.default_rng(6)
    q, k = rng.standard_normal(16), rng.standard_normal(16)
    dense = (loop_block_diagonal(m, 16) @ q) @ (loop_block_diagonal(n, 16) @ k)
    score = float(complex_score(q, k, m - n, layout="interleaved"))
    assert score == pytest.approx(dense, abs=1e-10 * (1 + abs(m) + abs(n)))
    if m != n:
        # The opposite convention (r = n - m, or h_i = conj(q_i) k_i) is a different number here.
        assert abs(float(complex_score(q, k, n - m, layout="interleaved")) - dense) > 1e-3


def test_abel_identity_and_bound_by_loop():
    # Summation by parts written out for one (q, k, r): sum h_i e^{irθ_i} = -sum S_{i+1}(h_{i+1} - h_i).
    rng = np.random.default_rng(7)
    q, k = rng.standard_normal(12), rng.standard_normal(12)
    h = loop_pairs(q, k) + [0j]
    for r in (0.0, 2.5, -17.0, 4321.0):
        S = loop_sums(r, 12)
        thetas = [paper_theta(j, 12) for j in range(1, 7)]
        lhs = sum(h[i] * cmath.exp(1j * r * thetas[i]) for i in range(6))
        rhs = -sum(S[i] * (h[i + 1] - h[i]) for i in range(6))
        assert abs(lhs - rhs) < 1e-12
        assert abel_identity_error(q, k, r, layout="interleaved") < 1e-14
        const = max(abs(h[i + 1] - h[i]) for i in range(6))
        assert abel_constant(q, k, layout="interleaved") == pytest.approx(const, rel=1e-15)
        bound = const * sum(abs(s) for s in S)
        assert float(abel_bound(q, k, r, layout="interleaved")) == pytest.approx(bound, rel=1e-12)
        assert abs(lhs.real) <= bound


def test_ramp_vector_attains_the_bound_at_zero():
    # q = k with |q_i|^2 = d/2 - i gives h_i = d/2 - i, every |h_{i+1} - h_i| = 1, and
    # score(0) = sum_i (d/2 - i) = (d/2)(d/2 + 1)/2 = bound(0): eq. 37 cannot be improved in general.
    d = 128
    q = np.zeros(d)
    q[0::2] = np.sqrt(d // 2 - np.arange(d // 2))
    assert abel_constant(q, q, layout="interleaved") == pytest.approx(1.0, rel=1e-13)
    assert float(complex_score(q, q, 0.0, layout="interleaved")) == pytest.approx(64 * 65 / 2, rel=1e-13)
    assert float(abel_bound(q, q, 0.0, layout="interleaved")) == pytest.approx(64 * 65 / 2, rel=1e-13)


@pytest.mark.parametrize("aligned", [False, True])
def test_abel_check_on_random_vectors(aligned):
    out = abel_check(128, trials=5, aligned=aligned, seed=0)
    assert out["violations"] == 0
    assert out["abel_error"] < 1e-13
    assert out["rope_error"] < 1e-9  # apply_rope at positions up to 1e6: angle rounding ~ 1e6 * 2^-52
    assert 0.01 < out["max_ratio"] < 0.1  # random vectors sit far inside the bound


def test_abel_check_rope_score_is_independent_of_complex_form():
    # The check's second construction: apply_rope at m = n + r and at n, then a dot product.
    rng = np.random.default_rng(8)
    q, k = rng.standard_normal(32), rng.standard_normal(32)
    for m, n in [(5, 2), (2, 5), (1000, -3)]:
        rope = float(apply_rope(q, m, layout="interleaved", base=1e4)
                     @ apply_rope(k, n, layout="interleaved", base=1e4))
        assert float(complex_score(q, k, m - n, layout="interleaved")) == pytest.approx(rope, abs=1e-11)


def test_score_functions_reject_bad_input():
    with pytest.raises(ValueError, match="k must have last axis of length d=4"):
        pair_products(np.ones(4), np.ones(6), layout="interleaved")
    with pytest.raises(ValueError, match="q and k must be vectors"):
        complex_score(np.ones((2, 4)), np.ones((2, 4)), 0.0, layout="interleaved")
    with pytest.raises(TypeError, match="q must be a real floating-point array"):
        abel_bound(np.ones(4, dtype=int), np.ones(4), 0.0, layout="interleaved")
    with pytest.raises(ValueError, match="trials must be an integer >= 1"):
        abel_check(8, trials=0)
    with pytest.raises(ValueError, match="distances must contain at least one"):
        abel_check(8, trials=1, distances=[])
    with pytest.raises(TypeError, match="aligned must be a bool"):
        abel_check(8, trials=1, aligned="yes")
    with pytest.raises(ValueError, match=r"quantiles must be a pair"):
        binned_bound([1.0, 2.0], 8, quantiles=(0.1, 0.5, 0.9))
    with pytest.raises(ValueError, match=r"quantiles must be a pair"):
        binned_bound([1.0, 2.0], 8, quantiles=0.5)
    with pytest.raises(ValueError, match=r"step must leave at most 10\*\*7 samples"):
        rising_intervals(8, r_max=1e6, step=1e-3)
    with pytest.raises(ValueError, match=r"step must be in \(0, r_max\]"):
        rising_intervals(8, r_max=10.0, step=0.0)


def test_individual_scores_need_not_decay():
    # Seeded random q, k (d = 128): |score| at some r in [100, 256] exceeds |score| at r = 0, with
    # scores from dense block-by-block rotation matrices (independent of ropemath).
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(128), rng.standard_normal(128)
    at_zero = abs(q @ k)
    far = [abs((loop_block_diagonal(r, 128) @ q) @ k) for r in range(100, 257)]
    assert max(far) > at_zero
    dense = [(loop_block_diagonal(r, 128) @ q) @ k for r in range(100, 257)]  # m = r, n = 0
    assert np.allclose(complex_score(q, k, np.arange(100.0, 257.0), layout="interleaved"), dense, rtol=0, atol=1e-9)


def test_aligned_scores_stay_well_above_zero_up_to_256():
    # Notebook 05 §5 and figure bound_vs_scores: the aligned vector is the third draw of rng(0).  Its cosine
    # score(r)/|q|^2 (dense block-by-block matrices, integers 50..256) averages 0.36 and stays in
    # [0.07, 0.61], because pairs i >= 39 (θ_i < 1/256, so r θ_i < 1 rad) hold 38 % of |q|^2 here.
    rng = np.random.default_rng(0)
    rng.standard_normal(128), rng.standard_normal(128)
    q = rng.standard_normal(128)
    cos = np.array([(loop_block_diagonal(r, 128) @ q) @ q for r in range(50, 257)]) / (q @ q)
    assert 0.33 < cos.mean() < 0.39 and 0.05 < cos.min() and cos.max() < 0.62
    slow = [j for j in range(1, 65) if paper_theta(j, 128) < 1 / 256]
    assert slow[0] == 40  # the paper's j = 40 is our i = 39
    share = sum(q[2 * j - 2] ** 2 + q[2 * j - 1] ** 2 for j in slow) / (q @ q)
    assert 0.37 < share < 0.41
