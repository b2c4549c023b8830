"""The pinned transformers' row of book/conventions.md's version table, observed by `transformers_probe`.

The other rows were observed by running the same probe in throwaway venvs with older transformers (not part of
CI).  Each check has a negative control: the probe's detectors must see what they look for when it is there
(a matrix product, a cached θ, a YaRN scale that is not 4).
"""

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import torch
import transformers
import transformers_probe as probe

from ropemath import frequencies, frequencies_from_config, yarn_frequencies


@pytest.fixture(scope="module")
def row():
    return probe.probe()


def test_the_pinned_version_is_the_one_the_table_records(row):
    assert row["transformers"] == transformers.__version__ == "5.24.0"


def test_left_padding_pads_at_0_and_no_cache_position(row):
    assert row["positions"] == {"position_ids": [[0, 0, 0, 0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5, 6, 7]],
                                "cache_position": None}
    slots = list(range(8))
    assert row["positions"]["position_ids"][0] != slots  # negative control: not the slot index


def test_cos_sin_once_per_model_forward_and_angles_without_matmul(row):
    assert row["cos_sin"] == {"rotary_modules": 1, "rotary_calls_per_forward": 1, "cos_cached_buffer": False}
    assert row["matmul_angles"] is False
    inv, pos = torch.ones(1, 4, 1), torch.ones(1, 1, 3)
    assert probe.runs_matmul(lambda: inv @ pos) and not probe.runs_matmul(lambda: inv * pos)  # the detector


def test_yarn_factor_is_the_scale_and_the_ramp_uses_the_original_length(row):
    qwen, deepseek = row["yarn"]["qwen2_5_card"], row["yarn"]["deepseek_like"]
    assert qwen["scale_from_attention_factor"] == 4.0 and deepseek["scale_from_attention_factor"] == 40.0
    for got, (d, base, s, L) in ((qwen, (128, 1e6, 4.0, 32768)), (deepseek, (64, 1e4, 40.0, 4096))):
        want = yarn_frequencies(d, base, scale=s, original_length=L)
        assert np.all(np.abs(np.array(got["theta"]) - want) <= 1e-6 * want)
    wrong = yarn_frequencies(64, 1e4, scale=40.0, original_length=163840)  # negative control: 4.45-4.50's ramp
    assert not np.all(np.abs(np.array(deepseek["theta"]) - wrong) <= 1e-6 * wrong)


def test_dynamic_ntk_recomputes_past_the_length_and_resets_below_it(row):
    last = frequencies(32, 1e4)[-1]
    scaled = frequencies_from_config({"rope_theta": 1e4, "head_dim": 32, "max_position_embeddings": 64,
                                      "rope_type": "dynamic", "factor": 2.0}, seq_len=80).theta[-1]
    got = row["dynamic"]
    assert abs(got["before"] / last - 1) < 1e-6 and abs(got["after_10"] / last - 1) < 1e-6
    assert abs(got["after_80"] / scaled - 1) < 1e-6 and abs(scaled / last - 1) > 0.1  # control: θ did change


def test_sink_cache_is_gone(row):
    assert row["sink_cache"] == "absent"
