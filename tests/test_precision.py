"""bfloat16 emulation, low-precision angles and their consequences, against independent constructions:
hand-derived bit patterns, Python's frexp/round (round-half-even) for bfloat16, numpy's native float32
arithmetic, complex numbers for scores.

Notebook 07 states the numbers pinned here (same seeds, same draws)."""

import cmath
import math

import numpy as np
import pytest

from ropemath import (
    angles_in_format,
    apply_rope,
    frequencies,
    largest_distinct_integer,
    phase_error,
    rotation_matrix,
    round_to_format,
    shift_error_in_format,
    to_bfloat16,
)

# --- independent constructions ----------------------------------------------------------------


def bf16_reference(v: float) -> float:
    """Nearest number with 8 significant bits, ties to even (Python's round), for normal-range v."""
    if v == 0.0:
        return v
    mant, exp = math.frexp(v)  # v = mant * 2**exp with 0.5 <= |mant| < 1
    return math.ldexp(round(math.ldexp(mant, 8)), exp - 8)


def bits(value: float) -> int:
    return int(np.array(value, dtype=np.float32).view(np.uint32))


def from_bits(pattern: int) -> np.float32:
    return np.array(pattern, dtype=np.uint32).view(np.float32)[()]


def reference_angles(m, theta, fmt):
    """fl(fl(m) * fl(theta)) with numpy float32 arithmetic or bf16_reference; float64 as is."""
    if fmt == "float64":
        return m * theta
    if fmt == "float32":
        return float(np.float32(m) * np.float32(theta))  # native IEEE float32 multiplication
    t = bf16_reference(float(np.float32(theta)))  # a float32 inv_freq cast to bfloat16
    return bf16_reference(float(np.float32(bf16_reference(float(m)) * t)))


def wrapped(diff):
    return abs((diff + math.pi) % (2 * math.pi) - math.pi)


# --- to_bfloat16 -------------------------------------------------------------------------------

# (float32 bits, bfloat16 bits), derived by hand: keep the upper 16 bits, round the lower 16 to nearest,
# a lower half of exactly 0x8000 is a tie that goes to the even upper half.
HAND_PATTERNS = [
    (0x43808000, 0x4380),  # 257 = 2^8 (1 + 2^-8): tie, 0x4380 even -> 256
    (0x43818000, 0x4382),  # 259 = 2^8 (1 + 3 * 2^-8): tie, 0x4381 odd -> up to 260
    (0x437F8000, 0x4380),  # 255.5: tie, 0x437F odd -> carry into the exponent: 256
    (0x3EAAAAAB, 0x3EAB),  # 1/3: lower 0xAAAB > 0x8000 -> up: 171/512
    (0xBEAAAAAB, 0xBEAB),  # -1/3: same magnitude, sign kept
    (0x3DCCCCCD, 0x3DCD),  # 0.1: lower 0xCCCD > 0x8000 -> up: 205/2048
    (0x3F808000, 0x3F80),  # 1 + 2^-8: tie, even -> 1
    (0x3F808001, 0x3F81),  # just above the tie -> up
    (0x3F807FFF, 0x3F80),  # just below the tie -> down
    (0x7F7F7FFF, 0x7F7F),  # just below half an ulp above the largest bf16 -> largest bf16
    (0x7F7FFFFF, 0x7F80),  # float32 max rounds past the largest bf16 -> +inf
    (0x7F800000, 0x7F80),  # +inf stays
    (0xFF800000, 0xFF80),  # -inf stays
    (0x80000000, 0x8000),  # -0 stays -0
    (0x00000001, 0x0000),  # smallest subnormal -> +0
    (0x00008000, 0x0000),  # subnormal tie, even -> 0
    (0x00018000, 0x0002),  # subnormal tie, odd -> up
]


@pytest.mark.parametrize("pattern, expected", HAND_PATTERNS, ids=[f"{p:#010x}" for p, _ in HAND_PATTERNS])
def test_to_bfloat16_hand_bit_patterns(pattern, expected):
    y = to_bfloat16(from_bits(pattern))
    assert y.dtype == np.float32
    assert int(y.view(np.uint32)) == expected << 16


