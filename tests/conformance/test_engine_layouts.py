"""Notebook 07's layout table, run: which pairs each engine rotates, model family by model family.

vLLM 0.33.0 fixes the layout per model file (``is_neox_style=``, read at the cited lines and asserted here); each
family's rotary module is then built with ``get_rope`` on CPU (``VLLM_TARGET_DEVICE=cpu``, as in
``test_vllm_rotary.py``) and its ``forward_native`` compared with ``ropemath.partial_rotary`` in the layout the table
states (True = half, False = interleaved), with the other layout as the wrong variant that must fail.  Building a
whole attention layer needs vLLM's distributed state, so the flag is read from the model file, not from a built
model.  Also run: Llama 4's load-time ``permute_qk_weight_for_rotary`` (= ``permute_for_half``), DeepSeek-V3's
``k_pe`` order in transformers 5.24 (half order) vs vLLM (interleaved order), transformers' GGUF loader
``_reverse_permute_weights`` (GGUF interleaved -> Hugging Face half, biases included), vLLM's Flint GGUF reader
(unpermuted, half rotation; read), and GPT-NeoX's
``rotary_pct`` landing in ``rope_parameters["partial_rotary_factor"]``.
"""

from __future__ import annotations

import importlib.util
import re
import types
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

from ropemath import partial_rotary, permute_for_half, permute_for_interleaved, to_half

_VLLM_SPEC = importlib.util.find_spec("vllm")  # the installed package's own sources, read without importing it
VLLM_SRC = Path(_VLLM_SPEC.origin).parent if _VLLM_SPEC and _VLLM_SPEC.origin else Path("vllm-not-installed")
TOL = 2e-3  # float32 tables at positions < 1024: angle error below 1e-4 rad, entries of size ~4

# family: (vLLM file, line of `is_neox_style`, value, head size, rotary dim, base)
FAMILIES = {
    "Llama 2/3": ("llama.py", 241, True, 128, 128, 500000.0),
    "Llama 4": ("llama4.py", 238, True, 128, 128, 500000.0),
    "GPT-J": ("gpt_j.py", 102, False, 256, 64, 10000.0),
    "Cohere": ("commandr.py", 231, False, 128, 128, 8000000.0),
    "DeepSeek-V3 (MLA, k_pe)": ("deepseek_v2.py", 1126, False, 64, 64, 10000.0),
}


def _read_flag(filename: str, line: int) -> bool:
    text = (VLLM_SRC / "model_executor" / "models" / filename).read_text().splitlines()[line - 1]
    match = re.search(r"is_neox_style\s*=\s*(True|False)", text)
    assert match, f"{filename}:{line} does not set is_neox_style: {text!r}"
    return match.group(1) == "True"


@pytest.fixture(scope="module")
def vllm():
    if not VLLM_SRC.is_dir():
        pytest.skip("vLLM 0.33.0 source not present")
    with vllm_cpu.loaded() as ns:

        def build(head_size, rotary_dim, is_neox_style, base):
            return vllm_cpu.build_rope(ns, head_size, 4096, {"rope_type": "default", "rope_theta": base},
                                       dtype=torch.float32, is_neox_style=is_neox_style, rotary_dim=rotary_dim)

        yield build


def _run(module, q, m):
    out, _ = module.forward_native(torch.from_numpy(m), torch.from_numpy(q.astype(np.float32)).clone(), None)
    return out.double().numpy()


