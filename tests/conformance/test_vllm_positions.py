"""vLLM 0.33.0's positions and rotary table on CPU, for notebook 06 §3 (a batch of requests, prefix caching).

What is run: ``get_rope`` builds vLLM's own ``RotaryEmbedding`` (as in ``test_vllm_rotary.py``); its ``forward_native``
rotates a flat batch of tokens from two requests, with positions built by the model runner's formula
(``num_computed_tokens[req_indices] + query_pos``, ``v1/worker/gpu_model_runner.py`` l.1957–1960, whose text is checked
below).  Checked: (1) the batched call equals one call per request, bit for bit, and a request's rotated keys do not
depend on its slot in the batch; a wrong variant (positions = index in the flat batch) differs.  (2) Two requests
sharing a 16-token prefix get bit-identical rotated keys for it (what lets prefix caching reuse the block); the wrong
variant gives the second request different keys.  (3) ``cos_sin_cache`` is built once from float32 angles
(``_compute_cos_sin_cache``, ``rotary_embedding/base.py`` l.94–103) and rounded once to the model's dtype (l.58–63):
float32 entries equal cos/sin of the float32 products, which below position 32768 lie closer to cos/sin of the
float64 angles than bfloat16's rounding (up to 2^-9) moves them; a table from float64 angles (the wrong variant)
differs at large positions.  (4) DeepSeek's scaling rotary keeps a float32 table on its FlashInfer path.
(5) For §2: transformers 5.24's SDPA GQA dispatch (``use_gqa_in_sdpa``) and its numbers.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

HEADS_Q, HEADS_KV, HEAD = 4, 2, 64


@pytest.fixture(scope="module")
def vllm():
    with vllm_cpu.loaded() as ns:

        def build(max_position, dtype=torch.float32, base=500000.0):
            return vllm_cpu.build_rope(ns, HEAD, max_position, {"rope_type": "default", "rope_theta": base},
                                       dtype=dtype)

        build.root = ns.root
        build.config = ns.config
        yield build


def runner_positions(num_computed, num_scheduled):
    """The model runner's flat positions (gpu_model_runner.py l.1947–1960), transcribed with numpy."""
    req_indices = np.repeat(np.arange(len(num_scheduled)), num_scheduled)
    query_pos = np.concatenate([np.arange(n) for n in num_scheduled])
    return np.asarray(num_computed)[req_indices] + query_pos


def test_the_transcribed_formula_is_in_the_source(vllm):
    text = (vllm.root / "v1" / "worker" / "gpu_model_runner.py").read_text().splitlines()
    assert "self.input_batch.num_computed_tokens_cpu[req_indices]" in text[1957]  # line 1958, 1-based
    assert "self.query_pos.np[: cu_num_tokens[-1]]" in text[1958]
    assert "req_indices = np.repeat(self.arange_np[:num_reqs], num_scheduled_tokens)" in text[1947]


def _rotate(rotary, positions, q, k):
    out_q, out_k = rotary.forward_native(torch.as_tensor(positions), q.clone(), k.clone())
    return out_q, out_k


