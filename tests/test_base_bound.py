"""Tests of ropemath.theory.base_bound: Su's lower bound on the RoPE base and its non-monotone condition.

Expected values come from brute force that shares no code with ropemath: the full
(L x d/2) table of cos(m θ_i) summed with numpy (or Python loops over ``math`` for small
cases), evaluated directly at the bases in question.  The published values are those quoted
in shared/REFERENCES.md from Su, kexue.fm/archives/10122.
"""

import math

import numpy as np
import pytest

from ropemath.theory.base_bound import (
    BaseBound,
    base_lower_bound,
    cosine_sum,
    cosine_sum_minimum,
    failing_intervals,
    float64_error_budget,
)

PUBLISHED = {1024: 4.3e3, 2048: 1.2e4, 4096: 2.7e4, 8192: 8.4e4}  # Su, kexue.fm/archives/10122


def brute_min(base, length, d=128):
    """min over m = 0..L-1 of sum_i cos(m base^(-2i/d)), from the full table."""
    theta = base ** (-np.arange(0, d, 2) / d)
    return float(np.cos(np.outer(np.arange(length), theta)).sum(axis=1).min())


def loop_sum(m, d, base):
    return sum(math.cos(m * base ** (-2 * (j - 1) / d)) for j in range(1, d // 2 + 1))


def two_significant(x):
    return float(f"{x:.1e}")


# --- the cosine sum and its minimum ----------------------------------------------------------


def test_cosine_sum_matches_the_loop():
    for m in (0.0, 1.0, 7.0, 1009.0, 65535.0):
        assert cosine_sum(m, 128, 4293.4) == pytest.approx(loop_sum(m, 128, 4293.4), abs=1e-11)
    assert cosine_sum(np.arange(5.0), 8, 10.0).shape == (5,)


def test_cosine_sum_is_half_the_rope_score_of_the_all_ones_vector():
    from ropemath import apply_rope

    ones = np.ones(128)
    for m in (0.0, 3.0, 988.0, 50000.0):
        score = apply_rope(ones, m, base=5000.0, layout="interleaved") @ ones
        assert cosine_sum(m, 128, 5000.0) == pytest.approx(score / 2, abs=1e-10)


@pytest.mark.parametrize("length", [1, 2, 63, 64, 65, 1000, 1024, 1025, 8192])
def test_cosine_sum_minimum_matches_brute_force(length):
    bases = np.array([1.5, 100.0, 4293.4, 3e4, 5e5])
    got = cosine_sum_minimum(length, 128, bases)
    assert got.shape == bases.shape
    for b, v in zip(bases, got, strict=True):
        assert v == pytest.approx(brute_min(b, length), abs=1e-10)


def test_cosine_sum_minimum_shapes_and_small_d():
    assert cosine_sum_minimum(3, 2, 1.0) == pytest.approx(math.cos(2.0), abs=1e-15)  # min(1, cos 1, cos 2)
    assert cosine_sum_minimum(10, 4, [[2.0, 3.0]]).shape == (1, 2)
    assert float(cosine_sum_minimum(1, 128, 7.0)) == 64.0  # only m = 0


# --- Su's bound: values, certificate, published numbers --------------------------------------

LENGTHS = (1000, 1024, 2000, 2048, 4000, 4096, 8000, 8192)
PINNED = {  # b* to 5 significant figures (stated by notebook 08), checked by brute force below
    1000: 4206.0, 1024: 4293.4, 2000: 11587.0, 2048: 11587.0,
    4000: 26912.0, 4096: 26952.0, 8000: 83613.0, 8192: 83764.0,
}


@pytest.fixture(scope="module")
def bounds():
    return {L: base_lower_bound(L) for L in LENGTHS}


@pytest.mark.parametrize("length", LENGTHS)
def test_condition_holds_at_b_star_and_fails_just_below(bounds, length):
    r = bounds[length]
    assert isinstance(r, BaseBound) and r.length == length and r.d == 128
    assert float(f"{r.base:.5g}") == PINNED[length]
    assert brute_min(r.base, length) >= 0  # holds at b*
    assert brute_min(r.proven_below, length) < 0  # fails just below
    assert brute_min(r.base * (1 - 1e-6), length) < 0
    assert r.proven_below <= r.below < r.base
    assert r.base / r.proven_below - 1 < 1e-7  # located to better than 1e-7 (relative)
    assert r.uncertified < 20


@pytest.mark.parametrize("length", [1024, 2048, 4096, 8192])
def test_float64_margins_at_b_star_and_proven_below(bounds, length):
    """Notebook 13's float64 claims: the blocked and direct sums agree within the budget, -mu at the last
    base proven to fail is thousands of budgets, and budget / G_b(m) at its witness is below 1e-12."""
    r = bounds[length]
    bases = [r.base, r.proven_below, 1e4, 5e5]
    direct = [brute_min(b, length) for b in bases]
    assert np.abs(cosine_sum_minimum(length, 128, bases) - direct).max() <= 2 * float64_error_budget(length)
    assert -direct[1] >= 5000 * float64_error_budget(length)
    w = np.arange(0, 128, 2) / 128
    m = np.argmin(cosine_sum(np.arange(length), 128, r.proven_below))
    x = m * r.proven_below**-w
    g = np.sum(w * x * np.minimum(1, x))
    assert g >= 900 and float64_error_budget(length) / g < 1e-12


def test_float64_error_budget_bounds_the_error_against_40_digit_sums():
    """Direct and blocked float64 sums lie within the budget of a 40-digit reference; float32 angles do not."""
    import mpmath

    length, base = 1024, 4293.5
    with mpmath.workdps(40):
        theta = [mpmath.mpf(base) ** (mpmath.mpf(-2 * i) / 128) for i in range(64)]
        exact = np.array([float(mpmath.fsum(mpmath.cos(m * t) for t in theta)) for m in range(length)])
    budget = float64_error_budget(length)
    assert np.abs(cosine_sum(np.arange(length), 128, base) - exact).max() <= budget
    assert abs(float(cosine_sum_minimum(length, 128, base)) - exact.min()) <= budget  # blocked sums
    t32 = (base ** -(np.arange(0, 128, 2) / 128)).astype(np.float32)
    c32 = np.cos((np.arange(length, dtype=np.float32)[:, None] * t32).astype(np.float64)).sum(axis=1)
    assert np.abs(c32 - exact).max() > 1000 * budget  # wrong variant: float32 angles break the budget


def test_float64_error_budget_on_the_search_path_at_64k():
    """The search's own sums, θ_i = exp(-w_i u) with u = ln b*, at L = 65536 on sampled positions and the worst one,
    lie within the budget of a 40-digit reference; with θ_i rounded to float32 they do not."""
    import mpmath

    length = 65536
    u = math.log(base_lower_bound(length, 128).base)
    w = np.arange(0, 128, 2, dtype=np.float64) / 128
    theta = np.exp(-w * u)  # as _search forms it
    m = np.unique(np.concatenate([np.random.default_rng(0).integers(0, length, 1500), [length - 1]])).astype(float)
    computed = np.cos(m[:, None] * theta).sum(axis=1)
    with mpmath.workdps(40):
        thetas = [mpmath.exp(-mpmath.mpf(2 * i) / 128 * mpmath.mpf(u)) for i in range(64)]
        exact = np.array([float(mpmath.fsum(mpmath.cos(int(k) * t) for t in thetas)) for k in m])
    assert np.abs(computed - exact).max() <= float64_error_budget(length)
    theta32 = theta.astype(np.float32).astype(np.float64)  # wrong variant: θ_i rounded to float32
    assert np.abs(np.cos(m[:, None] * theta32).sum(axis=1) - exact).max() > float64_error_budget(length)


def test_2000_and_2048_share_b_star(bounds):
    """At the last base proven to fail for 2048 the lowest C_b(m) is at m = 1788 < 2000 (notebook 13)."""
    assert int(np.argmin(cosine_sum(np.arange(2048), 128, bounds[2048].proven_below))) == 1788
    assert math.ceil(bounds[2000].base * 10) == math.ceil(bounds[2048].base * 10)  # the same when rounded up


def test_published_values_match_with_powers_of_two(bounds):
    """1k = 1024: all four published values agree to two significant figures; 1k = 1000 does not."""
    for L, published in PUBLISHED.items():
        assert two_significant(bounds[L].base) == published
    assert two_significant(bounds[1000].base) == 4.2e3  # != 4.3e3
    assert [two_significant(bounds[L].base) for L in (2000, 4000, 8000)] == [1.2e4, 2.7e4, 8.4e4]


@pytest.mark.parametrize("length", [1024, 8192])
def test_certificate_every_sampled_base_below_b_star_fails(bounds, length):
    """Independent brute force on 300 bases in [1.01, b*): none satisfies the condition (so b* is not
    just some base where it holds: no sampled smaller base does)."""
    r = bounds[length]
    grid = np.geomspace(1.01, r.proven_below, 300)
    assert all(brute_min(b, length) < 0 for b in grid)


def test_small_case_against_a_dense_brute_force_scan():
    """d = 8, L = 32: every one of 20000 bases in [1.001, b*) fails, b* holds."""
    r = base_lower_bound(32, 8)
    grid = np.geomspace(1.001, r.proven_below, 20000)
    theta = grid[:, None] ** (-np.arange(0, 8, 2) / 8)
    c = np.cos(np.arange(32)[None, :, None] * theta[:, None, :]).sum(axis=2)
    assert np.all(c.min(axis=1) < 0)
    assert min(loop_sum(m, 8, r.base) for m in range(32)) >= 0
    assert r.uncertified <= 5


def test_condition_is_not_monotone_in_the_base(bounds):
    """Above b*(1024) = 4293.4 the condition fails again (4340, 5000, 6000, 6017).

    It holds at 6018.5 and at the larger bases tried below.
    """
    assert bounds[1024].base < 4320
    assert brute_min(4320.0, 1024) > 0
    for b in (4340.0, 5000.0, 6000.0, 6017.0):
        assert brute_min(b, 1024) < 0
    assert brute_min(5000.0, 1024) == pytest.approx(-1.5137, abs=1e-4)  # at m = 988
    assert loop_sum(988, 128, 5000.0) == pytest.approx(-1.5137, abs=1e-4)
    for b in (6018.5, 6100.0, 10000.0, 43000.0):
        assert brute_min(b, 1024) >= 0


def test_failures_far_above_b_star_for_8192(bounds):
    assert bounds[8192].base < 84000
    assert brute_min(394000.0, 8192) < 0  # 4.7 x b*
    assert brute_min(500000.0, 8192) > 0  # Llama 3's base


def test_familiar_bases():
    assert brute_min(10000.0, 1024) > 0 > brute_min(10000.0, 2048)  # RoFormer's base covers 1k only


@pytest.fixture(scope="module")
def grid_scans(bounds):
    """The scan notebook 13 shows: 400 bases geometric in (b*, 10 b*] for each power of two."""
    out = {}
    for L in (1024, 2048, 4096, 8192):
        grid = np.geomspace(bounds[L].base, 10 * bounds[L].base, 401)[1:]
        out[L] = (grid, cosine_sum_minimum(L, 128, grid))
    return out


@pytest.mark.parametrize("length, n_fail, n_runs, last", [(1024, 56, 2, 5995.0), (2048, 57, 7, 22724.0),
                                                          (4096, 97, 9, 58627.0), (8192, 97, 22, 394055.0)])
def test_grid_scan_above_b_star(grid_scans, length, n_fail, n_runs, last):
    grid, mu = grid_scans[length]
    runs = failing_intervals(grid, mu)
    assert int(np.sum(mu < 0)) == n_fail
    assert len(runs) == n_runs
    assert round(runs[-1][1]) == last
    for lo, hi, worst in (runs[0], runs[-1]):  # every reported failure is real: brute force at both ends
        assert brute_min(lo, length) < 0 and brute_min(hi, length) < 0 and worst < 0


def test_published_2k_base_between_failing_runs(grid_scans):
    """Men et al.'s 1.6e4 for 2k holds, between grid runs that fail: 14,842-15,275, 16,273-16,557 (notebook 13)."""
    grid, mu = grid_scans[2048]
    runs = failing_intervals(grid, mu)
    assert round(runs[0][0]) == 11654 and round(runs[-1][1]) == 22724
    assert [(round(lo), round(hi)) for lo, hi, _ in runs[3:5]] == [(14842, 15275), (16273, 16557)]
    inside = lambda b: any(lo <= b <= hi for lo, hi, _ in runs)  # noqa: E731 - the same test for both bases
    assert runs[0][0] < 1.6e4 < runs[-1][1] and not inside(1.6e4) and brute_min(1.6e4, 2048) >= 0
    assert inside(runs[1][0]) and brute_min(runs[1][0], 2048) < 0  # a base in a run fails, through the same test

# --- failing_intervals -----------------------------------------------------------------------


def test_failing_intervals_by_hand():
    assert failing_intervals([1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, -0.2, -0.3]) == [(1.0, 1.0, -1.0), (3.0, 4.0, -0.3)]
    assert failing_intervals([1.0, 2.0], [0.0, 1.0]) == []
    assert failing_intervals([5.0], [-2.0]) == [(5.0, 5.0, -2.0)]


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, exc, name",
    [
        (lambda: cosine_sum(1.0, 7), ValueError, "d"),
        (lambda: cosine_sum("m"), TypeError, "m"),
        (lambda: cosine_sum(1.0, 8, 0.0), ValueError, "base"),
        (lambda: cosine_sum_minimum(0), ValueError, "length"),
        (lambda: cosine_sum_minimum(10.0), TypeError, "length"),
        (lambda: cosine_sum_minimum(10, 128, [1.0, -2.0]), ValueError, "base"),
        (lambda: cosine_sum_minimum(10, 128, "b"), TypeError, "base"),
        (lambda: base_lower_bound(0), ValueError, "length"),
        (lambda: base_lower_bound(64, 15), ValueError, "d"),
        (lambda: base_lower_bound(64, 16, start=-1.0), ValueError, "start"),
        (lambda: base_lower_bound(64, 16, rtol=0.0), ValueError, "rtol"),
        (lambda: base_lower_bound(64, 16, rtol="x"), TypeError, "rtol"),
        (lambda: base_lower_bound(64, 16, max_steps=0), ValueError, "max_steps"),
        (lambda: failing_intervals([1.0, 2.0], [1.0]), ValueError, "margins"),
        (lambda: failing_intervals([2.0, 1.0], [1.0, 1.0]), ValueError, "bases"),
    ],
)
def test_bad_input_names_the_parameter(call, exc, name):
    with pytest.raises(exc, match=rf"\b{name}\b"):
        call()


def test_max_steps_exhausted_raises():
    with pytest.raises(RuntimeError, match="max_steps"):
        base_lower_bound(1024, 128, max_steps=3)


# --- float32 angles, as a model computes them (notebook 13, section 5) ------------------------


def test_float32_relative_phase_error_grows_with_the_absolute_position():
    """fl((n + m) θ) - fl(n θ) is within (n + m) θ 2^-23 (1 + 2^-24) of m θ (0.9 of it reached); a bound in m fails."""
    d, n, b = 128, 65536, 2090179.7  # b*(65536) rounded up, as notebook 13 prints it
    theta = b ** -(np.arange(0, d, 2) / d)
    phase32 = (np.arange(n, dtype=np.float32)[:, None] * theta.astype(np.float32)).astype(np.float64)
    dist = np.arange(n)
    exact = dist[:, None] * theta
    key_at_0, query_at_end = phase32 - phase32[0], phase32[-1] - phase32[::-1]
    unit = theta * 2.0**-23 * (1 + 2.0**-24)
    for rel, key_pos in ((key_at_0, 0), (query_at_end, n - 1 - dist)):
        bound = (key_pos + dist)[:, None] * unit  # the query's position n + m
        assert np.all(np.abs(rel - exact) <= bound)
        assert (np.abs(rel - exact)[1:] / bound[1:]).max() > 0.9  # nearly sharp
    assert np.any(np.abs(query_at_end - exact) > dist[:, None] * unit)  # negative control: a bound in m alone
    assert not (key_at_0 - exact)[:, 0].any() and not (query_at_end - exact)[:, 0].any()  # pair 0 (θ_0 = 1): exact
    assert 1e-3 < np.abs(key_at_0 - exact)[-1].max() < 1e-2  # query at 65535, key at 0: a few 1e-3 rad
    f32 = lambda x: x.astype(np.float32).astype(np.float64)  # noqa: E731 - cos and sin rounded to float32, as torch's
    q, k = phase32[-1], phase32[::-1]
    score32 = f32(np.cos(q)) * f32(np.cos(k)) + f32(np.sin(q)) * f32(np.sin(k))
    assert np.abs(score32.sum(axis=1) - np.cos(q - k).sum(axis=1)).max() < 64 * 2.0**-22 < 2e-5
