"""apply_rope, partial rotary and scores against the real code of Hugging Face (Llama rotate_half, GPT-NeoX
partial rotary, GPT-J rotate_every_two), Meta's reference (precompute_freqs_cis / apply_rotary_emb) and
rotary-embedding-torch, in float64 and float32, head dims 64/80/128, positions up to 131072.

Two kinds of comparison:
* **arithmetic and layout** — each library is fed the float64 angles mθ_i of ropemath, so only its pairing and
  arithmetic are compared: agreement within a few ulps of the dtype (float64: 1e-12 |x|, float32: 2^-20 |x|);
* **the library's own angle pipeline** — angles formed in float32 by the library (HF, Meta, rotary-embedding-torch):
  the error is bounded by the float32 rounding of θ_i and of mθ_i.  θ_i = base^(-2i/d) in float32 carries the
  rounding of the exponent 2i/d amplified by ln(base) (up to ~10 ulp at d = 80, where 2i/d is not a dyadic
  fraction), so the bound per pair is (|m| θ_i (2 + ln base) + 2) · 2^-23 (times a small constant).
Each comparison has a negative control: the other layout (or a shifted position) must miss the bound.
"""

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
# torch and transformers emit deprecation warnings that are not ours to fix
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
from transformers.models.gpt_neox.modeling_gpt_neox import apply_rotary_pos_emb as neox_apply
from transformers.models.gptj.modeling_gptj import apply_rotary_pos_emb as gptj_apply
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
from transformers.models.llama.modeling_llama import apply_rotary_pos_emb as llama_apply

import ropemath
from ropemath import apply_rope, frequencies, partial_rotary, rope_scores, to_interleaved

HEAD_DIMS = (64, 80, 128)
DTYPES = (np.float64, np.float32)
POSITIONS = np.array([0, 1, 7, 100, 4095, 8191, 32768, 100_003, 131_071])
TOL = {np.float64: 1e-12, np.float32: 2.0**-20}
F32_THETA = 2 + np.log(10000.0)  # relative float32 error of θ_i, in units of 2^-23


def data(d, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((2, 3, POSITIONS.size, d)).astype(dtype)  # (q/k, heads, positions, d)


def close(a, b, dtype) -> bool:
    scale = np.max(np.abs(b))
    return bool(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))) <= TOL[dtype] * scale)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("d", HEAD_DIMS)
def test_hf_llama_rotate_half_is_the_half_layout(d, dtype):
    q, k = data(d, dtype)
    phi = POSITIONS[:, None] * frequencies(d)  # float64 angles, shape (positions, d/2)
    emb = torch.from_numpy(np.concatenate([phi, phi], axis=-1))
    cos, sin = emb.cos().to(torch.from_numpy(q).dtype)[None], emb.sin().to(torch.from_numpy(q).dtype)[None]
    hq, hk = llama_apply(torch.from_numpy(q)[None], torch.from_numpy(k)[None], cos, sin)
    assert close(hq[0].numpy(), apply_rope(q, POSITIONS, layout="half", base=1e4), dtype)
    assert close(hk[0].numpy(), apply_rope(k, POSITIONS, layout="half", base=1e4), dtype)
    assert not close(hq[0].numpy(), apply_rope(q, POSITIONS, layout="interleaved", base=1e4), dtype)  # negative control


@pytest.mark.parametrize("d", HEAD_DIMS)
def test_hf_llama_pipeline_float32_angles_within_their_bound(d):
    from transformers import LlamaConfig

    config = {"hidden_size": d * 4, "num_attention_heads": 4, "max_position_embeddings": 131072}

    rope = {"rope_type": "default", "rope_theta": 10000.0}
    rotary = LlamaRotaryEmbedding(
        LlamaConfig(**config, head_dim=d, num_hidden_layers=1, intermediate_size=8, vocab_size=8, rope_parameters=rope)
    )
    x = torch.from_numpy(data(d, np.float32)[0])
    cos, sin = rotary(x, torch.from_numpy(POSITIONS)[None])
    hq, _ = llama_apply(x[None], x[None], cos, sin)
    exact = apply_rope(data(d, np.float64)[0], POSITIONS, layout="half", base=1e4)
    pairs = np.abs(hq[0].numpy().astype(np.float64) - exact)
    bound = (np.abs(POSITIONS)[:, None] * frequencies(d) * F32_THETA + 2) * 2.0**-23 * 4  # per pair, then x
    bound = np.concatenate([bound, bound], axis=-1) * np.max(np.abs(exact))
    assert np.all(pairs <= bound)
    shifted = apply_rope(data(d, np.float64)[0], POSITIONS + 1, layout="half", base=1e4)
    assert not np.all(np.abs(hq[0].numpy() - shifted) <= bound)  # negative control: one position off


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("d", HEAD_DIMS)
def test_meta_apply_rotary_emb_is_the_interleaved_layout(d, dtype):
    from llama_models.llama3.model import apply_rotary_emb

    q, k = data(d, dtype)
    phi = POSITIONS[:, None] * frequencies(d)
    freqs_cis = torch.polar(torch.ones(phi.shape, dtype=torch.float64), torch.from_numpy(phi))  # complex128
    xq = torch.from_numpy(np.moveaxis(q, 0, 1))[None]  # Meta: (batch, seq, heads, d)
    xk = torch.from_numpy(np.moveaxis(k, 0, 1))[None]
    mq, mk = apply_rotary_emb(xq, xk, freqs_cis)
    meta_q = np.moveaxis(mq[0].numpy(), 0, 1)
    # Meta casts x to float32 first (xq.float()), so float32 accuracy is all it offers, in either dtype.
    assert close(meta_q, apply_rope(q, POSITIONS, layout="interleaved", base=1e4), np.float32)
    assert not close(meta_q, apply_rope(q, POSITIONS, layout="half", base=1e4), np.float32)
    assert close(np.moveaxis(mk[0].numpy(), 0, 1), apply_rope(k, POSITIONS, layout="interleaved", base=1e4), np.float32)


