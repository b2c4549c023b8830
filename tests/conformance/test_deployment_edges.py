"""Four deployment edges, run on CPU: vLLM 0.33.0 against transformers 5.24.0, torch 2.13's fp8 cast, Phi-3 padding.

1. Gemma 4's ``"proportional"`` rope: vLLM's ``Gemma4RotaryEmbedding`` gives transformers' θ_i (exponent over the
   full head width, zeros past ``partial_rotary_factor``) and the same rotation of a 512-wide global head; its table
   has ``max_position`` rows of the full head width.  vLLM ignores a ``factor`` key that transformers divides by.
2. Qwen2-VL / Qwen2.5-VL M-RoPE: vLLM's ``MRotaryEmbedding`` rotates q and k as transformers' rotary module for
   positions laid out ``[3, tokens]`` (rows t, h, w); its table has ``4 * max_position`` rows; with three equal rows
   it is plain RoPE.
3. fp8 e4m3: torch 2.13's CPU cast saturates to ±448 (inf too; NaN stays NaN); a key entry is off by ≤ 2^-4 max|k|
   (bfloat16: 2^-8) for 2^-6 ≤ max|k| ≤ 448, more below; vLLM's default k_scale is 1.0;
   ``--kv-cache-dtype auto`` resolves a ModelOpt checkpoint's KV-cache scheme to fp8_e4m3 or nvfp4.
4. Phi-3 ``generate`` with left padding: the cache is dropped by slot count (``input_ids.shape[1]``), the factors are
   picked by position (``max(position_ids) + 1``), so a padded prompt keeps short-factor keys past the switch and its
   logits leave the unpadded run's there.  With ``padding="longest"`` the widest row has no pads: the drop fires at the
   batch's switch, and a shorter row gets the long factors early.  ``auto`` leaves llm-compressor's scheme unresolved.

Each check has a wrong variant that must fail.  Float32 throughout; bounds are stated at each assert.
"""

from __future__ import annotations

import math
import types

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import vllm_cpu

ROUNDING = 1e-5  # float32 angles up to position 255 and products of unit-size numbers: far below this


@pytest.fixture(scope="module")
def vllm():
    with vllm_cpu.loaded() as ns:

        def build(head_size, max_position, parameters, **kwargs):
            return vllm_cpu.build_rope(ns, head_size, max_position, parameters, dtype=torch.float32, **kwargs)

        yield types.SimpleNamespace(build=build, package=ns.package)


def _rotate(cos, sin, x):
    """transformers' apply_rotary_pos_emb for one tensor [tokens, heads, d] with cos, sin [tokens, d]."""
    from transformers.models.llama.modeling_llama import rotate_half
    return x * cos[:, None] + rotate_half(x) * sin[:, None]


# --- 1. Gemma 4 "proportional" ----------------------------------------------------------------------------------


def _gemma4_config(**extra):
    from transformers import Gemma4TextConfig
    return Gemma4TextConfig(hidden_size=64, num_hidden_layers=6, num_attention_heads=2, num_key_value_heads=1,
                            head_dim=256, global_head_dim=512, intermediate_size=16, vocab_size=16,
                            vocab_size_per_layer_input=16, hidden_size_per_layer_input=8,
                            max_position_embeddings=256, **extra)


