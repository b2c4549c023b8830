"""ropemath against transformers' own model classes: each family's rotary module (and, where the softmax scale
depends on the rope parameters, its attention module), built from a tiny config without weights, applied to
random q and k; the result compared with `apply_rope` in the layout and with the θ_i that ropemath says the
family uses.  Each comparison has a negative control: the other layout (or the other θ) misses the bound.

transformers computes the angles in float32 (``inv_freq @ position_ids``), so the bound is float32 rounding of
angles up to position P: |error| ≤ 4 · max|x| · P · max θ · 2^-24 + 1e-5 (a wrong layout or θ is off by O(1)).
The semantics hold for the pinned transformers 5.24.0 (requirements-conformance.txt).
"""

import math

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
from hf_configs import CONFIGS

from ropemath import apply_rope, frequencies, frequencies_from_config, to_half

HEADS, SEQ = 2, 12
POSITIONS = np.array([0, 1, 2, 3, 7, 100, 255, 256, 257, 511, 777, 1023])
P = int(POSITIONS.max())


def bound(x: np.ndarray) -> float:
    return 4 * float(np.abs(x).max()) * P * 2.0**-24 + 1e-5


def qk(d: int, seed: int, layout: str = "bhsd"):
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 1, HEADS, SEQ, d))
    if layout == "bshd":
        q, k = q.transpose(0, 2, 1, 3), k.transpose(0, 2, 1, 3)
    return q, k


def t(a: np.ndarray) -> torch.Tensor:
    return torch.tensor(a, dtype=torch.float32)


def ids() -> torch.Tensor:
    return torch.tensor(POSITIONS[None, :])


def ours(x: np.ndarray, layout: str, theta: np.ndarray, axis_seq: int = -2) -> np.ndarray:
    m = POSITIONS if axis_seq == -2 else POSITIONS[:, None]
    return apply_rope(x, m, layout=layout, theta=theta)


