"""transformers 5.24's `dynamic` rotary keeps a stale θ′ in a window (notebook 08 §6, footnote ²).

`dynamic_rope_update` (`modeling_rope_utils.py` lines 34–131) recomputes θ′ when max(position)+1 exceeds the
longest call so far (`max_seq_len_cached`) and resets to plain θ only when max(position)+1 < L (line 113). A later
call whose largest position lies in [L − 1, cached) therefore keeps the θ′ of the longest call, not its own.
Checked on a tiny Llama with L = 64, factor 2: after a call of 80 positions, a call of 70 (largest position 69)
keeps θ′(80); so does a call of exactly L = 64 (notebook 10's checklist: only inputs < L reset once one
exceeded L); a call of 63 (largest 62 = L − 2) resets. Controls: θ′(70) differs from θ′(80), and θ′(80) from θ.
"""

import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
import transformers_probe as probe
from transformers import LlamaForCausalLM

from ropemath import frequencies, frequencies_from_config

L, F, HEAD = 64, 2.0, 32


def rule(seq_len):
    """ropemath's copy of transformers' dynamic θ′ for a call of `seq_len` positions."""
    config = {"rope_theta": 1e4, "head_dim": HEAD, "max_position_embeddings": L, "rope_type": "dynamic", "factor": F}
    return frequencies_from_config(config, seq_len=seq_len).theta


@pytest.fixture(scope="module")
def lowest():
    model = LlamaForCausalLM(probe.tiny(rope_scaling={"type": "dynamic", "factor": F})).eval()
    rotary, _ = probe.model_rotary(model)
    out = {}
    with torch.no_grad():
        for n in (80, 64, 70, 63):
            model(torch.arange(n)[None] % 32)
            out[n] = rotary.inv_freq[-1].item()
    return out


def close(a, b):
    return abs(a / b - 1) < 1e-6


def test_a_shorter_call_past_L_keeps_the_longest_calls_theta(lowest):
    assert close(lowest[80], rule(80)[-1]) and close(lowest[70], rule(80)[-1])
    assert not close(lowest[70], rule(70)[-1])  # control: not the call's own θ′


def test_a_call_ending_at_L_minus_2_resets_to_plain_theta(lowest):
    assert close(lowest[63], frequencies(HEAD, 1e4)[-1])
    assert not close(lowest[80], frequencies(HEAD, 1e4)[-1])  # control: θ′ did change


def test_a_call_of_exactly_L_after_a_longer_one_keeps_its_theta(lowest):
    assert close(lowest[64], rule(80)[-1])  # l = L is not < L: no reset
    assert not close(lowest[64], frequencies(HEAD, 1e4)[-1])  # wrong variant: "inputs <= L reset to plain theta"


def test_dynamic_growth_and_reset_swap_the_buffer_and_longrope_writes_in_place():
    """Notebook 10 §1.2 (CUDA graphs replay from fixed addresses; that part is not run here): 5.24's
    `dynamic_frequency_update` replaces `inv_freq` with `register_buffer` at growth and at reset
    (`modeling_rope_utils.py` lines 110, 117), so the tensor changes; `longrope_frequency_update` picks with
    `torch.where` and `copy_`s into the same tensor (lines 79, 81)."""
    from transformers import Phi3Config
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    from transformers.models.phi3.modeling_phi3 import Phi3RotaryEmbedding

    x = torch.zeros(1, 1, HEAD)

    def after(rotary, n):
        rotary(x, torch.arange(n)[None])
        return rotary.inv_freq

    dyn = LlamaRotaryEmbedding(probe.tiny(rope_scaling={"type": "dynamic", "factor": F}))
    start = dyn.inv_freq
    grown = after(dyn, 80)
    assert grown is not start and grown.data_ptr() != start.data_ptr()  # wrong variant: growth writes in place
    assert after(dyn, 70) is grown  # inside the window: no update
    assert after(dyn, 16) is not grown  # reset: register_buffer again

    omp = 32
    rope = {"rope_type": "longrope", "rope_theta": 1e4, "short_factor": [1.0] * 16, "long_factor": [4.0] * 16,
            "original_max_position_embeddings": omp}
    phi = Phi3RotaryEmbedding(Phi3Config(hidden_size=64, num_attention_heads=2, num_key_value_heads=2,
                                         max_position_embeddings=256, original_max_position_embeddings=omp,
                                         rope_parameters=rope))
    buf, ptr = phi.inv_freq, phi.inv_freq.data_ptr()
    short = after(phi, 16).clone()
    long_ = after(phi, 40)
    assert long_ is buf and long_.data_ptr() == ptr  # same tensor, same address
    assert not torch.equal(long_, short)  # wrong variant: "in place because nothing changed"; the values did change