def test_gemma4_proportional_is_transformers_theta_and_rotation(vllm):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.gemma4 import modeling_gemma4 as mg

    config = _gemma4_config()  # Gemma 4's defaults: global head 512, partial_rotary_factor 0.25, theta 1e6
    full = config.rope_parameters["full_attention"]
    assert full == {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1_000_000.0}
    global_dim = config.per_layer_config["full_attention"].head_dim
    assert global_dim == 512 and config.per_layer_config[5].head_dim == 512
    assert config.per_layer_config["sliding_attention"].head_dim == config.per_layer_config[0].head_dim == 256
    hf = mg.Gemma4TextRotaryEmbedding(config)
    ours = vllm.build(global_dim, 256, full)  # as gemma4.py builds it: the layer's head_dim, the layer's parameters
    assert type(ours).__name__ == "Gemma4RotaryEmbedding"
    assert ours.rotary_dim == 512 and ours.rope_angles == 64 and ours.nope_angles == 192
    inv_hf = ROPE_INIT_FUNCTIONS["proportional"](config.per_layer_config["full_attention"],
                                                 layer_type="full_attention")[0]
    inv_vllm = ours._compute_inv_freq(ours.base)
    assert torch.equal(inv_hf, hf.full_attention_inv_freq) and inv_hf.shape == (256,)
    torch.testing.assert_close(inv_vllm, inv_hf, rtol=1e-6, atol=0)
    assert torch.count_nonzero(inv_vllm) == 64  # 64 rotated pairs, exponent 2i/512; the other 192 pairs: θ = 0
    # the table: max_position rows of the full head width (cos half, sin half), not rotary_dim = 128
    assert ours.cos_sin_cache.shape == (256, 512)
    positions = torch.tensor([0, 1, 7, 100, 255])
    cos, sin = hf(torch.zeros(1, dtype=torch.float32), positions[None], "full_attention")
    q = torch.randn(positions.numel(), 2, 512, generator=torch.Generator().manual_seed(0))
    k = torch.randn(positions.numel(), 1, 512, generator=torch.Generator().manual_seed(1))
    q_v, k_v = ours.forward_native(positions, q.reshape(5, -1).clone(), k.reshape(5, -1).clone())
    assert float((q_v.view_as(q) - _rotate(cos[0], sin[0], q)).abs().max()) < ROUNDING
    assert float((k_v.view_as(k) - _rotate(cos[0], sin[0], k)).abs().max()) < ROUNDING
    # wrong variant: an ordinary partial rotary (exponent over rotary_dim = 128, as "default" builds it) differs
    plain = vllm.build(global_dim, 256, {"rope_type": "default", "rope_theta": 1e6, "partial_rotary_factor": 0.25})
    q_p, _ = plain.forward_native(positions, q.reshape(5, -1).clone(), k.reshape(5, -1).clone())
    assert float((q_p.view_as(q) - _rotate(cos[0], sin[0], q)).abs().max()) > 0.1
    # the sliding layers: "default" over head_dim 256 in both
    sliding = vllm.build(256, 256, config.rope_parameters["sliding_attention"])
    torch.testing.assert_close(sliding._compute_inv_freq(sliding.base), hf.sliding_attention_inv_freq,
                               rtol=1e-6, atol=0)


def test_gemma4_proportional_factor_is_divided_by_transformers_and_ignored_by_vllm(vllm):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    scaled = {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6, "factor": 8.0}
    config = _gemma4_config(rope_parameters={"sliding_attention": {"rope_type": "default", "rope_theta": 1e4},
                                             "full_attention": scaled})
    inv_hf = ROPE_INIT_FUNCTIONS["proportional"](config.per_layer_config["full_attention"],
                                                 layer_type="full_attention")[0]
    ours = vllm.build(512, 256, scaled)
    unscaled = vllm.build(512, 256, {k: v for k, v in scaled.items() if k != "factor"})
    torch.testing.assert_close(ours.cos_sin_cache, unscaled.cos_sin_cache, rtol=0, atol=0)  # factor: no effect
    torch.testing.assert_close(ours._compute_inv_freq(ours.base) / 8.0, inv_hf, rtol=1e-6, atol=0)
    assert not torch.allclose(ours._compute_inv_freq(ours.base), inv_hf)  # wrong variant: "the same θ_i"


