"""The numeric identity checks: each holds within its derived rounding bound (ropemath.core.error_bounds,
appendix notebook 11) across d and positions |m|, |n| <= 1e6, and each can fail: fed a wrong matrix, or
measured against a bound that leaves out a term the derivation needs, it reports an excess."""

import numpy as np
import pytest

import ropemath.core.checks as checks
from ropemath.core.checks import (
    SURVEY_DIMS,
    composition_error,
    determinant_error,
    elementwise_error,
    norm_error,
    orthogonality_error,
    relative_position_error,
    survey,
    transpose_error,
)
from ropemath.core.error_bounds import (
    composition_error_bound,
    determinant_error_bound,
    elementwise_error_bound,
    norm_error_bound,
    orthogonality_error_bound,
    relative_position_error_bound,
    survey_bounds,
)

MAX_POSITION = 10**6  # the bounds below are for |m|, |n| <= MAX_POSITION
RNG_SEED = 2024


def cases(d, count=4):
    """Seeded q, k and integer positions m, n with |m|, |n| <= 1e6, both signs."""
    rng = np.random.default_rng(RNG_SEED + d)
    count = 1 if d == 4096 else count  # the dense 4096×4096 checks cost ~1 s each
    for _ in range(count):
        q, k = rng.standard_normal(d), rng.standard_normal(d)
        m, n = (float(v) for v in rng.integers(-10**6, 10**6 + 1, size=2))
        yield q, k, m, n
    yield q, k, -1e6, 1e6  # the extremes


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_relative_position_identity(d):
    for q, k, m, n in cases(d):
        assert relative_position_error(q, k, m, n) <= relative_position_error_bound(int(m), int(n), d)


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_orthogonality(d):
    assert max(orthogonality_error(m, d) for _, _, m, _ in cases(d)) <= orthogonality_error_bound()


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_determinant(d):
    assert max(determinant_error(m, d) for _, _, m, _ in cases(d)) <= determinant_error_bound(d)


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_norm_preservation(d):
    assert max(norm_error(q, m) for q, _, m, _ in cases(d)) <= norm_error_bound(d)


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_composition(d):
    for _, _, m, n in cases(d):
        assert composition_error(m, n, d) <= composition_error_bound(int(m), int(n), d)


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_transpose(d):
    assert max(transpose_error(m, d) for _, _, m, _ in cases(d)) == 0.0  # cos even, sin odd, fl(-x) = -fl(x)


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_elementwise_matches_dense(d, layout):
    assert max(elementwise_error(q, m, layout=layout) for q, _, m, _ in cases(d)) <= elementwise_error_bound()


def test_survey_reports_every_check_within_its_derived_bound():
    rows = survey((2, 8, 64), trials=2, max_position=MAX_POSITION)
    assert [row["d"] for row in rows] == [2, 8, 64]
    for row in rows:
        bounds = survey_bounds(row["d"], MAX_POSITION)
        assert all(row[key] <= bounds[key] for key in bounds), row


def test_one_matrix_bounds_are_tighter_than_the_old_tolerance_and_catch_a_regression():
    """The bounds are in units of u = 2^-53, not 1e-9: an error 1000x the measured one is caught."""
    u = 2.0**-53
    assert orthogonality_error_bound() < 16 * u and elementwise_error_bound() < 16 * u
    assert norm_error_bound(128) < 140 * u and determinant_error_bound(128) < 1200 * u
    worst = max(orthogonality_error(m, 128) for _, _, m, _ in cases(128))
    assert 1000 * max(worst, u) > orthogonality_error_bound()


def test_a_bound_without_its_d_term_is_exceeded():
    """Negative control: the determinant's error grows with d; a 16 u bound (no d term) is exceeded at d = 2048
    for some of 40 seeded positions, while the derived bound holds."""
    rng = np.random.default_rng(7)
    errors = [determinant_error(float(m), 2048) for m in rng.integers(-MAX_POSITION, MAX_POSITION + 1, size=40)]
    assert max(errors) > 16 * 2.0**-53
    assert max(errors) <= determinant_error_bound(2048)


# --- the checks can fail -----------------------------------------------------------------


def sheared(m, d, base=10000.0, *, layout="interleaved", theta=None):
    """A matrix that is not a rotation: R_m plus a shear that grows with m."""
    return np.eye(d) + 1e-3 * m * np.triu(np.ones((d, d)), 1)


def test_checks_detect_a_wrong_matrix(monkeypatch):
    monkeypatch.setattr(checks, "rotation_matrix", sheared)
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 8))
    assert relative_position_error(q, k, 3.0, 5.0) > 1e-3
    assert orthogonality_error(4.0, 8) > 1e-3
    assert composition_error(2.0, 3.0, 8) > 1e-5  # (I + aN)(I + bN) - (I + (a+b)N) = abN², about 3.6e-5 here
    assert transpose_error(2.0, 8) > 1e-3
    assert elementwise_error(q, 5.0) > 1e-3


def test_checks_detect_a_wrong_fast_path(monkeypatch):
    monkeypatch.setattr(checks, "apply_rope", lambda x, m, base=10000.0, layout="interleaved": 1.01 * x)
    x = np.random.default_rng(1).standard_normal(8)
    assert norm_error(x, 3.0) > 5e-3
    assert elementwise_error(x, 3.0) > 1e-3


def test_determinant_check_detects_a_reflection(monkeypatch):
    monkeypatch.setattr(checks, "rotation_matrix", lambda m, d, base=10000.0: np.diag([1.0] * (d - 1) + [-1.0]))
    assert determinant_error(1.0, 4) == pytest.approx(2.0)
