"""Derived rounding bounds (ropemath.core.error_bounds): they hold on the sweep of notebooks 03/11, with and
without FMA, each with a deliberately wrong variant that the same measurement rejects; the cos/sin accuracy
they assume, measured against 50-digit arithmetic; the float32 measurements of notebooks 04 and 11."""

import os
import subprocess
import sys

import mpmath
import numpy as np
import pytest

from ropemath import angles, apply_rope, error_vs_position, rotation_matrix
from ropemath.core.error_bounds import (
    complex_rotation_bound,
    composition_error_bound,
    pair_relative_error,
    relative_position_error_bound,
    two_product_rope,
    two_product_ulp_bound,
    ulp_errors,
)

U = 2.0**-53


def sweep_positions():
    """The sweep of notebooks 03 and 11: 25 log-spaced magnitudes 1..1e6 (rounded, unique), both signs."""
    mags = np.unique(np.round(np.logspace(0, 6, 25)).astype(int))
    return np.concatenate([mags, -mags])


@pytest.fixture(scope="module")
def sweep():
    m = sweep_positions()
    return m, error_vs_position(m, d=128, base=10000.0, r=5, seed=0)


def test_composition_and_relative_position_within_derived_bounds(sweep):
    m, out = sweep
    comp = np.array([composition_error_bound(int(p), int(p) - 5, 128) for p in m])
    rel = np.array([relative_position_error_bound(int(p), int(p) - 5, 128) for p in m])
    assert np.all(out["composition"] <= comp)
    assert np.all(out["relative_position"] <= rel)


def test_a_bound_without_the_angle_term_is_exceeded(sweep):
    """Negative control: drop the separately rounded angles from the bound and the measurement says no."""
    m, out = sweep
    rounding_only = np.array([composition_error_bound(0, 0, 128) for _ in m])  # angle term is 0 at m = n = 0
    assert np.any(out["composition"] > rounding_only)
    assert np.any(out["relative_position"] > np.array([relative_position_error_bound(0, 0, 128) for _ in m]))


def test_far_out_composition_bound_is_about_four_m_u():
    b = composition_error_bound(10**6, 10**6 - 5, 128)
    assert 3.99 * 10**6 * U < b < 4.01 * 10**6 * U
    assert composition_error_bound(1, -4, 128) == pytest.approx((1 + 4 + 3) * U + composition_error_bound(0, 0, 128))


NO_FMA = """
import numpy as np
from ropemath import error_vs_position
from ropemath.core.error_bounds import composition_error_bound, relative_position_error_bound
mags = np.unique(np.round(np.logspace(0, 6, 25)).astype(int)); m = np.concatenate([mags, -mags])
out = error_vs_position(m, d=128, base=10000.0, r=5, seed=0)
ok = all(out["composition"][j] <= composition_error_bound(int(p), int(p) - 5, 128)
         and out["relative_position"][j] <= relative_position_error_bound(int(p), int(p) - 5, 128)
         for j, p in enumerate(m))
print("ok" if ok else "exceeded")
"""


