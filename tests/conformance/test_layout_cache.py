"""The KV-cache note (notebook 07), run: engines cache keys already rotated, in their own pair layout.

transformers 5.24 rotates ``key_states`` (``models/llama/modeling_llama.py`` line 249) before ``cache.update`` (line
252); a tiny random Llama is run with ``use_cache=True`` and its cached keys are compared with ``k_proj`` of the
normed embeddings rotated by ``ropemath.apply_rope`` in the half layout, with the interleaved layout and the
unrotated keys as wrong variants.  vLLM 0.33.0 calls ``self.rotary_emb`` before ``self.attn``, which writes the cache
(``model_executor/models/llama.py`` lines 231-232; read).  Also run: Llama 4's load-time permutation in vLLM 0.33.0
matches the name ``weight_scale`` only (``llama4.py`` line 818), so a block-FP8 ``weight_scale_inv`` passes through
unpermuted, while the same tensor named ``weight_scale`` fails its per-row ``view``.  And notebook 04 §5's dispatch
condition: ``RotaryEmbeddingBase.enabled()`` (``custom_op.py`` lines 268-307) is off under the default Inductor
compilation (``none`` joins ``custom_ops``: ``config/vllm.py`` lines 1840-1847), on with ``+rotary_embedding``, on in
mode ``NONE`` (what ``--enforce-eager`` sets, line 1767; read) and off there with ``-rotary_embedding``; a fusion
pass (``fuse_rope_kvcache``, ROCm) appends ``+rotary_embedding`` (``config/compilation.py`` lines 964-984).
And §5's table rows per rope type (``test_vllm_table_rows_per_rope_type``).
"""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

from ropemath import apply_rope  # noqa: E402

_VLLM_SPEC = importlib.util.find_spec("vllm")
VLLM_SRC = Path(_VLLM_SPEC.origin).parent if _VLLM_SPEC and _VLLM_SPEC.origin else Path("vllm-not-installed")
BASE = 10000.0


def test_transformers_caches_keys_rotated_in_the_half_layout():
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=64, hidden_size=64, intermediate_size=128, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1, head_dim=32, max_position_embeddings=128,
                         rope_parameters={"rope_type": "default", "rope_theta": BASE})
    model = LlamaForCausalLM(config).double().eval()
    ids = torch.randint(0, 64, (1, 12))
    with torch.no_grad():
        cache = model(ids, use_cache=True).cache
        layer = model.model.layers[0]
        keys = layer.self_attn.k_proj(layer.input_layernorm(model.model.embed_tokens(ids)))
    cached = cache.layers[0].keys[0, 0].numpy()  # (positions, head_dim) of the one key/value head
    raw = keys[0].numpy()  # (positions, head_dim), before the rotation
    pos = np.arange(12)
    assert np.abs(cached - apply_rope(raw, pos, layout="half", base=BASE)).max() < 1e-6  # float32 angles
    assert np.abs(cached - apply_rope(raw, pos, layout="interleaved", base=BASE)).max() > 0.1  # wrong: other layout
    assert np.abs(cached - raw).max() > 0.1  # wrong variant: the cache holds unrotated keys


def test_vllm_rotates_before_the_attention_layer_writes_the_cache():
    if not VLLM_SRC.is_dir():
        pytest.skip("vLLM 0.33.0 source not present")
    lines = (VLLM_SRC / "model_executor" / "models" / "llama.py").read_text().splitlines()
    assert "q, k = self.rotary_emb(positions, q, k)" in lines[230]
    assert "self.attn(q, k, v)" in lines[231]
    assert "self.attn(q, k, v)" not in lines[230]  # wrong variant: the order the other way round


def test_llama4_passes_weight_scale_inv_through_unpermuted():
    if not VLLM_SRC.is_dir():
        pytest.skip("vLLM 0.33.0 source not present")
    import vllm_cpu

    with vllm_cpu.loaded():
        from vllm.model_executor.models.llama4 import Llama4ForCausalLM

        lines = (VLLM_SRC / "model_executor" / "models" / "llama4.py").read_text().splitlines()
        assert 'modules[-1] == "weight_scale"' in lines[817]
        fake = types.SimpleNamespace(config=types.SimpleNamespace(num_attention_heads=2, num_key_value_heads=2))
        permute = Llama4ForCausalLM.permute_qk_weight_for_rotary
        blocks = torch.from_numpy(np.random.default_rng(3).uniform(0.5, 2.0, size=(2, 2)))  # 2 heads of 128
        _, kept = permute(fake, "layers.0.attn.q_proj.weight_scale_inv", blocks)
        assert torch.equal(kept, blocks)  # not matched by name: unpermuted
        with pytest.raises(RuntimeError):  # wrong variant: the same tensor named weight_scale fails its view
            permute(fake, "layers.0.attn.q_proj.weight_scale", blocks)


