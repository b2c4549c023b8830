"""The speed path of the kernels (issue #13 item 6): the split table e^{i m θ} = e^{i K m_hi θ} e^{i m_lo θ}
of float32 rotations, its error against a high-precision reference (with wrong splits as negative
controls), bit-for-bit agreement of every way the table is built and of apply_rope with RopeCache,
and the input-side finiteness check of the kernels."""

import mpmath
import numpy as np
import pytest
from test_apply_fast import dense

from ropemath import RopeCache, apply_rope, to_half
from ropemath.core.outputs import new_output as _empty
from ropemath.core.rotation import frequencies
from ropemath.core.tables import _SPLIT, _factorised, _unit_rows, _unit_table

EPS = 2.0**-52  # float64 machine epsilon
C64, C128 = np.dtype(np.complex64), np.dtype(np.complex128)

#: position ranges of the error tests: the bench's, negative, far out, and beyond float32's integers
RANGES = {
    "0..4095": (0, 4096),
    "-4096..-1": (-4096, 0),
    "10^6..": (10**6, 10**6 + 4096),
    "2^40..": (2**40, 2**40 + 4096),
}


def _exact(angle_terms):
    """e^{i Σ angle_terms} with the float64 terms summed exactly (mpmath, 40 digits), as a Python complex."""
    with mpmath.workdps(40):
        a = mpmath.fsum(mpmath.mpf(float(t)) for t in angle_terms)
        return complex(mpmath.cos(a), mpmath.sin(a))


def _split_angles(m, theta_i, k_hi):
    """The two float64 angles of the split (hi angle with multiplier k_hi; K for the real split)."""
    hi = np.floor(m / _SPLIT)
    lo = m - hi * _SPLIT
    return (hi * k_hi) * theta_i, lo * theta_i


def _wrong_split(m, theta, k_hi):
    """A deliberately wrong table: the hi factor uses k_hi instead of K (for the negative controls)."""
    hi = np.floor(m / _SPLIT)
    lo = m - hi * _SPLIT
    return _unit_rows((hi * k_hi)[:, None] * theta) * _unit_rows(lo[:, None] * theta)


def _bound(m, theta_i):
    """The documented bound of _factorised: 4ε + ε(|m| + K)θ_i."""
    return 4 * EPS + EPS * (abs(m) + _SPLIT) * theta_i


def _worst(table, m, theta, samples):
    """Largest error / bound over the sampled entries, for the three documented checks:
    'exact' |T - e^{imθ}| <= 4ε + ε(|m|+K)θ; 'trig' |T - e^{i(fl(K m_hi θ) + fl(m_lo θ))}| <= 4ε
    (cos/sin and the product alone); 'direct' |T - (cos + i sin)(fl(mθ))| <= 2(4ε + ε(|m|+K)θ)."""
    direct = _unit_rows(m[:, None] * theta)
    worst = {"exact": 0.0, "trig": 0.0, "direct": 0.0}
    for r, i in samples:
        t, mv, th = complex(table[r, i]), float(m[r]), float(theta[i])
        worst["exact"] = max(worst["exact"], abs(t - _exact([mv * mpmath.mpf(th)])) / _bound(mv, th))
        worst["trig"] = max(worst["trig"], abs(t - _exact(_split_angles(mv, th, _SPLIT))) / (4 * EPS))
        worst["direct"] = max(worst["direct"], abs(t - complex(direct[r, i])) / (2 * _bound(mv, th)))
    return worst


def _samples(m, h, rng, count=150):
    """Sampled (row, pair) entries: random ones plus the last row (largest |angle| for m >= 0) and the
    first (largest for m < 0), at the fastest and the slowest frequency."""
    rows = rng.integers(0, m.size, count)
    cols = rng.integers(0, h, count)
    edges = [(0, 0), (0, h - 1), (m.size - 1, 0), (m.size - 1, h - 1)]
    return edges + list(zip(rows.tolist(), cols.tolist(), strict=True))


