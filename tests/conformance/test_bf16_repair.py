"""Notebook 06's bfloat16 pitfall, dtype check and repair, run in torch 2.13 on CPU with transformers 5.24.

``model.to(torch.bfloat16)`` casts every RoPE buffer to bfloat16: ``inv_freq`` and ``original_inv_freq`` of
``LlamaRotaryEmbedding`` and ``Qwen3RotaryEmbedding`` (``modeling_llama.py`` l.87-88, ``modeling_qwen3.py``
l.100-101), the per-layer-type ``{layer_type}_inv_freq`` buffers of ``Gemma3RotaryEmbedding`` (``modeling_gemma3.py``
l.157-158), so the float32 θ_i cannot be taken back from ``original_inv_freq``.  ``from_pretrained(..., dtype=)``
keeps them float32.

The check a reader can run on any model: the buffers named ``*inv_freq`` that are not float32.
The repair that works beyond Llama: for every module whose class name ends in ``RotaryEmbedding``, build a fresh one
from that module's own ``config`` (the text config in a composite model) and copy its float32 buffers over.  The
model's outputs then equal, bit for bit, those of the same checkpoint loaded with ``dtype=torch.bfloat16``.
Wrong variants: ``.float()`` on the rounded buffers (passes the dtype check, values stay rounded), and
``model._init_weights(module)`` (``PreTrainedModel._init_weights``, ``modeling_utils.py`` l.2356-2368, and
``Gemma3PreTrainedModel._init_weights``, ``modeling_gemma3.py`` l.436-440, recompute θ_i but ``init.copy_`` writes
them into the bfloat16 buffers).
"""

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
from transformers import (
    Gemma3ForCausalLM,
    Gemma3TextConfig,
    LlamaConfig,
    LlamaForCausalLM,
    Qwen3Config,
    Qwen3ForCausalLM,
)

from ropemath import frequencies
from ropemath.core import round_to_format
from ropemath.models import torch_float32_theta

D = 128
SHAPE = dict(hidden_size=D * 2, num_attention_heads=2, num_key_value_heads=1, head_dim=D, intermediate_size=16,
             vocab_size=32, max_position_embeddings=131072)
MODELS = {
    "llama": (LlamaForCausalLM, LlamaConfig(**SHAPE, num_hidden_layers=1,
                                            rope_parameters={"rope_type": "default", "rope_theta": 500000.0})),
    "qwen3": (Qwen3ForCausalLM, Qwen3Config(**SHAPE, num_hidden_layers=1,
                                            rope_parameters={"rope_type": "default", "rope_theta": 1000000.0})),
    "gemma3": (Gemma3ForCausalLM, Gemma3TextConfig(**SHAPE, num_hidden_layers=2, sliding_window=4,
                                                   layer_types=["sliding_attention", "full_attention"])),
}


def not_float32(model):
    """The dtype check: names of RoPE frequency buffers that are not float32 (empty list = fine)."""
    return [name for name, buf in model.named_buffers() if name.endswith("inv_freq") and buf.dtype != torch.float32]


def repair_rope(model):
    """Rebuild every rotary module's buffers in float32 from its own config (works beyond Llama)."""
    for module in model.modules():
        if type(module).__name__.endswith("RotaryEmbedding") and hasattr(module, "config"):
            fresh = type(module)(module.config)
            for name, buf in fresh.named_buffers():
                setattr(module, name, buf.to(getattr(module, name).device))


@pytest.fixture(scope="module", params=list(MODELS))
def models(request, tmp_path_factory):
    cls, config = MODELS[request.param]
    path = tmp_path_factory.mktemp(request.param)
    torch.manual_seed(0)
    cls(config).save_pretrained(path)
    loaded = cls.from_pretrained(path, dtype=torch.bfloat16)  # the safe way: inv_freq stays float32
    return request.param, path, cls, loaded


def cast_model(models):
    _, path, cls, _ = models
    return cls.from_pretrained(path).to(torch.bfloat16)  # the pitfall


