"""Notebook 04 §3 and §5, vLLM 0.33.0 read at the cited lines.

DeepSeek-V3's MLA rotary is interleaved (``is_neox_style=False``, ``deepseek_v2.py`` line 1126), while the V3.2
indexer takes ``not indexer_rope_interleave`` (line 1177): half unless the config sets it.  The cos/sin table is
stored after a recast (``base.py`` line 130) except under ``torch.compile`` tracing (lines 127-128).
"""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import pytest

_SPEC = importlib.util.find_spec("vllm")
VLLM_SRC = Path(_SPEC.origin).parent if _SPEC and _SPEC.origin else Path("vllm-not-installed")


def _lines(*parts: str) -> list[str]:
    if not VLLM_SRC.is_dir():
        pytest.skip("the conformance extra is not installed: run `make conformance`")
    return (VLLM_SRC.joinpath(*parts)).read_text().splitlines()


def test_deepseek_mla_interleaved_and_indexer_flag():
    lines = _lines("model_executor", "models", "deepseek_v2.py")
    assert lines[1125].strip() == "is_neox_style=False,"  # MLA rotary: interleaved
    flag = lines[1176].strip()
    assert flag == 'is_neox_style=not getattr(config, "indexer_rope_interleave", False),'
    expr = flag.removeprefix("is_neox_style=").rstrip(",")
    assert eval(expr, {"config": types.SimpleNamespace()}) is True  # unset: the indexer is half
    assert eval(expr, {"config": types.SimpleNamespace(indexer_rope_interleave=True)}) is False
    assert lines[1124].strip() != "is_neox_style=False,"  # wrong variant: the flag one line up


def test_table_recast_is_stored_except_while_compiling():
    lines = _lines("model_executor", "layers", "rotary_embedding", "base.py")
    assert "cos_sin_cache.to(query.device, dtype=query.dtype)" in lines[124]
    assert lines[126].strip() == "if torch.compiler.is_compiling():" and lines[127].strip() == "return cos_sin_cache"
    assert lines[129].strip() == "self.cos_sin_cache = cos_sin_cache"
    assert lines[128].strip() != "self.cos_sin_cache = cos_sin_cache"  # wrong variant: one line up
