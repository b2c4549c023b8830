"""The bfloat16 pipelines of notebook 10 (`rope_pipeline`) against the code they model, run in torch on CPU.

"transformers": ``LlamaRotaryEmbedding`` (float32 angles, cos/sin cast to the input's dtype) and
``apply_rotary_pos_emb`` on bfloat16 tensors (each product and the sum rounded to bfloat16).  "meta": Meta's
``apply_rotary_emb`` (``xq.float()``, complex product in float32, ``type_as`` back to bfloat16), interleaved
pairs, compared after `to_half`.  Both are given the library's own float32 θ_i, so the angles are the same
float32 products; what can still differ is float32 cos/sin (torch vs. float64 rounded) and the order of a
float32 complex product, each a float32 ulp that flips a bfloat16 rounding only near a tie.  So: every
element within 2^-7 max|y| (one bfloat16 spacing at the top binade) and at least 99 % of them bit for bit;
the other pipeline (negative control) agrees bit for bit on fewer than 90 %.

Also: ``torch_float32_theta`` is transformers' ``inv_freq`` and Meta's ``freqs`` bit for bit (torch's float32
pow; the correctly rounded float32 θ_i is not).  And: how a model is cast decides the dtype of θ_i.
``model.to(torch.bfloat16)`` casts the ``inv_freq`` buffer
to bfloat16 (θ_i with 8 significant bits: angles off by radians within a few thousand positions), while
``from_pretrained(..., dtype=torch.bfloat16)`` keeps it in float32 (notebook 10 §4).
And: vLLM's table, ``torch.einsum("i,j -> ij", t, inv_freq)``, runs as an elementwise ``aten::mul``
(a matmul would be open to TF32; the negative control is one).
And: notebook 13 §5's recipe for Men et al.'s condition in the model's own cos/sin table (full and partial rotary,
interleaved).  And: each Python switch that allows TF32 for float32 matmuls shows as ``fp32_precision == "tf32"``.
"""

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("llama_models", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
from llama_models.llama3.model import apply_rotary_emb
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

import ropemath
from ropemath import cosine_sum_minimum, frequencies, to_half, to_interleaved
from ropemath.core import round_to_format
from ropemath.models import rope_pipeline, torch_float32_theta

D, HEADS = 128, 8
POSITIONS = np.array([0, 1, 5, 100, 2047, 2049, 4097, 10_000, 65_537, 131_071])


def bf16_input(seed: int) -> torch.Tensor:
    x = np.random.default_rng(seed).standard_normal((HEADS, POSITIONS.size, D))
    return torch.tensor(x, dtype=torch.bfloat16)


CONFIG = dict(hidden_size=D * 2, num_attention_heads=2, head_dim=D, num_hidden_layers=1, intermediate_size=8,
              vocab_size=8, max_position_embeddings=131072,
              rope_parameters={"rope_type": "default", "rope_theta": 500000.0})


def hf_inv_freq() -> LlamaRotaryEmbedding:
    return LlamaRotaryEmbedding(LlamaConfig(**CONFIG))


def test_torch_float32_theta_is_transformers_and_metas_inv_freq():
    ours = torch_float32_theta(D, 500000.0)
    hf = hf_inv_freq().inv_freq
    assert hf.dtype == torch.float32 and np.array_equal(hf.double().numpy(), ours)  # bit for bit
    meta = 1.0 / (500000.0 ** (torch.arange(0, D, 2)[: (D // 2)].float() / D))  # precompute_freqs_cis's freqs
    assert np.array_equal(meta.double().numpy(), ours)
    rounded = frequencies(D, 500000.0).astype(np.float32)  # negative control: correctly rounded float32
    assert not np.array_equal(hf.double().numpy(), rounded)


def agreement(got: np.ndarray, want: np.ndarray) -> tuple[float, float]:
    """(fraction of elements equal bit for bit, max |difference| / max |want|)"""
    return float(np.mean(got == want)), float(np.abs(got - want).max() / np.abs(want).max())


def test_rope_pipeline_transformers_is_hf_eager_bfloat16():
    rot = hf_inv_freq()
    theta = rot.inv_freq.double().numpy()  # the library's own float32 θ_i
    x = bf16_input(50)
    cos, sin = rot(x, torch.tensor(POSITIONS)[None])
    assert cos.dtype == torch.bfloat16  # the table is cast to the input's dtype
    hf, _ = apply_rotary_pos_emb(x[None], x[None], cos, sin)
    hf = hf[0].double().numpy()
    x64 = x.double().numpy()
    same, worst = agreement(rope_pipeline(x64, POSITIONS, theta, "transformers"), hf)
    assert same >= 0.99 and worst <= 2.0**-7, (same, worst)
    other, _ = agreement(rope_pipeline(x64, POSITIONS, theta, "meta"), hf)
    assert other < 0.9, other  # negative control: Meta's single cast is a different pipeline


def test_rope_pipeline_meta_is_metas_apply_rotary_emb_in_bfloat16():
    theta = hf_inv_freq().inv_freq.double().numpy()
    x = bf16_input(51)
    x_inter = torch.tensor(to_interleaved(x.double().numpy()), dtype=torch.bfloat16)  # exact: a permutation
    angles = torch.tensor(POSITIONS, dtype=torch.float32)[:, None] * torch.tensor(theta, dtype=torch.float32)
    freqs_cis = torch.polar(torch.ones_like(angles), angles)  # complex64, as precompute_freqs_cis builds it
    xq = x_inter.permute(1, 0, 2)[None].contiguous()  # Meta: (batch, seq, heads, d)
    meta, _ = apply_rotary_emb(xq, xq, freqs_cis)
    assert meta.dtype == torch.bfloat16
    meta = to_half(meta[0].permute(1, 0, 2).double().numpy())
    x64 = x.double().numpy()
    same, worst = agreement(rope_pipeline(x64, POSITIONS, theta, "meta"), meta)
    assert same >= 0.99 and worst <= 2.0**-7, (same, worst)
    other, _ = agreement(rope_pipeline(x64, POSITIONS, theta, "transformers"), meta)
    assert other < 0.9, other  # negative control: products rounded to bfloat16 are a different pipeline


def test_to_bfloat16_casts_inv_freq_and_from_pretrained_with_dtype_does_not(tmp_path):
    theta = frequencies(D, 500000.0)
    x, m = torch.zeros(1, 1, D, dtype=torch.bfloat16), 4096
    exact = np.cos(m * theta)
    cast = LlamaForCausalLM(LlamaConfig(**CONFIG)).to(torch.bfloat16).model.rotary_emb
    assert cast.inv_freq.dtype == torch.bfloat16
    assert np.array_equal(cast.inv_freq.double().numpy(), round_to_format(theta, "bfloat16"))
    cos_cast = cast(x, torch.tensor([[m]]))[0][0, 0, : D // 2].double().numpy()
    assert np.abs(cos_cast - exact).max() > 0.5  # the angles are off by radians at position 4096
    LlamaForCausalLM(LlamaConfig(**CONFIG)).save_pretrained(tmp_path)
    loaded = LlamaForCausalLM.from_pretrained(tmp_path, dtype=torch.bfloat16)
    assert loaded.model.embed_tokens.weight.dtype == torch.bfloat16
    rotary = loaded.model.rotary_emb  # control: the same model in bfloat16, loaded with dtype=
    assert rotary.inv_freq.dtype == torch.float32
    cos_loaded = rotary(x, torch.tensor([[m]]))[0][0, 0, : D // 2].double().numpy()
    assert np.abs(cos_loaded - exact).max() <= 2.0**-8 + m * 16 * 2.0**-23  # bfloat16 cast + float32 angle


def test_bfloat16_method_casts_inv_freq_too():
    """``.bfloat16()`` casts every floating buffer (torch 2.13 ``nn/modules/module.py`` l.1222), ``inv_freq`` included,
    as ``.to()`` does (``.half()``: ``test_bf16_repair.py``).  Control: ``dtype=`` loading keeps the buffer in float32
    (previous test)."""
    rotary = LlamaForCausalLM(LlamaConfig(**CONFIG)).bfloat16().model.rotary_emb
    assert rotary.inv_freq.dtype == torch.bfloat16


def _aten_ops(fn) -> set[str]:
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        fn()
    return {event.name for event in prof.events()}


def test_einsum_outer_product_is_elementwise_not_a_matmul():
    """vLLM's table: ``torch.einsum("i,j -> ij", t, inv_freq)`` runs as ``aten::mul``, so TF32 cannot touch it."""
    t = torch.arange(8192, dtype=torch.float32)
    inv_freq = torch.tensor(torch_float32_theta(D, 500000.0), dtype=torch.float32)
    ops = _aten_ops(lambda: torch.einsum("i,j -> ij", t, inv_freq))
    assert "aten::mul" in ops and not ops & {"aten::mm", "aten::bmm", "aten::matmul"}, ops
    # negative control: the same outer product as transformers 4.38-5.18 wrote it, a matmul
    ops_matmul = _aten_ops(lambda: inv_freq[:, None] @ t[None, :])
    assert ops_matmul & {"aten::mm", "aten::bmm", "aten::matmul"}, ops_matmul


def _mu_in_model_precision(rotary, length: int, dtype, device, half=None, interleaved=False, head_dim=None) -> float:
    """Notebook 13 §5's recipe: min over m of sum_i cos(phi_i(L-1) - phi_i(L-1-m)), from a rotary module's cos/sin.

    ``half`` overrides the recipe's slice ``cos.shape[-1] // 2`` (only for the negative control); ``interleaved``
    takes every second entry, the recipe's slice for a ``repeat_interleave`` table. With ``head_dim``, the
    ``head_dim // 2 - half`` pass-through pairs add 1 each, as the recipe's last line does.
    """
    x = torch.zeros(1, dtype=dtype, device=device)
    cos, sin = rotary(x, torch.arange(length, device=device)[None])  # (1, L, rotary width)
    half = cos.shape[-1] // 2 if half is None else half  # rotate_half: the first half has one entry per rotated pair
    pick = slice(None, None, 2) if interleaved else slice(None, half)
    c, s = cos[0, :, pick].cpu().double(), sin[0, :, pick].cpu().double()
    mu = float((c[-1] * c + s[-1] * s).sum(-1).min()) / getattr(rotary, "attention_scaling", 1.0) ** 2
    return mu + (head_dim // 2 - half if head_dim is not None else 0)


def test_base_condition_in_model_precision_recipe(tmp_path):
    config = LlamaConfig(**dict(CONFIG, max_position_embeddings=8192))
    exact = float(cosine_sum_minimum(8192, D, 500000.0))  # Llama 3's base at 8192: about 5.97
    LlamaForCausalLM(config).save_pretrained(tmp_path)
    loaded = LlamaForCausalLM.from_pretrained(tmp_path, dtype=torch.bfloat16)
    mu_loaded = _mu_in_model_precision(loaded.model.rotary_emb, 8192, loaded.dtype, loaded.device)
    assert abs(mu_loaded - exact) < 0.02  # bfloat16 table, float32 angles
    cast = LlamaForCausalLM(config).to(torch.bfloat16)  # negative control: theta_i rounded to bfloat16
    assert 0.05 < exact - _mu_in_model_precision(cast.model.rotary_emb, 8192, cast.dtype, cast.device) < 0.2


def test_model_precision_recipe_on_a_partial_rotary_head():
    """GPT-NeoX-20B: cos/sin are rotary_dim = 24 wide; slice cos.shape[-1] // 2, then add 36 pass-through pairs."""
    from transformers import GPTNeoXConfig
    from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding

    hub = ropemath.published_config("gpt_neox_20b_hf")
    rotary = GPTNeoXRotaryEmbedding(GPTNeoXConfig.from_dict(hub))
    theta = ropemath.frequencies_from_config(hub).theta  # the 12 rotated pairs
    pairs, length = hub["hidden_size"] // hub["num_attention_heads"] // 2, hub["max_position_embeddings"]
    passthrough = pairs - theta.size
    exact = float(np.cos(np.arange(length)[:, None] * theta).sum(axis=1).min()) + passthrough  # about 31.95
    assert (theta.size, passthrough) == (12, 36)
    mu = _mu_in_model_precision(rotary, length, torch.bfloat16, "cpu", head_dim=2 * pairs)  # adds the 36
    assert abs(mu - exact) < 0.02
    wrong = _mu_in_model_precision(rotary, length, torch.bfloat16, "cpu", half=pairs) + passthrough  # head_dim // 2
    assert wrong - exact < -1  # negative control: each rotated pair counted twice
    rotated_only = _mu_in_model_precision(rotary, length, torch.bfloat16, "cpu")  # negative control: no pass-through
    assert rotated_only - exact < -30


def test_model_precision_recipe_divides_the_attention_factor_before_adding_pass_through_pairs():
    """Partial rotary with YaRN: cos/sin carry attention_scaling, the pass-through pairs do not."""
    from transformers import GPTNeoXConfig
    from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding

    yarn = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 512}
    hub = {"model_type": "gpt_neox", "hidden_size": 512, "num_attention_heads": 4, "rotary_pct": 0.25,
           "max_position_embeddings": 2048, "rope_theta": 10000.0, "rope_scaling": yarn}
    config = GPTNeoXConfig(**{k: v for k, v in hub.items() if k not in ("model_type", "rope_theta", "rope_scaling")},
                           rope_parameters=dict(yarn, rope_theta=10000.0))
    rotary = GPTNeoXRotaryEmbedding(config)
    freqs = ropemath.frequencies_from_config(hub)  # 16 rotated pairs of 64
    scale, length, passthrough = rotary.attention_scaling, 2048, 64 - freqs.theta.size
    assert abs(scale - freqs.attention_factor) < 1e-12 and scale > 1.1 and passthrough == 48
    exact = float(np.cos(np.arange(length)[:, None] * freqs.theta).sum(axis=1).min()) + passthrough
    mu = _mu_in_model_precision(rotary, length, torch.bfloat16, "cpu", head_dim=128)
    assert abs(mu - exact) < 0.05
    wrong = ((mu - passthrough) * scale**2 + passthrough) / scale**2  # negative control: divided after adding them
    assert wrong - exact < -5


def test_model_precision_recipe_on_an_interleaved_table():
    """Cohere builds cos/sin with repeat_interleave: take every second entry (the rotate_half slice is wrong)."""
    from transformers import CohereConfig
    from transformers.models.cohere.modeling_cohere import CohereRotaryEmbedding

    config = CohereConfig(hidden_size=2 * D, num_attention_heads=2, max_position_embeddings=8192,
                          rope_parameters={"rope_type": "default", "rope_theta": 500000.0})
    rotary = CohereRotaryEmbedding(config=config)
    exact = float(cosine_sum_minimum(8192, D, 500000.0))  # about 5.97, as for Llama 3
    assert abs(_mu_in_model_precision(rotary, 8192, torch.bfloat16, "cpu", interleaved=True) - exact) < 0.02
    wrong = _mu_in_model_precision(rotary, 8192, torch.bfloat16, "cpu")  # the rotate_half slice: half the pairs, twice
    assert wrong - exact < -1  # negative control


def test_model_precision_recipe_per_layer_type_gemma3():
    """Gemma 3 (published 4B config): one table per layer type, the sliding layers checked at their window."""
    from transformers.models.gemma3.configuration_gemma3 import Gemma3TextConfig
    from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding

    hub = ropemath.published_config("gemma3_4b_it")
    text = {k: v for k, v in hub["text_config"].items() if k != "model_type"}
    config = Gemma3TextConfig(**text)
    rotary = Gemma3RotaryEmbedding(config)
    assert set(rotary.layer_types) == {"sliding_attention", "full_attention"} and config.sliding_window == 1024

    def recipe(layer_type, length, span=None):  # the recipe with rotary(x, pos, layer_type), that type's scaling
        span = length if span is None else span  # query at length - 1, keys back to length - span
        cos, sin = rotary(torch.zeros(1, dtype=torch.bfloat16), torch.arange(length - span, length)[None], layer_type)
        half = cos.shape[-1] // 2
        c, s = cos[0, :, :half].double(), sin[0, :, :half].double()
        scaling = getattr(rotary, f"{layer_type}_attention_scaling")
        return float((c[-1] * c + s[-1] * s).sum(-1).min()) / scaling**2

    def exact(layer_type, length):
        theta = ropemath.frequencies_from_config(hub, layer_type=layer_type).theta
        return float(np.cos(np.arange(length)[:, None] * theta).sum(axis=1).min())

    window, served = config.sliding_window, 8192
    assert abs(recipe("sliding_attention", window) - exact("sliding_attention", window)) < 0.05  # about 13.9
    assert abs(recipe("sliding_attention", served, window) - exact("sliding_attention", window)) < 0.05  # query at 8191
    assert abs(recipe("full_attention", served) - exact("full_attention", served)) < 0.05  # about 50.4
    # negative controls: the global table for a sliding layer; a sliding layer checked past its window
    assert recipe("full_attention", window) - exact("sliding_attention", window) > 50
    assert recipe("sliding_attention", served) < 0 < exact("sliding_attention", window)


@pytest.mark.parametrize("switch,expected", [
    ("torch.backends.cuda.matmul.allow_tf32 = True", "tf32"),
    ("torch.set_float32_matmul_precision('high')", "tf32"),
    ("torch.backends.cuda.matmul.fp32_precision = 'tf32'", "tf32"),
    ("torch.set_float32_matmul_precision('highest')", "ieee"),  # negative control: TF32 stays off
    ("assert not torch.backends.cuda.matmul.allow_tf32", "none"),  # the default: "none", TF32 off
])
def test_every_tf32_switch_shows_in_fp32_precision(switch, expected):
    """Notebook 10 §4: after any of the three switches, torch 2.13 reports TF32 in one place (a fresh process each)."""
    code = f"import torch; {switch}; print(torch.backends.cuda.matmul.fp32_precision)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[-1] == expected