@pytest.mark.parametrize("family", list(FAMILIES))
def test_vllm_layout_per_family(vllm, family):
    filename, line, neox, head, rot, base = FAMILIES[family]
    assert _read_flag(filename, line) is neox
    rng = np.random.default_rng(sum(map(ord, family)))
    m = rng.integers(0, 1024, size=16)
    q = rng.standard_normal((16, 2 * head))  # two heads per token, flattened as vLLM takes them
    out = _run(vllm(head, rot, neox, base), q, m).reshape(16, 2, head)
    layout, wrong = ("half", "interleaved") if neox else ("interleaved", "half")
    expected = partial_rotary(q.reshape(16, 2, head).transpose(1, 0, 2), m, rot, layout=layout, base=base)
    assert np.abs(out - expected.transpose(1, 0, 2)).max() < TOL
    other = partial_rotary(q.reshape(16, 2, head).transpose(1, 0, 2), m, rot, layout=wrong, base=base)
    assert np.abs(out - other.transpose(1, 0, 2)).max() > 0.1  # wrong variant: the other layout


def test_gpt_neox_runs_through_the_transformers_backend():
    registry = (VLLM_SRC / "model_executor" / "models" / "registry.py").read_text().splitlines()
    assert '"GPTNeoXForCausalLM": ("transformers", "TransformersForCausalLM")' in registry[753]
    assert not (VLLM_SRC / "model_executor" / "models" / "gpt_neox.py").exists()
    assert '"LlamaForCausalLM"' not in registry[753]  # wrong variant: another model on that line


def test_llama4_permutes_q_k_at_load(vllm):
    from vllm.model_executor.models.llama4 import Llama4ForCausalLM

    lines = (VLLM_SRC / "model_executor" / "models" / "llama4.py").read_text().splitlines()
    assert "per-block" in lines[813] and "not quantizing q/k_proj" in lines[814]  # llama4.py:814-815
    fake = types.SimpleNamespace(config=types.SimpleNamespace(num_attention_heads=4, num_key_value_heads=2))
    rng = np.random.default_rng(4)
    w_q, w_k = rng.standard_normal((4 * 64, 32)), rng.standard_normal((2 * 64, 32))
    permute = Llama4ForCausalLM.permute_qk_weight_for_rotary
    _, q_loaded = permute(fake, "layers.0.attn.q_proj.weight", torch.from_numpy(w_q))
    _, k_loaded = permute(fake, "layers.0.attn.k_proj.weight", torch.from_numpy(w_k))
    assert np.array_equal(q_loaded.numpy(), permute_for_half(w_q, 4))
    assert np.array_equal(k_loaded.numpy(), permute_for_half(w_k, 2))
    assert not np.array_equal(k_loaded.numpy(), permute_for_half(w_k, 4))  # wrong variant: query head count
    _, bias = permute(fake, "layers.0.attn.q_proj.bias", torch.arange(256.0))
    assert np.array_equal(bias.numpy(), np.arange(256.0))  # biases are passed through unpermuted
    # end to end: Meta's interleaved weights + Meta's rotation = permuted weights + vLLM's is_neox_style=True
    x, m = rng.standard_normal((8, 32)), rng.integers(0, 1024, size=8)
    meta = partial_rotary((x @ w_q.T).reshape(8, 4, 64).transpose(1, 0, 2), m, 64, layout="interleaved", base=500000.0)
    rotary = vllm(64, 64, True, 500000.0)
    served = _run(rotary, x @ q_loaded.numpy().T, m).reshape(8, 4, 64).transpose(1, 0, 2)
    assert np.abs(served - to_half(meta)).max() < TOL
    unpermuted = _run(rotary, x @ w_q.T, m).reshape(8, 4, 64).transpose(1, 0, 2)
    assert np.abs(unpermuted - to_half(meta)).max() > 0.1  # wrong variant: load without the permutation



def _dequant_blocks(q, scales, block=128):  # per-block dequantization: one scale per block x block tile
    return q * np.kron(scales, np.ones((block, block)))