def logits(model):
    ids = torch.tensor([[1, 5, 7, 2, 9, 3, 4, 8]])
    positions = torch.arange(8)[None] + 8000  # far enough for bfloat16 θ_i to be radians off
    with torch.no_grad():
        return model(input_ids=ids, position_ids=positions).logits


def test_dtype_check_flags_the_cast_model_only(models):
    name, _, _, loaded = models
    cast = cast_model(models)
    assert not_float32(loaded) == []
    flagged = not_float32(cast)
    assert len(flagged) >= 2 and all("original_inv_freq" in n or n.endswith("inv_freq") for n in flagged)
    assert any("original_inv_freq" in n for n in flagged)  # the saved copy is rounded too
    assert not torch.equal(logits(cast), logits(loaded))  # the pitfall changes the output
    if name == "llama":
        rope = cast.model.rotary_emb
        assert np.array_equal(rope.original_inv_freq.double().numpy(), round_to_format(frequencies(D, 5e5), "bfloat16"))


def test_generic_repair_restores_float32_bit_for_bit(models):
    name, _, _, loaded = models
    cast = cast_model(models)
    repair_rope(cast)
    assert not_float32(cast) == []
    for (n1, b1), (n2, b2) in zip(cast.named_buffers(), loaded.named_buffers(), strict=True):
        if n1.endswith("inv_freq"):
            assert n1 == n2 and torch.equal(b1, b2)
    if name == "llama":
        assert np.array_equal(cast.model.rotary_emb.inv_freq.double().numpy(), torch_float32_theta(D, 5e5))
    assert torch.equal(logits(cast), logits(loaded))  # bit for bit the model loaded with dtype=


def test_wrong_repair_float_passes_the_check_but_stays_rounded(models):
    _, _, _, loaded = models
    cast = cast_model(models)
    for module in cast.modules():
        if type(module).__name__.endswith("RotaryEmbedding"):
            module.float()  # wrong: float32 dtype, bfloat16 values
    assert not_float32(cast) == []  # the dtype check alone does not see it
    assert not torch.equal(logits(cast), logits(loaded))


def test_wrong_repair_init_weights_keeps_bfloat16(models):
    _, _, _, loaded = models
    cast = cast_model(models)
    for module in cast.modules():
        if type(module).__name__.endswith("RotaryEmbedding"):
            cast._init_weights(module)  # recomputes θ_i, but copies them into the bfloat16 buffers
    assert not_float32(cast) != []
    assert not torch.equal(logits(cast), logits(loaded))


def test_llama_repair_by_rebuilding_the_module(tmp_path):
    """The one-line rebuild for a Llama-shaped model (one rotary module at `model.model.rotary_emb`)."""
    cls, config = MODELS["llama"]
    torch.manual_seed(0)
    cls(config).save_pretrained(tmp_path)
    llama = ("llama", tmp_path, cls, cls.from_pretrained(tmp_path, dtype=torch.bfloat16))
    loaded = llama[3]
    cast = cast_model(llama)
    cast.model.rotary_emb = type(cast.model.rotary_emb)(cast.config)
    assert torch.equal(logits(cast), logits(loaded))


def test_half_rounds_the_buffers_like_the_bfloat16_cast(models):
    """``model.half()`` (``PreTrainedModel.half``, ``modeling_utils.py`` l.3791-3799, calls ``nn.Module.half``) casts
    the RoPE buffers to float16, the same pitfall; ``from_pretrained(..., dtype=torch.float16)`` keeps them float32."""
    _, path, cls, _ = models
    halved = cls.from_pretrained(path).half()
    flagged = not_float32(halved)
    assert flagged and any("original_inv_freq" in n for n in flagged)
    assert all(b.dtype == torch.float16 for n, b in halved.named_buffers() if n.endswith("inv_freq"))
    assert not_float32(cls.from_pretrained(path, dtype=torch.float16)) == []  # wrong variant of the claim: dtype= load
