"""Tests of ropemath.teaching.verdict: a check reported as a bound and a yes, and able to say no."""

import numpy as np
import pytest

from ropemath import verdict, verdict_above


def test_verdict_says_yes_within_the_bound():
    assert verdict("max error", [1e-16, 3e-16], 1e-15) == "max error ≤ 1e-15: yes"
    assert verdict("at the bound", 1e-12, 1e-12) == "at the bound ≤ 1e-12: yes"


def test_verdict_says_no_above_the_bound():
    with pytest.raises(AssertionError, match=r"max error ≤ 1e-15: NO \(value at index 2 is 3× the bound\)"):
        verdict("max error", [0.0, 1e-16, 3e-15], 1e-15)


def test_verdict_with_an_array_bound_and_its_text():
    values, bounds = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 3.0])
    assert verdict("e_i", values, bounds, bound_text="|m| theta_i u") == "e_i ≤ |m| theta_i u: yes"
    with pytest.raises(AssertionError, match="index 1"):
        verdict("e_i", values, np.array([1.0, 1.5, 3.0]), bound_text="|m| theta_i u")


def test_non_finite_values_never_pass():
    for bad in (np.nan, np.inf):
        with pytest.raises(AssertionError, match="non-finite value at index 1"):
            verdict("max error", [0.0, bad], 1.0)
        with pytest.raises(AssertionError, match="non-finite"):
            verdict_above("error of the wrong sign", [1.0, bad], 0.1)


def test_verdict_above_is_the_mirror_image():
    assert verdict_above("error of the wrong sign", [0.5, 2.0], 0.1) == "error of the wrong sign ≥ 0.1: yes"
    with pytest.raises(AssertionError, match="NO"):
        verdict_above("error of the wrong sign", [0.5, 0.01], 0.1)


def test_bad_arguments():
    with pytest.raises(ValueError, match="must not be empty"):
        verdict("x", [], 1.0)
    with pytest.raises(TypeError, match="what must be a non-empty str"):
        verdict("", [1.0], 1.0)
