"""vLLM 0.33.0 on CPU for the conformance suite: the import and the ``get_rope`` call the vLLM tests share.

vLLM is installed with ``--no-deps`` (no torch 2.14, no CUDA, no compiled ``vllm._C``), so only its PyTorch code
runs: ``get_rope`` builds the modules inside ``set_current_vllm_config`` with ``VLLM_TARGET_DEVICE=cpu``.  vLLM is
imported inside a test's fixture, after every other conformance module has run its own imports, and its
import-time warnings are not the tests' subject.  Nothing is imported at the top of this file but the standard
library: in the main venv, where vLLM and torch are absent, ``--doctest-modules`` still imports it.

A fixture uses it as ``with vllm_cpu.loaded() as ns: yield ...`` and builds modules with
``vllm_cpu.build_rope(ns, ...)``.
"""

from __future__ import annotations

import contextlib
import os
import types
import warnings
from pathlib import Path

VERSION = "0.33.0"


@contextlib.contextmanager
def loaded():
    """Import vLLM with ``VLLM_TARGET_DEVICE=cpu``, quietly, and yield what the tests use of it.

    The namespace holds ``package``, ``root`` (the package's folder), ``config`` (a default ``VllmConfig``),
    ``set_current_vllm_config``, ``rotary_embedding``, ``get_rope`` and ``phi3`` (the module of Phi-3's LongRoPE,
    whose ``get_current_vllm_config`` ``build_rope`` may patch).  The environment variable is restored on exit.
    """
    old = os.environ.get("VLLM_TARGET_DEVICE")
    os.environ["VLLM_TARGET_DEVICE"] = "cpu"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import vllm as package
            from vllm.config import VllmConfig, set_current_vllm_config
            from vllm.model_executor.layers import rotary_embedding
            from vllm.model_executor.layers.rotary_embedding import get_rope, phi3_long_rope_scaled_rope
            config = VllmConfig()
        assert package.__version__ == VERSION
        yield types.SimpleNamespace(package=package, root=Path(package.__file__).parent, config=config,
                                    set_current_vllm_config=set_current_vllm_config,
                                    rotary_embedding=rotary_embedding, get_rope=get_rope,
                                    phi3=phi3_long_rope_scaled_rope)
    finally:
        if old is None:
            os.environ.pop("VLLM_TARGET_DEVICE", None)
        else:
            os.environ["VLLM_TARGET_DEVICE"] = old


def build_rope(ns, head_size, max_position, parameters, *, dtype, is_neox_style=True, rotary_dim=None,
               patch_phi3=False, max_model_len=None, clear=True, quiet=True, **kwargs):
    """vLLM's rotary module from ``get_rope(head_size, max_position, is_neox_style, parameters, dtype, **kwargs)``.

    ``rotary_dim`` sets ``partial_rotary_factor`` to ``rotary_dim / head_size``.  ``get_rope`` caches modules by
    their arguments in ``_ROPE_DICT``, which is emptied first unless ``clear`` is false.  With ``patch_phi3``,
    Phi-3's LongRoPE reads ``max_model_len`` from a stand-in config (the only field it reads) during the call.
    ``quiet`` silences the warnings of the build.
    """
    parameters = dict(parameters)
    if rotary_dim is not None:
        parameters["partial_rotary_factor"] = rotary_dim / head_size
    real = ns.phi3.get_current_vllm_config
    if patch_phi3:
        patched = types.SimpleNamespace(model_config=types.SimpleNamespace(max_model_len=max_model_len))
        ns.phi3.get_current_vllm_config = lambda: patched
    if clear:
        ns.rotary_embedding._ROPE_DICT.clear()
    try:
        with ns.set_current_vllm_config(ns.config), warnings.catch_warnings():
            if quiet:
                warnings.simplefilter("ignore")
            return ns.get_rope(head_size, max_position, is_neox_style, parameters, dtype, **kwargs)
    finally:
        ns.phi3.get_current_vllm_config = real