@pytest.mark.parametrize("name", list(RANGES))
@pytest.mark.parametrize("theta_kind", ["base 1e4", "base 5e5, scaled by 1/8"])
def test_split_table_error_is_within_the_documented_bounds(name, theta_kind):
    rng = np.random.default_rng(60)  # seed 60
    theta = frequencies(128, 1e4) if theta_kind == "base 1e4" else frequencies(128, 5e5) / 8
    m = np.arange(*RANGES[name], dtype=np.float64)
    table = _factorised(m, theta, C128)
    worst = _worst(table, m, theta, _samples(m, theta.size, rng))
    assert worst["exact"] <= 1.0 and worst["trig"] <= 1.0 and worst["direct"] <= 1.0, worst


@pytest.mark.parametrize("k_hi", [_SPLIT + 1, _SPLIT - 1])
def test_a_wrong_split_fails_the_same_checks(k_hi):
    """Negative controls: m_hi·(K±1) instead of m_hi·K puts the angle off by m_hi·θ, far above every bound."""
    rng = np.random.default_rng(61)  # seed 61
    theta = frequencies(128, 1e4)
    m = np.arange(0, 4096, dtype=np.float64)
    worst = _worst(_wrong_split(m, theta, k_hi), m, theta, _samples(m, theta.size, rng))
    assert worst["exact"] > 1e6 and worst["trig"] > 1e6 and worst["direct"] > 1e6, worst


def test_float32_angles_fail_the_exact_bound():
    """Second negative control, a classic precision bug: angles formed in float32."""
    rng = np.random.default_rng(62)  # seed 62
    theta = frequencies(128, 1e4)
    m = np.arange(0, 4096, dtype=np.float64)
    wrong = _unit_rows((m[:, None].astype(np.float32) * theta.astype(np.float32)).astype(np.float64))
    assert _worst(wrong, m, theta, _samples(m, theta.size, rng))["exact"] > 1e3


@pytest.mark.parametrize("d, base, positions", [(128, 1e4, 4096), (64, 1e4, 4096), (128, 5e5, 131072)])
def test_float32_tables_match_the_direct_ones_after_rounding(d, base, positions):
    """Rounded to complex64 the split table equals the direct one except near a float32 rounding
    boundary; there the two differ by at most the float64 difference plus one float32 rounding."""
    theta = frequencies(d, base)
    m = np.arange(positions, dtype=np.float64)
    split = _unit_table(m, theta, C64).view(np.float32).astype(np.float64)
    direct = _unit_rows(m[:, None] * theta).astype(C64).view(np.float32).astype(np.float64)
    bound = 2 * np.repeat(_bound(m[:, None], theta), 2, axis=-1)
    spacing = np.spacing(np.maximum(np.abs(split), np.abs(direct)).astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(split - direct) <= bound + spacing)
    differ = np.mean(split != direct)
    assert differ <= (0 if positions <= 4096 else 1e-4), differ


@pytest.mark.parametrize("d", [2, 6, 128, 130])
@pytest.mark.parametrize("ctype", [C64, C128])
def test_every_way_of_building_a_row_gives_the_same_bits(d, ctype):
    """Consecutive positions (a slice), a dense gather, sparse or few positions (their own factors)
    and single positions: each entry depends only on (m, θ_i) — which is what lets apply_rope and
    RopeCache agree bit for bit.  Compared as raw bytes (signed zeros included)."""
    rng = np.random.default_rng(63)  # seed 63
    theta = frequencies(d, 1e4)
    reference_m = np.arange(-300, 5000, dtype=np.float64)
    reference = _factorised(reference_m, theta, ctype)
    cases = {
        "consecutive from 37": np.arange(37, 4133, dtype=np.float64),
        "consecutive, short": np.arange(5, 20, dtype=np.float64),
        "dense shuffled": rng.permutation(np.arange(4096)).astype(np.float64),
        "sparse": rng.choice(np.arange(-300, 5000), 200, replace=False).astype(np.float64),
        "one position": np.array([4095.0]),
        "negative": np.arange(-300, 0, dtype=np.float64),
    }
    for name, m in cases.items():
        got = _factorised(m, theta, ctype)
        expected = reference[(m - reference_m[0]).astype(np.intp)]
        assert got.tobytes() == expected.tobytes(), name