def test_to_bfloat16_known_values():
    # the notebook's table: values derived by hand from the patterns above
    assert float(to_bfloat16(257.0)) == 256.0
    assert float(to_bfloat16(259.0)) == 260.0
    assert float(to_bfloat16(255.5)) == 256.0
    assert float(to_bfloat16(1 / 3)) == 171 / 512 == 0.333984375
    assert float(to_bfloat16(-1 / 3)) == -0.333984375
    assert float(to_bfloat16(0.1)) == 205 / 2048 == 0.10009765625
    assert float(to_bfloat16(1 + 2**-8)) == 1.0
    assert to_bfloat16([1.0, -2.0, 3]).tolist() == [1.0, -2.0, 3.0]


def test_to_bfloat16_nan_stays_nan():
    # the bit trick alone would turn 0x7FFFFFFF (a NaN) into 0x80000000 = -0.0
    for pattern in (0x7FC00000, 0x7FFFFFFF, 0xFFC00001, 0x7F800001):
        assert np.isnan(to_bfloat16(from_bits(pattern)))


def test_to_bfloat16_is_nearest_ties_to_even():
    """Random float32 values (and constructed ties) in the normal range vs frexp/round."""
    rng = np.random.default_rng(0)
    patterns = rng.integers(0x00800000, 0x7F7F0000, size=20_000, dtype=np.uint64)
    patterns = np.concatenate([patterns, (patterns[:2000] & 0xFFFF0000) | 0x8000])  # exact ties
    patterns = np.concatenate([patterns, patterns | 0x80000000])  # negatives
    values = patterns.astype(np.uint32).view(np.float32)
    got = to_bfloat16(values)
    expected = np.array([bf16_reference(float(v)) for v in values])
    np.testing.assert_array_equal(got.astype(np.float64), expected)


def test_bfloat16_values_are_fixed_points():
    upper = np.arange(2**16, dtype=np.uint64) << 16
    values = upper.astype(np.uint32).view(np.float32)
    finite = np.isfinite(values)
    np.testing.assert_array_equal(to_bfloat16(values[finite]).view(np.uint32), values[finite].view(np.uint32))


def test_to_bfloat16_float64_input_is_rounded_through_float32():
    # 1 + 2^-8 + 2^-30: float32 rounds it to 1 + 2^-8 (a bf16 tie) -> 1.0; direct rounding would give 1 + 2^-7
    assert float(to_bfloat16(1 + 2**-8 + 2**-30)) == 1.0
    assert float(to_bfloat16(1e39)) == math.inf  # beyond float32: +inf, and no warning


# --- round_to_format and largest_distinct_integer ----------------------------------------------


def test_round_to_format():
    x = np.random.default_rng(1).standard_normal(1000) * 1e4
    np.testing.assert_array_equal(round_to_format(x, "float64"), x)
    np.testing.assert_array_equal(round_to_format(x, "float32"), x.astype(np.float32).astype(np.float64))
    np.testing.assert_array_equal(round_to_format(x, "bfloat16"),
                                  [bf16_reference(float(np.float32(v))) for v in x])
    # the notebook: bfloat16 positions 254..260 (258 = 2^8 (1 + 2^-7) is exact; 257, 259 are ties)
    assert round_to_format(np.arange(254, 261), "bfloat16").tolist() == [254, 255, 256, 256, 258, 260, 260]
    assert round_to_format([10_000, 10_005], "bfloat16").tolist() == [9984.0, 9984.0]  # spacing 64: 156 * 64


