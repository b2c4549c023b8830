"""Notebook 07's "ways a port goes wrong", run through vLLM 0.33.0's own loader code on CPU.

Block scales: vLLM's Llama 4 loader (``Llama4ForCausalLM.permute_qk_weight_for_rotary``, llama4.py L805-844) permutes
the rows of q/k weights per head and reshapes any multi-element tensor named ``weight_scale`` the same way.  With one
scale per 128 x 128 block that reshape raises at head size 64 and 128, and at head size 256 it succeeds as an identity,
so the scales stay where they were while the weight rows move across blocks: wrong dequantized weights, no error.
A block scale under another name (block-fp8 ``weight_scale_inv``) is passed through untouched: right while the
permutation stays inside one block (head size 64, 128), wrong at 256.  Each case has a wrong variant that must fail.

Meta names: vLLM's Llama loader maps Hugging Face names only (``LlamaModel.hf_to_vllm_mapper``, llama.py L348-357);
a Meta ``layers.N.attention.wq.weight`` is not renamed and ``AutoWeightsLoader`` rejects it (utils.py L438-448).
"""

from __future__ import annotations

import types

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

from ropemath import permute_for_half

BLOCK = 128


@pytest.fixture(scope="module")
def vllm_ns():
    with vllm_cpu.loaded() as ns:
        yield ns


def _dequant(q, scales):  # one scale per BLOCK x BLOCK tile
    return q * np.kron(scales, np.ones((BLOCK, BLOCK)))


def _load(n_heads, d_head, scale_name, seed):
    """Load a block-quantized q_proj (n_heads heads of d_head, 256 inputs) through vLLM's Llama 4 permutation.

    Returns the dequantized loaded weight and the one wanted (the dequantized checkpoint, permuted to half), or raises
    what vLLM raises."""
    from vllm.model_executor.models.llama4 import Llama4ForCausalLM

    permute = Llama4ForCausalLM.permute_qk_weight_for_rotary
    fake = types.SimpleNamespace(config=types.SimpleNamespace(num_attention_heads=n_heads, num_key_value_heads=n_heads))
    rng = np.random.default_rng(seed)
    q = rng.integers(-127, 128, size=(n_heads * d_head, 256)).astype(np.float64)
    scales = rng.uniform(0.5, 2.0, size=(n_heads * d_head // BLOCK, 256 // BLOCK))
    _, q_loaded = permute(fake, "layers.0.attn.q_proj.weight", torch.from_numpy(q))
    _, s_loaded = permute(fake, f"layers.0.attn.q_proj.{scale_name}", torch.from_numpy(scales))
    return _dequant(q_loaded.numpy(), s_loaded.numpy()), permute_for_half(_dequant(q, scales), n_heads)


@pytest.mark.parametrize("d_head", [64, 128])
def test_weight_scale_block_scales_raise_at_head_size_64_and_128(vllm_ns, d_head):
    with pytest.raises(RuntimeError):
        _load(4, d_head, "weight_scale", seed=d_head)
    loaded, wanted = _load(4, d_head, "weight_scale_inv", seed=d_head)  # wrong variant: another name loads
    assert np.array_equal(loaded, wanted)


@pytest.mark.parametrize("scale_name", ["weight_scale", "weight_scale_inv"])
def test_block_scales_are_silently_wrong_at_head_size_256(vllm_ns, scale_name):
    loaded, wanted = _load(2, 256, scale_name, seed=7)  # no error raised
    assert not np.allclose(loaded, wanted)  # mis-scaled rows
    rows_wrong = np.mean(~np.isclose(loaded, wanted).all(axis=1))
    assert rows_wrong > 0.4  # about half the rows of each head sit under another block's scale
    small, small_wanted = _load(4, 128, "weight_scale_inv", seed=7)  # wrong variant: head size 128 is right
    assert np.array_equal(small, small_wanted)


def test_weight_scale_inv_is_never_permuted(vllm_ns):
    from vllm.model_executor.models.llama4 import Llama4ForCausalLM

    fake = types.SimpleNamespace(config=types.SimpleNamespace(num_attention_heads=2, num_key_value_heads=2))
    per_row = torch.from_numpy(np.random.default_rng(3).uniform(0.5, 2.0, size=(256, 1)))
    permute = Llama4ForCausalLM.permute_qk_weight_for_rotary
    _, untouched = permute(fake, "layers.0.attn.q_proj.weight_scale_inv", per_row)
    _, permuted = permute(fake, "layers.0.attn.q_proj.weight_scale", per_row)
    assert np.array_equal(untouched.numpy(), per_row.numpy())
    assert np.array_equal(permuted.numpy(), permute_for_half(per_row.numpy(), 2))  # wrong variant: this name is


def test_vllm_llama_loader_rejects_meta_names(vllm_ns):
    from vllm.model_executor.models.llama import LlamaModel
    from vllm.model_executor.models.utils import AutoWeightsLoader

    mapper = LlamaModel.hf_to_vllm_mapper
    assert mapper.map_name("model.layers.0.self_attn.q_proj.weight") == "model.layers.0.self_attn.qkv_proj.weight"
    assert mapper.map_name("layers.0.attention.wq.weight") == "layers.0.attention.wq.weight"  # no Meta mapping

    class Toy(torch.nn.Module):  # the top level of vLLM's LlamaForCausalLM: `model` and `lm_head`
        def __init__(self):
            super().__init__()
            self.model = torch.nn.Module()
            self.model.layers = torch.nn.ModuleList([torch.nn.Module()])
            self.model.layers[0].self_attn = torch.nn.Module()
            self.model.layers[0].self_attn.o_proj = torch.nn.Linear(4, 4, bias=False)
            self.lm_head = torch.nn.Linear(4, 4, bias=False)

    with pytest.raises(ValueError, match="no module or parameter named 'layers'"):
        AutoWeightsLoader(Toy()).load_weights([("layers.0.attention.wq.weight", torch.zeros(4, 4))])
    hf_name = "model.layers.0.self_attn.o_proj.weight"  # wrong variant: a Hugging Face name loads
    assert AutoWeightsLoader(Toy()).load_weights([(hf_name, torch.zeros(4, 4))]) == {hf_name}