def test_no_linear_override_gives_gemma4_proportional_theta_over_f(vllm):
    """Notebook 10's checklist: ``linear`` (the type that divides angles by f) takes its exponent over rotary_dim
    (``RotaryEmbeddingBase._compute_inv_freq``, ``base.py`` lines 80-92): 128 with partial_rotary_factor 0.25, or all
    256 pairs rotated with 1.0.  Neither is transformers' θ_i / f on the 64 rotated pairs of a 512-wide head."""
    from transformers.models.gemma4 import modeling_gemma4 as mg

    f, positions = 8.0, torch.tensor([0, 1, 7, 100, 255])
    scaled = {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6, "factor": f}
    sliding = {"rope_type": "default", "rope_theta": 1e4}
    q = torch.randn(5, 2, 512, generator=torch.Generator().manual_seed(2))

    def gap(parameters, target):  # max |vLLM's rotation of q - transformers' with target's full-attention parameters|
        hf = mg.Gemma4TextRotaryEmbedding(_gemma4_config(rope_parameters={"sliding_attention": sliding,
                                                                          "full_attention": target}))
        cos, sin = hf(torch.zeros(1, dtype=torch.float32), positions[None], "full_attention")
        q_v, _ = vllm.build(512, 256, parameters).forward_native(positions, q.reshape(5, -1).clone(),
                                                                  q[:, :1].reshape(5, -1).clone())
        return float((q_v.view_as(q) - _rotate(cos[0], sin[0], q)).abs().max())

    linear = {"rope_type": "linear", "factor": f, "rope_theta": 1e6}
    partial = vllm.build(512, 256, dict(linear, partial_rotary_factor=0.25))
    assert partial.rotary_dim == 128
    torch.testing.assert_close(partial._compute_inv_freq(partial.base),
                               1e6 ** (-torch.arange(0, 128, 2, dtype=torch.float) / 128), rtol=1e-6, atol=0)
    assert gap(dict(linear, partial_rotary_factor=0.25), scaled) > 0.1  # exponent over 128, not 512
    assert gap(dict(linear, partial_rotary_factor=1.0), scaled) > 0.1  # 256 pairs rotated, not 64
    unscaled = {k: v for k, v in scaled.items() if k != "factor"}
    assert gap(unscaled, unscaled) < ROUNDING  # control: the same comparison passes where the two agree


# --- 2. M-RoPE ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", ["qwen2_vl", "qwen2_5_vl"])
def test_mrope_matches_transformers_per_section(vllm, family):
    if family == "qwen2_vl":
        from transformers import Qwen2VLTextConfig as Config
        from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLRotaryEmbedding as Rotary
    else:
        from transformers import Qwen2_5_VLTextConfig as Config
        from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VLRotaryEmbedding as Rotary
    rope = {"rope_type": "default", "rope_theta": 1_000_000.0, "mrope_section": [16, 24, 24]}
    config = Config(hidden_size=256, num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=64,
                    rope_parameters=rope)
    hf = Rotary(config)
    ours = vllm.build(128, 64, rope)
    assert type(ours).__name__ == "MRotaryEmbedding"
    assert ours.cos_sin_cache.shape == (4 * 64, 128)  # positions_factor=4: four times max_position rows
    torch.testing.assert_close(ours._compute_inv_freq(ours.base), hf.inv_freq, rtol=1e-6, atol=0)
    gen = torch.Generator().manual_seed(2)
    tokens = 6
    positions = torch.stack([torch.tensor([0, 1, 2, 3, 3, 200]),  # t: vision tokens share a time step
                             torch.tensor([0, 1, 2, 3, 4, 180]),   # h
                             torch.tensor([0, 1, 2, 5, 9, 190])])  # w; 200 > max_position: inside the 4x table
    q = torch.randn(tokens, 2, 128, generator=gen)
    k = torch.randn(tokens, 1, 128, generator=gen)
    cos, sin = hf(q, positions[:, None, :])  # transformers: [3, batch, tokens]
    q_v, k_v = ours.forward_native(positions, q.reshape(tokens, -1).clone(), k.reshape(tokens, -1).clone())
    assert float((q_v.view_as(q) - _rotate(cos[0], sin[0], q)).abs().max()) < ROUNDING
    assert float((k_v.view_as(k) - _rotate(cos[0], sin[0], k)).abs().max()) < ROUNDING
    # wrong variant: the rows in another order (h, t, w) is another rotation
    q_w, _ = ours.forward_native(positions[[1, 0, 2]], q.reshape(tokens, -1).clone(), k.reshape(tokens, -1).clone())
    assert float((q_w.view_as(q) - _rotate(cos[0], sin[0], q)).abs().max()) > 0.1
    # text only: three equal rows give plain RoPE over the whole head, as the 1-D positions path
    text = torch.arange(tokens) * 7
    plain = vllm.build(128, 64, {"rope_type": "default", "rope_theta": 1_000_000.0})
    q_3, k_3 = ours.forward_native(text.expand(3, -1), q.reshape(tokens, -1).clone(), k.reshape(tokens, -1).clone())
    q_1, k_1 = plain.forward_native(text, q.reshape(tokens, -1).clone(), k.reshape(tokens, -1).clone())
    assert float((q_3 - q_1).abs().max()) < ROUNDING and float((k_3 - k_1).abs().max()) < ROUNDING
    shifted = text.expand(3, -1).clone()
    shifted[1] += 50  # wrong variant: one row differs (the h section: slow frequencies), no longer plain RoPE
    q_s, _ = ours.forward_native(shifted, q.reshape(tokens, -1).clone(), k.reshape(tokens, -1).clone())
    assert float((q_s - q_1).abs().max()) > 0.1