def test_vllm_rotary_op_follows_custom_ops():
    if not VLLM_SRC.is_dir():
        pytest.skip("vLLM 0.33.0 source not present")
    import vllm_cpu

    with vllm_cpu.loaded() as ns:
        from vllm.config import CompilationConfig, VllmConfig
        from vllm.config.compilation import CompilationMode
        from vllm.model_executor.layers.rotary_embedding.base import RotaryEmbeddingBase

        cases = [({}, False), ({"custom_ops": ["+rotary_embedding"]}, True), ({"mode": CompilationMode.NONE}, True),
                 ({"mode": CompilationMode.NONE, "custom_ops": ["-rotary_embedding"]}, False)]
        for settings, op_enabled in cases:  # both outcomes occur, so a constant answer fails
            config = VllmConfig(compilation_config=CompilationConfig(**settings))
            with ns.set_current_vllm_config(config):
                assert RotaryEmbeddingBase.enabled() is op_enabled, settings
        default = VllmConfig(compilation_config=CompilationConfig())
        assert default.compilation_config.custom_ops == ["none"]
        assert "all" not in default.compilation_config.custom_ops  # wrong variant: the op on by default
        # A fusion pass appends "+rotary_embedding" (CompilationConfig.__post_init__, compilation.py lines 964-984);
        # PassConfig drops fuse_rope_kvcache off ROCm (lines 282-287), so the platform is made to say ROCm.
        from unittest import mock

        from vllm.platforms import current_platform

        with mock.patch.object(type(current_platform), "is_rocm", lambda self: True):
            fused = CompilationConfig(pass_config={"fuse_rope_kvcache": True})
        assert fused.pass_config.fuse_rope_kvcache and "+rotary_embedding" in fused.custom_ops
        with ns.set_current_vllm_config(VllmConfig(compilation_config=fused)):
            assert RotaryEmbeddingBase.enabled() is True  # on although "none" joins custom_ops under Inductor
        unfused = CompilationConfig(pass_config={"fuse_rope_kvcache": True})  # wrong variant: not ROCm, dropped
        assert not unfused.pass_config.fuse_rope_kvcache and "+rotary_embedding" not in unfused.custom_ops


def test_vllm_table_rows_per_rope_type():
    """Notebook 04 §5's vLLM "size" cell: ``get_rope(max_position=L)`` builds L rows for the default type, f L for
    ``linear`` (``LinearScalingRotaryEmbedding._compute_cos_sin_cache``, ``linear_scaling_rope.py`` line 90; a list of
    factors stacks one table per factor, Σ f L rows; wrong variant: L × the largest factor) and
    ``original_max_position_embeddings`` × f for YaRN and DeepSeek-YaRN (``yarn_scaling_rope.py`` line 79,
    ``deepseek_scaling_rope.py`` line 106; ``get_rope`` passes the original length, ``__init__.py`` lines 277, 306)."""
    if not VLLM_SRC.is_dir():
        pytest.skip("vLLM 0.33.0 source not present")
    import vllm_cpu

    L, L_o, f = 256, 48, 4.0  # f L_o != L, so the wrong variant can fail
    cases = {
        "default": ({"rope_type": "default"}, L),
        "linear": ({"rope_type": "linear", "factor": f}, int(f * L)),
        "linear, two factors": ({"rope_type": "linear", "factor": [2.0, f]}, int(2 * L + f * L)),  # one table each
        "yarn": ({"rope_type": "yarn", "factor": f, "original_max_position_embeddings": L_o}, int(f * L_o)),
        "deepseek_yarn": ({"rope_type": "deepseek_yarn", "factor": f, "original_max_position_embeddings": L_o},
                          int(f * L_o)),
    }
    with vllm_cpu.loaded() as ns:
        for name, (params, rows) in cases.items():
            rope = vllm_cpu.build_rope(ns, 64, L, dict(params, rope_theta=BASE), dtype=torch.float32)
            assert rope.cos_sin_cache.shape[0] == rows, name
            if name != "default":  # wrong variant: "max_position rows for every type"
                assert rope.cos_sin_cache.shape[0] != L, name
            if name == "linear, two factors":  # wrong variant: "L x the largest factor"
                assert rope.cos_sin_cache.shape[0] != int(f * L), name
