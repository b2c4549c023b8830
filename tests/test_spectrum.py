"""Wavelengths, turns and full-turn counts (ropemath.core.spectrum) against loops, closed forms and
brute force over positions; the numbers notebook 03 states."""

import math

import numpy as np
import pytest
from constructions import paper_theta

from ropemath import frequencies, full_turn_count, turns, wavelengths

DIMS = [2, 4, 8, 64, 128]
BASES = [10000.0, 500000.0, 2.0]


@pytest.mark.parametrize("d", DIMS)
@pytest.mark.parametrize("base", BASES)
def test_wavelengths_match_loop_over_paper_formula(d, base):
    # lambda_i = 2*pi / theta_i with the paper's 1-based theta_j, j = i + 1 (RoFormer eq. 15)
    expected = [2 * math.pi / paper_theta(j, d, base) for j in range(1, d // 2 + 1)]
    got = wavelengths(d, base)
    assert got.dtype == np.float64 and got.shape == (d // 2,)
    np.testing.assert_allclose(got, expected, rtol=1e-15, atol=0)


@pytest.mark.parametrize("d", DIMS)
@pytest.mark.parametrize("base", BASES)
def test_wavelengths_closed_form_and_geometric_growth(d, base):
    # lambda_i = 2*pi*base^(2i/d): consecutive wavelengths differ by the factor base^(2/d)
    got = wavelengths(d, base)
    closed = [2 * math.pi * math.pow(base, 2 * i / d) for i in range(d // 2)]
    np.testing.assert_allclose(got, closed, rtol=1e-14, atol=0)
    assert got[0] == 2 * math.pi  # theta_0 = base^0 = 1 exactly
    np.testing.assert_allclose(got[1:] / got[:-1], math.pow(base, 2 / d), rtol=1e-14)


def test_wavelength_numbers_stated_in_notebook_03():
    # By hand: 10000^(126/128) = 10^3.9375 = 8659.643..., times 2*pi = 54410.14...;
    # 500000^(126/128) = 10^(5.69897 * 0.984375) = 10^5.61993 = 407311.5..., times 2*pi = 2.5592e6.
    assert wavelengths(128)[-1] == pytest.approx(54410.14, abs=0.01)
    assert wavelengths(128, 500000.0)[-1] == pytest.approx(2.5592e6, rel=1e-4)
    # the step factor base^(2/d): 10000^(1/64) = 10^(1/16) = 1.15478..., 500000^(1/64) = 1.22757...
    assert wavelengths(128)[1] / wavelengths(128)[0] == pytest.approx(10 ** (1 / 16), rel=1e-14)
    assert wavelengths(128, 500000.0)[1] / wavelengths(128, 500000.0)[0] == pytest.approx(1.22757, rel=1e-5)
    # Note "RoPE" (Jupyter Book page): theta_{d/2} ~ 1/10000 -- for d = 128 it is 10000^(-126/128)
    # = 1/8659.6 = 1.1548e-4, i.e. 1.1548 times 1/10000.
    assert frequencies(128)[-1] * 10000 == pytest.approx(10 ** (1 / 16), rel=1e-14)


@pytest.mark.parametrize("m", [0, 1, -7, 4095, 10**6])
def test_turns_match_angle_over_two_pi_loop(m):
    d, base = 64, 10000.0
    expected = [m * paper_theta(j, d, base) / (2 * math.pi) for j in range(1, d // 2 + 1)]
    np.testing.assert_allclose(turns(m, d, base), expected, rtol=1e-14, atol=0)


def test_turns_of_slowest_pair_within_4096_positions():
    # 4095 / 54410.14 = 0.07526 turn = 27.09 degrees (hand division, wavelength from the test above)
    t = turns(4095, 128)[-1]
    assert t == pytest.approx(0.07526, abs=1e-5)
    assert 360 * t == pytest.approx(27.09, abs=0.01)
    assert turns(4095, 128, 500000.0)[-1] == pytest.approx(4095 / 2.5592e6, rel=1e-4)


def turn_count_brute_force(L, d, base):
    """Walk the positions 0..L-1 of each pair until its angle m*theta reaches 2*pi."""
    count = 0
    for j in range(1, d // 2 + 1):
        t = paper_theta(j, d, base)
        m = np.arange(L, dtype=np.float64)
        count += bool(np.any(m * t >= 2 * math.pi))
    return count


def turn_count_closed_form(L, d, base):
    """min(d/2, floor((d/2) log_base((L-1)/(2 pi))) + 1), 0 if L - 1 < 2 pi."""
    if L - 1 < 2 * math.pi:
        return 0
    return min(d // 2, math.floor(d / 2 * math.log((L - 1) / (2 * math.pi)) / math.log(base)) + 1)


@pytest.mark.parametrize("L", [1, 7, 8, 100, 512, 2048, 4096, 8192, 32768, 131072])
@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_full_turn_count_matches_brute_force_and_closed_form(L, base):
    got = full_turn_count(L, 128, base)
    assert got == turn_count_brute_force(L, 128, base)
    assert got == turn_count_closed_form(L, 128, base)


def test_full_turn_count_numbers_stated_in_notebook_03():
    # By hand: (d/2) log_base((L-1)/(2 pi)) with L = 4096: (4095 / 6.28319) = 651.74,
    # log10(651.74) = 2.81407 -> 64 * 2.81407 / 4 = 45.02 -> 46 pairs (i = 0..45);
    # base 500000: 64 * ln(651.74) / ln(500000) = 64 * 6.47967 / 13.12236 = 31.60 -> 32 pairs.
    assert full_turn_count(4096, 128) == 46
    assert full_turn_count(4096, 128, 500000.0) == 32
    assert full_turn_count(2048, 128) == 41  # exercise 1 of notebook 03
    # every pair turns once the context exceeds the slowest wavelength (54410.14 positions)
    assert full_turn_count(54411, 128) == 63 and full_turn_count(54412, 128) == 64


def test_wrong_closed_form_is_caught():
    """Negative control: the floor without + 1 (pair 0 forgotten) disagrees with the brute-force count."""
    wrong = math.floor(64 * math.log(4095 / (2 * math.pi)) / math.log(10000.0))
    assert wrong != turn_count_brute_force(4096, 128, 10000.0)


def test_full_turn_count_bad_input():
    with pytest.raises(ValueError, match=r"^context_length must be an integer >= 1, got 0$"):
        full_turn_count(0, 8)
    with pytest.raises(TypeError, match=r"^context_length must be an integer, got float 4096.0$"):
        full_turn_count(4096.0, 8)
    with pytest.raises(ValueError, match=r"^d must be a positive even integer, got 7$"):
        wavelengths(7)
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0, got -1.0$"):
        turns(3, 8, -1.0)