# --- 3. fp8 e4m3 ------------------------------------------------------------------------------------------------


def test_fp8_e4m3_cast_saturates_at_448_on_cpu():
    assert torch.__version__.startswith("2.13")
    assert torch.finfo(torch.float8_e4m3fn).max == 448.0
    x = torch.tensor([300.0, 448.0, 500.0, 1000.0, math.inf, -1000.0, -math.inf])
    for n in (1, 4096):  # a scalar-sized and a vectorised-sized tensor
        for source in (x, x.to(torch.bfloat16)):
            y = source.repeat_interleave(n).to(torch.float8_e4m3fn).float().view(-1, n)
            assert torch.equal(y, torch.tensor([288.0, 448, 448, 448, 448, -448, -448])[:, None].expand(-1, n))
    assert torch.isnan(torch.tensor([math.nan]).to(torch.float8_e4m3fn).float()).all()
    stored = torch.tensor([1000.0]).to(torch.float8_e4m3fn).float()
    assert not torch.isnan(stored).any()  # wrong variant: "past 448 gives NaN"
    assert float((stored - 1000.0).abs()) > 500  # the key is clipped, not kept: 1000 reads back as 448
    assert torch.tensor([1000.0]).to(torch.float8_e5m2).float().item() == 1024.0  # control: e5m2 reaches 57344


def test_fp8_e4m3_key_error_relative_to_max_k():
    """Notebook 10's checklist: with scale 1, an e4m3 key entry is off by at most 2^-4 max|k| (32h, h = 2^-9; bfloat16:
    2^-8 = 2h) while 2^-6 <= max|k| <= 448, nearly reached when max|k| lies just above a power of 2; below 2^-6 more."""
    h = 2.0**-9

    def err(k, dtype):  # max |fl(k) - k| / max |k|, the notebook's unit
        return float((k.to(dtype).double() - k).abs().max() / k.abs().max())

    gen = torch.Generator().manual_seed(19)
    for top in (2.0**-6, 0.7, 1.0, 3.0, 300.0, 448.0):  # max|k| across binades, inside [2^-6, 448]
        k = torch.randn(64, 4096, generator=gen, dtype=torch.float64)
        k = k / k.abs().amax(dim=-1, keepdim=True) * top
        for row in k:
            assert err(row, torch.float8_e4m3fn) <= 32 * h and err(row, torch.bfloat16) <= 2 * h
    worst = torch.tensor([1.0 + 2.0**-4, 0.5], dtype=torch.float64)  # a midpoint just above a power of 2 is the max
    assert err(worst, torch.float8_e4m3fn) >= 30 * h  # 2^-4 / (1 + 2^-4): within 6% of 32h
    assert not err(worst, torch.float8_e4m3fn) <= 16 * h  # wrong variant: "up to 16h"
    e5m2 = torch.tensor([1.0 + 2.0**-3, 0.5], dtype=torch.float64)  # e5m2's 2 fraction bits: up to 2^-3 max|k| = 64h
    assert 56 * h <= err(e5m2, torch.float8_e5m2) <= 64 * h and not err(e5m2, torch.float8_e5m2) <= 32 * h
    small = torch.tensor([1.0, 0.375], dtype=torch.float64) * 2.0**-8  # max|k| below 2^-6: subnormal spacing 2^-9
    assert err(small, torch.float8_e4m3fn) >= 64 * h  # 2^-11 / 2^-8: twice the bound


