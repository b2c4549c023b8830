"""Tests that kill surviving mutmut mutants of ropemath.core (``make mutants``).

Each expected value comes from outside the code under test: the documented limits and parameter names,
or values worked out by hand.
"""

import math

import numpy as np
import pytest

from ropemath.attention import rope_scores
from ropemath.core import (
    apply_rope,
    composition_error,
    determinant_error,
    error_vs_position,
    relative_position_error,
    rotation_2d,
    survey_bounds,
    two_product_rope,
)


def test_survey_bounds_refuses_positions_whose_sums_leave_exact_float64_integers():
    survey_bounds(8, max_position=2**50)  # 4 M = 2^52: every integer up to it is exact in float64
    with pytest.raises(ValueError, match=rf"^max_position must be at most {2**50} \("):  # 2^52 / 4, an integer
        survey_bounds(8, max_position=2**50 + 1)


def test_bad_input_errors_name_the_parameter_as_spelled():
    q = np.ones((3, 4))
    with pytest.raises(ValueError, match=r"^k\b"):
        rope_scores(q, np.ones((3, 6)), np.arange(3), base=10000.0, layout="half")
    with pytest.raises((ValueError, TypeError), match=r"^a\b"):
        rotation_2d(np.array([0.0, np.nan]))
    with pytest.raises((ValueError, TypeError), match=r"^m\b"):
        relative_position_error(np.ones(4), np.ones(4), float("nan"), 0, 10000.0)


def test_attention_factor_and_determinant_errors_name_their_parameter():
    with pytest.raises((ValueError, TypeError), match=r"^attention_factor\b"):
        apply_rope(np.ones(4), 0.0, layout="half", base=10000.0, attention_factor=float("nan"))
    with pytest.raises((ValueError, TypeError), match=r"^m\b"):
        determinant_error(float("nan"), 4)


def test_an_overflowing_result_names_only_the_input_that_is_too_large():
    # 1.7e308 (sin 1 + cos 1) > 1.8e308, the largest float64: the second entry overflows; m and base are ordinary
    with pytest.raises(ValueError, match=r"^x \(largest \|x\| = 1.7e\+308\): the result of apply_rope is not finite "
                       r"for these finite inputs \(float64 overflow"):
        apply_rope(np.full(2, 1.7e308), 1.0, layout="interleaved", base=10000.0)


def test_frequencies_at_the_ends_of_the_documented_range_are_accepted():
    # theta entries may be anywhere in [1e-100, 1e100], both ends included (like base=)
    y = apply_rope(np.array([1.0, 0.0, 1.0, 0.0]), 1.0, layout="interleaved", theta=[1e-100, 1e100])
    assert y[0] == 1.0 and y[1] == 1e-100  # cos and sin of the angle 1e-100


def test_two_product_rope_uses_the_base_it_is_given():
    # d = 4, base 100: theta = (1, 100^(-1/2)) = (1, 0.1); m = 1 rotates (1, 0) pairs by 1 and 0.1 radians
    y = two_product_rope(np.array([1.0, 0.0, 1.0, 0.0]), 1.0, base=100.0)
    assert np.allclose(y, [math.cos(1.0), math.sin(1.0), math.cos(0.1), math.sin(0.1)], rtol=0, atol=1e-15)


def test_error_vs_position_names_positions_and_measures_composition_at_the_given_base():
    with pytest.raises((ValueError, TypeError), match=r"^positions\b"):
        error_vs_position([0.0, np.nan])
    m, r, d, base = 10.0**6, 5, 8, 100.0  # key at n = m - r
    out = error_vs_position([m], d=d, base=base, r=r)
    assert out["composition"][0] == composition_error(m, m - r, d, base)  # the same computation, not base 10000