@pytest.mark.parametrize("d", HEAD_DIMS)
def test_meta_precompute_freqs_cis_float32_angles(d):
    from llama_models.llama3.model import precompute_freqs_cis

    table = precompute_freqs_cis(d, 131072).numpy()[POSITIONS]  # complex64, angles formed in float32
    exact = np.exp(1j * (POSITIONS[:, None] * frequencies(d)))
    bound = (np.abs(POSITIONS)[:, None] * frequencies(d) * F32_THETA + 2) * 2.0**-23 * 2
    assert np.all(np.abs(table - exact) <= bound)
    assert not np.all(np.abs(table - np.exp(1j * ((POSITIONS[:, None] + 1) * frequencies(d)))) <= bound)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("d", HEAD_DIMS)
def test_rotary_embedding_torch_is_the_interleaved_layout(d, dtype):
    from rotary_embedding_torch.rotary_embedding_torch import apply_rotary_emb

    q, _ = data(d, dtype)
    phi = POSITIONS[:, None] * frequencies(d)
    freqs = torch.from_numpy(np.repeat(phi, 2, axis=-1))  # the library's 'lang' layout: each θ_i twice, adjacent
    out = apply_rotary_emb(freqs, torch.from_numpy(q), seq_dim=-2).numpy()
    assert close(out, apply_rope(q, POSITIONS, layout="interleaved", base=1e4), dtype)
    assert not close(out, apply_rope(q, POSITIONS, layout="half", base=1e4), dtype)


@pytest.mark.parametrize("d", HEAD_DIMS)
def test_rotary_embedding_torch_frequencies(d):
    from rotary_embedding_torch import RotaryEmbedding

    rotary = RotaryEmbedding(dim=d)
    own = rotary.freqs.detach().double().numpy()  # float32 θ_i of the library
    assert np.all(np.abs(own - frequencies(d)) <= F32_THETA * 2.0**-23 * frequencies(d))
    assert not np.all(np.abs(own - frequencies(d, 500000.0)) <= F32_THETA * 2.0**-23 * frequencies(d))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("d", HEAD_DIMS)
def test_gptj_rotate_every_two_is_the_interleaved_layout(d, dtype):
    q, _ = data(d, dtype)
    phi = POSITIONS[:, None] * frequencies(d)
    x = torch.from_numpy(np.moveaxis(q, 0, 1))[None]  # GPT-J: (batch, seq, heads, d)
    sin, cos = (torch.from_numpy(f(phi))[None].to(x.dtype) for f in (np.sin, np.cos))
    out = gptj_apply(x, sin, cos)
    out = np.moveaxis(out[0].numpy(), 0, 1)
    assert close(out, apply_rope(q, POSITIONS, layout="interleaved", base=1e4), dtype)
    assert not close(out, apply_rope(q, POSITIONS, layout="half", base=1e4), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_gpt_neox_partial_rotary(dtype):
    d, r = 96, 24  # GPT-NeoX-20B: rotary_pct 0.25 of head_dim 96
    q, k = data(d, dtype)
    phi = POSITIONS[:, None] * frequencies(r)
    emb = torch.from_numpy(np.concatenate([phi, phi], axis=-1))
    tq, tk = torch.from_numpy(q), torch.from_numpy(k)
    hq, _ = neox_apply(tq[None], tk[None], emb.cos().to(tq.dtype)[None], emb.sin().to(tq.dtype)[None])
    mine = partial_rotary(q, POSITIONS, r, layout="half", base=1e4)
    assert close(hq[0].numpy(), mine, dtype)
    assert np.array_equal(hq[0].numpy()[..., r:], q[..., r:])  # the pass-through part is untouched
    assert not close(hq[0].numpy(), partial_rotary(q, POSITIONS, r, layout="interleaved", base=1e4), dtype)


@pytest.mark.parametrize("d", HEAD_DIMS)
def test_scores_of_hf_half_layout_equal_rope_scores(d):
    q, k = data(d, np.float64)
    phi = POSITIONS[:, None] * frequencies(d)
    emb = torch.from_numpy(np.concatenate([phi, phi], axis=-1))
    hq, hk = llama_apply(torch.from_numpy(q)[None], torch.from_numpy(k)[None], emb.cos()[None], emb.sin()[None])
    hf_scores = (hq[0] @ hk[0].transpose(-1, -2)).numpy()  # (heads, N, N)
    mine = np.stack(
        [
            rope_scores(to_interleaved(q[h]), to_interleaved(k[h]), POSITIONS, layout="interleaved", base=1e4)
            for h in range(q.shape[0])
        ]
    )
    assert np.max(np.abs(hf_scores - mine)) <= 1e-10 * np.max(np.abs(mine))
    wrong = np.stack(
        [rope_scores(q[h], k[h], POSITIONS, layout="interleaved", base=1e4) for h in range(q.shape[0])]
    )  # half data, interleaved pairs
    assert np.max(np.abs(hf_scores - wrong)) > 0.1 * np.max(np.abs(mine))
    assert ropemath.__version__


def test_the_notebook_table_of_verdicts_comes_from_the_real_packages():
    real = ropemath.real_layout_verdicts()
    assert real is not None  # in this venv the real packages are installed
    offline = ropemath.layout_verdicts()
    assert {name: real[name] for name in offline} == offline
    assert real["rotary-embedding-torch"] == {"interleaved": True, "half": False}