def test_vllm_default_kv_scales_are_one(vllm):
    from vllm.model_executor.layers.attention.attention import set_default_quant_scales

    layer = torch.nn.Module()
    set_default_quant_scales(layer, register_buffer=True)
    assert float(layer._k_scale) == 1.0 and layer._k_scale_float == 1.0 and float(layer._v_scale) == 1.0
    stored = (torch.tensor([1000.0]) / layer._k_scale).to(torch.float8_e4m3fn).float() * layer._k_scale
    assert stored.item() == 448.0  # a key of 1000 divided by the default scale and stored: 448
    assert stored.item() != 1000.0  # wrong variant: "the default scale keeps it"


def test_vllm_auto_kv_cache_dtype_follows_the_checkpoint(vllm):
    """`--kv-cache-dtype auto` resolves from a ModelOpt checkpoint's KV-cache scheme: fp8 -> e4m3, 4-bit float -> nvfp4
    (0.33.0 `utils/torch_utils.py`, lines 78-81, 443-516)."""
    from vllm.utils.torch_utils import resolve_kv_cache_dtype_string

    def resolve(kv, dtype="auto"):
        hf = types.SimpleNamespace(quantization_config={"quant_method": "modelopt", "quantization": kv})
        return resolve_kv_cache_dtype_string(dtype, types.SimpleNamespace(hf_config=hf))

    assert resolve({"kv_cache_quant_algo": "FP8"}) == "fp8_e4m3"
    assert resolve({"kv_cache_quant_algo": "NVFP4"}) == "nvfp4"
    assert resolve({"kv_cache_scheme": {"num_bits": 4, "type": "float"}}) == "nvfp4"
    assert resolve({"kv_cache_scheme": {"dynamic": False, "num_bits": 8, "type": "float"}}) == "fp8_e4m3"
    assert resolve({}) == "auto"  # no KV-cache scheme: the model's dtype
    # llm-compressor: not resolved here ("auto"); attention.py, lines 287-291, then picks "fp8" (read)
    compressed = types.SimpleNamespace(quantization_config={"quant_method": "compressed-tensors",
                                                            "kv_cache_scheme": {"num_bits": 4, "type": "float"}})
    assert resolve_kv_cache_dtype_string("auto", types.SimpleNamespace(hf_config=compressed)) == "auto"
    assert resolve({"kv_cache_scheme": {"num_bits": 4, "type": "float"}}) != "auto"  # wrong variant: ModelOpt alike
    assert resolve({"kv_cache_quant_algo": "NVFP4"}, "bfloat16") == "bfloat16"  # an explicit value wins
    wrong = "fp8_e4m3"  # wrong variant: "auto gives fp8 or the model's dtype, never 4 bits"
    assert resolve({"kv_cache_scheme": {"num_bits": 4, "type": "float"}}) != wrong


# --- 4. Phi-3 generate with left padding -------------------------------------------------------------------------


OMP = 32


@pytest.fixture(scope="module")
def phi3():
    from transformers import Phi3Config, Phi3ForCausalLM

    torch.manual_seed(0)
    rope = {"rope_type": "longrope", "rope_theta": 10000.0, "short_factor": [1.0] * 16, "long_factor": [4.0] * 16,
            "original_max_position_embeddings": OMP}
    config = Phi3Config(hidden_size=64, num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=2,
                        intermediate_size=32, vocab_size=32, max_position_embeddings=256,
                        original_max_position_embeddings=OMP, rope_parameters=rope, pad_token_id=0)
    model = Phi3ForCausalLM(config).eval()
    calls = []

    def record(module, args, kwargs):
        calls.append((kwargs["input_ids"].shape[1], int(kwargs["position_ids"].max())))

    model.model.register_forward_pre_hook(record, with_kwargs=True)
    prompt = torch.randint(3, 32, (1, 20), generator=torch.Generator().manual_seed(3))

    def generate(slots, new, use_cache=True):
        pad = slots - prompt.shape[1]
        ids = torch.cat([torch.zeros(1, pad, dtype=torch.long), prompt], 1)
        mask = torch.cat([torch.zeros(1, pad, dtype=torch.long), torch.ones_like(prompt)], 1)
        calls.clear()
        with torch.no_grad():
            out = model.generate(ids, attention_mask=mask, max_new_tokens=new, do_sample=False, use_cache=use_cache,
                                 output_scores=True, return_dict_in_generate=True, eos_token_id=None, pad_token_id=0)
        return out, list(calls)

    generate.model = model
    return generate