def close(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> bool:
    return float(np.abs(a - b).max()) <= bound(x)




def tiny(config_class, flat: dict, **extra):
    skip = {"text_config", "vision_config", "architectures", "auto_map", "quantization_config", "torch_dtype",
            "transformers_version", "eos_token_id", "bos_token_id", "pad_token_id"}
    keys = {k: v for k, v in flat.items() if not k.startswith("_") and k not in skip}
    keys.update(num_hidden_layers=extra.pop("num_hidden_layers", 2), vocab_size=16, intermediate_size=16)
    keys.update(extra)
    return config_class(**keys)


# --- Llama, Qwen2/Qwen3, Mistral: rotate_half (half layout), attention_scaling on cos and sin ----------------


@pytest.mark.parametrize("name", ["llama2_7b_chat_hf", "llama3_1_8b_instruct", "qwen2_5_7b_instruct", "qwen2_5_7b_yarn",
                                  "qwen3_8b", "mistral_7b"])
def test_llama_family_rotates_half_with_attention_factor_on_cos_sin(name):
    from transformers import LlamaConfig
    from transformers.models.llama import modeling_llama as mod

    flat = CONFIGS[name]
    config = tiny(LlamaConfig, flat, head_dim=flat.get("head_dim", flat["hidden_size"] // flat["num_attention_heads"]))
    expected = frequencies_from_config(flat)
    q, k = qk(expected.theta.size * 2, seed=1)
    rot = mod.LlamaRotaryEmbedding(config)
    cos, sin = rot(t(q), ids())
    qe, ke = (a.double().numpy() for a in mod.apply_rotary_pos_emb(t(q), t(k), cos, sin))
    assert math.isclose(rot.attention_scaling, expected.attention_factor, rel_tol=1e-6)
    a = expected.attention_factor
    assert close(qe, a * ours(q, "half", expected.theta), q) and close(ke, a * ours(k, "half", expected.theta), k)
    assert not close(qe, a * ours(q, "interleaved", expected.theta), q)  # negative control: the other layout
    if a != 1.0:
        assert not close(qe, ours(q, "half", expected.theta), q)  # negative control: the factor is applied


def test_qwen_model_classes_use_the_same_rotary_as_llama():
    from transformers import Qwen2Config, Qwen3Config
    from transformers.models.qwen2 import modeling_qwen2
    from transformers.models.qwen3 import modeling_qwen3

    for config_class, mod, name in ((Qwen2Config, modeling_qwen2, "qwen2_5_7b_yarn"),
                                    (Qwen3Config, modeling_qwen3, "qwen3_8b")):
        flat = CONFIGS[name]
        config = tiny(config_class, flat, head_dim=128)
        expected = frequencies_from_config(flat)
        q, k = qk(128, seed=2)
        rot = next(getattr(mod, n) for n in dir(mod) if n.endswith("RotaryEmbedding"))(config)
        cos, sin = rot(t(q), ids())
        qe, _ = (a.double().numpy() for a in mod.apply_rotary_pos_emb(t(q), t(k), cos, sin))
        a = expected.attention_factor
        assert close(qe, a * ours(q, "half", expected.theta), q), name
        assert not close(qe, a * ours(q, "interleaved", expected.theta), q)


# --- Llama 4: Meta's complex multiplication (interleaved), NoPE layers --------------------------------------


def test_llama4_rotates_interleaved_pairs_as_complex_numbers():
    from transformers import Llama4TextConfig
    from transformers.models.llama4 import modeling_llama4 as mod

    flat = CONFIGS["llama4_scout"]
    config = tiny(Llama4TextConfig, flat, num_hidden_layers=4)
    expected = frequencies_from_config(flat)
    q, k = qk(128, seed=3, layout="bshd")  # Llama 4 rotates before the heads are moved: (batch, seq, heads, d)
    freqs_cis = mod.Llama4TextRotaryEmbedding(config)(t(q), ids())
    qe, ke = (a.double().numpy() for a in mod.apply_rotary_emb(t(q), t(k), freqs_cis))
    assert close(qe, ours(q, "interleaved", expected.theta, axis_seq=-3), q)
    assert close(ke, ours(k, "interleaved", expected.theta, axis_seq=-3), k)
    assert not close(qe, ours(q, "half", expected.theta, axis_seq=-3), q)  # negative control
    assert config.no_rope_layers == [1, 1, 1, 0]  # every 4th layer has no RoPE (1 = uses RoPE)


# --- DeepSeek-V3: interleaved pairs read out into the half layout; mscale² on the softmax scale --------------


def test_deepseek_v3_de_interleaves_then_rotates_half():
    from transformers.models.deepseek_v3 import modeling_deepseek_v3 as mod

    theta = frequencies(64, 10000.0)
    q, k = qk(64, seed=4)
    freqs = POSITIONS[:, None] * theta[None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = t(np.cos(emb))[None], t(np.sin(emb))[None]
    qe, _ = (a.double().numpy() for a in mod.apply_rotary_pos_emb_interleave(t(q), t(k), cos, sin))
    # the interleaved pairs (x_2i, x_2i+1) rotated, and written out as (evens, odds): the half layout
    assert close(qe, to_half(ours(q, "interleaved", theta)), q)
    assert close(qe, ours(to_half(q), "half", theta), q)
    assert not close(qe, ours(q, "half", theta), q)  # negative control: plain rotate_half on the raw vector


def test_deepseek_v3_softmax_scale_carries_mscale_squared():
    from transformers import DeepseekV3Config
    from transformers.models.deepseek_v3 import modeling_deepseek_v3 as mod

    flat = CONFIGS["deepseek_v3"]
    config = DeepseekV3Config(hidden_size=64, num_attention_heads=2, num_key_value_heads=2, q_lora_rank=16,
                              kv_lora_rank=16, qk_nope_head_dim=32, qk_rope_head_dim=64, v_head_dim=32,
                              num_hidden_layers=1, vocab_size=16, intermediate_size=16, moe_intermediate_size=16,
                              max_position_embeddings=flat["max_position_embeddings"],
                              rope_scaling=dict(flat["rope_scaling"]), rope_theta=flat["rope_theta"])
    attention = mod.DeepseekV3Attention(config, layer_idx=0)
    mscale = 0.1 * 1.0 * math.log(40) + 1.0
    assert math.isclose(attention.scaling, (32 + 64) ** -0.5 * mscale**2, rel_tol=1e-12)
    assert f"{mscale**2:.3f}" == "1.874"
    rot = mod.DeepseekV3RotaryEmbedding(config)
    assert math.isclose(rot.attention_scaling, frequencies_from_config(flat).attention_factor, rel_tol=1e-12)
    assert rot.attention_scaling == 1.0  # cos/sin carry mscale/mscale_all_dim = 1; the softmax scale carries the rest
    assert not math.isclose(attention.scaling, (32 + 64) ** -0.5, rel_tol=1e-3)  # negative control


# --- Cohere: rotate_half that pairs neighbours (interleaved) -------------------------------------------------


def test_cohere_rotate_half_is_interleaved():
    from transformers import CohereConfig
    from transformers.models.cohere import modeling_cohere as mod

    config = CohereConfig(hidden_size=128, num_attention_heads=2, num_hidden_layers=1, vocab_size=16,
                          intermediate_size=16)
    expected = frequencies_from_config({"model_type": "cohere", "head_dim": 64})
    assert expected.filled == {"rope_theta": 500000.0}  # CohereConfig's default_theta
    q, k = qk(64, seed=5)
    cos, sin = mod.CohereRotaryEmbedding(config)(t(q), ids())
    qe, _ = (a.double().numpy() for a in mod.apply_rotary_pos_emb(t(q), t(k), cos, sin))
    assert close(qe, ours(q, "interleaved", expected.theta), q)
    assert not close(qe, ours(q, "half", expected.theta), q)  # negative control


# --- GPT-J and GPT-NeoX: partial rotary, each in its own layout -------------------------------------------------


def test_gptj_rotates_the_first_rotary_dim_coordinates_interleaved():
    from transformers.models.gptj import modeling_gptj as mod

    rotary_dim, d = 16, 64
    q, _ = qk(d, seed=6, layout="bshd")
    table = mod.create_sinusoidal_positions(P + 1, rotary_dim)[torch.tensor(POSITIONS)][None]
    sin, cos = torch.split(table, rotary_dim // 2, dim=-1)
    rotated = mod.apply_rotary_pos_emb(t(q[..., :rotary_dim]), sin, cos).double().numpy()
    theta = frequencies(rotary_dim, 10000.0)  # the frequencies of a rotary_dim-dimensional RoPE
    assert close(rotated, ours(q[..., :rotary_dim], "interleaved", theta, axis_seq=-3), q)
    assert not close(rotated, ours(q[..., :rotary_dim], "interleaved", frequencies(d, 1e4)[: rotary_dim // 2],
                                   axis_seq=-3), q)  # negative control: head_dim's first frequencies


def test_gpt_neox_rotates_a_slice_in_the_half_layout():
    from transformers import GPTNeoXConfig
    from transformers.models.gpt_neox import modeling_gpt_neox as mod

    flat = CONFIGS["gpt_neox_20b"]  # head 96, partial_rotary_factor 0.25: 24 coordinates, 12 pairs
    config = GPTNeoXConfig(hidden_size=192, num_attention_heads=2, num_hidden_layers=1, vocab_size=16,
                           intermediate_size=16, rotary_pct=0.25)
    expected = frequencies_from_config(dict(flat, hidden_size=192, num_attention_heads=2))
    q, k = qk(96, seed=7)
    cos, sin = mod.GPTNeoXRotaryEmbedding(config)(t(q), ids())
    qe, _ = (a.double().numpy() for a in mod.apply_rotary_pos_emb(t(q), t(k), cos, sin))
    want = np.concatenate([ours(q[..., :24], "half", expected.theta), q[..., 24:]], axis=-1)
    assert close(qe, want, q)
    assert not close(qe, np.concatenate([ours(q[..., :24], "interleaved", expected.theta), q[..., 24:]], -1), q)


# --- Gemma 2 and 3: one base for all layers vs one per layer type --------------------------------------------


def test_gemma3_rotary_per_layer_type_matches_frequencies_from_config():
    from transformers import Gemma3TextConfig
    from transformers.models.gemma3 import modeling_gemma3 as mod

    flat = CONFIGS["gemma3_27b_it"]["text_config"]  # head_dim 128; the bases are Gemma3TextConfig's defaults
    config = tiny(Gemma3TextConfig, flat, num_hidden_layers=6, hidden_size=128, num_attention_heads=1)
    rot = mod.Gemma3RotaryEmbedding(config)
    q, k = qk(128, seed=8)
    for layer_type in ("full_attention", "sliding_attention"):
        expected = frequencies_from_config(flat, layer_type=layer_type)
        cos, sin = rot(t(q), ids(), layer_type)
        qe, _ = (a.double().numpy() for a in mod.apply_rotary_pos_emb(t(q), t(k), cos, sin))
        assert close(qe, ours(q, "half", expected.theta), q), layer_type
        other = "sliding_attention" if layer_type == "full_attention" else "full_attention"
        assert not close(qe, ours(q, "half", frequencies_from_config(flat, layer_type=other).theta), q)
    assert config.layer_types == ["sliding_attention"] * 5 + ["full_attention"]


def test_gemma2_uses_one_base_on_every_layer():
    from transformers import Gemma2Config
    from transformers.models.gemma2 import modeling_gemma2 as mod

    flat = CONFIGS["gemma2_9b_it"]
    config = tiny(Gemma2Config, flat, hidden_size=256, num_attention_heads=1)
    expected = frequencies_from_config(flat)
    q, k = qk(256, seed=9)
    cos, sin = mod.Gemma2RotaryEmbedding(config)(t(q), ids())
    qe, _ = (a.double().numpy() for a in mod.apply_rotary_pos_emb(t(q), t(k), cos, sin))
    assert close(qe, ours(q, "half", expected.theta), q)
    assert not close(qe, ours(q, "half", frequencies(256, 1e6)), q)  # negative control: Gemma 3's global base


def test_gemma2_softmax_scale_comes_from_query_pre_attn_scalar():
    """08 §8's softmax column for Gemma 2: 1.000 with the Hub's 256, 1.069 with the first config's 224."""
    from transformers import Gemma2Config
    from transformers.models.gemma2 import modeling_gemma2 as mod

    column = {}
    for name in ("gemma2_9b_it", "gemma2_9b_it_256"):
        flat = CONFIGS[name]
        attention = mod.Gemma2Attention(tiny(Gemma2Config, flat, hidden_size=256, num_attention_heads=1), layer_idx=0)
        column[name] = attention.scaling * flat["head_dim"] ** 0.5  # transformers' scale over 1/sqrt(d_h)
    assert column["gemma2_9b_it_256"] == 1.0 and round(column["gemma2_9b_it"], 3) == 1.069


# --- Phi-3 LongRoPE: the factor list switches at the original length --------------------------------------------


def test_phi3_longrope_switches_at_the_original_length():
    from transformers import Phi3Config
    from transformers.models.phi3 import modeling_phi3 as mod

    flat = CONFIGS["phi3_128k"]
    config = tiny(Phi3Config, flat)
    rot = mod.Phi3RotaryEmbedding(config)
    q, k = qk(96, seed=10)
    for top, seq_len in ((P, None), (8191, 8192), (P, None)):  # short, long, and short again
        positions = POSITIONS.copy()
        positions[-1] = top
        cos, sin = rot(t(q), torch.tensor(positions[None, :]))
        qe, _ = (a.double().numpy() for a in mod.apply_rotary_pos_emb(t(q), t(k), cos, sin))
        expected = frequencies_from_config(flat, seq_len=seq_len)
        want = expected.attention_factor * apply_rope(q, positions, layout="half", theta=expected.theta)
        assert float(np.abs(qe - want).max()) <= 4 * float(np.abs(q).max()) * top * 2.0**-24 + 1e-5, top
    short = frequencies_from_config(flat).theta
    assert not np.allclose(short, frequencies_from_config(flat, seq_len=8192).theta)  # the lists differ




def test_phi3_generate_recomputes_the_cache_at_the_switch_a_forward_loop_does_not():
    """Notebook 10: generate drops the cache when the input first passes the original length (Phi-3's
    prepare_inputs_for_generation) and matches decoding without a cache; a hand-written forward loop keeps the
    short-factor keys and differs."""
    from transformers import DynamicCache, Phi3Config, Phi3ForCausalLM

    torch.manual_seed(0)
    rope = {"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1.0] * 16, "long_factor": [4.0] * 16,
            "original_max_position_embeddings": 8}
    config = Phi3Config(hidden_size=64, num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=2,
                        intermediate_size=32, vocab_size=32, max_position_embeddings=64,
                        original_max_position_embeddings=8, rope_parameters=rope, pad_token_id=0)
    model = Phi3ForCausalLM(config).eval()
    ids = torch.randint(3, 32, (1, 6))
    runs = {}
    with torch.no_grad():
        for use_cache in (True, False):  # 6 tokens, then 8 more: the switch at 9 tokens is inside the run
            runs[use_cache] = model.generate(ids, max_new_tokens=8, do_sample=False, use_cache=use_cache,
                                             output_scores=True, return_dict_in_generate=True, eos_token_id=None)
        assert torch.equal(runs[True].sequences, runs[False].sequences)
        pairs = zip(runs[True].scores, runs[False].scores, strict=True)
        assert max(float((a - b).abs().max()) for a, b in pairs) < 1e-5
        seq = runs[True].sequences[:, :9]  # negative control: prefill 8 tokens with a cache, then step to 9
        prefill = model(seq[:, :8], past_key_values=DynamicCache(config=config), use_cache=True)
        step = model(seq[:, 8:9], past_key_values=prefill.past_key_values, use_cache=True)
        fresh = model(seq, use_cache=False).logits[0, -1]
    assert float((step.logits[0, -1] - fresh).abs().max()) > 1e-3  # short-factor keys, long-factor query


# --- dynamic NTK while decoding: what transformers recomputes, step by step -----------------------------------


def test_dynamic_ntk_recomputes_inv_freq_per_decoding_step_past_the_original_length():
    """Notebooks 08 and 10: each decoding step past L uses theta(max(position_ids) + 1); the cache is not touched."""
    from transformers import LlamaConfig
    from transformers.models.llama import modeling_llama as mod

    flat = {"hidden_size": 64, "num_attention_heads": 2, "head_dim": 32, "max_position_embeddings": 16,
            "rope_theta": 10000.0, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}
    config = tiny(LlamaConfig, flat)
    rot = mod.LlamaRotaryEmbedding(config)
    x = torch.zeros(1, 1, 1, 32)
    seen = []
    for step in (torch.arange(16)[None], torch.tensor([[16]]), torch.tensor([[20]]), torch.tensor([[5]])):
        rot(x, step)
        seen.append(rot.inv_freq.double().numpy().copy())
    expected = [frequencies_from_config(flat, seq_len=n).theta for n in (16, 17, 21, 16)]
    for got, want in zip(seen, expected, strict=True):
        assert np.all(np.abs(got - want) <= 8 * 2.0**-23 * want)
    assert not np.allclose(seen[1], seen[2])  # negative control: each step past L has its own theta


@pytest.mark.parametrize("lengths", [[1024, 512], [1024, 16, 512], [16, 300, 1024, 256, 100, 2048]])
def test_dynamic_ntk_kept_theta_matches_the_rotary_module_over_successive_inputs(lengths):
    """Notebook 10 §1.2: the theta a later input gets (grow past the cached length, reset below L)."""
    from transformers import LlamaConfig
    from transformers.models.llama import modeling_llama as mod

    from ropemath.models import dynamic_ntk_kept_theta

    flat = {"hidden_size": 64, "num_attention_heads": 2, "head_dim": 32, "max_position_embeddings": 256,
            "rope_theta": 10000.0, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}
    rot = mod.LlamaRotaryEmbedding(tiny(LlamaConfig, flat))
    x = torch.zeros(1, 1, 1, 32)
    for n in lengths:
        rot(x, torch.arange(n)[None])
    got = rot.inv_freq.double().numpy()
    want = dynamic_ntk_kept_theta(lengths, d=32, base=10000.0, factor=2.0, original_length=256)
    assert np.all(np.abs(got - want) <= 8 * 2.0**-23 * want)


def test_negative_control_dynamic_ntk_without_reset():
    """Keeping the longest input's theta forever (no reset below L) disagrees with transformers on [1024, 16, 512]."""
    from transformers import LlamaConfig
    from transformers.models.llama import modeling_llama as mod

    flat = {"hidden_size": 64, "num_attention_heads": 2, "head_dim": 32, "max_position_embeddings": 256,
            "rope_theta": 10000.0, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}
    rot = mod.LlamaRotaryEmbedding(tiny(LlamaConfig, flat))
    x = torch.zeros(1, 1, 1, 32)
    for n in (1024, 16, 512):
        rot(x, torch.arange(n)[None])
    never_reset = frequencies_from_config(flat, seq_len=1024).theta  # the longest so far, kept
    assert np.abs(rot.inv_freq.double().numpy() / never_reset - 1).max() > 0.01
