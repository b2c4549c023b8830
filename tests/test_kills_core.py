"""Tests that kill surviving mutmut mutants of ropemath.core (``make mutants``).

Each expected value comes from outside the code under test: the documented limits and parameter names,
or values worked out by hand.
"""

import numpy as np
import pytest

from ropemath.attention import rope_scores
from ropemath.core import relative_position_error, rotation_2d, survey_bounds


def test_survey_bounds_refuses_positions_whose_sums_leave_exact_float64_integers():
    survey_bounds(8, max_position=2**50)  # 4 M = 2^52: every integer up to it is exact in float64
    with pytest.raises(ValueError, match="max_position"):
        survey_bounds(8, max_position=2**50 + 1)


def test_bad_input_errors_name_the_parameter_as_spelled():
    q = np.ones((3, 4))
    with pytest.raises(ValueError, match=r"^k\b"):
        rope_scores(q, np.ones((3, 6)), np.arange(3), base=10000.0, layout="half")
    with pytest.raises((ValueError, TypeError), match=r"^a\b"):
        rotation_2d(np.array([0.0, np.nan]))
    with pytest.raises((ValueError, TypeError), match=r"^m\b"):
        relative_position_error(np.ones(4), np.ones(4), float("nan"), 0, 10000.0)
