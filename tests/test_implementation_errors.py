"""Notebook 07's helpers, moved out of its cells: pairs per layout, error bands, bfloat16 distances, float32 angles."""

import numpy as np
import pytest

from ropemath import apply_rope, phase_error, rotation_matrix, to_half
from ropemath.models.pitfalls import (
    bfloat16_distances,
    distance_band_errors,
    layout_pairs,
    max_phase_error,
    relative_error,
    rope_float32_angles,
)


def test_layout_pairs_agree_with_the_rotation_matrix():
    for d in (4, 8, 16):
        for layout in ("interleaved", "half"):
            R = rotation_matrix(1.0, d, layout=layout)
            p = layout_pairs(d, layout)
            for j in range(d):
                partners = set(np.flatnonzero(np.abs(R[j]) > 1e-12).tolist())  # j and the coordinate it pairs with
                assert len(partners) == 2 and len({int(p[c]) for c in partners}) == 1
        inter, half = layout_pairs(d, "interleaved"), layout_pairs(d, "half")
        assert not np.array_equal(inter, half)
        assert np.array_equal(to_half(inter[None].astype(float))[0], half)  # x_half = x_inter[P]


def test_relative_error_and_bands_by_loop():
    rng = np.random.default_rng(0)
    S, R = rng.standard_normal((2, 3, 6, 6))
    assert relative_error(R, R) == 0.0
    assert relative_error(S, R) == pytest.approx(np.sqrt(((S - R) ** 2).sum() / (R**2).sum()))
    bands = [(0, 0), (1, 2), (3, 5)]
    got = distance_band_errors(S, R, bands)
    for (lo, hi), value in zip(bands, got, strict=True):
        num = sum(
            (S[h, m, n] - R[h, m, n]) ** 2
            for h in range(3)
            for m in range(6)
            for n in range(6)
            if lo <= abs(m - n) <= hi
        )
        den = sum(R[h, m, n] ** 2 for h in range(3) for m in range(6) for n in range(6) if lo <= abs(m - n) <= hi)
        assert value == pytest.approx(np.sqrt(num / den))
    with pytest.raises(ValueError):
        relative_error(S, np.zeros_like(S))


def test_bfloat16_distances_counts_of_notebook_07():
    assert bfloat16_distances(np.arange(10_000, 20_000), 5) == {0: 9360, 64: 500, 128: 140}
    assert bfloat16_distances([10_012], 5) == {64: 1}
    assert bfloat16_distances(np.arange(0, 100), 5) == {5: 100}  # exact below 256


def test_float32_angles_are_worse_than_apply_rope_at_large_positions():
    x32 = np.random.default_rng(3).standard_normal(128).astype(np.float32)
    m = 1_000_003
    exact = rotation_matrix(m, 128) @ x32.astype(np.float64)
    scale = np.linalg.norm(x32.astype(np.float64))
    assert np.abs(apply_rope(x32, m, layout="interleaved", base=10000.0) - exact).max() / scale < 1e-6
    assert np.abs(rope_float32_angles(x32, m) - exact).max() / scale > 1e-4
    small = rope_float32_angles(x32, 3)  # at small m float32 angles are fine
    assert np.abs(small - rotation_matrix(3, 128) @ x32.astype(np.float64)).max() / scale < 1e-6


def test_max_phase_error_is_floored_max():
    m = [1, 256, 257]
    assert np.array_equal(
        max_phase_error(m, 128, dtype="bfloat16"), np.maximum(phase_error(m, 128, dtype="bfloat16").max(-1), 1e-9)
    )
    assert max_phase_error([3], 128, dtype="float64").tolist() == [1e-9]