def test_largest_distinct_integer():
    assert largest_distinct_integer("bfloat16") == 256
    assert largest_distinct_integer("float32") == 2**24 == 16_777_216
    assert largest_distinct_integer("float64") == 2**53
    # bfloat16, exhaustively with the independent rounding: 0..256 exact, 257 is not
    assert all(bf16_reference(float(n)) == n for n in range(257)) and bf16_reference(257.0) == 256.0
    # float32 with numpy's own arithmetic: n + 1 == n first at 2^24; every integer of [2^23, 2^24] exact
    one = np.float32(1)
    assert np.float32(2**24) + one == np.float32(2**24) and np.float32(2**24 - 1) + one == np.float32(2**24)
    block = np.arange(2**23, 2**24 + 1, dtype=np.int64)
    assert np.array_equal(block.astype(np.float32).astype(np.int64), block)
    # float64 with Python floats
    assert 2.0**53 + 1 == 2.0**53 and 2.0**53 - 1 + 1 == 2.0**53


# --- angles and phase errors -------------------------------------------------------------------


def test_phase_error_neox_1016_positions_collide():
    bf = angles_in_format([256, 257], 128, dtype="bfloat16")
    np.testing.assert_array_equal(bf[0], bf[1])  # identical angles: 257 is stored as 256
    f32 = angles_in_format([256, 257], 128, dtype="float32")
    assert np.abs(f32[1] - f32[0]).max() == 1.0  # theta_0 = 1: 257 - 256 exactly
    assert float(phase_error(257, 128, dtype="bfloat16")[0]) == 1.0


@pytest.mark.parametrize("fmt", ["float32", "bfloat16"])
def test_angles_in_format_match_independent_rounding(fmt):
    theta = frequencies(64)
    for m in [1, 255, 256, 257, 4097, 65_537, 1_000_003]:
        expected = [reference_angles(m, t, fmt) for t in theta]
        np.testing.assert_array_equal(angles_in_format(m, 64, dtype=fmt), expected)


def test_phase_error_bounds():
    """float32: position exact below 2^24, theta and product each rounded once -> |err| <= 2 u |m theta|."""
    m = np.array([3, 999, 123_457, 9_999_991])
    bound = 2 * 2.0**-24 * np.abs(m[:, None] * frequencies(128)) * (1 + 1e-6)
    assert np.all(phase_error(m, 128, dtype="float32") <= bound)
    assert np.all(phase_error(m, 128, dtype="float64") == 0.0)
    e = phase_error(np.arange(-2000, 2000), 16, dtype="bfloat16")
    assert e.min() >= 0.0 and e.max() <= math.pi


NOTEBOOK_PHASE_TABLE = {  # m: (float32, bfloat16) max_i phase error, as printed in notebook 07
    1: (2.97e-08, 1.22e-03),
    256: (7.61e-06, 3.13e-01),
    257: (1.01e-05, 1.00e00),
    2048: (6.09e-05, 2.51e00),
    4096: (1.22e-04, 2.62e00),
    8192: (2.44e-04, 2.97e00),
    32768: (9.74e-04, 3.08e00),
    131072: (3.90e-03, 3.08e00),
    1048576: (3.12e-02, 3.14e00),
}


def test_notebook_phase_error_table():
    theta = frequencies(128)
    for m, printed in NOTEBOOK_PHASE_TABLE.items():
        for fmt, value in zip(["float32", "bfloat16"], printed, strict=True):
            independent = max(wrapped(reference_angles(m, t, fmt) - m * t) for t in theta)
            assert float(phase_error(m, 128, dtype=fmt).max()) == pytest.approx(independent, rel=1e-9, abs=1e-15)
            assert f"{independent:.2e}" == f"{value:.2e}", (m, fmt)


def test_float32_phase_error_at_one_million_stated_in_notebook_04():
    """Notebook 04 prints the float32 phase error at m = 10^6, d = 128: 5.2e-02 rad, at pair 1.  By hand: theta_1 =
    10000^(-1/64) = 0.866 rounds to float32 with relative error <= 2^-24 (up to 0.05 rad after multiplying by 10^6),
    and the product 865,964 rounds to float32's spacing 2^-4 there (up to 0.031 rad more)."""
    theta = frequencies(128)
    errs = [wrapped(reference_angles(10**6, t, "float32") - 10**6 * t) for t in theta]
    assert f"{max(errs):.1e}" == "5.2e-02" and int(np.argmax(errs)) == 1
    assert max(errs) <= 10**6 * theta[1] * 2.0**-24 + 2.0**-5
    assert float(phase_error(10**6, 128, dtype="float32").max()) == pytest.approx(max(errs), rel=1e-9)