def test_block_quantized_q_k_permute_within_blocks_but_llama4_loader_cannot(vllm):
    """The row permutation stays inside one 128-row block when head_dim divides 128, so block scales can stay put;
    vLLM 0.33.0's Llama 4 loader still reshapes any multi-element weight_scale per row (llama4.py:816-838): with block
    scales it raises at head size 128 and silently leaves the scales unpermuted at head size 256."""
    from vllm.model_executor.models.llama4 import Llama4ForCausalLM

    rng = np.random.default_rng(12)
    for d_head, n_heads, fits in [(64, 4, True), (128, 2, True), (256, 2, False), (96, 4, False)]:
        q = rng.integers(-127, 128, size=(n_heads * d_head, 256)).astype(np.float64)  # quantized values
        scales = rng.uniform(0.5, 2.0, size=(n_heads * d_head // 128, 2))  # one scale per 128x128 block
        same = np.array_equal(_dequant_blocks(permute_for_half(q, n_heads), scales),
                              permute_for_half(_dequant_blocks(q, scales), n_heads))
        assert same == fits  # wrong variants: head_dim 256 or 96 moves rows across a block boundary
    lines = (VLLM_SRC / "model_executor" / "models" / "llama4.py").read_text().splitlines()
    assert "numel() > 1" in lines[818] and "view(n_heads, f_out // n_heads // 2, 2, f_in)" in lines[835]
    fake = types.SimpleNamespace(config=types.SimpleNamespace(num_attention_heads=2, num_key_value_heads=2))
    permute = Llama4ForCausalLM.permute_qk_weight_for_rotary
    with pytest.raises(RuntimeError):  # block scales (2 x 2) for 2 heads of 128: the per-row view fails
        permute(fake, "layers.0.attn.q_proj.weight_scale", torch.ones(2, 2))
    per_row = rng.uniform(0.5, 2.0, size=(256, 1))  # wrong variant: per-channel scales load and are permuted
    _, loaded = permute(fake, "layers.0.attn.q_proj.weight_scale", torch.from_numpy(per_row))
    assert np.array_equal(loaded.numpy(), permute_for_half(per_row, 2))
    # head size 256 (2 heads): 4 x 2 block scales; the view succeeds (f_out // n_heads // 2 = 1) and changes nothing,
    # while the weight rows are permuted across block rows: no error, wrong dequantized weights
    block_scales = rng.uniform(0.5, 2.0, size=(4, 2))
    _, kept = permute(fake, "layers.0.attn.q_proj.weight_scale", torch.from_numpy(block_scales))
    assert np.array_equal(kept.numpy(), block_scales)  # silently left as they are
    q = rng.integers(-127, 128, size=(512, 256)).astype(np.float64)
    _, q_loaded = permute(fake, "layers.0.attn.q_proj.weight", torch.from_numpy(q))
    assert np.array_equal(q_loaded.numpy(), permute_for_half(q, 2))
    wanted = permute_for_half(_dequant_blocks(q, block_scales), 2)
    assert not np.array_equal(_dequant_blocks(q_loaded.numpy(), kept.numpy()), wanted)  # mis-scaled
    equal = np.ones((4, 2))  # wrong variant: with equal block scales the same load would be right
    assert np.array_equal(_dequant_blocks(q_loaded.numpy(), equal), permute_for_half(_dequant_blocks(q, equal), 2))

def test_deepseek_k_pe_order_differs_between_engines(vllm):
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import apply_rotary_pos_emb_interleave

    rng = np.random.default_rng(3)
    k_pe, m = rng.standard_normal((16, 64)), rng.integers(0, 1024, size=16)
    in_vllm = _run(vllm(64, 64, False, 10000.0), k_pe, m)
    theta = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    angles = np.concatenate([np.outer(m, theta)] * 2, axis=-1)
    cos, sin = (torch.from_numpy(f(angles))[None] for f in (np.cos, np.sin))
    k = torch.from_numpy(k_pe)[None, None]
    _, in_transformers = apply_rotary_pos_emb_interleave(k, k, cos, sin)
    in_transformers = in_transformers[0, 0].numpy()
    assert np.abs(in_transformers - to_half(in_vllm)).max() < TOL  # same pairs, half order in transformers
    assert np.abs(in_transformers - in_vllm).max() > 0.1  # wrong variant: the caches hold the same order


def test_llama4_key_order_differs_between_engines(vllm):
    """Llama 4's cached keys: transformers 5.24 rotates the checkpoint's interleaved rows in place
    (``apply_rotary_emb``, ``modeling_llama4.py`` lines 225-234, before ``cache.update`` at line 373), vLLM 0.33.0
    rotates the load-time-permuted rows neox-style (``llama4.py`` lines 283 and 305): half order.  A cache moved
    between the two engines needs P."""
    from transformers.models.llama4.modeling_llama4 import apply_rotary_emb
    from vllm.model_executor.models.llama4 import Llama4ForCausalLM

    rng = np.random.default_rng(41)
    w_k, x, m = rng.standard_normal((64, 32)), rng.standard_normal((8, 32)), rng.integers(0, 1024, size=8)
    theta = 500000.0 ** (-np.arange(0, 64, 2) / 64)
    freqs_cis = torch.polar(torch.ones(8, 32, dtype=torch.float64), torch.from_numpy(np.outer(m, theta)))[None]
    k = torch.from_numpy(x @ w_k.T).reshape(1, 8, 1, 64)
    _, in_transformers = apply_rotary_emb(k, k, freqs_cis)
    in_transformers = in_transformers[0, :, 0].numpy()
    fake = types.SimpleNamespace(config=types.SimpleNamespace(num_attention_heads=1, num_key_value_heads=1))
    _, k_loaded = Llama4ForCausalLM.permute_qk_weight_for_rotary(fake, "layers.0.attn.k_proj.weight",
                                                                 torch.from_numpy(w_k))
    in_vllm = _run(vllm(64, 64, True, 500000.0), x @ k_loaded.numpy().T, m)
    assert np.abs(in_vllm - to_half(in_transformers)).max() < TOL  # the same keys, half order in vLLM
    assert np.abs(in_vllm - in_transformers).max() > 0.1  # wrong variant: the caches hold the same order


def test_gguf_loader_turns_interleaved_into_half():
    from transformers.modeling_gguf_pytorch_utils import LlamaTensorProcessor

    processor = LlamaTensorProcessor(config={"num_attention_heads": 4, "num_key_value_heads": 2})
    rng = np.random.default_rng(9)
    w_q, w_k, b_q = rng.standard_normal((256, 32)), rng.standard_normal((128, 32)), rng.standard_normal(256)
    assert np.array_equal(processor.process(w_q, "blk.0.attn_q.weight").weights, permute_for_half(w_q, 4))
    assert np.array_equal(processor.process(w_k, "blk.0.attn_k.weight").weights, permute_for_half(w_k, 2))
    assert np.array_equal(processor.process(b_q, "blk.0.attn_q.bias").weights, permute_for_half(b_q, 4))
    assert not np.array_equal(processor.process(w_q, "blk.0.attn_q.weight").weights, permute_for_interleaved(w_q, 4))


def test_rotary_pct_moves_into_rope_parameters():
    from transformers import GPTNeoXConfig

    config = GPTNeoXConfig(rotary_pct=0.5)
    assert config.rope_parameters["partial_rotary_factor"] == 0.5
    assert GPTNeoXConfig().rope_parameters["partial_rotary_factor"] == 0.25
    assert getattr(config, "rotary_pct", None) != 0.5  # wrong variant: still a top-level attribute


# Families added to the table: transformers 5.24 file, line of the rotation, layout; vLLM 0.33.0 source of the flag.
# `rotate_half` in each file is run on 0..7 (half: (-x4..-x7, x0..x3); GLM's: neighbours, (-x1, x0, -x3, x2, ...)).
HF_ROTATIONS = {
    "qwen2": (125, "half"), "qwen3": (160, "half"), "mistral": (79, "half"), "gemma2": (159, "half"),
    "gemma3": (228, "half"), "phi3": (184, "half"), "stablelm": (134, "half"), "glm4": (189, "interleaved"),
}


@pytest.mark.parametrize("model", list(HF_ROTATIONS))
def test_transformers_rotation_per_family(model):
    import importlib

    module = importlib.import_module(f"transformers.models.{model}.modeling_{model}")
    line, layout = HF_ROTATIONS[model]
    assert "rotate_half(" in Path(module.__file__).read_text().splitlines()[line - 1]
    out = module.rotate_half(torch.arange(8.0)).tolist()
    half, neighbours = [-4.0, -5.0, -6.0, -7.0, 0.0, 1.0, 2.0, 3.0], [-1.0, 0.0, -3.0, 2.0, -5.0, 4.0, -7.0, 6.0]
    assert out == (half if layout == "half" else neighbours)
    assert out != (neighbours if layout == "half" else half)  # wrong variant: the other layout


def _get_rope_call(filename: str, line: int) -> str:
    lines = (VLLM_SRC / "model_executor" / "models" / filename).read_text().splitlines()
    assert "get_rope(" in lines[line - 1], f"{filename}:{line}"
    return "\n".join(lines[line - 1 : line + 7]).split(")\n")[0]


def test_vllm_flag_for_added_families(vllm):
    import inspect

    from vllm.model_executor.layers.rotary_embedding import get_rope
    from vllm.model_executor.models.llama import LlamaAttention, LlamaForCausalLM
    from vllm.model_executor.models.mistral import MistralAttention
    from vllm.model_executor.models.phi3 import Phi3ForCausalLM

    assert inspect.signature(get_rope).parameters["is_neox_style"].default is True  # rotary_embedding/__init__.py:35
    for filename, line in (("qwen2.py", 179), ("qwen3.py", 123), ("stablelm.py", 149)):
        assert "is_neox_style" not in _get_rope_call(filename, line)  # the default, True
    assert "is_neox_style=False" in _get_rope_call("glm4.py", 111)  # wrong variant: GLM-4 sets it
    assert _read_flag("gemma2.py", 151) is True and _read_flag("gemma3.py", 162) is True
    assert _read_flag("glm4.py", 115) is False
    assert issubclass(MistralAttention, LlamaAttention) and "_init_rotary_emb" not in MistralAttention.__dict__
    assert issubclass(Phi3ForCausalLM, LlamaForCausalLM) and not issubclass(MistralAttention, Phi3ForCausalLM)
    # GLM-4 as vLLM runs it: interleaved pairs on the first half of each head (partial_rotary_factor 0.5)
    rng = np.random.default_rng(44)
    m, q = rng.integers(0, 1024, size=16), rng.standard_normal((16, 128))
    out = _run(vllm(128, 64, False, 10000.0), q, m)
    assert np.abs(out - partial_rotary(q, m, 64, layout="interleaved", base=10000.0)).max() < TOL
    assert np.abs(out - partial_rotary(q, m, 64, layout="half", base=10000.0)).max() > 0.1  # wrong variant


def test_gguf_unpermutes_only_llama_and_vllm_has_no_gguf_format():
    from transformers.modeling_gguf_pytorch_utils import TENSOR_PROCESSORS, LlamaTensorProcessor, TensorProcessor

    llama_like = [a for a, cls in TENSOR_PROCESSORS.items() if issubclass(cls, LlamaTensorProcessor)]
    assert llama_like == ["llama"]
    w_q = np.random.default_rng(1).standard_normal((256, 32))
    qwen2 = TENSOR_PROCESSORS.get("qwen2", TensorProcessor)(config={"num_attention_heads": 4, "num_key_value_heads": 2})
    assert np.array_equal(qwen2.process(w_q, "blk.0.attn_q.weight").weights, w_q)  # a Qwen2 GGUF: not permuted
    llama = TENSOR_PROCESSORS["llama"](config={"num_attention_heads": 4, "num_key_value_heads": 2})
    assert not np.array_equal(llama.process(w_q, "blk.0.attn_q.weight").weights, w_q)  # wrong variant: llama is
    formats = (VLLM_SRC / "model_executor" / "model_loader" / "__init__.py").read_text()
    block = formats.split("LoadFormats = Literal[")[1].split("]")[0]
    assert '"gguf"' not in block and '"safetensors"' in block  # vLLM 0.33.0: no GGUF load format


def test_vllm_flint_gguf_reader_is_half_and_kernel_flags():
    """vLLM 0.33.0's one GGUF reader (Flint) maps attn_q/attn_k unpermuted into a neox (half) rotation; flags passed."""
    if not VLLM_SRC.is_dir():
        pytest.skip("vLLM 0.33.0 source not present")
    gguf = (VLLM_SRC / "models" / "flint" / "gguf_nvfp4.py").read_text()
    lines = gguf.splitlines()
    assert '"attn_q": "self_attn.q_proj"' in lines[36] and '"attn_k": "self_attn.k_proj"' in lines[37]
    assert "permute" not in gguf and "transpose(" not in gguf  # no q/k row permutation anywhere in the reader
    flint = (VLLM_SRC / "models" / "flint" / "model.py").read_text().splitlines()
    assert flint[292].strip() == "assert self.rotary_emb.is_neox_style"
    assert flint[292].strip() != "assert not self.rotary_emb.is_neox_style"  # wrong variant: interleaved
    common = (VLLM_SRC / "model_executor" / "layers" / "rotary_embedding" / "common.py").read_text().splitlines()
    assert common[233].strip() == "interleaved = not self.is_neox_style" and common[98].strip() == "is_neox=is_neox,"
    assert common[233].strip() != "interleaved = self.is_neox_style"  # wrong variant: flag not negated



def test_cos_sin_table_dtype_exceptions_and_transformers_hub_kernel():
    """vLLM 0.33.0's cos/sin table takes get_rope's dtype (base.py:61), except FlashInfer (base.py:60, read); Flint asks
    for float32 (flint/model.py:291). transformers 5.24's apply_rotary_pos_emb is a Hub-kernel hook (read)."""
    if not VLLM_SRC.is_dir():
        pytest.skip("vLLM 0.33.0 source not present")
    with vllm_cpu.loaded() as ns:
        tables = {dt: vllm_cpu.build_rope(ns, 128, 4096, {"rope_type": "default", "rope_theta": 10000.0}, dtype=dt)
                  .cos_sin_cache.dtype for dt in (torch.float32, torch.bfloat16)}
    assert tables == {torch.float32: torch.float32, torch.bfloat16: torch.bfloat16}
    assert tables[torch.bfloat16] != torch.float32  # wrong variant: the table always stays float32
    base = (VLLM_SRC / "model_executor" / "layers" / "rotary_embedding" / "base.py").read_text().splitlines()
    assert base[59].strip() == "if not self.use_flashinfer:" and base[60].strip() == "cache = cache.to(dtype)"
    flint = (VLLM_SRC / "models" / "flint" / "model.py").read_text().splitlines()
    assert flint[290].strip() == "dtype=torch.float32," and flint[289].strip() != "dtype=torch.float32,"
    import transformers.models.llama.modeling_llama as llama

    lines = Path(llama.__file__).read_text().splitlines()
    assert lines[125] == '@use_kernel_forward_from_hub("rotary_pos_emb")'
    assert lines[126].startswith("def apply_rotary_pos_emb(")
    assert not lines[124].startswith("@use_kernel")  # wrong variant: the decorator one line up

def test_deepseek_rope_interleave_default_and_vllm_rotation_path():
    from transformers import DeepseekV3Config

    assert DeepseekV3Config().rope_interleave is True
    assert DeepseekV3Config(rope_interleave=False).rope_interleave is False  # wrong variant: it is a switch
    from transformers.models.deepseek_v3 import modeling_deepseek_v3

    assert "if self.config.rope_interleave:" in Path(modeling_deepseek_v3.__file__).read_text().splitlines()[452]
    if not VLLM_SRC.is_dir():
        pytest.skip("vLLM 0.33.0 source not present")
    config = (VLLM_SRC / "config" / "vllm.py").read_text().splitlines()
    assert "enforce_eager" in config[1765] and "CompilationMode.NONE" in config[1766]  # eager: no compilation
    assert 'backend == "inductor"' in config[1841] and 'append("none")' in config[1844]  # custom ops off
    assert 'append("all")' in config[1846]  # otherwise (eager) on: forward_cuda
    envs = (VLLM_SRC / "envs.py").read_text().splitlines()
    assert 'VLLM_FLOAT32_MATMUL_PRECISION: Literal["highest", "high", "medium"] = "highest"' in envs[91]
    worker = (VLLM_SRC / "v1" / "worker" / "gpu_worker.py").read_text().splitlines()
    assert "torch.set_float32_matmul_precision(precision)" in worker[219]
    assert '= "high"' not in envs[91]  # wrong variant: TF32 by default


def test_vllm_angle_table_is_elementwise_not_a_matmul():
    """vLLM's ``einsum("i,j -> ij", t, inv_freq)`` (base.py L99) runs a multiply, not a matrix product: no TF32."""
    from torch.profiler import ProfilerActivity, profile

    def kernels(equation, *operands):
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            torch.einsum(equation, *operands)
        return {e.key for e in prof.key_averages()}

    t, inv_freq = torch.arange(4096, dtype=torch.float32), torch.rand(64)
    outer = kernels("i,j -> ij", t, inv_freq)
    assert "aten::mul" in outer and not outer & {"aten::mm", "aten::bmm", "aten::matmul"}
    product = kernels("ij,jk -> ik", torch.rand(8, 8), torch.rand(8, 8))  # wrong variant: a contraction
    assert product & {"aten::mm", "aten::bmm"}
    if VLLM_SRC.is_dir():
        base = (VLLM_SRC / "model_executor" / "layers" / "rotary_embedding" / "base.py").read_text().splitlines()
        assert 'torch.einsum("i,j -> ij", t, inv_freq)' in base[98]


def test_torch_tf32_off_by_default():
    assert torch.get_float32_matmul_precision() == "highest" and torch.backends.cuda.matmul.allow_tf32 is False
    assert torch.get_float32_matmul_precision() != "high"  # wrong variant: TF32 on by default


def test_mistral_gguf_is_unpermuted_and_vllm_llama_loader_permutes_nothing():
    """transformers 5.24: a Mistral GGUF (general.architecture = llama) gets the `mistral` config (L612) but the `llama`
    tensor processor (L784), so it is un-permuted. vLLM 0.33.0: llama.py permutes nothing at load (Meta .pth must be
    converted); mistral.py permutes consolidated.safetensors' wq/wk (L297-331); read."""
    import transformers.modeling_gguf_pytorch_utils as gguf_utils

    src = Path(gguf_utils.__file__).read_text().splitlines()
    assert 'if "llama" in architecture and "mistral" in model_name:' in src[611]
    assert 'updated_architecture = "mistral"' in src[612]
    assert "TENSOR_PROCESSORS.get(architecture, TensorProcessor)" in src[783]
    assert "TENSOR_PROCESSORS.get(updated_architecture" not in "\n".join(src)  # wrong variant: keyed by the new name
    models = VLLM_SRC / "model_executor" / "models"
    assert "permute" not in (models / "llama.py").read_text()
    mistral = (models / "mistral.py").read_text().splitlines()
    assert mistral[291].strip() == "def maybe_remap_mistral(" and "def permute(" in mistral[296]
    assert '"wq" in modules' in mistral[321] and '"wk" in modules' in mistral[311]
    assert "permute" in (models / "llama4.py").read_text()  # wrong variant of the llama.py check: Llama 4 does permute
