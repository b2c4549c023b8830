"""Notebook 10's answers: rotated values, KV-cache offsets, dynamic scaling, aliasing, bfloat16 cos/sin tables."""

import math

import numpy as np
import pytest

import ropemath
from ropemath import apply_rope, dynamic_ntk_frequencies, frequencies, to_bfloat16
from ropemath.models.pitfalls import (
    aliased_frequency,
    attention_outputs,
    cached_key_scores,
    hf_cos_sin_error,
    torch_float32_theta,
)


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


def test_torch_float32_theta_is_one_ulp_steps_and_moves_the_table_bracket():
    th = torch_float32_theta(128, 500000.0)
    rounded = frequencies(128, 500000.0).astype(np.float32)
    assert th.dtype == np.float64 and np.array_equal(th, th.astype(np.float32))  # float32 values
    off = np.flatnonzero(th != rounded)
    assert off.size == 18 and np.array_equal(np.abs(th[off] - rounded[off]), np.spacing(rounded[off]))  # one ulp each
    with pytest.raises(ValueError, match="base"):
        torch_float32_theta(128, 10000.0)  # not recorded: refused, not guessed
    m = np.arange(131072)
    h = 2.0**-9
    e_torch = hf_cos_sin_error(m, 128, 500000.0, theta=th)
    e_rounded = hf_cos_sin_error(m, 128, 500000.0)
    assert np.array_equal(hf_cos_sin_error(m[:64], 128, 500000.0, theta=rounded), e_rounded[:64])  # default theta
    assert 4 * h <= e_torch.max() <= 5.5 * h and e_torch[:32768].max() <= 2 * h and e_torch[:4096].max() <= 1.1 * h
    assert 3 * h <= e_rounded.max() < 4 * h  # says no: the correctly rounded theta stays below 4h
    with pytest.raises(ValueError, match="theta"):
        hf_cos_sin_error(m, 128, 500000.0, theta=th, angle_dtype="float64")


def test_identities_stated_in_notebook_10():
    """Identities stated in notebooks 10 (§1 negative positions, §2 partial rotary) and 14 (the plus sign)."""
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


# --- positions in a cache, dynamic NTK while decoding, bfloat16 / TF32 pipelines (notebook 10) ------------


def _round_bits(v: float, bits: int) -> float:
    """Round to `bits` significant bits, ties to even (math.frexp + Python's round): independent of ropemath."""
    if v == 0:
        return 0.0
    mant, exp = math.frexp(v)  # v = mant * 2**exp, 0.5 <= |mant| < 1
    return round(mant * 2**bits) / 2**bits * 2.0**exp


def test_to_tf32_keeps_11_significant_bits():
    from ropemath.models import to_tf32

    values = np.array([1.0, 2047.0, 2048.0, 2049.0, 2051.0, 4097.0, 1 / 3, 0.1, -12345.678])
    expected = [_round_bits(float(np.float32(v)), 11) for v in values]
    assert to_tf32(values).tolist() == expected
    assert to_tf32([2049.0])[0] == 2048.0 and np.float32(2049.0) == 2049.0  # negative control: float32 keeps it


def test_rope_pipelines_against_an_elementwise_loop():
    from ropemath.models import rope_pipeline

    rng = np.random.default_rng(3)
    x, theta, m = rng.standard_normal((2, 8)), ropemath.frequencies(8, 500000.0), np.array([3000, 70000])
    xb = np.vectorize(lambda v: _round_bits(v, 8))(x)
    got = {p: rope_pipeline(x, m, theta, p) for p in ("float64", "transformers", "meta", "vllm_cuda")}
    assert np.allclose(got["float64"], apply_rope(xb, m, layout="half", theta=theta), rtol=0, atol=1e-13)
    bf = lambda v: _round_bits(float(v), 8)  # noqa: E731
    f32 = np.float32
    want, want_vllm = np.empty_like(x), np.empty_like(x)
    for row in range(2):
        for j in range(8):
            i, partner, sign = (j, j + 4, -1.0) if j < 4 else (j - 4, j - 4, 1.0)
            phi = float(f32(f32(m[row]) * f32(theta[i])))
            c, s = bf(f32(math.cos(phi))), bf(f32(math.sin(phi)))
            want[row, j] = bf(bf(xb[row, j] * c) + bf(sign * xb[row, partner] * s))
            want_vllm[row, j] = bf(f32(f32(f32(xb[row, j]) * f32(c)) + f32(f32(sign * xb[row, partner]) * f32(s))))
    assert np.array_equal(got["transformers"], want)
    assert np.array_equal(got["vllm_cuda"], want_vllm)  # bfloat16 table, float32 arithmetic, one rounding
    assert not np.array_equal(got["meta"], got["transformers"])  # negative control: one rounding vs three
    assert not np.array_equal(got["vllm_cuda"], got["meta"])  # negative control: the table's cast matters
    with pytest.raises(ValueError, match="pipeline must be"):
        rope_pipeline(x, m, theta, "bf16")


