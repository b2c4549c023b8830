"""Notebook 10's answers: rotated values, KV-cache offsets, dynamic scaling, aliasing, bfloat16 cos/sin tables."""

import numpy as np
import pytest

from ropemath import apply_rope, dynamic_ntk_frequencies, frequencies, to_bfloat16
from ropemath.models.pitfalls import aliased_frequency, attention_outputs, cached_key_scores, hf_cos_sin_error


def test_attention_outputs_by_loop_and_shift():
    rng = np.random.default_rng(5)
    q, k, v = rng.standard_normal((3, 6, 8))
    m = np.arange(6)
    out = attention_outputs(q, k, v, m, rotate_v=False, layout="interleaved", base=1e4)
    qr, kr = apply_rope(q, m, layout="interleaved", base=1e4), apply_rope(k, m, layout="interleaved", base=1e4)
    for t in range(6):
        s = np.array([qr[t] @ kr[n] / np.sqrt(8) for n in range(t + 1)])
        a = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
        assert np.allclose(out[t], a @ v[: t + 1], atol=1e-12)
    shifted = attention_outputs(q, k, v, m + 1000, rotate_v=False, layout="interleaved", base=1e4)
    assert np.abs(shifted - out).max() < 1e-9  # values unrotated: shift invariant
    rot = attention_outputs(q, k, v, m, rotate_v=True, layout="interleaved", base=1e4)
    moved = attention_outputs(q, k, v, m + 1000, rotate_v=True, layout="interleaved", base=1e4)
    assert np.abs(moved - rot).max() > 0.1  # rotated values: not


def test_cached_key_scores_offset_and_dynamic_scaling():
    rng = np.random.default_rng(8)
    d, L = 64, 512
    q, keys = rng.standard_normal(d), rng.standard_normal((4, d))
    th = frequencies(d)
    pos = np.arange(4) + 100
    right = cached_key_scores(q, keys, pos, 104, theta_query=th, theta_keys=th, layout="interleaved")
    relative = np.array([q @ apply_rope(keys[j], pos[j] - 104, layout="interleaved", base=1e4) for j in range(4)])
    assert np.abs(right - relative).max() < 1e-10
    wrong = cached_key_scores(q, keys, pos, 0, theta_query=th, theta_keys=th, layout="interleaved")
    assert np.abs(wrong - right).max() > 0.1
    th_new = dynamic_ntk_frequencies(d, length=4 * L, original_length=L)
    stale = cached_key_scores(q, keys, pos + 2000, 2004, theta_query=th_new, theta_keys=th, layout="interleaved")
    fresh = cached_key_scores(q, keys, pos + 2000, 2004, theta_query=th_new, theta_keys=th_new, layout="interleaved")
    assert np.abs(stale - fresh).max() > 0.1


def test_aliased_frequency():
    th = np.array([0.1, 1.0, np.pi, 4.0, 8660.0])
    al = aliased_frequency(th)
    assert np.all((al >= 0) & (al <= np.pi))
    m = np.arange(50)
    assert np.allclose(np.cos(m[:, None] * th), np.cos(m[:, None] * al), atol=1e-8)
    assert not np.allclose(al, th)  # says no: fast frequencies change


def test_hf_cos_sin_error_by_hand_and_bounds():
    m = np.array([0, 1, 1000, 100_000])
    e64 = hf_cos_sin_error(m, 128, angle_dtype="float64")
    assert np.all(e64 <= 2.0**-9 + 2.0**-24)
    phi = m[:, None] * frequencies(128)
    hand = np.maximum(np.abs(to_bfloat16(np.cos(phi)) - np.cos(phi)), np.abs(to_bfloat16(np.sin(phi)) - np.sin(phi)))
    assert np.allclose(e64, hand.max(axis=1), atol=2.0**-24)
    e32 = hf_cos_sin_error(m, 128, angle_dtype="float32")
    assert e32[-1] > 2 * 2.0**-9  # float32 angles at 1e5: worse than the bfloat16 cast
    assert e32[0] == e64[0]
    with pytest.raises(ValueError):
        hf_cos_sin_error(m, 128, angle_dtype="float16")


def test_identities_stated_in_notebook_10():
    rng = np.random.default_rng(0)
    q, k, v = rng.standard_normal((3, 16, 128))
    pos = np.arange(16)
    # rotated values: a shift by s rotates the output by R_s
    out = attention_outputs(q, k, v, pos, rotate_v=True, layout="interleaved", base=1e4)
    shifted = attention_outputs(q, k, v, pos + 1000, rotate_v=True, layout="interleaved", base=1e4)
    assert np.abs(shifted - apply_rope(out, 1000, layout="interleaved", base=1e4)).max() < 1e-9
    assert np.abs(shifted - out).max() > 0.1  # says no without the rotation
    # partial rotary: score = rotary part + position-free pass-through part
    from ropemath import partial_rotary

    qp, kp = rng.standard_normal((2, 96))
    for r in (0, 7, 1234):
        score = partial_rotary(qp, r, 24, layout="half", base=1e4) @ partial_rotary(kp, 0, 24, layout="half", base=1e4)
        assert np.isclose(
            score, apply_rope(qp[:24], r, layout="half", base=1e4) @ kp[:24] + qp[24:] @ kp[24:], atol=1e-11
        )
    # the plus sign: neighbours stop looking alike (decay bound at distance 1)
    from ropemath import decay_bound

    minus, plus = frequencies(128), 10000.0 ** (2 * np.arange(64) / 128)
    assert float(decay_bound(1.0, 128, theta=minus)) > 30 > 10 > float(decay_bound(1.0, 128, theta=plus))
    # negative positions: R_-m R_m = I
    x = rng.standard_normal(128)
    assert np.abs(apply_rope(apply_rope(x, 5, layout="half", base=1e4), -5, layout="half", base=1e4) - x).max() < 1e-14
