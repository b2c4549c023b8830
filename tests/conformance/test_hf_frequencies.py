"""`ropemath.frequencies_from_config` against transformers' own θ_i (``inv_freq``) and attention scaling,
for every shipped real-model config and every rope type, with a negative control for each comparison.

transformers computes ``inv_freq`` in float32; ropemath returns the float64 value of the same formula.
The bound: 8 float32 ulps relative (8 · 2^-23), which covers float32 rounding of base ** (2i/d) and of the
ramp/band arithmetic; every wrong variant below misses it by orders of magnitude.
"""

import math

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
# torch and transformers emit deprecation warnings that are not ours to fix
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
from hf_configs import CONFIGS
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding

import ropemath
from ropemath.models.config import frequencies_from_config

RTOL = 8 * 2.0**-23
ROPE_KEYS = ("rope_type", "type", "rope_theta", "factor", "original_max_position_embeddings", "beta_fast", "beta_slow",
             "mscale", "mscale_all_dim", "attention_factor", "truncate", "low_freq_factor", "high_freq_factor",
             "short_factor", "long_factor", "partial_rotary_factor")


def hf_config(flat: dict) -> LlamaConfig:
    """The flat config as transformers 5.x holds it: top-level sizes, RoPE keys in rope_parameters."""
    merged = {k: v for k, v in flat.items() if not k.startswith("_") and k != "model_type"}
    merged.update(merged.pop("rope_scaling", None) or {})
    rope = {k: merged.pop(k) for k in ROPE_KEYS if k in merged}
    rope["rope_type"] = rope.pop("type", rope.get("rope_type", "default"))
    if "original_max_position_embeddings" not in rope and rope["rope_type"] in ("yarn", "longrope", "llama3"):
        rope["original_max_position_embeddings"] = merged["max_position_embeddings"]
    head_dim = merged.get("head_dim", merged["hidden_size"] // merged["num_attention_heads"])
    head_dim = merged.get("qk_rope_head_dim", head_dim)  # DeepSeek-V3: the rotated part of each MLA head
    return LlamaConfig(hidden_size=merged["hidden_size"], num_attention_heads=merged["num_attention_heads"],
                       head_dim=head_dim, max_position_embeddings=merged["max_position_embeddings"],
                       num_hidden_layers=1, intermediate_size=16, vocab_size=16, rope_parameters=rope)


def hf_frequencies(flat: dict, seq_len=None):
    config = hf_config(flat)
    rope_type = config.rope_parameters["rope_type"]
    if rope_type == "default":
        inv_freq, scaling = GPTNeoXRotaryEmbedding.compute_default_rope_parameters(config)
    else:
        inv_freq, scaling = ROPE_INIT_FUNCTIONS[rope_type](config, "cpu", seq_len=seq_len)
    return inv_freq.double().numpy(), float(scaling)


def agrees(theta, attention, hf_theta, hf_attention) -> bool:
    return (theta.shape == hf_theta.shape and bool(np.all(np.abs(theta - hf_theta) <= RTOL * np.abs(hf_theta)))
            and math.isclose(attention, hf_attention, rel_tol=1e-6))


SEQ_LENS = {"dynamic": [None, 1024, 4096, 8192, 32768], "longrope": [None, 1024, 4096, 4097, 131072]}


def rope_type_of(flat: dict) -> str:
    scaling = flat.get("rope_scaling") or {}
    return scaling.get("type", scaling.get("rope_type", "default"))


# configs whose layers use different RoPE (Gemma 3) are compared per layer type in test_model_classes.py; GPT-J's
# training config (not a transformers config) through its derived gptj_6b; the GPT-NeoX and GPT-J Hub copies (their
# older key names are not LlamaConfig's) through their own config classes in test_legacy_hub_keys_*
UNIFORM = {name: flat for name, flat in CONFIGS.items() if "text_config" not in flat
           and "rope_local_base_freq" not in flat and "hidden_size" in flat and "rotary_pct" not in flat}


def cases():
    for name, flat in UNIFORM.items():
        rope_type = rope_type_of(flat)
        for seq_len in SEQ_LENS.get(rope_type, [None]):
            yield pytest.param(name, seq_len, id=f"{name}-seq{seq_len}")


@pytest.mark.parametrize(("name", "seq_len"), list(cases()))
def test_theta_and_attention_factor_equal_transformers(name, seq_len):
    theta, attention, _ = frequencies_from_config(CONFIGS[name], seq_len=seq_len)
    hf_theta, hf_attention = hf_frequencies(CONFIGS[name], seq_len)
    gap = np.max(np.abs(theta / hf_theta - 1)) if theta.shape == hf_theta.shape else "shape"
    assert agrees(theta, attention, hf_theta, hf_attention), (gap, attention, hf_attention)


def test_every_rope_type_is_exercised():
    types = {rope_type_of(flat) for flat in UNIFORM.values()}
    assert types | {"proportional"} == set(ropemath.models.config.ROPE_TYPES)  # proportional: the test below


def test_proportional_partial_rotary_equals_transformers():
    flat = {"hidden_size": 64, "num_attention_heads": 2, "head_dim": 32, "max_position_embeddings": 64,
            "rope_theta": 10000.0, "rope_scaling": {"rope_type": "proportional", "partial_rotary_factor": 0.25}}
    config = hf_config(flat)
    inv_freq, scaling = ROPE_INIT_FUNCTIONS["proportional"](config, "cpu")
    ours = frequencies_from_config(flat)
    assert agrees(ours.theta, ours.attention_factor, inv_freq.double().numpy(), float(scaling))
    classic = frequencies_from_config(dict(flat, rope_scaling={"partial_rotary_factor": 0.25}))
    assert not agrees(classic.theta, 1.0, inv_freq.double().numpy(), float(scaling))  # the other variant


@pytest.mark.parametrize("seq_len", [8192, 32768])
def test_negative_control_dynamic_without_factor(seq_len):
    # ropemath's older dynamic NTK, s = max(1, l/L), ignores `factor`: it must NOT match HF for factor 2.
    flat = CONFIGS["llama2_7b_dynamic"]
    hf_theta, hf_attention = hf_frequencies(flat, seq_len)
    old = ropemath.dynamic_ntk_frequencies(128, 10000.0, length=seq_len, original_length=4096)
    assert not agrees(old, 1.0, hf_theta, hf_attention)


def test_negative_controls_wrong_variants_fail():
    # a wrong base, a missing attention factor, the wrong LongRoPE list, YaRN without truncation: each disagrees.
    theta, attention, _ = frequencies_from_config(CONFIGS["llama3_8b"])
    assert not agrees(theta, attention, *hf_frequencies(CONFIGS["llama2_7b_chat_hf"]))
    theta = frequencies_from_config(CONFIGS["phi3_128k"]).theta
    assert not agrees(theta, 1.0, *hf_frequencies(CONFIGS["phi3_128k"]))
    long_theta, attention, _ = frequencies_from_config(CONFIGS["phi3_128k"], seq_len=131072)
    assert not agrees(long_theta, attention, *hf_frequencies(CONFIGS["phi3_128k"], 1024))
    yarn = CONFIGS["qwen2_5_7b_yarn"]
    flat = dict(yarn, rope_scaling=dict(yarn["rope_scaling"], truncate=False))
    assert not agrees(*frequencies_from_config(flat)[:2], *hf_frequencies(CONFIGS["qwen2_5_7b_yarn"]))


def test_deepseek_mscale_and_explicit_attention_factor():
    flat = CONFIGS["deepseek_v3"]
    base = {k: v for k, v in flat["rope_scaling"].items() if k not in ("mscale", "mscale_all_dim")}
    for scaling in ({"mscale": 0.707, "mscale_all_dim": 1.0}, {"attention_factor": 1.3}, {"mscale": 1.0}, {}):
        variant = dict(flat, rope_scaling=dict(base, **scaling))
        assert agrees(*frequencies_from_config(variant)[:2], *hf_frequencies(variant)), scaling
    ratio = dict(flat, rope_scaling=dict(base, mscale=0.707, mscale_all_dim=1.0))
    attention = frequencies_from_config(ratio).attention_factor
    assert attention != 1.0  # DeepSeek's ratio of two mscales is not the plain YaRN factor


def test_float32_difference_is_bounded_and_not_zero():
    # ropemath returns the float64 value; HF's float32 rounding differs by at most RTOL, and does differ.
    theta = frequencies_from_config(CONFIGS["llama3_1_8b_instruct"]).theta
    hf_theta, _ = hf_frequencies(CONFIGS["llama3_1_8b_instruct"])
    gap = np.abs(theta / hf_theta - 1)
    assert gap.max() <= RTOL and gap.max() > 0
    assert torch.get_default_dtype() == torch.float32


def test_legacy_hub_keys_as_transformers_reads_them():
    """GPT-NeoX's rotary_pct / rotary_emb_base and GPT-J's n_embd / n_head / rotary_dim, read by their own classes."""
    from transformers import GPTJConfig, GPTNeoXConfig
    from transformers.models.gptj.modeling_gptj import create_sinusoidal_positions

    hub = CONFIGS["gpt_neox_20b_hf"]
    inv_freq, _ = GPTNeoXRotaryEmbedding.compute_default_rope_parameters(GPTNeoXConfig.from_dict(hub))
    hf_theta = inv_freq.double().numpy()
    assert agrees(frequencies_from_config(hub).theta, 1.0, hf_theta, 1.0)
    assert not agrees(ropemath.frequencies(96, 1e4), 1.0, hf_theta, 1.0)  # negative control: rotary_pct ignored
    gptj = CONFIGS["gptj_6b_hf"]
    config = GPTJConfig.from_dict(gptj)
    table = create_sinusoidal_positions(2, config.rotary_dim)  # row m: sin(m θ), cos(m θ) for the rotary_dim slice
    sin_1 = table[1, : config.rotary_dim // 2].double().numpy()
    theta = frequencies_from_config(gptj).theta
    assert np.allclose(np.sin(theta), sin_1, rtol=RTOL, atol=0)
    assert not np.allclose(np.sin(ropemath.frequencies(256, 1e4)[:32]), sin_1, rtol=RTOL, atol=0)  # whole-head θ
