"""vLLM 0.33.0's own rotary classes on CPU: notebook 13 §4.3's functions, and notebook 10's vLLM transcriptions.

vLLM is installed with ``--no-deps`` (no torch 2.14, no CUDA, no compiled ``vllm._C``), so only its PyTorch code
runs: ``get_rope`` builds the modules inside ``set_current_vllm_config`` with ``VLLM_TARGET_DEVICE=cpu``.  The two
functions are taken from the notebook's markdown cell and executed, so the test runs the code a reader copies.
Each table read in bfloat16 lands within 0.05 of μ computed in float64 from ropemath's θ_i (Phi-3's long
table, whose entries exceed 1, within 0.1); each wrong variant
(no division by ``mscale``, Phi-3's short rows while the server reads the long ones, a length past the table, a
sliding layer read at full length) fails.  The transcriptions of ``test_vllm_dynamic_table.py`` and
``test_vllm_compiled_rotation.py`` are checked against vLLM's own table and ``forward_native``, and a ``"dynamic"``
config with ``alpha`` against its formula.  vLLM is imported inside the fixture, after every other conformance
module has run its own imports, and its import-time warnings are not this test's subject.
"""

from __future__ import annotations

import json
import re
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

import ropemath

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "13_reproduce_the_base_bound.ipynb"


def _notebook_functions():
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    text = next("".join(c["source"]) for c in cells if "def mu_in_vllm" in "".join(c["source"]))
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "def mu_in_vllm" in b)
    namespace: dict = {}
    exec(block, namespace)  # noqa: S102 - the notebook's own code, as a reader copies it
    return namespace["mu_in_vllm"], namespace["mu_per_module"]


@pytest.fixture(scope="module")
def vllm():
    with vllm_cpu.loaded() as ns:

        def build(head_size, max_position, parameters, dtype=torch.bfloat16, rotary_dim=None, max_model_len=None,
                  quiet=True):
            return vllm_cpu.build_rope(ns, head_size, max_position, parameters, dtype=dtype, rotary_dim=rotary_dim,
                                       patch_phi3=True, max_model_len=max_model_len, quiet=quiet)

        yield build


def _exact(theta, length, span=None, passthrough=0):
    """μ in float64 from θ_i: query at length - 1, keys back to length - span."""
    span = length if span is None else span
    return float(np.cos(np.arange(span)[:, None] * theta).sum(axis=1).min()) + passthrough


def test_plain_and_llama3_tables(vllm):
    mu_in_vllm, _ = _notebook_functions()
    plain = vllm(128, 8192, {"rope_type": "default", "rope_theta": 500000.0})
    assert type(plain).__name__ == "RotaryEmbedding" and plain.cos_sin_cache.dtype == torch.bfloat16
    exact = float(ropemath.cosine_sum_minimum(8192, 128, 500000.0))  # about 5.97
    assert abs(mu_in_vllm(plain, 8192) - exact) < 0.05
    hub = ropemath.published_config("llama3_1_8b_instruct")
    scaling = dict(hub["rope_scaling"], rope_theta=hub["rope_theta"])
    llama31 = vllm(128, hub["max_position_embeddings"], scaling)
    assert type(llama31).__name__ == "Llama3RotaryEmbedding"
    theta = ropemath.frequencies_from_config(hub).theta
    assert abs(mu_in_vllm(llama31, 16384) - _exact(theta, 16384)) < 0.05
    with pytest.raises(ValueError, match="this table's positions"):  # wrong variant: past the table
        mu_in_vllm(plain, 8193)


def test_yarn_divides_mscale(vllm):
    mu_in_vllm, _ = _notebook_functions()
    yarn = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0, "original_max_position_embeddings": 2048}
    rotary = vllm(128, 2048, yarn)
    assert type(rotary).__name__ == "YaRNScalingRotaryEmbedding" and rotary.mscale > 1.1
    hub = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 8192,
           "rope_theta": 10000.0,
           "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}}
    freqs = ropemath.frequencies_from_config(hub)
    assert abs(rotary.mscale - freqs.attention_factor) < 1e-6
    exact = _exact(freqs.theta, 8192)
    assert abs(mu_in_vllm(rotary, 8192) - exact) < 0.05
    undivided = mu_in_vllm(rotary, 8192) * rotary.mscale**2  # wrong variant: mscale left in
    assert abs(undivided - exact) > 0.5