# --- shift invariance --------------------------------------------------------------------------


def complex_score(q, k, phi_q, phi_k):
    """(R q) . (R k) as Re sum_i z_q conj(z_k) e^{i (phi_q - phi_k)}, pairs read as complex numbers."""
    return sum((complex(q[2 * i], q[2 * i + 1]) * complex(k[2 * i], -k[2 * i + 1])
                * cmath.exp(1j * (phi_q[i] - phi_k[i]))).real for i in range(len(q) // 2))


NOTEBOOK_SHIFT_TABLE = {  # s: (float32, bfloat16) as printed in notebook 07 (m - n = 5, d = 128, seed 3)
    10: (8.5e-09, 6.0e-04),
    100: (3.6e-09, 9.5e-04),
    1000: (3.7e-07, 6.9e-02),
    10_000: (2.2e-06, 1.7e-03),
    100_000: (1.8e-05, 1.7e-03),
    1_000_000: (2.3e-04, 1.7e-03),
}


def test_notebook_shift_error_table():
    q, k = np.random.default_rng(3).standard_normal((2, 128))
    theta = frequencies(128)
    norm = np.linalg.norm(q) * np.linalg.norm(k)
    for s, printed in NOTEBOOK_SHIFT_TABLE.items():
        for fmt, value in zip(["float32", "bfloat16"], printed, strict=True):
            ang = {p: [reference_angles(p, t, fmt) for t in theta] for p in (5, 0, 5 + s, s)}
            independent = abs(complex_score(q, k, ang[5 + s], ang[s]) - complex_score(q, k, ang[5], ang[0])) / norm
            assert shift_error_in_format(q, k, 5, 0, s, dtype=fmt) == pytest.approx(independent, rel=1e-6)
            assert f"{independent:.1e}" == f"{value:.1e}", (s, fmt)
        assert shift_error_in_format(q, k, 5, 0, s, dtype="float64") < 1e-12
    assert shift_error_in_format(q, k, 5, 0, 0, dtype="bfloat16") == 0.0


def test_collapsed_bfloat16_positions_see_distance_zero():
    """From s = 10^4 the two positions share one bfloat16 number: the error is |score(5) - score(0)| with
    bfloat16 angles at the unshifted positions, whatever s is."""
    q, k = np.random.default_rng(3).standard_normal((2, 128))
    theta = frequencies(128)
    ang5, ang0 = ([reference_angles(p, t, "bfloat16") for t in theta] for p in (5, 0))
    expected = abs(float(q @ k) - complex_score(q, k, ang5, ang0)) / (np.linalg.norm(q) * np.linalg.norm(k))
    for s in (10_000, 100_000, 1_000_000):
        assert shift_error_in_format(q, k, 5, 0, s, dtype="bfloat16") == pytest.approx(expected, abs=1e-14)


def test_bfloat16_distance_seen_beyond_10_000_is_mostly_but_not_always_zero():
    """Notebook 07: positions s and s + 5 collapse to one bfloat16 number for the table's shifts 10^4, 10^5, 10^6,
    but not for every s >= 10^4: when a rounding boundary (midpoint between bfloat16 neighbours) lies in
    [s, s + 5) the distance seen is a whole gap, 64 below 2^14 = 16384 and 128 above.  By hand: the spacing is 64
    on [8192, 16384), 128 on [16384, 32768); s = 10012: 10012 -> 9984 (28 below the midpoint 10016), 10017 -> 10048.
    Counted over s = 10^4 .. 2*10^4 - 1 with the frexp/round construction (not ropemath)."""
    seen = [bf16_reference(float(s + 5)) - bf16_reference(float(s)) for s in range(10_000, 20_000)]
    counts = {gap: seen.count(gap) for gap in sorted(set(seen))}
    assert counts == {0.0: 9360, 64.0: 500, 128.0: 140}
    assert seen[12] == 64.0 and bf16_reference(10012.0) == 9984.0 and bf16_reference(10017.0) == 10048.0
    for s in (10_000, 100_000, 1_000_000):  # the shifts of the notebook's table
        assert bf16_reference(float(s + 5)) == bf16_reference(float(s))
    shifts = np.arange(10_000, 20_000)
    got = round_to_format(shifts + 5, "bfloat16") - round_to_format(shifts, "bfloat16")
    np.testing.assert_array_equal(got, seen)


# --- apply_rope keeps its angles in float64 ----------------------------------------------------


def test_apply_rope_keeps_float64_angles_for_float32_input():
    """Would fail if apply_rope formed m*theta in float32: at m = 1_000_003 that costs ~3e-3 of |x|."""
    x32 = np.random.default_rng(3).standard_normal(128).astype(np.float32)
    m = 1_000_003
    exact = rotation_matrix(m, 128) @ x32.astype(np.float64)
    scale = float(np.linalg.norm(x32.astype(np.float64)))
    phi32 = np.float32(m) * frequencies(128).astype(np.float32)  # what float32 angles would be
    c, s = np.cos(phi32), np.sin(phi32)
    with_f32_angles = np.empty(128, dtype=np.float32)
    with_f32_angles[0::2] = x32[0::2] * c - x32[1::2] * s
    with_f32_angles[1::2] = x32[0::2] * s + x32[1::2] * c
    got = apply_rope(x32, m, layout="interleaved", base=10000.0)
    assert got.dtype == np.float32
    err_apply = float(np.abs(got - exact).max()) / scale
    err_f32 = float(np.abs(with_f32_angles - exact).max()) / scale
    assert err_apply < 1e-7  # float32 rounding of the result only (notebook: 1.4e-08)
    assert err_f32 > 1e-3  # notebook: 3.3e-03
    assert f"{err_apply:.1e}" == "1.4e-08" and f"{err_f32:.1e}" == "3.3e-03"


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype, exc, msg", [
    ("float16", ValueError, r"^dtype must be one of \('float64', 'float32', 'bfloat16'\), got 'float16'$"),
    (np.float32, TypeError, r"^dtype must be one of \('float64', 'float32', 'bfloat16'\), got type"),
])
def test_bad_format(dtype, exc, msg):
    with pytest.raises(exc, match=msg):
        phase_error(1, 8, dtype=dtype)
    with pytest.raises(exc, match=msg):
        largest_distinct_integer(dtype)
    with pytest.raises(exc, match=msg):
        round_to_format(1.0, dtype)


