"""vLLM's dynamic NTK table (notebook 10 §1.3), its arithmetic run in torch on CPU.

``vllm_dynamic_cos_sin_cache`` below is a transcription of
``DynamicNTKScalingRotaryEmbedding._compute_cos_sin_cache`` and ``RotaryEmbedding._compute_inv_freq`` of vLLM
0.33.0 (``model_executor/layers/rotary_embedding/dynamic_ntk_scaling_rope.py`` lines 53-72, ``base.py`` lines
80-92), followed by the cast ``cache.to(dtype)`` of ``base.py`` line 61; ``test_vllm_rotary.py`` checks that vLLM's own
class builds the same table, bit for bit, at every served length used here.

What notebook 10 states, checked: served at or below (f - 1)/f of the trained length the table is not a real
RoPE table (below the edge a complex base, whose cast drops the imaginary part with one ``UserWarning`` and
leaves values that grow exponentially with the position; at the edge a base of 0 and NaN); between that and the
trained length a real, smaller base (slowest pair f times too fast at 3/4 for f = 2); at the trained length
plain θ; above it a larger base for every position.
"""

import math
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

from ropemath import frequencies  # noqa: E402

D = 128


def vllm_dynamic_cos_sin_cache(served: int, trained: int, factor: float, dtype=torch.bfloat16, base: float = 1e4):
    """vLLM 0.33.0's dynamic NTK cos/sin cache, as its source reads (see the module docstring)."""
    scaled = base * ((factor * served / trained) - (factor - 1)) ** (D / (D - 2))
    inv_freq = 1.0 / (scaled ** (torch.arange(0, D, 2, dtype=torch.float) / D))
    t = torch.arange(served, dtype=torch.float)
    freqs = torch.einsum("i,j -> ij", t, inv_freq)
    cache = torch.cat((freqs.cos(), freqs.sin()), dim=-1)
    return scaled, inv_freq, cache.to(dtype)


def test_served_below_half_gives_a_complex_base_and_one_warning():
    warn_always = torch.is_warn_always_enabled()
    torch.set_warn_always(True)  # torch warns of the complex cast once per process; here, whatever ran before
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scaled, inv_freq, cache = vllm_dynamic_cos_sin_cache(512, 2048, 2.0)
    finally:
        torch.set_warn_always(warn_always)
    assert isinstance(scaled, complex) and inv_freq.is_complex()
    messages = [str(w.message) for w in caught]
    assert any("Casting complex values to real discards the imaginary part" in m for m in messages)
    rows = cache.float().abs().amax(dim=1)  # what is left grows exponentially with the position
    assert rows[0] == 1 and rows[:8].max() < 1.5  # a short input: finite values, wrong
    assert int((rows > 10).nonzero()[0]) == 24 and int((rows > 1e9).nonzero()[0]) == 164  # notebook 10's positions
    assert rows.max() > 1e20  # a cos/sin table holds values in [-1, 1]


def test_served_at_half_gives_base_zero_and_nan():
    scaled, _, cache = vllm_dynamic_cos_sin_cache(1024, 2048, 2.0)
    assert scaled == 0.0 and torch.isnan(cache.float()[1:, 1:64]).all()  # every pair but the first, past position 0
    assert torch.isfinite(cache.float()[:, 0]).all()  # pair 0: 0 ** 0 = 1, theta_0 = 1


def test_served_between_half_and_trained_is_real_and_too_fast():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning here: nothing tells the user
        scaled, inv_freq, cache = vllm_dynamic_cos_sin_cache(1536, 2048, 2.0, dtype=torch.float32)
    assert isinstance(scaled, float) and 0 < scaled < 1e4
    assert cache.abs().max() <= 1.0
    plain = frequencies(D, 1e4)
    assert math.isclose(inv_freq[-1].item() / plain[-1], 2.0, rel_tol=1e-5)  # the slowest pair twice too fast
    assert inv_freq[0].item() == 1.0


def test_served_at_trained_length_is_plain_and_above_it_scaled():
    _, inv_at, _ = vllm_dynamic_cos_sin_cache(2048, 2048, 2.0, dtype=torch.float32)
    plain = frequencies(D, 1e4)
    assert np.allclose(inv_at.numpy(), plain, rtol=1e-6, atol=0)
    _, inv_above, _ = vllm_dynamic_cos_sin_cache(4096, 2048, 2.0, dtype=torch.float32)
    assert (inv_above.numpy()[1:] < 0.99 * plain[1:]).all()  # every pair but the first slowed, for every input
    assert not np.allclose(inv_above.numpy(), plain, rtol=1e-6, atol=0)  # the check above can say no


def test_served_above_trained_is_transformers_theta_of_the_served_length_for_every_input():
    """Notebook 10 §1.3, NomicBert: served length S > T gives transformers 5.24's dynamic θ(ℓ = S), in one table used
    for every input, so an input shorter than S gets θ(S), not its own θ(ℓ)."""
    from ropemath import frequencies_from_config

    config = {"rope_theta": 1e4, "head_dim": D, "max_position_embeddings": 2048, "rope_type": "dynamic", "factor": 2.0}
    _, inv, _ = vllm_dynamic_cos_sin_cache(4096, 2048, 2.0, dtype=torch.float32)
    assert np.allclose(inv.numpy(), frequencies_from_config(config, seq_len=4096).theta, rtol=1e-5, atol=0)
    # wrong variant: "an input of 3000 tokens gets its own theta(3000)"
    assert not np.allclose(inv.numpy(), frequencies_from_config(config, seq_len=3000).theta, rtol=1e-3, atol=0)
