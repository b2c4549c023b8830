"""Llama 4 against Meta's own reference code (llama-models 0.3.0, ``llama_models/llama4/``).

``args.py``: with ``use_scaled_rope`` the model arguments default to ``rope_scaling_factor`` 16 and
``rope_high_freq_factor`` 1 ("only Llama-4-Scout uses scaled rope"), ``rope_theta`` 500000.  ``model.py``:
``apply_scaling`` fixes ``low_freq_factor`` 1 and ``old_context_len`` 8192, so low = high and Llama 3.1's middle
band is empty; ``precompute_freqs_cis`` forms θ_i and the angles in float32; ``apply_rotary_emb`` multiplies
adjacent pairs as complex numbers (the interleaved layout, computed in float32).

Bounds: θ_i in float32 is within (2 + ln b)·2^-23 relative (the rounding of 2i/d amplified by ln b); an angle
mθ_i adds |m|θ_i·2^-24 per rounding.  Each comparison has a negative control: high_freq_factor 4 (Llama 3.1's
value), unscaled θ, or the half layout must miss the same bound.
"""

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("llama_models", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
from llama_models.llama4.args import ModelArgs
from llama_models.llama4.model import apply_rotary_emb, apply_scaling, precompute_freqs_cis

from ropemath import apply_rope, frequencies, frequencies_from_config, llama31_frequencies, published_config

D, BASE = 128, 500000.0
POSITIONS = np.array([0, 1, 7, 100, 4095, 8191, 8192, 32768, 100_003, 262_143])
THETA_TOL = (2 + np.log(BASE)) * 2.0**-23  # relative error of a float32 θ_i


def meta_theta(high_freq_factor: float = 1.0, scale: float = 16.0) -> np.ndarray:
    """θ_i exactly as Meta's precompute_freqs_cis forms them (float32), then Meta's apply_scaling."""
    freqs = 1.0 / (BASE ** (torch.arange(0, D, 2)[: D // 2].float() / D))
    return apply_scaling(freqs, scale, high_freq_factor).double().numpy()


def theta_close(got: np.ndarray, want: np.ndarray) -> bool:
    return bool(np.all(np.abs(got - want) <= THETA_TOL * want))


def test_meta_model_args_set_the_scout_values_that_the_shipped_config_has():
    common = dict(dim=D * 4, n_layers=1, n_heads=4, n_kv_heads=4)
    scaled = ModelArgs(**common, use_scaled_rope=True)
    rope = published_config("llama4_scout")["rope_scaling"]
    assert (scaled.rope_scaling_factor, scaled.rope_high_freq_factor) == (rope["factor"], rope["high_freq_factor"])
    assert scaled.rope_theta == published_config("llama4_scout")["rope_theta"] == BASE
    assert rope["low_freq_factor"] == 1.0 and rope["original_max_position_embeddings"] == 8192  # apply_scaling's
    plain = ModelArgs(**common)  # negative control: without use_scaled_rope nothing is set
    assert (plain.rope_scaling_factor, plain.rope_high_freq_factor) == (None, None)


def test_meta_apply_scaling_equals_llama31_frequencies_with_low_equal_high():
    theirs = meta_theta(high_freq_factor=1.0)
    ours = llama31_frequencies(D, BASE, factor=16.0, low_freq_factor=1.0, high_freq_factor=1.0, original_length=8192)
    assert theta_close(theirs, ours)
    assert np.sum(ours == frequencies(D, BASE)) + np.sum(ours == frequencies(D, BASE) / 16) == D // 2  # no blend
    llama31 = llama31_frequencies(D, BASE, factor=16.0, high_freq_factor=4.0)
    assert theta_close(meta_theta(high_freq_factor=4.0), llama31)  # Meta's code with Llama 3.1's value agrees too
    assert not theta_close(theirs, llama31)  # negative control: high_freq_factor 4 blends pairs Scout keeps


def test_precompute_freqs_cis_equals_frequencies_from_config_of_the_scout_config():
    ours = frequencies_from_config(published_config("llama4_scout"))
    assert ours.attention_factor == 1.0 and ours.theta.size == D // 2
    table = precompute_freqs_cis(D, int(POSITIONS.max()) + 1, BASE, True, 16.0, 1.0).numpy()[POSITIONS]
    bound = np.abs(POSITIONS)[:, None] * ours.theta * (THETA_TOL + 2.0**-23) + 2.0**-22
    assert np.all(np.abs(table - np.exp(1j * POSITIONS[:, None] * ours.theta)) <= bound)
    unscaled = np.exp(1j * POSITIONS[:, None] * frequencies(D, BASE))  # negative control: no scaling
    assert not np.all(np.abs(table - unscaled) <= bound)


def test_meta_apply_rotary_emb_is_apply_rope_interleaved_with_the_scout_theta():
    theta = frequencies_from_config(published_config("llama4_scout")).theta
    x = np.random.default_rng(40).standard_normal((2, 1, POSITIONS.size, 3, D))  # q, k: (batch, seq, heads, d)
    freqs_cis = torch.polar(torch.ones(POSITIONS.size, D // 2, dtype=torch.float64),
                            torch.from_numpy(POSITIONS[:, None] * theta))
    mq, mk = apply_rotary_emb(torch.from_numpy(x[0]), torch.from_numpy(x[1]), freqs_cis)
    bound = 4 * 2.0**-24 * np.abs(x).max()  # Meta rotates in float32 (xq.float()); the angles here are exact
    for got, v in ((mq, x[0]), (mk, x[1])):
        want = apply_rope(v, POSITIONS[:, None], layout="interleaved", theta=theta)
        assert np.abs(got.numpy() - want).max() <= bound
    half = apply_rope(x[0], POSITIONS[:, None], layout="half", theta=theta)  # negative control: the other layout
    assert np.abs(mq.numpy() - half).max() > 0.1
