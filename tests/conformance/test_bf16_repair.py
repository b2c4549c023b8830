"""Notebook 06's bfloat16 repair, run in torch 2.13 on CPU with transformers 5.24.

``model.to(torch.bfloat16)`` casts both RoPE buffers of ``LlamaRotaryEmbedding`` (``inv_freq`` and
``original_inv_freq``, ``modeling_llama.py`` l.87-88) to bfloat16, so the float32 θ_i cannot be taken back from
``original_inv_freq``.  Rebuilding the module from the model's config restores them:
``model.model.rotary_emb = type(model.model.rotary_emb)(model.config)`` gives float32 ``inv_freq`` again, and
the model's outputs then equal, bit for bit, those of the same checkpoint loaded with
``from_pretrained(..., dtype=torch.bfloat16)``.  The wrong variant (``original_inv_freq.float()``) stays rounded.
"""

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
from transformers import LlamaConfig, LlamaForCausalLM

from ropemath import frequencies
from ropemath.core import round_to_format
from ropemath.models import torch_float32_theta

D = 128
CONFIG = dict(hidden_size=D * 2, num_attention_heads=2, num_key_value_heads=1, head_dim=D, num_hidden_layers=1,
              intermediate_size=16, vocab_size=32, max_position_embeddings=131072,
              rope_parameters={"rope_type": "default", "rope_theta": 500000.0})


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny_llama")
    torch.manual_seed(0)
    LlamaForCausalLM(LlamaConfig(**CONFIG)).save_pretrained(path)
    loaded = LlamaForCausalLM.from_pretrained(path, dtype=torch.bfloat16)  # the safe way: inv_freq stays float32
    cast = LlamaForCausalLM.from_pretrained(path).to(torch.bfloat16)  # the pitfall
    return loaded, cast


def logits(model):
    ids = torch.tensor([[1, 5, 7, 2, 9, 3, 4, 8]])
    positions = torch.arange(8)[None] + 8000  # far enough for bfloat16 θ_i to be radians off
    with torch.no_grad():
        return model(input_ids=ids, position_ids=positions).logits


def test_to_bfloat16_rounds_both_buffers(models):
    _, cast = models
    rope = cast.model.rotary_emb
    assert rope.inv_freq.dtype == torch.bfloat16 and rope.original_inv_freq.dtype == torch.bfloat16
    assert np.array_equal(rope.original_inv_freq.double().numpy(), round_to_format(frequencies(D, 5e5), "bfloat16"))


def test_rebuilding_the_rotary_module_from_config_restores_float32(models):
    loaded, cast = models
    assert loaded.model.rotary_emb.inv_freq.dtype == torch.float32
    assert not torch.equal(logits(cast), logits(loaded))  # the pitfall changes the output
    cast.model.rotary_emb = type(cast.model.rotary_emb)(cast.config)  # the repair
    rope = cast.model.rotary_emb
    assert rope.inv_freq.dtype == torch.float32
    assert np.array_equal(rope.inv_freq.double().numpy(), torch_float32_theta(D, 5e5))
    assert torch.equal(logits(cast), logits(loaded))  # bit for bit the model loaded with dtype=


def test_wrong_repair_from_original_inv_freq_stays_rounded(models, tmp_path):
    loaded, _ = models
    loaded.save_pretrained(tmp_path)
    cast = LlamaForCausalLM.from_pretrained(tmp_path).to(torch.bfloat16)
    rope = cast.model.rotary_emb
    rope.inv_freq = rope.original_inv_freq.float()  # wrong: float32 dtype, bfloat16 values
    assert rope.inv_freq.dtype == torch.float32
    assert not np.array_equal(rope.inv_freq.double().numpy(), torch_float32_theta(D, 5e5))
    assert not torch.equal(logits(cast), logits(loaded))
