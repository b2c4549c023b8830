"""Built on CPU, vLLM 0.33.0's bfloat16 cos/sin table is transformers 5.24's ``cos.to(x.dtype)``, bit for bit (06 §5).

vLLM: ``RotaryEmbeddingBase._compute_cos_sin_cache`` builds float32 angles and cos/sin, ``__init__`` casts the
table to the model dtype unless ``use_flashinfer`` is set (``rotary_embedding/base.py`` lines 58-61, 94-103).
transformers: ``LlamaRotaryEmbedding.forward`` forms the same float32 angles and casts cos and sin to the input's
dtype (``models/llama/modeling_llama.py`` lines 110-116).  Both run here on CPU; vLLM builds its table on the GPU,
and its own comment warns of "a slight numerical difference" there (``_compute_inv_freq``, base.py lines 82-85), so
this says nothing about GPU bits.  Llama 3's head and base; wrong variant: transformers after
``model.to(torch.bfloat16)``, whose rounded ``inv_freq`` gives another table.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

LENGTH, HEAD, BASE = 4096, 128, 500000.0


def _transformers_table(to_bfloat16: bool) -> torch.Tensor:
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = LlamaConfig(hidden_size=HEAD * 4, num_attention_heads=4, head_dim=HEAD, max_position_embeddings=LENGTH,
                         rope_parameters={"rope_type": "default", "rope_theta": BASE})
    rotary = LlamaRotaryEmbedding(config)
    if to_bfloat16:
        rotary = rotary.to(torch.bfloat16)
    x = torch.zeros(1, dtype=torch.bfloat16)
    cos, sin = rotary(x, torch.arange(LENGTH)[None])
    half = HEAD // 2
    return torch.cat((cos[0, :, :half], sin[0, :, :half]), dim=-1)


def test_vllm_bfloat16_table_equals_transformers_cast():
    with vllm_cpu.loaded() as ns:
        rope = vllm_cpu.build_rope(ns, HEAD, LENGTH, {"rope_type": "default", "rope_theta": BASE}, dtype=torch.bfloat16)
        table = rope.cos_sin_cache.clone()
    assert table.dtype == torch.bfloat16
    assert torch.equal(table, _transformers_table(to_bfloat16=False))
    # wrong variant: transformers after model.to(torch.bfloat16) rounds inv_freq, so its table differs
    assert not torch.equal(table, _transformers_table(to_bfloat16=True))
