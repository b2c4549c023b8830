"""The precision checks behind notebook 07's deployment rules (moved out of the notebook), each with a wrong variant.

The notebook computes one of them (bfloat16 θ_i alone, distance 1000); the maximum phase error of m·θ_i
(d = 128, base 10000) for float32, bfloat16 θ_i alone and all-bfloat16 (transformers 4.37) is checked here only.
It states: float32 angles stay under 2|m|2^-24
(0.016 rad at 131072), transformers' float32 θ_i too;
bfloat16 cos/sin are off by at most 2^-9; bfloat16 is 0.31 rad off at position 256 and near π from 8192; bfloat16
θ_i alone put the phase about 0.12 rad off at distance 100 and about 1.2 rad at 1000; float32 θ_i are harmless;
bfloat16 positions keep every 2nd integer from 256, every 4th from 512; float32 positions are exact up to 2^24.
"""

from __future__ import annotations

import numpy as np
import pytest

from ropemath import frequencies, round_to_format
from ropemath.models import max_phase_error

MS = np.unique(np.logspace(0, 6, 400).astype(np.int64))
THETA = frequencies(128)
THETA_BF16 = round_to_format(THETA, "bfloat16")


def wrapped(phi):
    return np.abs(np.mod(phi + np.pi, 2 * np.pi) - np.pi)


@pytest.fixture(scope="module")
def err():
    return {fmt: max_phase_error(MS, 128, dtype=fmt) for fmt in ("float32", "bfloat16")}


def test_float32_angles_meet_two_roundings(err):
    bound = 2 * MS * 2.0**-24
    assert np.all(err["float32"] <= bound)
    assert not np.all(err["bfloat16"] <= bound)  # wrong variant: the same bound for bfloat16
    assert max_phase_error([131072], 128, dtype="float32")[0] <= 2 * 131072 * 2.0**-24 < 0.016


def test_transformers_float32_theta_meets_the_bound():
    inv_freq = 1 / np.float32(10000.0) ** (np.arange(0, 128, 2, dtype=np.float32) / np.float32(128))
    assert inv_freq.dtype == np.float32 and not np.all(inv_freq == round_to_format(THETA, "float32"))
    for inv, holds in [(inv_freq, True), (round_to_format(inv_freq, "bfloat16"), False)]:  # bfloat16: wrong variant
        angle = (np.float32(131072) * inv).astype(np.float64)
        assert (wrapped(angle - 131072 * THETA).max() <= 2 * 131072 * 2.0**-24) == holds


def test_bfloat16_cos_sin_storage():
    table = np.cos(np.multiply.outer(MS, THETA))
    error = np.abs(round_to_format(table, "bfloat16") - table).max()
    assert error <= 2.0**-9
    assert not error <= 2.0**-10  # wrong variant: a bound twice as tight


def test_bfloat16_angles(err):
    assert max_phase_error([256], 128, dtype="bfloat16")[0] > 0.3 and np.all(err["bfloat16"][MS >= 8192] > 2.8)
    assert not np.all(err["bfloat16"][MS >= 1024] > 2.8)  # wrong variant: "near π" from 1024 on
    assert not np.any(err["float32"][MS >= 8192] > 2.8)  # float32 never gets there
    bf16_256, bf16_257 = max_phase_error([256, 257], 128, dtype="bfloat16")
    assert abs(bf16_256 - wrapped(256 * (THETA_BF16 - THETA)).max()) < 1e-12  # at 256: θ_i's rounding × 256
    assert abs(bf16_257 - wrapped(257 * (THETA_BF16 - THETA)).max()) > 0.1  # wrong variant: 257 rounds to 256


def test_bfloat16_theta_alone():
    assert np.all(np.abs(THETA_BF16 / THETA - 1) <= 2.0**-8)
    assert not np.all(np.abs(THETA_BF16 / THETA - 1) <= 2.0**-9)  # wrong variant: half the relative error
    for r, lo, hi in [(100, 0.1, 0.15), (1000, 1.1, 1.3)]:
        assert lo < wrapped(r * (THETA_BF16 - THETA)).max() < hi
    assert not wrapped(1000 * (THETA_BF16 - THETA)).max() < 0.5  # wrong variant: "harmless at 1000"
    assert wrapped(1000 * (round_to_format(THETA, "float32") - THETA)).max() < 1e-4  # float32 θ_i: harmless


def test_integer_positions_grid():
    # bfloat16 holds every integer up to 256, then every 2nd up to 512, every 4th up to 1024 (ties to even)
    assert round_to_format(np.arange(254, 261), "bfloat16").astype(int).tolist() == [254, 255, 256, 256, 258, 260, 260]
    assert round_to_format([1003, 997], "bfloat16").astype(int).tolist() == [1004, 996]
    assert round_to_format([2**24 - 1, 2**24 + 1], "float32").tolist() == [2**24 - 1, 2**24]  # float32: exact to 2^24
    assert round_to_format([257], "bfloat16")[0] != 257  # wrong variant: "exact up to 512"
