"""vLLM's ``"dynamic"`` rope type with ``alpha`` (notebook 10 §1.2), built by vLLM 0.33.0 itself on CPU.

``get_rope`` sends a ``"dynamic"`` config that has ``alpha`` to ``DynamicNTKAlphaRotaryEmbedding``
(``model_executor/layers/rotary_embedding/__init__.py``, lines 212-223): one table, built once, for
``max_position`` rows, with the base ``b * alpha ** (d / (d - 2))`` whatever the input length.
"""

from __future__ import annotations

import os
import warnings

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")


@pytest.fixture(scope="module")
def get_rope():
    old = os.environ.get("VLLM_TARGET_DEVICE")
    os.environ["VLLM_TARGET_DEVICE"] = "cpu"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import vllm as package
            from vllm.config import VllmConfig, set_current_vllm_config
            from vllm.model_executor.layers import rotary_embedding
            config = VllmConfig()
        assert package.__version__ == "0.33.0"

        def build(head_size, max_position, parameters):
            rotary_embedding._ROPE_DICT.clear()  # get_rope caches modules by arguments
            with set_current_vllm_config(config), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return rotary_embedding.get_rope(head_size, max_position, True, dict(parameters), torch.float32)

        yield build
    finally:
        if old is None:
            os.environ.pop("VLLM_TARGET_DEVICE", None)
        else:
            os.environ["VLLM_TARGET_DEVICE"] = old


def test_alpha_builds_one_static_table_of_max_position_rows(get_rope):
    d, rows, base, alpha = 128, 4096, 10000.0, 1000.0
    rope = get_rope(d, rows, {"rope_type": "dynamic", "alpha": alpha, "rope_theta": base})
    assert type(rope).__name__ == "DynamicNTKAlphaRotaryEmbedding"
    scaled = base * alpha ** (d / (d - 2))
    inv_freq = 1.0 / scaled ** (torch.arange(0, d, 2, dtype=torch.float) / d)
    angles = torch.outer(torch.arange(rows, dtype=torch.float), inv_freq)
    assert rope.cos_sin_cache.shape == (rows, d)
    assert torch.equal(rope.cos_sin_cache, torch.cat((angles.cos(), angles.sin()), dim=-1))
