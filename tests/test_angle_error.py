"""Notebook 00's rounding statement: the float64 angle against the exact angle, with the rounding of θ̂_i counted.

The one-step bound |m| θ_i u (ropemath.angle_error_bound) is exceeded against the exact angle; the two-step
bound of ropemath.theory.angle_error is not, for power-of-two and other dimensions."""

import mpmath
import numpy as np
import pytest

from ropemath import angle_error_bound, angle_rounding_error, frequencies
from ropemath.theory.angle_error import exact_angle_error, two_step_angle_bound

U = 2.0**-53
POSITIONS = np.concatenate([np.arange(-200, 1501), [10**6, -(10**6), 999_999, 123_457]])


def frequency_relative_error(d, base=10000.0):
    """|theta_hat_i - theta_i| / theta_i for the float64 frequencies, against 160-bit mpmath."""
    with mpmath.workprec(160):
        exact = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d) for i in range(d // 2)]
        pairs = zip(frequencies(d, base), exact, strict=True)
        return np.array([float(abs(mpmath.mpf(float(t)) - e) / e) for t, e in pairs])


def test_frequency_error_is_small_but_not_zero():
    eps = frequency_relative_error(128)
    assert eps[0] == 0.0 and np.all(eps <= 2 * U) and np.any(eps > 0)
    # A non-power-of-two d also rounds the exponent -2i/d: still within the bound used below.
    d = 96
    assert np.all(frequency_relative_error(d) <= U * (2 + np.arange(0, d, 2) / d * np.log(10000.0)) * (1 + 2.0**-40))


@pytest.mark.parametrize("d", [8, 64, 96, 128])
def test_two_step_bound_holds_and_one_step_bound_does_not(d):
    measured = exact_angle_error(POSITIONS, d)
    assert np.all(measured <= two_step_angle_bound(POSITIONS, d))
    # The one-step bound compares with m * theta_hat, so it misses |m| |theta_hat - theta|: exceeded here.
    assert np.max(measured - angle_error_bound(POSITIONS, d)) > 0


def test_one_step_bound_is_right_about_what_it_measures():
    # Against m * theta_hat (not the exact angle) the one-step bound holds: the two statements differ in their target.
    m = np.arange(-200, 1501)
    assert np.all(angle_rounding_error(m, 16) <= angle_error_bound(m, 16))


def test_exact_error_matches_a_direct_computation():
    m, d = 12345, 8
    theta = frequencies(d)
    with mpmath.workprec(200):
        direct = [float(abs(mpmath.mpf(float(m * t)) - m * mpmath.power(10000, mpmath.mpf(-2 * i) / d)))
                  for i, t in enumerate(theta)]
    assert exact_angle_error(m, d).tolist() == direct


def test_a_wrong_bound_is_caught():
    # Dropping the 3 + (2i/d) ln base factor (the one-step bound) fails on the same data: the check can say no.
    measured = exact_angle_error(POSITIONS, 64)
    too_small = two_step_angle_bound(POSITIONS, 64) / (3.0 + np.arange(0, 64, 2) / 64 * np.log(10000.0))
    assert np.any(measured > too_small)