def test_left_padded_positions_and_sink_rerotation():
    from ropemath.models import left_padded_positions

    position_ids, slots = left_padded_positions([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]])
    assert position_ids.tolist() == [[1, 1, 0, 1, 2], [0, 1, 2, 3, 4]] and slots.tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="attention_mask"):
        left_padded_positions([1, 0, 2])
    k = np.random.default_rng(4).standard_normal((3, 8))
    p = np.array([10, 11, 12])
    shifted = apply_rope(apply_rope(k, p, layout="half", base=1e4), -4, layout="half", base=1e4)
    assert np.allclose(shifted, apply_rope(k, p - 4, layout="half", base=1e4), atol=1e-12)
    assert not np.allclose(shifted, apply_rope(k, p, layout="half", base=1e4))  # negative control


def test_dynamic_ntk_decode_scores_stale_only_past_the_original_length():
    from ropemath.models import dynamic_ntk_decode_scores

    rng = np.random.default_rng(5)
    for n, stale in ((15, False), (16, True), (40, True)):
        q, keys = rng.standard_normal(8), rng.standard_normal((n + 1, 8))
        cached, fresh = dynamic_ntk_decode_scores(q, keys, d_base=1e4, factor=2.0, original_length=16)
        now = ropemath.frequencies_from_config({"rope_theta": 1e4, "head_dim": 8, "max_position_embeddings": 16,
                                                "rope_type": "dynamic", "factor": 2.0}, seq_len=n + 1).theta
        by_loop = [apply_rope(q, n, layout="half", theta=now) @ apply_rope(k, p, layout="half", theta=now)
                   for p, k in enumerate(keys)]
        assert np.allclose(fresh, by_loop, atol=1e-12)
        assert (not np.allclose(cached, fresh, atol=1e-9)) == stale


def test_dynamic_ntk_drift_sizes_of_notebook_10_hold_for_other_seeds():
    """Notebook 10 §1.2 prints one seed; the sizes it states hold for twelve."""
    from ropemath.models import dynamic_ntk_decode_scores

    def drift(q, keys, original_length=256):
        cached, fresh = dynamic_ntk_decode_scores(q, keys, d_base=1e4, factor=2.0, original_length=original_length)
        return np.abs(cached - fresh).max() / np.abs(fresh).max()

    for seed in range(12):
        qs, ks = np.random.default_rng(seed).standard_normal((2, 513, 128))
        sizes = {n: drift(qs[n], ks[: n + 1]) for n in (255, 256, 300, 512)}
        assert sizes[255] <= 1e-12  # within L: rounding only
        assert 0.01 < sizes[256] < 0.05  # one step past L: a few percent
        assert min(sizes[300], sizes[512]) > 0.4  # by n = 300: comparable to the largest fresh score
    # the wrong variant: with L = 1024 the same positions lie within L, and the "> 0.4" check says no
    qs, ks = np.random.default_rng(0).standard_normal((2, 513, 128))
    assert drift(qs[512], ks, original_length=1024) <= 1e-12 < 0.4


