"""Two vLLM 0.33.0 facts notebook 08 §6 states, run on CPU against transformers 5.24.

1. ``longrope``: ``get_rope`` passes only ``short_mscale``/``long_mscale`` (``rotary_embedding/__init__.py``
   lines 313–333), so a config's ``attention_factor`` is dropped and Phi-3's √(1 + ln s / ln L_o) is used; transformers'
   ``_compute_longrope_parameters`` returns the config's value.  Wrong variant: vLLM using the config's 2.0.
2. ``yarn``: a text model's ``YaRNScalingRotaryEmbedding`` builds f·L_o rows; with ``mrope_section`` the class is
   ``MRotaryEmbedding``, which builds 4·f·L_o rows (``positions_factor`` 4) from a ramp computed with 4·L_o.
   Wrong variants: the multimodal table having f·L_o rows, or the text table's θ′.
"""

from __future__ import annotations

import math
import warnings

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

LONGROPE = {"rope_type": "longrope", "rope_theta": 1e4, "short_factor": [1.0] * 48, "long_factor": [4.0] * 48,
            "original_max_position_embeddings": 4096, "attention_factor": 2.0}
YARN = {"rope_type": "yarn", "rope_theta": 1e4, "factor": 4.0, "original_max_position_embeddings": 2048}


@pytest.fixture(scope="module")
def ns():
    with vllm_cpu.loaded() as loaded:
        yield loaded


def test_longrope_attention_factor_honoured_by_transformers_ignored_by_vllm(ns):
    from transformers import Phi3Config
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        config = Phi3Config(hidden_size=96 * 32, num_attention_heads=32, max_position_embeddings=131072,
                            rope_parameters=dict(LONGROPE))
        _, hf_factor = ROPE_INIT_FUNCTIONS["longrope"](config, "cpu")
    assert hf_factor == 2.0
    module = vllm_cpu.build_rope(ns, 96, 131072, LONGROPE, dtype=torch.float32, patch_phi3=True, max_model_len=8192)
    assert type(module).__name__ == "Phi3LongRoPEScaledRotaryEmbedding"
    phi3_rule = math.sqrt(1 + math.log(131072 / 4096) / math.log(4096))  # 1.190
    assert module.short_mscale == module.long_mscale == pytest.approx(phi3_rule, rel=1e-12)
    assert module.long_mscale != hf_factor  # wrong variant: vLLM honouring the config's attention_factor
    renamed = dict(LONGROPE, long_mscale=2.0)  # the key vLLM does read
    assert vllm_cpu.build_rope(ns, 96, 131072, renamed, dtype=torch.float32, patch_phi3=True,
                               max_model_len=8192).long_mscale == 2.0


def test_yarn_rows_f_times_original_only_without_mrope_section(ns):
    text = vllm_cpu.build_rope(ns, 128, 8192, YARN, dtype=torch.float32)
    multimodal = vllm_cpu.build_rope(ns, 128, 8192, dict(YARN, mrope_section=[16, 24, 24]), dtype=torch.float32)
    assert type(text).__name__ == "YaRNScalingRotaryEmbedding" and text.cos_sin_cache.shape[0] == 4 * 2048
    assert type(multimodal).__name__ == "MRotaryEmbedding" and multimodal.cos_sin_cache.shape[0] == 4 * 4 * 2048
    assert multimodal.cos_sin_cache.shape[0] != 4 * 2048  # wrong variant: f·L_o rows
    assert multimodal.max_position_embeddings == 4 * 2048  # the length YaRN's ramp is computed with
    assert not torch.allclose(text._compute_inv_freq(4.0), multimodal._compute_inv_freq(4.0))  # wrong: same θ′
