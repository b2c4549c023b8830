"""Config keys that decide a deployment, run on CPU: vLLM 0.33.0 and transformers 5.24.0.

1. Llama 4's ``attn_temperature_tuning``: ``Llama4ForCausalLM.__init__`` (vLLM ``models/llama4.py`` lines 714-722)
   overwrites the config's value with the generation config's, else with ``max_model_len > 32768``; transformers
   5.24 reads the config (``Llama4TextConfig``, default ``True``).  The parent constructor is stubbed out: only the
   lines that set the flag run.
2. ``attention_factor``: transformers 5.24 writes ``attention_factor = 1.0`` into DeepSeek-V4's YaRN (``compress``)
   parameters (``configuration_deepseek_v4.py`` line 318) and writes nothing for DeepSeek-V3.  DeepSeek-V3's
   attention multiplies the softmax scale by a(s, mscale_all_dim)^2 whatever ``attention_factor`` says, and not at
   all with ``mscale_all_dim: 0`` (``yarn_apply_mscale``, ``modeling_deepseek_v3.py`` lines 268-274).

Each check has a wrong variant that must fail.
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

from ropemath import published_config


@pytest.fixture(scope="module")
def llama4():
    with vllm_cpu.loaded():
        from vllm.model_executor.models import llama4
        yield llama4


def _vllm_tuning(llama4, monkeypatch, max_model_len, generation_config, config_value=True):
    """The flag vLLM's Llama4ForCausalLM leaves on the hf_config, for a config that says ``config_value``."""
    monkeypatch.setattr(llama4.LlamaForCausalLM, "__init__", lambda self, **kwargs: None)
    monkeypatch.setattr(llama4.Llama4ForCausalLM, "set_moe_parameters", lambda self: None)
    hf_config = types.SimpleNamespace(attn_temperature_tuning=config_value)
    model_config = types.SimpleNamespace(max_model_len=max_model_len, hf_config=hf_config,
                                         override_generation_config={},
                                         try_get_generation_config=lambda: dict(generation_config))
    llama4.Llama4ForCausalLM(vllm_config=types.SimpleNamespace(model_config=model_config))
    return hf_config.attn_temperature_tuning


def test_vllm_llama4_temperature_tuning_follows_max_model_len(llama4, monkeypatch):
    from transformers import Llama4TextConfig
    assert Llama4TextConfig().attn_temperature_tuning is True  # transformers: the config's value, default True
    # vLLM: the config says True, yet a generation config without the key leaves it to max_model_len
    assert _vllm_tuning(llama4, monkeypatch, 32768, {}) is False
    assert _vllm_tuning(llama4, monkeypatch, 32769, {}) is True
    # the fix: put the key in the generation config (what --override-generation-config does)
    assert _vllm_tuning(llama4, monkeypatch, 32768, {"attn_temperature_tuning": True}) is True
    # wrong variant, "vLLM keeps config.json's value": fails at max_model_len <= 32768
    config_value = True
    assert _vllm_tuning(llama4, monkeypatch, 32768, {}, config_value=config_value) is not config_value


def test_transformers_writes_attention_factor_for_deepseek_v4_not_v3():
    from transformers import DeepseekV3Config, DeepseekV4Config
    v3 = published_config("deepseek_v3")
    v3 = DeepseekV3Config(**{k: v for k, v in v3.items() if not k.startswith("_")})
    assert "attention_factor" not in v3.rope_parameters and v3.rope_parameters["rope_type"] == "yarn"
    yarn = {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 65536}
    v4 = DeepseekV4Config(rope_scaling=yarn)
    assert v4.rope_parameters["compress"]["attention_factor"] == 1.0
    assert "attention_factor" not in v4.rope_parameters["main"]  # plain-RoPE layers: not written
    # wrong variant: "transformers never writes the key" fails on V4
    assert any("attention_factor" in p for p in v4.rope_parameters.values())


def test_transformers_deepseek_softmax_factor_ignores_attention_factor_unless_mscale_all_dim_is_zero():
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import yarn_apply_mscale
    v3 = dict(published_config("deepseek_v3")["rope_scaling"], rope_type="yarn")
    a2 = (0.1 * v3["mscale_all_dim"] * math.log(v3["factor"]) + 1.0) ** 2
    assert abs(yarn_apply_mscale(v3, 1.0) - a2) < 1e-12 and a2 > 1.8  # DeepSeek's config: softmax scale x a^2
    assert abs(yarn_apply_mscale(dict(v3, attention_factor=1.0), 1.0) - a2) < 1e-12  # the key changes nothing here
    assert yarn_apply_mscale(dict(v3, attention_factor=1.0, mscale_all_dim=0), 1.0) == 1.0  # the fix: no a^2
    # wrong variant: "attention_factor 1.0 drops a^2 in transformers too" fails
    assert yarn_apply_mscale(dict(v3, attention_factor=1.0), 1.0) != 1.0
