"""vLLM's default (Inductor-compiled) rotary path given a position past its cos/sin table (notebook 10 §1.3).

``forward_static`` below is a transcription of
``RotaryEmbedding.forward_static`` in vLLM 0.33.0 (``model_executor/layers/rotary_embedding/base.py`` lines 161-201:
``positions.flatten()``, ``cos_sin_cache.index_select(0, positions)`` at line 173, ``chunk``), with the rotation of
``ApplyRotaryEmb.forward_static`` (``common.py`` lines 150-168, neox style, ``enable_fp32_compute`` off), query only.
``test_vllm_rotary.py`` runs vLLM's own ``forward_native`` compiled past its table too.
vLLM's default compiles this ``forward_native`` with Inductor (``config/vllm.py``
lines 1840-1847 append ``none`` to ``custom_ops``); vLLM sets no ``assert_indirect_indexing``.

Checked, on CPU: compiled by Inductor, a position inside the table gives eager's result; a position at or past the
table's length raises ``RuntimeError`` "index out of bounds" from the generated C++ kernel (Inductor's
``assert_indirect_indexing``, on by default), where eager raises ``IndexError``.  On a GPU, Inductor's Triton code
emits the same bound as ``tl.device_assert`` and compiles it with ``debug`` on CUDA, off on ROCm
(``torch/_inductor/runtime/triton_heuristics.py``): checked here as settings, not run.
"""

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

ROWS, HEAD, D = 16, 2, 8  # a table for 16 positions, as vLLM builds it for max_position_embeddings


def forward_static(positions, query, cos_sin_cache):
    """vLLM 0.33.0's lookup and query rotation, as its source reads (see the module docstring)."""
    positions = positions.flatten()
    num_tokens = positions.shape[0]
    cos_sin = cos_sin_cache.index_select(0, positions)
    cos, sin = cos_sin.chunk(2, dim=-1)
    query = query.view(num_tokens, -1, D)
    cos, sin = cos.unsqueeze(-2).to(query.dtype), sin.unsqueeze(-2).to(query.dtype)
    x1, x2 = torch.chunk(query, 2, dim=-1)
    return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)


def inputs(positions):
    gen = torch.Generator().manual_seed(7)
    cache = torch.randn(ROWS, D, generator=gen).to(torch.bfloat16)
    query = torch.randn(len(positions), HEAD * D, generator=gen).to(torch.bfloat16)
    return torch.tensor(positions), query, cache


@pytest.mark.filterwarnings("ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")  # inside Inductor
def test_compiled_lookup_past_the_table_raises_and_inside_matches_eager():
    from torch._inductor import config

    assert config.assert_indirect_indexing is True  # the default this relies on
    compiled = torch.compile(forward_static, backend="inductor", dynamic=True)
    inside = inputs([0, 5, ROWS - 1])
    positions, query, cache = inside  # control: in range, the eager arithmetic in float32, rounded once (Inductor's)
    assert torch.equal(compiled(*inside), forward_static(positions, query.float(), cache.float()).to(torch.bfloat16))
    for past in (ROWS, ROWS + 100):
        args = inputs([0, past])
        with pytest.raises(IndexError):
            forward_static(*args)  # eager: index_select's own check
        with pytest.raises(RuntimeError, match="index out of bounds"):
            compiled(*args)  # compiled: the kernel's bound check, not garbage


def test_triton_bound_checks_are_device_asserts_compiled_in_debug_on_cuda_only():
    import inspect

    from torch._inductor.codegen.triton import TritonKernel
    from torch._inductor.runtime import triton_heuristics

    assert TritonKernel.assert_function.fget(None) == "tl.device_assert"
    source = inspect.getsource(triton_heuristics)
    assert 'compile_meta["debug"] = self.inductor_meta.get(\n            "assert_indirect_indexing", True\n' \
           '        ) and not self.inductor_meta.get("is_hip", False)' in source