def test_flat_batch_equals_separate_calls(vllm):
    rotary = vllm(4096)
    rng = np.random.default_rng(60)
    # request A: 5 prompt tokens, nothing computed yet; request B: a chunk of 3 tokens after 40 computed ones
    num_computed, num_scheduled = [0, 40], [5, 3]
    positions = runner_positions(num_computed, num_scheduled)
    assert positions.tolist() == [0, 1, 2, 3, 4, 40, 41, 42]
    q = torch.tensor(rng.standard_normal((8, HEADS_Q * HEAD)), dtype=torch.float32)
    k = torch.tensor(rng.standard_normal((8, HEADS_KV * HEAD)), dtype=torch.float32)
    batched_q, batched_k = _rotate(rotary, positions, q, k)
    alone_a = _rotate(rotary, positions[:5], q[:5], k[:5])
    alone_b = _rotate(rotary, positions[5:], q[5:], k[5:])
    assert torch.equal(batched_q, torch.cat([alone_a[0], alone_b[0]]))
    assert torch.equal(batched_k, torch.cat([alone_a[1], alone_b[1]]))
    # the same requests in the other slot order: B's rotated keys do not change
    swapped = runner_positions(num_computed[::-1], num_scheduled[::-1])
    _, swapped_k = _rotate(rotary, swapped, torch.cat([q[5:], q[:5]]), torch.cat([k[5:], k[:5]]))
    assert torch.equal(swapped_k[:3], batched_k[5:])
    # wrong variant: positions = index in the flat batch (B's tokens at 5..7)
    _, wrong_k = _rotate(rotary, np.arange(8), q, k)
    assert torch.equal(wrong_k[:5], batched_k[:5])  # request A, in slot 0, happens to agree
    assert (wrong_k[5:] - batched_k[5:]).abs().max() > 0.1


def test_shared_prefix_gets_identical_rotated_keys(vllm):
    rotary = vllm(4096)
    rng = np.random.default_rng(61)
    prefix = torch.tensor(rng.standard_normal((16, HEADS_KV * HEAD)), dtype=torch.float32)  # one block's keys
    tails = [torch.tensor(rng.standard_normal((n, HEADS_KV * HEAD)), dtype=torch.float32) for n in (4, 9)]
    k = torch.cat([prefix, tails[0], prefix, tails[1]])  # two prompts sharing the prefix, in one flat batch
    q = torch.zeros((k.shape[0], HEADS_Q * HEAD))
    positions = runner_positions([0, 0], [20, 25])
    _, keys = _rotate(rotary, positions, q, k)
    assert torch.equal(keys[:16], keys[20:36])  # the cached block fits both requests, bit for bit
    _, wrong = _rotate(rotary, np.arange(k.shape[0]), q, k)  # wrong variant: index in the batch
    assert torch.equal(wrong[:16], keys[:16])
    assert (wrong[20:36] - keys[:16]).abs().max() > 0.1


def test_cos_sin_cache_float32_angles_rounded_once(vllm):
    length, base = 32768, 500000.0
    table32 = vllm(length, torch.float32, base).cos_sin_cache
    table16 = vllm(length, torch.bfloat16, base).cos_sin_cache
    assert table32.shape == (length, HEAD) and table16.dtype == torch.bfloat16
    inv_freq = 1.0 / (base ** (torch.arange(0, HEAD, 2, dtype=torch.float) / HEAD))
    angles32 = torch.outer(torch.arange(length, dtype=torch.float32), inv_freq)  # float32 products
    assert torch.equal(table32, torch.cat([angles32.cos(), angles32.sin()], dim=-1))
    assert torch.equal(table16, table32.to(torch.bfloat16))  # one rounding to the model's dtype
    angles64 = torch.outer(torch.arange(length, dtype=torch.float64), inv_freq.double())
    exact = torch.cat([angles64.cos(), angles64.sin()], dim=-1)
    bf16_rounding = (table16.double() - table32.double()).abs().max().item()
    assert 2.0**-10 < bf16_rounding <= 2.0**-9  # bfloat16: up to 2^-9 (half an ulp of values in [0.5, 1))
    fp32_error = (table32.double() - exact).abs().max().item()
    assert 2.0**-14 < fp32_error < 2.0**-9  # float32 angles below 32768: smaller than bfloat16's rounding
    assert (table16.double() - exact).abs().max().item() <= bf16_rounding + fp32_error
    # wrong variant: a table from float64 angles is not vLLM's
    assert not torch.equal(table32, exact.float())


