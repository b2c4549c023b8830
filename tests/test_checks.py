"""The numeric identity checks: each holds to 1e-9 (relative to |q||k|) across d and positions,
and each can fail: fed a wrong matrix, it reports a large error."""

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

TOL = 1e-9
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
    assert max(relative_position_error(q, k, m, n) for q, k, m, n in cases(d)) <= TOL


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_orthogonality(d):
    assert max(orthogonality_error(m, d) for _, _, m, _ in cases(d)) <= TOL


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_determinant(d):
    assert max(determinant_error(m, d) for _, _, m, _ in cases(d)) <= TOL


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_norm_preservation(d):
    assert max(norm_error(q, m) for q, _, m, _ in cases(d)) <= TOL


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_composition(d):
    assert max(composition_error(m, n, d) for _, _, m, n in cases(d)) <= TOL


@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_transpose(d):
    assert max(transpose_error(m, d) for _, _, m, _ in cases(d)) <= TOL


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("d", SURVEY_DIMS)
def test_elementwise_matches_dense(d, layout):
    assert max(elementwise_error(q, m, layout=layout) for q, _, m, _ in cases(d)) <= TOL


def test_survey_reports_every_check_below_tolerance():
    rows = survey((2, 8, 64), trials=2)
    assert [row["d"] for row in rows] == [2, 8, 64]
    assert all(value <= TOL for row in rows for key, value in row.items() if key != "d")


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