def _step_gaps(a, b):
    return [float((x - y).abs().max()) for x, y in zip(a.scores, b.scores, strict=True)]


def test_phi3_left_padding_keeps_short_keys_past_the_switch(phi3):
    unpadded, unpadded_calls = phi3(20, 20)
    no_cache, _ = phi3(20, 20, use_cache=False)
    padded, padded_calls = phi3(40, 20)  # 40 slots >= OMP + 1 at prefill, 20 real tokens
    assert max(_step_gaps(unpadded, no_cache)) < ROUNDING  # unpadded generate recomputes at the switch
    # unpadded: one re-prefill of 33 tokens when the input first reaches OMP + 1 = 33 slots (position 32)
    assert [c for c in unpadded_calls if c[0] > 1] == [(20, 19), (33, 32)]
    # padded: the drop fires at prefill (40 slots, empty cache: nothing to drop), never at position 32
    assert [c for c in padded_calls if c[0] > 1] == [(40, 19)]
    gaps = _step_gaps(unpadded, padded)
    switch = next(i for i, c in enumerate(padded_calls) if c[1] + 1 > OMP)  # first step with max position + 1 > 32
    assert switch == 13
    assert max(gaps[:switch]) < ROUNDING  # left padding alone changes nothing
    assert min(gaps[switch:]) > 1e-3  # wrong variant "padded = unpadded" fails from the switch on
    assert torch.equal(unpadded.sequences[:, 20:], padded.sequences[:, 40:])  # this tiny model's argmax survives


def test_phi3_padding_below_the_switch_recomputes_early_by_slot_count(phi3):
    unpadded, _ = phi3(20, 30)
    padded, calls = phi3(30, 30)  # 30 slots: the slot count reaches 33 at position 22, ten steps before the switch
    assert [c for c in calls if c[0] > 1] == [(30, 19), (33, 22)]  # the re-prefill at position 22, not 32
    gaps = _step_gaps(unpadded, padded)
    assert max(gaps[:13]) < ROUNDING and min(gaps[13:]) > 1e-3  # and none at the switch: stale keys from step 13


def test_phi3_padding_longest_drops_at_the_batch_switch_and_moves_short_rows_early(phi3):
    """``padding="longest"``: the widest row has no pads, so the slot count is its position and the drop fires at the
    batch's switch; a shorter row gets the long factors when the widest row passes OMP, ten positions early."""
    model = phi3.model
    prompt = torch.randint(3, 32, (2, 20), generator=torch.Generator().manual_seed(3))
    ids, mask = prompt.clone(), torch.ones_like(prompt)
    ids[1, :10], mask[1, :10] = 0, 0  # row 1: 10 real tokens, left-padded to the widest row's 20

    def run(i, m):
        with torch.no_grad():
            return model.generate(i, attention_mask=m, max_new_tokens=20, do_sample=False, output_scores=True,
                                  return_dict_in_generate=True, eos_token_id=None, pad_token_id=0)

    batch = run(ids, mask)
    alone = [run(prompt[:1], mask[:1]), run(prompt[1:, 10:], mask[1:, 10:])]  # each row by itself, unpadded

    def gaps(row):
        return [float((x[row] - y[0]).abs().max()) for x, y in zip(batch.scores, alone[row].scores, strict=True)]

    wide, short = gaps(0), gaps(1)
    assert max(wide) < ROUNDING  # the widest row: recomputed exactly at its switch, as when run alone
    assert max(short[:13]) < ROUNDING  # row 1 before the batch's switch (step 13: row 0 at position 32)
    assert min(short[13:]) > 1e-3  # from step 13 (row 1 at position 22) long factors, ten positions early
    assert max(short[13:]) >= ROUNDING  # wrong variant "the short row is unaffected" fails