def test_fractional_positions_are_evaluated_directly_and_mixed_arrays_entry_by_entry():
    theta = frequencies(16, 1e4)
    m = np.array([0.5, 3.0, 7.25, 4095.0, -2.0, 1e6 + 0.5])
    table = _unit_table(m, theta, C64)
    for r, mr in enumerate(m):
        if mr == np.floor(mr):
            expected = _factorised(np.array([mr]), theta, C64)[0]
        else:
            expected = _unit_rows(mr * theta).astype(C64)
        assert table[r].tobytes() == expected.tobytes(), mr
        assert table[r].tobytes() == _unit_table(np.array(mr), theta, C64).tobytes(), mr
    # float64 (and float16) vectors keep the direct angles everywhere
    assert _unit_table(m, theta, C128).tobytes() == _unit_rows(m[:, None] * theta).tobytes()


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize(
    "m_kind", ["0..4095", "from 900", "shuffled", "(H, P) per head", "(H, 1)", "scalar", "as floats"]
)
def test_apply_rope_equals_rope_cache_bit_for_bit_in_float32(layout, m_kind):
    """At the bench's sizes of positions (several blocks of the kernels, the split's dense path)."""
    rng = np.random.default_rng(64)  # seed 64
    x = rng.standard_normal((4, 2048, 64)).astype(np.float32)
    m = {
        "0..4095": np.arange(2048),
        "from 900": np.arange(900, 2948),
        "shuffled": rng.permutation(4096)[:2048],
        "(H, P) per head": rng.integers(0, 4096, (4, 2048)),
        "(H, 1)": rng.integers(0, 4096, (4, 1)),
        "scalar": 4095,
        "as floats": np.arange(2048),
    }[m_kind]
    theta = frequencies(64, 5e5) / 4  # a scaled scheme passes theta= (issue #13)
    cache = RopeCache(64, max_position=4096, theta=theta)
    expected = cache.apply(x, m, layout=layout)
    got = apply_rope(x, np.asarray(m, dtype=np.float64) if m_kind == "as floats" else m, theta=theta, layout=layout)
    assert got.tobytes() == expected.tobytes()
    out = np.empty_like(x)
    assert cache.apply(x, m, layout=layout, out=out).tobytes() == expected.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_layouts_still_agree_bit_for_bit_at_bench_like_sizes(dtype):
    rng = np.random.default_rng(65)  # seed 65
    x = rng.standard_normal((3, 3000, 128)).astype(dtype)
    m = np.arange(3000)
    np.testing.assert_array_equal(
        apply_rope(to_half(x), m, layout="half"), to_half(apply_rope(x, m, layout="interleaved"))
    )


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_large_finite_inputs_pass_and_non_finite_ones_fail_in_any_block(layout, dtype):
    """The kernels skip looking at a result block when the input block's sum of squares is finite;
    a sum that overflows for large finite entries must fall back to checking the result (which is
    finite), and a NaN/inf in any block (first, middle, last) must still be reported."""
    rng = np.random.default_rng(66)  # seed 66
    big = np.sqrt(np.finfo(dtype).max)  # squares overflow the sum, rotated values stay finite
    x = rng.standard_normal((3, 4096, 64)).astype(dtype)
    m = np.arange(4096)
    cache = RopeCache(64, max_position=4096)
    x[1, 2000] *= big
    for got in (apply_rope(x, m, layout=layout), cache.apply(x, m, layout=layout)):
        assert np.all(np.isfinite(got))
        expected = dense(x[1, 2000:2001], m[2000:2001], layout)
        assert np.allclose(got[1, 2000:2001], expected, rtol=1e-5, atol=0)
    for index in [(0, 0, 0), (1, 3000, 17), (2, 4095, 63)]:
        bad = x.copy()
        bad[index] = np.nan
        with pytest.raises(ValueError, match=r"^x must contain only finite values"):
            apply_rope(bad, m, layout=layout)
        with pytest.raises(ValueError, match=r"^x must contain only finite values"):
            cache.apply(bad, m, layout=layout)
    strided = np.repeat(x, 2, axis=1)[:, ::2]  # non-contiguous blocks: the result is checked instead
    strided[2, 4095, 0] = np.inf
    with pytest.raises(ValueError, match=r"^x must contain only finite values"):
        apply_rope(strided, m, layout=layout)


