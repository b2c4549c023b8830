"""vLLM 0.33.0's resident cos/sin table and rotary dispatch, run on CPU (notebook 04 §5).

1. Size: ``RotaryEmbeddingBase.__init__`` casts the ``max_position`` × ``rotary_dim`` table to the model dtype
   (``rotary_embedding/base.py`` l.58-61); Llama 3.1 8B's (131072 × 128, bfloat16) is 32 MiB.  A partial-rotary
   module's table is ``rotary_dim`` wide, not ``head_size`` (``_compute_cos_sin_cache``, l.94-103).
2. Past the table: ``forward_static``'s ``index_select`` (l.173) raises ``IndexError`` in eager mode (the compiled
   path's ``RuntimeError`` "index out of bounds" is in ``test_vllm_compiled_index.py`` and ``test_vllm_rotary.py``);
   it does not extrapolate.
3. ``_match_cos_sin_cache_dtype`` (l.105-130) outside ``torch.compile`` replaces the buffer once: the next call with
   the same dtype reuses it, no per-call copy.
4. ``custom_ops``: ``VllmConfig.__post_init__`` (``config/vllm.py`` l.1840-1845) appends ``none`` under a compiling
   mode and ``all`` under ``CompilationMode.NONE`` (what ``enforce_eager`` sets, l.1766-1767); any of
   ``pass_config``'s ``enable_qk_norm_rope_fusion``, ``fuse_rope_kvcache``, ``fuse_qk_norm_rope_kvcache`` appends
   ``+rotary_embedding`` (``CompilationConfig.__post_init__``, ``config/compilation.py`` l.964-984).  The flags are set
   after ``PassConfig``'s platform check (l.262-293), which turns them off on CPU.
5. That platform check (``PassConfig.__post_init__``, l.262-299), with ``current_platform`` stubbed: on CUDA only
   ``enable_qk_norm_rope_fusion`` survives, on XPU too; on ROCm all three do.  ``fuse_rope_kvcache_cat_mla`` (MLA)
   survives on CUDA and ROCm, and appends no ``+rotary_embedding``: its pass (``MLARoPEKVCacheCatFusionPass``,
   ``compilation/passes/fusion/mla_rope_kvcache_cat_fusion.py`` l.243-269) replaces the matched rotation, native or
   custom, with its own fused op.
6. The O2/O3 defaults ``enable_rope_kvcache_fusion`` and ``enable_qk_norm_rope_kvcache`` (``config/vllm.py``
   l.206-219, 246-252, used at l.306-307, 327-328) are True only with AITER on AND ``rotary_embedding`` already
   enabled (``fuse_rope_kvcache`` also needs Inductor graph partition or no KV-cache split): they never bring the
   kernel back by themselves.

Each check runs a control that comes out the other way.
"""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

from ropemath import published_config

PLAIN = {"rope_type": "default", "rope_theta": 10000.0}
MIB = 2**20


@pytest.fixture(scope="module")
def ns():
    with vllm_cpu.loaded() as namespace:
        yield namespace


def test_llama31_8b_table_is_32_mib_in_bfloat16_and_partial_rotary_is_r_wide(ns):
    hub = published_config("llama3_1_8b_instruct")
    scaling = dict(hub["rope_scaling"], rope_theta=hub["rope_theta"])
    rope = vllm_cpu.build_rope(ns, 128, hub["max_position_embeddings"], scaling, dtype=torch.bfloat16)
    table = rope.cos_sin_cache
    assert tuple(table.shape) == (131072, 128) and table.dtype == torch.bfloat16
    assert table.numel() * table.element_size() == 131072 * 128 * 2 == 32 * MIB
    wide = vllm_cpu.build_rope(ns, 128, hub["max_position_embeddings"], scaling, dtype=torch.float32)
    assert wide.cos_sin_cache.numel() * wide.cos_sin_cache.element_size() == 64 * MIB  # control: the dtype sets it
    partial = vllm_cpu.build_rope(ns, 128, 4096, PLAIN, dtype=torch.bfloat16, rotary_dim=32)
    full = vllm_cpu.build_rope(ns, 128, 4096, PLAIN, dtype=torch.bfloat16)
    assert tuple(partial.cos_sin_cache.shape) == (4096, 32)  # r wide, not head_size
    assert tuple(full.cos_sin_cache.shape) == (4096, 128)  # control: the same head rotated whole


def test_position_past_the_table_raises_in_eager_mode(ns):
    rope = vllm_cpu.build_rope(ns, 128, 4096, PLAIN, dtype=torch.bfloat16)
    query = torch.randn(1, 2 * 128, generator=torch.Generator().manual_seed(3)).to(torch.bfloat16)
    rope.forward_native(torch.tensor([4095]), query.clone(), None)  # wrong variant: the last row works
    with pytest.raises(IndexError):
        rope.forward_native(torch.tensor([4096]), query.clone(), None)