def test_dynamic_ntk_kept_theta_grows_keeps_and_resets():
    from ropemath.models import dynamic_ntk_kept_theta

    kw = dict(d=16, base=1e4, factor=2.0, original_length=32)
    config = {"rope_theta": 1e4, "head_dim": 16, "max_position_embeddings": 32, "rope_type": "dynamic", "factor": 2.0}

    def theta(n):
        return ropemath.frequencies_from_config(config, seq_len=n).theta

    assert np.array_equal(dynamic_ntk_kept_theta([], **kw), ropemath.frequencies(16, 1e4))  # nothing seen: plain
    assert np.array_equal(dynamic_ntk_kept_theta([128], **kw), theta(128))  # growth
    assert np.array_equal(dynamic_ntk_kept_theta([128, 64], **kw), theta(128))  # L <= l < longest: kept
    assert np.array_equal(dynamic_ntk_kept_theta([128, 32], **kw), theta(128))  # l = L does not reset
    assert np.array_equal(dynamic_ntk_kept_theta([128, 8, 64], **kw), theta(64))  # l < L resets, then growth
    assert np.array_equal(dynamic_ntk_kept_theta([128, 8], **kw), ropemath.frequencies(16, 1e4))
    assert not np.array_equal(dynamic_ntk_kept_theta([128, 64], **kw), theta(64))  # negative control: not theta(l)


def test_bfloat16_pipeline_sample_of_notebook_10():
    """Notebook 10 §4's sample: 55 positions; Meta's spikes (one rounding near a tie) and its rise past 1e5;
    TF32 up to 2048 from the frequencies alone; the same peaks for Llama 3.1's frequencies."""
    from ropemath.models import llama31_frequencies, rope_pipeline, to_tf32

    d, h = 128, 2.0**-9
    theta, theta_hf = frequencies(d, 500000.0), torch_float32_theta(d, 500000.0)
    positions = np.unique(np.geomspace(1, 131072, 60).astype(int))
    xs = np.random.default_rng(12).standard_normal((16, d))
    assert len(positions) == 55  # 60 geometric points, rounded to integers, some coincide

    def errors(th, pipeline, reference):
        return np.array([np.abs(rope_pipeline(xs, np.full(16, m), th, pipeline)
                                - rope_pipeline(xs, np.full(16, m), reference, "float64")).max()
                         for m in positions]) / np.abs(xs).max()

    meta = errors(theta_hf, "meta", theta)
    spikes = positions[(meta > 1.5 * h) & (positions < 20000)]
    assert spikes.tolist() == [6, 54, 268, 17788]
    for m in spikes:  # each: one bfloat16 rounding (at most half a spacing) of an entry above max|x|, near a tie
        ref = rope_pipeline(xs, np.full(16, m), theta, "float64")
        err = np.abs(rope_pipeline(xs, np.full(16, m), theta_hf, "meta") - ref)
        j = np.unravel_index(err.argmax(), err.shape)
        half_spacing = 2.0 ** (np.floor(np.log2(abs(ref[j]))) - 8)  # bfloat16 keeps 8 significant bits
        assert abs(ref[j]) > np.abs(xs).max() and 0.75 * half_spacing < err[j] <= 1.001 * half_spacing
    assert meta[np.isin(positions, spikes)].max() <= 2.2 * h  # about 2h
    late = positions[positions > 100000]  # Meta's rise past 1e5: torch's float32 theta_i alone, rotated in float64
    theta_alone = [np.abs(rope_pipeline(xs, np.full(16, m), theta_hf, "float64")
                          - rope_pipeline(xs, np.full(16, m), theta, "float64")).max() for m in late]
    assert min(theta_alone) / np.abs(xs).max() > 1.5 * h
    tf32, eager = errors(theta_hf, "transformers_tf32", theta), errors(theta_hf, "transformers", theta)
    upto_2048 = positions <= 2048  # positions up to 2048 are exact in TF32, so the frequencies' rounding does it all
    assert np.array_equal(to_tf32(np.arange(2049.0)), np.arange(2049.0))
    freq_only = errors(to_tf32(np.float32(theta_hf)), "transformers", theta)
    assert np.array_equal(freq_only[upto_2048], tf32[upto_2048])
    assert 30 < positions[np.argmax(tf32 > 1.2 * eager)] < 100  # the TF32 curve leaves transformers' near m = 40
    pipelines = ("transformers", "meta", "transformers_tf32")
    peak = {p: errors(theta_hf, p, theta).max() for p in pipelines}  # the notebook's curves
    for p in pipelines:  # Llama 3.1 slows only slow pairs: same peaks
        assert abs(errors(llama31_frequencies(), p, llama31_frequencies()).max() / peak[p] - 1) < 0.01
    slowed = theta / 8  # negative control: every pair slowed by 8 moves some peak
    assert any(abs(errors(slowed, p, slowed).max() / peak[p] - 1) > 0.05 for p in pipelines)