def test_overflowing_angles_are_still_reported():
    """A non-finite table (angles beyond float64) must not be trusted as a table of rotations."""
    x = np.ones((2, 4), dtype=np.float32)
    with pytest.raises(ValueError, match=r"not finite"):
        apply_rope(x, [1e308, 1.7e308], theta=[1e10, 1e9], layout="interleaved")


@pytest.mark.parametrize("shape", [(0,), (3,), (1024, 1024), (5, 1000, 128)])
def test_new_arrays_are_faulted_in_without_changing_what_is_computed(shape):
    out = _empty(shape, np.dtype(np.float32))
    assert out.shape == shape and out.dtype == np.float32 and out.flags.c_contiguous
    if len(shape) == 3:  # > 2 MiB: the result must overwrite every byte written while faulting in
        x = np.random.default_rng(67).standard_normal(shape).astype(np.float32)  # seed 67
        y = apply_rope(x, np.arange(shape[1]), layout="interleaved")
        np.testing.assert_allclose(y[:, :3], dense(x[:, :3], np.arange(3), "interleaved"), rtol=0, atol=1e-5)
        assert np.count_nonzero(y == 0) == np.count_nonzero(x == 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_layouts_agree_byte_for_byte_with_signed_zeros(dtype):
    """The half kernel gathers a pair (float64: a + 0i, then b over the imaginary part; float32: b as
    bits into the shifted integer view, then a) and scatters it (float32: truncating integer casts):
    the complex number it multiplies has exactly the bits of (a, b), and the result goes out as it
    came, signed zeros included (assert_array_equal would not see a lost sign of zero, so the bytes
    are compared)."""
    rng = np.random.default_rng(68)  # seed 68
    x = rng.standard_normal((2, 300, 16)).astype(dtype)
    x[rng.random(x.shape) < 0.3] = 0.0
    x[rng.random(x.shape) < 0.3] = -0.0
    m = np.concatenate([[0, 0], rng.integers(0, 4096, 298)])
    assert np.signbit(x[x == 0]).any() and not np.signbit(x[x == 0]).all()
    half = apply_rope(to_half(x), m, layout="half")
    assert half.tobytes() == to_half(apply_rope(x, m, layout="interleaved")).tobytes()
    cache = RopeCache(16, max_position=4096)
    assert cache.apply(to_half(x), m, layout="half").tobytes() == half.tobytes()


@pytest.mark.parametrize("shape", [(3, 2), (2, 300, 16), (4, 2048, 128), (1, 7, 130)])
def test_float32_half_kernel_moves_bits_like_the_float_copies(shape, monkeypatch):
    """Without the compiled mover (tests/test_pairs.py), on a little-endian machine float32 pairs are
    moved as 64/32-bit integers; the float copies (what a big-endian machine runs) must give the same
    bytes.  The integer path must really be the one taken here (else this compares a path with itself:
    the compiled mover is switched off for both runs), and flipping the sign of one second coordinate
    changes the bytes (the comparison can say no)."""
    import sys

    from ropemath.core import kernels

    if sys.byteorder != "little":
        pytest.skip("the integer path runs on little-endian machines only")
    monkeypatch.setattr(kernels, "_pairs", None)
    rng = np.random.default_rng(69)  # seed 69
    x = rng.standard_normal(shape).astype(np.float32)
    x[rng.random(shape) < 0.1] = -0.0
    m = rng.integers(0, 4096, shape[:-1])
    bits = apply_rope(x, m, layout="half")
    monkeypatch.setattr(kernels, "sys", type("big", (), {"byteorder": "big"}))
    floats = apply_rope(x, m, layout="half")
    assert bits.tobytes() == floats.tobytes()
    flipped = x.copy()  # negative control: one second coordinate b_k with its sign flipped
    flipped[(0,) * (len(shape) - 1) + (shape[-1] - 1,)] *= -1
    assert apply_rope(flipped, m, layout="half").tobytes() != floats.tobytes()
    monkeypatch.setattr(kernels, "sys", sys)
    assert apply_rope(flipped, m, layout="half").tobytes() != bits.tobytes()
