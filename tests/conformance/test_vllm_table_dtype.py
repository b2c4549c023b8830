"""vLLM 0.33.0: the dtype of the cos/sin table (notebook 04 §5).

``get_rope``'s ``dtype`` defaults to ``torch.get_default_dtype()`` (``rotary_embedding/__init__.py`` lines 41-42);
``RotaryEmbeddingBase.__init__`` casts the float32 table to it (``base.py`` lines 58-61); at forward,
``_match_cos_sin_cache_dtype`` (``base.py`` lines 105-125) casts it again to the query's dtype and keeps that cast.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

PLAIN = {"rope_type": "default", "rope_theta": 10000.0}


def test_table_cast_to_get_ropes_dtype_then_to_the_querys():
    with vllm_cpu.loaded() as ns:
        default = vllm_cpu.build_rope(ns, 128, 4096, PLAIN, dtype=None)
        assert default.cos_sin_cache.dtype == torch.get_default_dtype() == torch.float32
        rope = vllm_cpu.build_rope(ns, 128, 4096, PLAIN, dtype=torch.float32)
        exact = rope.cos_sin_cache.clone()
        positions = torch.arange(8)
        q, k = (torch.randn(8, 2 * 128, generator=torch.Generator().manual_seed(s)).to(torch.bfloat16) for s in (0, 1))
        rope.forward_native(positions, q, k)
        assert rope.cos_sin_cache.dtype == torch.bfloat16  # recast to the query's dtype at forward, and kept
        assert torch.equal(rope.cos_sin_cache, exact.to(torch.bfloat16))
        # wrong variant: the float32 table read unrounded by a bfloat16 forward
        assert not torch.equal(rope.cos_sin_cache.float(), exact)


def test_loader_default_dtype_makes_a_bfloat16_table():
    """``BaseModelLoader.load_model`` builds the model inside ``set_default_torch_dtype(model_config.dtype)``
    (``model_loader/base_loader.py`` line 73), so on a bfloat16 model ``get_rope``'s default gives a bfloat16 table."""
    from vllm.utils.torch_utils import set_default_torch_dtype

    with vllm_cpu.loaded() as ns:
        exact = vllm_cpu.build_rope(ns, 128, 4096, PLAIN, dtype=torch.float32).cos_sin_cache.clone()
        with set_default_torch_dtype(torch.bfloat16):
            rope = vllm_cpu.build_rope(ns, 128, 4096, PLAIN, dtype=None)
        assert rope.cos_sin_cache.dtype == torch.bfloat16
        assert torch.equal(rope.cos_sin_cache, exact.to(torch.bfloat16))
        # wrong variant: a float32 table, as the default dtype outside the loader would give
        assert not torch.equal(rope.cos_sin_cache.float(), exact)
