"""Named bad-input cases, one by one: each gets a clear error naming its parameter, up front.

The generated tests (``test_generated_bad_input.py``) sweep every signature; these pin the
messages of the cases users hit, with a valid control next to each.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

import ropemath
from ropemath.core._validate import CEILINGS, MAX_D

X = np.random.default_rng(0).standard_normal((3, 8))  # seed 0


def quick(fn, *args, **kwargs):
    """Run ``fn`` and assert it answered within a second (errors come before any work)."""
    start = time.perf_counter()
    try:
        return fn(*args, **kwargs)
    finally:
        assert time.perf_counter() - start < 1.0, f"{fn.__name__} took too long to answer"


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_vectors_are_rejected_with_name_and_index(bad):
    q = X.copy()
    q[2, 5] = bad
    with pytest.raises(ValueError, match=rf"^q must contain only finite values, got {bad} at index \(2, 5\)$"):
        ropemath.rope_scores(q, X, np.arange(3), layout="half", base=1e4)
    with pytest.raises(ValueError, match=r"^v must contain only finite values"):
        ropemath.rope_softmax_attention(X, X, q, np.arange(3), layout="half", base=1e4)
    assert np.all(np.isfinite(ropemath.rope_scores(X, X, np.arange(3), layout="half", base=1e4)))  # control


def test_overflow_is_an_error_naming_the_inputs():
    huge = np.full((3, 8), 1e308)
    with pytest.raises(ValueError, match=r"^x \(largest \|x\| = 1e\+308\).*the result of apply_rope is not finite"):
        ropemath.apply_rope(huge, np.arange(3), layout="half", base=1e4, attention_factor=2.0)
    assert np.all(np.isfinite(ropemath.apply_rope(huge, np.arange(3), layout="half", base=1e4)))  # control: f = 1


def test_magnitudes_beyond_the_ranges_are_rejected_up_front():
    message = r"^q must have entries of magnitude at most 1e\+50 .*got largest \|q\| = 1e\+51$"
    with pytest.raises(ValueError, match=message):
        ropemath.rope_scores(np.full((3, 8), 1e51), X, np.arange(3), layout="half", base=1e4)
    assert np.all(np.isfinite(ropemath.rope_scores(np.full((3, 8), 1e50), X, np.arange(3), layout="half", base=1e4)))
    with pytest.raises(ValueError, match=r"^base must be in \[1e-100, 1e\+100\] .*got 5e-324$"):
        ropemath.frequencies(128, 5e-324)  # base**(-126/128) would overflow float64
    assert np.all(np.isfinite(ropemath.frequencies(65536, 1e-100)))  # control: the ends of the range
    assert np.all(np.isfinite(2 * np.pi / ropemath.frequencies(65536, 1e100)))
    message = r"^theta must be 4 frequencies > 0 \(in \[1e-100, 1e\+100\]\), got values from 1e-101 to 1$"
    with pytest.raises(ValueError, match=message):
        ropemath.apply_rope(X, 1, layout="half", theta=[1.0, 1e-101, 1.0, 1.0])


def test_huge_integers_are_value_errors_not_overflow_errors():
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0, got an integer of 401 digits"):
        ropemath.frequencies(8, 10**400)
    with pytest.raises(ValueError, match=r"^d must be a positive even integer <= 65536, got an integer of 401 digits"):
        ropemath.frequencies(10**400)


def test_work_ceilings_answer_at_once():
    with pytest.raises(ValueError, match=r"^length must be at most 16777216 .*got 1000000000000$"):
        quick(ropemath.cosine_sum_minimum, 10**12, 16)
    with pytest.raises(ValueError, match=r"^length × d/2 × number of bases \(cosines evaluated\) must be at most"):
        quick(ropemath.cosine_sum_minimum, 2**24, 4096)
    with pytest.raises(ValueError, match=r"^trials must be at most 10000"):
        quick(ropemath.abel_check, trials=10**12)
    with pytest.raises(ValueError, match=r"^length must be at most 16777216"):
        quick(ropemath.base_lower_bound, 10**15)
    with pytest.raises(ValueError, match=r"^length × d/2 \(cosines per scan of the search\) must be at most"):
        quick(ropemath.base_lower_bound, 2**20, 128)
    with pytest.raises(ValueError, match=r"^max_position × d/2 \(table entries"):
        quick(ropemath.RopeCache, 4096, max_position=2**20, base=1e4)
    with pytest.raises(ValueError, match=rf"^d must be a positive even integer <= {MAX_D}"):
        quick(ropemath.frequencies, 2 * MAX_D)
    assert ropemath.cosine_sum_minimum(1024, 16).shape == ()  # control: in range
    assert set(CEILINGS) >= {"length", "trials", "max_position", "chunk"}


def test_negative_and_nonsense_tolerances_are_rejected():
    th = ropemath.frequencies(8)
    with pytest.raises(ValueError, match=r"^rtol must be a finite real number >= 0 \(a tolerance\), got -1.0$"):
        ropemath.unseen_angle_pairs(th / 2, th, length=64, new_length=128, rtol=-1.0)
    with pytest.raises(ValueError, match=r"^rtol must be in \[1e-15, 0.1\)"):
        ropemath.base_lower_bound(64, 8, rtol=1e-300)
    assert ropemath.unseen_angle_pairs(th / 2, th, length=64, new_length=128, rtol=0.0).dtype == bool  # control


def test_empty_arrays_are_named():
    with pytest.raises(ValueError, match=r"^x must contain at least one vector"):
        ropemath.elementwise_error(np.empty((0, 8)), 3.0)
    with pytest.raises(ValueError, match=r"^q must have shape \(N, d\) with N >= 1"):
        ropemath.rope_scores(np.empty((0, 8)), np.empty((0, 8)), np.arange(0), layout="half", base=1e4)
    assert ropemath.apply_rope(np.empty((0, 8)), np.arange(0), layout="half", base=1e4).shape == (
        0,
        8,
    )  # empty batch: valid


def test_large_and_negative_positions_are_valid():
    """The contract: positions of either sign and any finite size are RoPE positions."""
    y = ropemath.apply_rope(X, np.array([-(10**9), 0, 10**15]), layout="interleaved", base=1e4)
    assert np.allclose(np.linalg.norm(y, axis=-1), np.linalg.norm(X, axis=-1))
    with pytest.raises(ValueError, match=r"^m must contain only finite values, got nan at index 1$"):
        ropemath.apply_rope(X, np.array([0.0, np.nan, 1.0]), layout="interleaved", base=1e4)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: ropemath.apply_rope(np.ones((2, 4)), [[1, 2], [3]], layout="half", base=1e4),
            "^m must be a rectangular",
        ),
        (
            lambda: ropemath.apply_rope(np.ones(4), 1, layout="half", theta=[[1.0], [1.0, 2.0]]),
            "^theta must be a rectangular",
        ),
        (lambda: ropemath.verdict("error", [[0.1, 0.2], [0.3]], 1.0), "^values must be a rectangular"),
        (
            lambda: ropemath.pair_products(np.ones((3, 4)), np.ones((2, 4)), layout="interleaved"),
            "^k must have the shape of q",
        ),
        (lambda: ropemath.norm_error(np.empty((0, 4)), 1), "^x must hold at least one vector"),
        (lambda: ropemath.cosine_sum_minimum(8, 4, []), "^base must be one or more real numbers > 0"),
        (lambda: ropemath.verdict("error", [0.1], -1), "^bound must be >= 0"),
        (lambda: ropemath.apply_rope(np.ones(4), 1, layout="half"), "^pass exactly one of base and theta"),
        (
            lambda: ropemath.apply_rope(np.ones(4), 1, layout="half", base=1e4, theta=[1.0, 0.5]),
            "^pass exactly one of base",
        ),
    ],
)
def test_ragged_empty_and_missing_inputs_are_named(call, message):
    with pytest.raises(ValueError, match=message) as info:
        call()
    assert "\n" not in str(info.value)


def test_the_same_calls_with_good_input_pass():
    """Controls for the test above: rectangular, non-empty, one frequency source."""
    assert ropemath.apply_rope(np.ones((2, 4)), [1, 3], layout="half", base=1e4).shape == (2, 4)
    assert ropemath.pair_products(np.ones((3, 4)), np.ones((3, 4)), layout="interleaved").shape == (3, 2)
    assert ropemath.norm_error(np.ones((1, 4)), 1) < 1e-15
    assert ropemath.cosine_sum_minimum(8, 4, [1e4]).shape == (1,)
    assert ropemath.verdict("error", [0.0], 0.0).endswith("yes")
