"""The closed-form count of pairs completing a full turn (ropemath.core.spectrum), notebook 03 section 3:
three independent routes agree, and a wrong closed form (no + 1) is caught by the same comparison."""

import math

import pytest

from ropemath import full_turn_count
from ropemath.core import full_turn_count_brute_force, full_turn_count_closed_form

CASES = [(L, base) for base in (10000.0, 500000.0) for L in (2, 7, 8, 512, 2048, 4096, 8192, 32768, 131072)]


@pytest.mark.parametrize("length,base", CASES)
def test_three_routes_agree(length, base):
    closed = full_turn_count_closed_form(length, 128, base)
    assert closed == full_turn_count(length, 128, base)
    if length <= 2**17:
        assert closed == full_turn_count_brute_force(length, 128, base)


def test_numbers_stated_in_notebook_03():
    assert full_turn_count_closed_form(4096, 128) == 46
    assert full_turn_count_closed_form(4096, 128, 500000.0) == 32
    assert full_turn_count_closed_form(2048, 128) == 41  # exercise 1 of notebook 03
    assert 16 * math.log10(4095 / (2 * math.pi)) == pytest.approx(45.025, abs=5e-4)


def test_wrong_closed_form_is_caught():
    """Negative control: the floor without + 1 (pair 0 forgotten) disagrees with brute force."""
    wrong = math.floor(64 * math.log(4095 / (2 * math.pi)) / math.log(10000.0))
    assert wrong != full_turn_count_brute_force(4096, 128)


def test_bad_input():
    with pytest.raises(ValueError, match="^length must be"):
        full_turn_count_closed_form(0, 8)
    with pytest.raises(ValueError, match="^d must be"):
        full_turn_count_brute_force(10, 3)


def test_closed_form_needs_base_above_one_and_brute_force_has_a_ceiling():
    with pytest.raises(ValueError, match=r"^base must be > 1 for the closed form"):
        full_turn_count_closed_form(4096, 8, 1.0)  # log(base) = 0: the formula divides by it
    assert full_turn_count_closed_form(4096, 8, 1.0001) == full_turn_count(4096, 8, 1.0001)  # control: just above 1
    with pytest.raises(ValueError, match=r"^length × d/2 \(angles compared\) must be at most"):
        full_turn_count_brute_force(2**20, 65536)
