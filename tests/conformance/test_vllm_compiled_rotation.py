"""vLLM's PyTorch rotation (``forward_native``), eager and compiled by Inductor, against `rope_pipeline`.

``forward_native_rotation`` is a transcription of
``ApplyRotaryEmb.forward_static`` in vLLM 0.33.0 (``model_executor/layers/rotary_embedding/common.py`` lines 150-168,
``rotate_half`` style, ``enable_fp32_compute`` off, as ``base.py`` calls it), on a table built as ``base.py`` builds
it (float32 ``einsum`` of positions and θ_i, cos and sin concatenated, cast to the model's dtype);
``test_vllm_rotary.py`` checks that vLLM's own
``forward_native``, eager and compiled, gives the same results bit for bit.

Checked: run eagerly in bfloat16 it is `rope_pipeline`'s "transformers" pipeline (each product and the sum rounded);
compiled by Inductor on CPU, vLLM's default, it is the "vllm_cuda" pipeline (float32 arithmetic on the bfloat16
table, one rounding); each on at least 99% of entries bit for bit, with the other pipeline as the negative control.
On a GPU, Inductor's Triton code upcasts bfloat16 to float32 by default
(``torch._inductor.config.triton.codegen_upcast_to_fp32``), checked here as a setting, not run.
"""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

from ropemath.models import rope_pipeline, torch_float32_theta  # noqa: E402

D = 128
POSITIONS = np.array([0, 1, 5, 100, 2047, 2049, 4097, 10_000, 65_537, 131_071])


def forward_native_rotation(x, cos, sin):
    """vLLM 0.33.0's ``forward_static``, rotate_half style, as its source reads (see the module docstring)."""
    cos = cos.unsqueeze(-2).to(x.dtype)
    sin = sin.unsqueeze(-2).to(x.dtype)
    x1, x2 = torch.chunk(x, 2, dim=-1)
    o1 = x1 * cos - x2 * sin
    o2 = x2 * cos + x1 * sin
    return torch.cat((o1, o2), dim=-1)


def inputs():
    theta = torch_float32_theta(D, 500000.0)
    x = torch.tensor(np.random.default_rng(52).standard_normal((POSITIONS.size, 8, D)), dtype=torch.bfloat16)
    t, inv_freq = (torch.tensor(v, dtype=torch.float32) for v in (POSITIONS, theta))
    freqs = torch.einsum("i,j -> ij", t, inv_freq)
    cache = torch.cat((freqs.cos(), freqs.sin()), dim=-1).to(torch.bfloat16)  # base.py: cache.to(dtype)
    cos, sin = cache.chunk(2, dim=-1)
    return theta, x, cos, sin


def agreement(got: np.ndarray, want: np.ndarray) -> float:
    return float(np.mean(got == want))


@pytest.mark.filterwarnings("ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")  # inside Inductor
def test_eager_forward_native_is_the_transformers_pipeline_and_compiled_is_the_kernel():
    theta, x, cos, sin = inputs()
    x64 = x.double().numpy().transpose(1, 0, 2)  # (heads, positions, d), as rope_pipeline takes it
    models = {p: rope_pipeline(x64, POSITIONS, theta, p) for p in ("transformers", "vllm_cuda")}
    eager = forward_native_rotation(x, cos, sin).double().numpy().transpose(1, 0, 2)
    compiled = torch.compile(forward_native_rotation, backend="inductor", fullgraph=True)(x, cos, sin)
    compiled = compiled.double().numpy().transpose(1, 0, 2)
    assert agreement(eager, models["transformers"]) >= 0.99  # products and sum rounded to bfloat16
    assert agreement(compiled, models["vllm_cuda"]) >= 0.99  # float32 arithmetic, one rounding (a fused multiply-add
    # would move an entry only near a tie)
    assert agreement(eager, models["vllm_cuda"]) < 0.9 and agreement(compiled, models["transformers"]) < 0.9  # controls


def test_inductor_upcasts_bfloat16_in_triton_by_default():
    from torch._inductor import config

    assert config.triton.codegen_upcast_to_fp32 is True