@pytest.mark.parametrize("x", [True, "1.0", 1j, np.array([1 + 2j])])
def test_to_bfloat16_rejects_non_real(x):
    with pytest.raises(TypeError, match=r"^x must be a real number or an array of real numbers, got"):
        to_bfloat16(x)


def test_angles_in_format_rejects_bad_input():
    with pytest.raises(ValueError, match=r"^m must contain only finite values"):
        angles_in_format(np.inf, 8)
    with pytest.raises(ValueError, match=r"^d must be a positive even integer, got 7$"):
        phase_error(1, 7)
    with pytest.raises(ValueError, match=r"^m and base must keep m\*theta finite in float32"):
        angles_in_format(1e300, 8, dtype="float32")


def test_shift_error_rejects_bad_input():
    q = np.ones(8)
    with pytest.raises(TypeError, match=r"^s must be an integer, got float 1.5$"):
        shift_error_in_format(q, q, 0, 0, 1.5)
    with pytest.raises(ValueError, match=r"^k must have last axis of length d=8, got shape \(6,\)$"):
        shift_error_in_format(q, np.ones(6), 0, 0, 1)
    with pytest.raises(ValueError, match=r"^q and k must be vectors of shape \(d,\)"):
        shift_error_in_format(np.ones((2, 8)), np.ones((2, 8)), 0, 0, 1)