def test_bounds_hold_without_fma_and_avx2():
    """The configuration of tools/portability.sh (a): numpy's baseline kernels, OpenBLAS Nehalem, libm off FMA."""
    from numpy._core._multiarray_umath import __cpu_dispatch__ as dispatch
    from numpy._core._multiarray_umath import __cpu_features__ as have

    off = " ".join(n for n in ("X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR") if n in dispatch and have.get(n))
    env = dict(os.environ, OPENBLAS_CORETYPE="Nehalem", GLIBC_TUNABLES="glibc.cpu.hwcaps=-AVX2,-FMA")
    if off:
        env["NPY_DISABLE_CPU_FEATURES"] = off
    done = subprocess.run([sys.executable, "-c", NO_FMA], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_cos_sin_within_the_assumed_four_ulps():
    """The bounds assume numpy's float64 cos/sin within 4 units of 2^-53; measured against mpmath at 50 digits."""
    rng = np.random.default_rng(0)
    phi = np.concatenate([angles(rng.integers(-10**6, 10**6, 200), 128).ravel(), rng.uniform(-10, 10, 2000)])
    mpmath.mp.dps = 50
    worst = 0.0
    for values, fn in [(np.cos(phi), mpmath.cos), (np.sin(phi), mpmath.sin)]:
        for a, v in zip(phi.tolist(), values.tolist(), strict=True):
            worst = max(worst, abs(float(mpmath.mpf(v) - fn(mpmath.mpf(a)))))
    assert worst <= 4 * U
    assert worst > 0  # the measurement can see an error at all


def test_complex_view_pairs_within_complex_rotation_bound():
    """Notebook 04, section 3: like with like, each pair's error relative to that pair, against a relative bound."""
    rng = np.random.default_rng(6)
    x = rng.standard_normal((64, 8)).astype(np.float32)
    m = np.arange(64) * 997
    e = np.exp(1j * angles(m, 8)).astype(np.complex64)
    y = (x.view(np.complex64) * e).view(np.float32)
    dense = np.stack([rotation_matrix(mi, 8) @ xi.astype(np.float64) for mi, xi in zip(m, x, strict=True)])
    err = pair_relative_error(y, dense, x)
    assert err.shape == (64, 4)
    assert np.all(err <= complex_rotation_bound())
    wrong = (x.view(np.complex64) * np.conj(e)).view(np.float32)  # rotated the wrong way
    assert np.max(pair_relative_error(wrong, dense, x)) > 1e3 * complex_rotation_bound()


def test_pair_relative_error_is_relative():
    x = np.array([0.0, 5.0, 1e-3, 0.0])
    err = pair_relative_error(x + np.array([0.0, 0.5, 1e-4, 0.0]), x, x)
    np.testing.assert_allclose(err, [0.1, 0.1])
    with pytest.raises(ValueError, match="one shape"):
        pair_relative_error(np.ones((2, 4)), np.ones(4), np.ones(4))


def test_two_product_formula_and_apply_rope_within_derived_ulp_bound():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((512, 128)).astype(np.float32)
    m = np.arange(512)
    for y in (apply_rope(x, m, layout="interleaved", base=10000.0), two_product_rope(x, m)):
        assert y.dtype == np.float32
        errors = ulp_errors(y, x, m)
        assert np.max(errors) <= two_product_ulp_bound()
        assert np.mean(errors) <= 0.5
    # negative control: float32 angles instead of float64 ones are far outside the bound
    wrong = two_product_rope(x, (m + 10**5).astype(np.float32).astype(np.float64) + 0.5)
    assert np.max(ulp_errors(wrong, x, m + 10**5)) > 100


def test_two_product_rope_matches_dense_in_float64():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 16))
    m = np.array([0, 1, -7, 4095, 10**6])
    got = two_product_rope(x, m)
    want = np.stack([rotation_matrix(mi, 16) @ xi for mi, xi in zip(m, x, strict=True)])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)


def test_bad_input():
    with pytest.raises(TypeError, match="^m must be an integer"):
        composition_error_bound(1.5, 0, 8)
    with pytest.raises(ValueError, match="^trig_ulps must be"):
        relative_position_error_bound(1, 0, 8, trig_ulps=-1)
    with pytest.raises(ValueError, match="^d must be"):
        composition_error_bound(1, 0, 7)


def test_one_matrix_bounds_by_hand_and_their_growth_with_d():
    """The one-matrix bounds, recomputed here from their formulas with t = 4u; det and norm grow with d."""
    from ropemath.core.error_bounds import (
        determinant_error_bound,
        elementwise_error_bound,
        norm_error_bound,
        orthogonality_error_bound,
    )

    t, g2 = 4 * U, 2 * U / (1 - 2 * U)
    assert orthogonality_error_bound() == pytest.approx(2 * 2**0.5 * t + 2 * t * t + g2 * (1 + 2**0.5 * t) ** 2)
    assert elementwise_error_bound() == pytest.approx((2 * 2**0.5 * t + 2 * g2 * (1 + 2**0.5 * t)) * (1 + U))
    assert norm_error_bound(4096) == pytest.approx((4096 + 11.5) * U, rel=1e-3)
    assert 8.5 * 128 * U < determinant_error_bound(128) < 9.5 * 128 * U
    assert determinant_error_bound(2048) > 15 * determinant_error_bound(128)  # about linear in d
    assert orthogonality_error_bound(trig_ulps=0) < orthogonality_error_bound()


def test_off_diagonal_of_rt_r_is_zero_or_one_product_rounding():
    """Off-diagonal entries of R^T R are c(-s) + s c: 0 without FMA, the rounding error of c s (at most u/2) with it."""
    R = rotation_matrix(123456, 128)
    gram = R.T @ R
    off = np.abs(gram - np.diag(np.diag(gram)))
    assert np.max(off) <= U / 2
    sheared = R + 1e-13 * np.triu(np.ones((128, 128)), 1)  # negative control: not a rotation
    gram_bad = sheared.T @ sheared
    assert np.max(np.abs(gram_bad - np.diag(np.diag(gram_bad)))) > U / 2


@pytest.mark.parametrize("kwargs", [{"trig_ulps": -1.0}, {"trig_ulps": True}, {"log_ulps": "1"}, {"exp_ulps": 1e9}])
def test_determinant_bound_rejects_bad_input(kwargs):
    from ropemath.core.error_bounds import determinant_error_bound

    with pytest.raises(ValueError, match=r"^(trig_ulps|log_ulps|exp_ulps) must be a number in \[0, 1e6\]"):
        determinant_error_bound(8, **kwargs)
    with pytest.raises((ValueError, TypeError), match=r"^d "):
        determinant_error_bound(7)