def test_phi3_longrope_reads_the_rows_the_server_uses(vllm):
    mu_in_vllm, _ = _notebook_functions()
    hub = ropemath.published_config("phi3_mini_128k_instruct")
    scaling = {"rope_type": "longrope", "rope_theta": hub["rope_theta"],
               "long_factor": hub["rope_scaling"]["long_factor"], "short_factor": hub["rope_scaling"]["short_factor"],
               "original_max_position_embeddings": hub["original_max_position_embeddings"]}  # as vLLM's config reads it
    head = hub["hidden_size"] // hub["num_attention_heads"]
    short_server = vllm(head, hub["max_position_embeddings"], scaling, max_model_len=4096)
    long_server = vllm(head, hub["max_position_embeddings"], scaling, max_model_len=8192)
    assert type(long_server).__name__ == "Phi3LongRoPEScaledRotaryEmbedding"
    assert not short_server.use_long_rope and long_server.use_long_rope
    short_theta = ropemath.frequencies_from_config(hub, seq_len=4096).theta
    long_theta = ropemath.frequencies_from_config(hub, seq_len=8192).theta
    assert abs(mu_in_vllm(short_server, 4096) - _exact(short_theta, 4096)) < 0.05
    long32 = vllm(head, hub["max_position_embeddings"], scaling, dtype=torch.float32, max_model_len=8192)
    assert abs(mu_in_vllm(long32, 4096) - _exact(long_theta, 4096)) < 1e-3  # the same θ_i as ropemath's
    # in bfloat16 the long table's entries, up to mscale ≈ 1.19 > 1, round twice as coarsely: within 0.1, not 0.05
    assert 0.05 < abs(mu_in_vllm(long_server, 4096) - _exact(long_theta, 4096)) < 0.1
    # wrong variant: the short rows, as a reader slicing the buffer from 0 would take, while the server reads long ones
    short_rows = long_server.long_short_cos_sin_cache[:4096].double()
    c, s = short_rows.chunk(2, dim=-1)
    wrong = float((c[-1] * c + s[-1] * s).sum(-1).min()) / long_server.long_mscale**2
    assert abs(wrong - _exact(long_theta, 4096)) > 0.5


def test_partial_rotary_and_sliding_layers_per_module(vllm):
    mu_in_vllm, mu_per_module = _notebook_functions()
    partial = vllm(96, 2048, {"rope_type": "default", "rope_theta": 10000.0}, rotary_dim=24)  # GPT-NeoX-20B's head
    theta = ropemath.frequencies(24, 10000.0)
    assert abs(mu_in_vllm(partial, 2048) - _exact(theta, 2048, passthrough=36)) < 0.05  # about 31.95
    local = vllm(256, 8192, {"rope_type": "default", "rope_theta": 10000.0})  # Gemma 3: local layers, window 1024
    full = vllm(256, 8192, {"rope_type": "linear", "rope_theta": 1000000.0, "factor": 8.0})
    layer = lambda rotary, sliding: types.SimpleNamespace(  # noqa: E731
        self_attn=types.SimpleNamespace(rotary_emb=rotary, is_sliding=sliding))
    layers = [layer(local, True), layer(local, True), layer(full, False), types.SimpleNamespace()]  # last: placeholder
    model = types.SimpleNamespace(model=types.SimpleNamespace(layers=layers))
    mus = mu_per_module(model, L=8192, window=1024)
    assert sorted(mus, key=str) == [(0, 1024), (2, None)]
    assert abs(mus[0, 1024] - _exact(ropemath.frequencies(256, 10000.0), 8192, span=1024)) < 0.05  # about 13.9
    assert abs(mus[2, None] - _exact(ropemath.frequencies(256, 1e6) / 8, 8192)) < 0.05
    assert mu_in_vllm(local, 8192) < 0 < mus[0, 1024]  # wrong variant: the sliding layer read at full length
    shared = [layer(local, True), layer(local, False)]  # one module for sliding and full layers (Gemma 2-style)
    both = mu_per_module(types.SimpleNamespace(model=types.SimpleNamespace(layers=shared)), L=8192, window=1024)
    assert sorted(both, key=str) == [(0, 1024), (1, None)]  # each span of a shared module counted


# --- the transcriptions of notebook 10's other vLLM tests, against vLLM's own classes --------------------------