def test_deepseek_flashinfer_path_keeps_a_float32_table(vllm, monkeypatch):
    """(4) The base class rounds the table to the model's dtype unless ``use_flashinfer`` (``base.py`` l.58–63);
    ``DeepseekScalingRotaryEmbedding`` sets it on CUDA with FlashInfer (``deepseek_scaling_rope.py`` l.56–62).  No
    CUDA here: the three conditions are patched to true, then the table stays float32; unpatched (the wrong variant
    for a CUDA FlashInfer deployment), it is bfloat16 like the base class's."""
    from types import SimpleNamespace

    from vllm.config import set_current_vllm_config
    from vllm.model_executor.layers.rotary_embedding import deepseek_scaling_rope as ds

    source = (vllm.root / "model_executor" / "layers" / "rotary_embedding" / "deepseek_scaling_rope.py").read_text()
    assert "self.use_flashinfer = (" in source.splitlines()[55]  # line 56, 1-based
    base_source = (vllm.root / "model_executor" / "layers" / "rotary_embedding" / "base.py").read_text().splitlines()
    assert "if not self.use_flashinfer:" in base_source[59] and "cache = cache.to(dtype)" in base_source[60]

    def build():
        with set_current_vllm_config(vllm.config), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ds.DeepseekScalingRotaryEmbedding(HEAD, HEAD, 512, 10000.0, True, 4.0, torch.bfloat16)

    plain = build()
    assert not plain.use_flashinfer and plain.cos_sin_cache.dtype == torch.bfloat16
    monkeypatch.setattr(ds, "current_platform", SimpleNamespace(is_cuda=lambda: True))
    monkeypatch.setattr(ds, "has_flashinfer", lambda: True)
    monkeypatch.setattr(ds.DeepseekScalingRotaryEmbedding, "enabled", classmethod(lambda cls: True))
    flashinfer = build()
    assert flashinfer.use_flashinfer and flashinfer.cos_sin_cache.dtype == torch.float32
    assert torch.equal(flashinfer.cos_sin_cache.to(torch.bfloat16), plain.cos_sin_cache)  # same table, one rounding


def test_transformers_sdpa_gqa_dispatch(monkeypatch):
    """(5) Notebook 06 §2: transformers 5.24's ``use_gqa_in_sdpa`` (``integrations/sdpa_attention.py`` l.42–51) on a
    device that is neither XPU nor MPS reads the key/value heads in place only with no attention mask and equal key and
    value head dims <= 256; ``TRANSFORMERS_SDPA_FORCE_GQA=1`` forces it.  In-place GQA computes the same layer as
    ``repeat_kv`` (to float32 rounding); the wrong grouping (``tile``: head mod H_kv) does not."""
    from transformers.integrations import sdpa_attention as sd

    monkeypatch.delenv("TRANSFORMERS_SDPA_FORCE_GQA", raising=False)
    assert not sd._is_torch_xpu_available and not sd._is_torch_mps_available
    gen = torch.Generator().manual_seed(62)
    q = torch.randn(1, 8, 5, 128, generator=gen)
    k, v = torch.randn(2, 1, 2, 5, 128, generator=gen)
    mask = torch.ones(1, 1, 5, 5, dtype=torch.bool)
    assert sd.use_gqa_in_sdpa(None, k, v)
    assert not sd.use_gqa_in_sdpa(mask, k, v)  # a mask (a padded batch): copies
    assert not sd.use_gqa_in_sdpa(None, k, v[..., :64])  # unequal head dims
    wide = torch.zeros(1, 2, 5, 320)
    assert not sd.use_gqa_in_sdpa(None, wide, wide)  # head dim > 256
    monkeypatch.setenv("TRANSFORMERS_SDPA_FORCE_GQA", "1")
    assert sd.use_gqa_in_sdpa(mask, k, v)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    in_place = sdpa(q, k, v, is_causal=True, enable_gqa=True)
    copied = sdpa(q, sd.repeat_kv(k, 4), sd.repeat_kv(v, 4), is_causal=True)
    assert (in_place - copied).abs().max() <= 1e-5
    wrong = sdpa(q, k.repeat(1, 4, 1, 1), v.repeat(1, 4, 1, 1), is_causal=True)  # head mod H_kv
    assert (wrong - copied).abs().max() > 0.1