def test_dtype_swap_replaces_the_buffer_once(ns):
    rope = vllm_cpu.build_rope(ns, 128, 4096, PLAIN, dtype=torch.float32)
    first = rope.cos_sin_cache
    positions = torch.arange(4)
    query = torch.randn(4, 2 * 128, generator=torch.Generator().manual_seed(4)).to(torch.bfloat16)
    rope.forward_native(positions, query.clone(), None)
    swapped = rope.cos_sin_cache
    assert swapped is not first and swapped.dtype == torch.bfloat16  # wrong variant: the float32 buffer kept
    rope.forward_native(positions, query.clone(), None)
    assert rope.cos_sin_cache is swapped  # the second call copies nothing


def test_custom_ops_none_only_when_compiling_and_fusion_flags_bring_back_the_kernel():
    with vllm_cpu.loaded(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from vllm.config import CompilationConfig, VllmConfig
        from vllm.config.compilation import CompilationMode, PassConfig

        compiled = VllmConfig(compilation_config=CompilationConfig()).compilation_config
        assert compiled.backend == "inductor" and compiled.mode != CompilationMode.NONE
        assert compiled.custom_ops == ["none"] and not compiled.is_custom_op_enabled("rotary_embedding")
        eager = VllmConfig(compilation_config=CompilationConfig(mode=CompilationMode.NONE)).compilation_config
        assert eager.custom_ops == ["all"] and eager.is_custom_op_enabled("rotary_embedding")
        for flag in ("enable_qk_norm_rope_fusion", "fuse_rope_kvcache", "fuse_qk_norm_rope_kvcache"):
            passes = PassConfig()
            object.__setattr__(passes, flag, True)  # after PassConfig's platform check, which clears it on CPU
            config = CompilationConfig(custom_ops=["none"], pass_config=passes)
            assert config.custom_ops == ["none", "+rotary_embedding"], flag
            assert config.is_custom_op_enabled("rotary_embedding"), flag
        plain = CompilationConfig(custom_ops=["none"], pass_config=PassConfig())
        assert not plain.is_custom_op_enabled("rotary_embedding")  # wrong variant: no flag, no kernel


class _Platform:
    """A stand-in for ``vllm.platforms.current_platform``: only what ``PassConfig.__post_init__`` asks."""

    def __init__(self, name):
        self.name = name

    def is_rocm(self):
        return self.name == "rocm"

    def is_cuda(self):
        return self.name == "cuda"

    def is_cuda_alike(self):
        return self.name in ("cuda", "rocm")

    def is_xpu(self):
        return self.name == "xpu"


FLAGS = ("enable_qk_norm_rope_fusion", "fuse_rope_kvcache", "fuse_qk_norm_rope_kvcache")
MLA = "fuse_rope_kvcache_cat_mla"


def test_platform_check_keeps_only_qk_norm_rope_fusion_on_cuda_and_all_three_on_rocm(monkeypatch):
    with vllm_cpu.loaded(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import vllm.config.compilation as compilation

        kept = {}
        for name in ("cpu", "cuda", "rocm", "xpu"):
            monkeypatch.setattr(compilation, "current_platform", _Platform(name))
            passes = compilation.PassConfig(**{flag: True for flag in (*FLAGS, MLA)})
            kept[name] = {flag for flag in (*FLAGS, MLA) if getattr(passes, flag)}
        assert kept["cpu"] == set()
        assert kept["cuda"] == {"enable_qk_norm_rope_fusion", MLA}
        assert kept["rocm"] == {*FLAGS, MLA}
        assert kept["xpu"] == {"enable_qk_norm_rope_fusion"}


def test_mla_rope_kvcache_fusion_does_not_enable_the_rotary_kernel():
    with vllm_cpu.loaded(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from vllm.config import CompilationConfig
        from vllm.config.compilation import PassConfig

        passes = PassConfig()
        object.__setattr__(passes, MLA, True)  # after PassConfig's platform check, which clears it on CPU
        config = CompilationConfig(custom_ops=["none"], pass_config=passes)
        assert config.custom_ops == ["none"] and not config.is_custom_op_enabled("rotary_embedding")
        qk_norm = PassConfig()
        object.__setattr__(qk_norm, "enable_qk_norm_rope_fusion", True)
        wrong = CompilationConfig(custom_ops=["none"], pass_config=qk_norm)
        assert wrong.custom_ops != ["none"]  # wrong variant: the QK-norm fusion does append the kernel


def test_aiter_defaults_need_the_rotary_op_already_enabled(monkeypatch):
    from types import SimpleNamespace

    with vllm_cpu.loaded(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import vllm.config.vllm as vllm_config
        from vllm._aiter_ops import rocm_aiter_ops
        from vllm.config import CompilationConfig

        def default(aiter, custom_ops):
            monkeypatch.setattr(rocm_aiter_ops, "is_enabled", classmethod(lambda cls: aiter))
            compiled = CompilationConfig(custom_ops=custom_ops, use_inductor_graph_partition=True)
            cfg = SimpleNamespace(compilation_config=compiled)  # graph partition: fuse_rope_kvcache's other condition
            return (vllm_config.enable_rope_kvcache_fusion(cfg), vllm_config.enable_qk_norm_rope_kvcache(cfg))

        assert default(True, ["none", "+rotary_embedding"]) == (True, True)
        assert default(True, ["none"]) == (False, False)  # AITER alone does not turn the op on
        assert default(False, ["none", "+rotary_embedding"]) == (False, False)  # no AITER