def test_dynamic_table_transcription_is_vllms_table(vllm):
    """test_vllm_dynamic_table's transcription gives vLLM's DynamicNTKScalingRotaryEmbedding table bit for bit."""
    from test_vllm_dynamic_table import vllm_dynamic_cos_sin_cache

    warn_always = torch.is_warn_always_enabled()
    torch.set_warn_always(True)  # torch warns of the complex cast once per process; here, at every build
    try:
        builds = {}
        for served in (512, 1024, 1536, 2048, 4096):  # below the edge, at it, between, at the trained length, above
            parameters = {"rope_type": "dynamic", "rope_theta": 1e4, "factor": 2.0, "max_trained_positions": 2048}
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                builds[served] = vllm(128, served, parameters, quiet=False), caught
    finally:
        torch.set_warn_always(warn_always)
    for served, (real, caught) in builds.items():
        assert type(real).__name__ == "DynamicNTKScalingRotaryEmbedding"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the same complex-cast warning, checked on vLLM's own build above
            _, _, transcribed = vllm_dynamic_cos_sin_cache(served, 2048, 2.0)
        torch.testing.assert_close(real.cos_sin_cache, transcribed, rtol=0, atol=0, equal_nan=True)
        complex_cast = any("discards the imaginary part" in str(w.message) for w in caught)
        assert complex_cast == (served < 1024)  # vLLM's own build warns below the edge only


@pytest.mark.filterwarnings("ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")  # inside Inductor
def test_forward_native_eager_and_compiled_are_the_transcribed_pipelines(vllm):
    """vLLM's own forward_native: eager as test_vllm_compiled_rotation's transcription; compiled as it, compiled;
    compiled past the table, test_vllm_compiled_index's RuntimeError."""
    from test_vllm_compiled_rotation import forward_native_rotation

    rotary = vllm(128, 4096, {"rope_type": "default", "rope_theta": 500000.0})
    positions = torch.tensor([0, 1, 5, 100, 2047, 2049, 4095])
    query = torch.tensor(np.random.default_rng(53).standard_normal((positions.numel(), 8 * 128)), dtype=torch.bfloat16)
    cos, sin = rotary.cos_sin_cache.index_select(0, positions).chunk(2, dim=-1)
    transcribed = forward_native_rotation(query.view(-1, 8, 128), cos, sin).reshape(query.shape)
    eager, _ = rotary.forward_native(positions, query.clone(), None)
    assert torch.equal(eager, transcribed)  # bfloat16 products and sums, as transformers'
    compiled_fn = torch.compile(rotary.forward_native, backend="inductor")
    compiled, _ = compiled_fn(positions, query.clone(), None)
    transcribed_compiled = torch.compile(forward_native_rotation, backend="inductor")(query.view(-1, 8, 128), cos, sin)
    assert torch.equal(compiled, transcribed_compiled.reshape(query.shape))  # float32, rounded once
    assert not torch.equal(compiled, eager)  # control: the two pipelines differ
    with pytest.raises(RuntimeError, match="index out of bounds"):  # past the table: the generated kernel's assert
        compiled_fn(torch.tensor([4096]), query[:1].clone(), None)


def test_dynamic_with_alpha_builds_one_static_table_of_max_position_rows(vllm):
    """A "dynamic" config with ``alpha`` goes to DynamicNTKAlphaRotaryEmbedding (``__init__.py`` lines 212-223): one
    table of ``max_position`` rows, base ``b * alpha ** (d / (d - 2))`` whatever the input length."""
    d, rows, base, alpha = 128, 4096, 10000.0, 1000.0
    rope = vllm(d, rows, {"rope_type": "dynamic", "alpha": alpha, "rope_theta": base}, dtype=torch.float32)
    assert type(rope).__name__ == "DynamicNTKAlphaRotaryEmbedding"
    scaled = base * alpha ** (d / (d - 2))
    inv_freq = 1.0 / scaled ** (torch.arange(0, d, 2, dtype=torch.float) / d)
    angles = torch.outer(torch.arange(rows, dtype=torch.float), inv_freq)
    assert rope.cos_sin_cache.shape == (rows, d)
    assert torch.equal(rope.cos_sin_cache, torch.cat((angles.cos(), angles.sin()), dim=-1))
    plain = vllm(d, rows, {"rope_type": "default", "rope_theta": base}, dtype=torch.float32)
    assert not torch.allclose(rope.cos_sin_cache, plain.cos_sin_cache)  # control: alpha does change the table
