"""Tests of ropemath.models.config (offline): frequencies_from_config against formulas written out here, its
errors naming the key, and negative controls.  The comparison with transformers itself is in
tests/conformance/test_hf_frequencies.py (`make conformance`)."""

import math
import re
from pathlib import Path

import numpy as np
import pytest

from ropemath import frequencies, frequencies_from_config, llama31_frequencies, position_interpolation, published_config
from ropemath.models.config import PUBLISHED

CONFIGS = {p.stem: published_config(p.stem) for p in sorted(PUBLISHED.glob("*.json"))}


def test_default_is_the_paper_frequencies():
    for name in ("llama2_7b_chat_hf", "mistral_7b"):
        theta, attention, _ = frequencies_from_config(CONFIGS[name])
        assert np.allclose(theta, frequencies(128, 10000.0), rtol=1e-15, atol=0) and attention == 1.0
    theta = frequencies_from_config(CONFIGS["llama3_8b"]).theta
    assert np.allclose(theta, frequencies(128, 500000.0), rtol=1e-15, atol=0)
    assert not np.allclose(theta, frequencies(128, 10000.0))  # negative control: the base matters


def test_partial_rotary_uses_head_dim_times_factor():
    theta = frequencies_from_config(CONFIGS["gpt_neox_20b"]).theta  # head_dim 96, factor 0.25 -> 24 dims, 12 pairs
    assert theta.shape == (12,) and np.allclose(theta, frequencies(24), rtol=1e-15)


def test_linear_is_position_interpolation():
    theta = frequencies_from_config(CONFIGS["vicuna_7b_16k"]).theta
    assert np.allclose(theta, position_interpolation(128, 10000.0, scale=4.0), rtol=1e-15)


def test_llama3_matches_the_llama31_bands():
    theta = frequencies_from_config(CONFIGS["llama3_1_8b_instruct"]).theta
    assert np.allclose(theta, llama31_frequencies(128, 500000.0), rtol=1e-12)


def test_llama4_equal_factors_are_accepted():
    theta = frequencies_from_config(CONFIGS["llama4_scout"]).theta
    base = frequencies(128, 500000.0)
    long = 2 * math.pi / base > 8192
    assert np.array_equal(theta[long], base[long] / 16) and np.array_equal(theta[~long], base[~long])


def test_dynamic_uses_factor():
    flat = CONFIGS["llama2_7b_dynamic"]  # factor 2, L = 4096
    for seq_len, expected_base in ((None, 10000.0), (2048, 10000.0), (8192, 10000.0 * 3.0 ** (128 / 126))):
        theta = frequencies_from_config(flat, seq_len=seq_len).theta
        assert np.allclose(theta, frequencies(128, expected_base), rtol=1e-13)
    theta = frequencies_from_config(flat, seq_len=8192).theta
    assert not np.allclose(theta, frequencies(128, 10000.0 * 2.0 ** (128 / 126)))  # ignoring factor is wrong


def test_yarn_attention_factors():
    assert frequencies_from_config(CONFIGS["qwen2_5_7b_yarn"]).attention_factor == pytest.approx(0.1 * math.log(4) + 1)
    assert frequencies_from_config(CONFIGS["deepseek_v3"]).attention_factor == 1.0  # mscale / mscale_all_dim = 1
    theta = frequencies_from_config(CONFIGS["qwen2_5_7b_yarn"]).theta
    base = frequencies(128, 1e6)
    assert theta[0] == base[0] and theta[-1] == pytest.approx(base[-1] / 4, rel=1e-15)  # kept / interpolated ends


def test_longrope_switches_lists_and_attention_factor():
    flat = CONFIGS["phi3_128k"]
    short, attention, _ = frequencies_from_config(flat, seq_len=4096)
    long = frequencies_from_config(flat, seq_len=4097).theta
    base = frequencies(96, 10000.0)
    assert np.allclose(short, base / np.array(flat["rope_scaling"]["short_factor"]), rtol=1e-15)
    assert np.allclose(long, base / np.array(flat["rope_scaling"]["long_factor"]), rtol=1e-15)
    assert attention == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    assert f"{attention:.6f}" == "1.190238"


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"rope_theta": 1e4, "head_dim": 8, "rope_type": "ntk-by-parts"}, r"config\['rope_type'\] must be one of"),
        ({"rope_theta": 1e4}, r"config\['head_dim'\] is required"),
        ({"rope_theta": 1e4, "head_dim": 8, "rope_type": "linear"}, r"config\['factor'\] is required"),
        ({"rope_theta": 1e4, "head_dim": 8, "rope_type": "linear", "factor": -2}, r"config\['factor'\] must be > 0"),
        ({"rope_theta": float("nan"), "head_dim": 8}, r"config\['rope_theta'\] must be a finite real number"),
        ({"rope_theta": 1e4, "head_dim": 7}, "must be an even integer"),
        ({"rope_theta": 1e4, "head_dim": 8, "partial_rotary_factor": 1.5}, r"partial_rotary_factor'\] must be in"),
        ({"rope_theta": 1e4, "head_dim": 8, "rope_type": "llama3", "factor": 8, "low_freq_factor": 4,
          "high_freq_factor": 1, "original_max_position_embeddings": 8192}, "high_freq_factor"),
        ({"rope_theta": 1e4, "head_dim": 8, "rope_type": "longrope", "original_max_position_embeddings": 8,
          "max_position_embeddings": 32, "short_factor": [1.0], "long_factor": [1.0, 1.0]},
         r"short_factor'\] must be 4"),
    ],
)
def test_errors_name_the_key(config, message):
    with pytest.raises(ValueError, match=message):
        frequencies_from_config(config)


def test_bad_types():
    with pytest.raises(TypeError, match="config must be a mapping"):
        frequencies_from_config([("rope_theta", 1e4)])
    with pytest.raises(ValueError, match="seq_len must be an integer >= 1"):
        frequencies_from_config(CONFIGS["llama2_7b_chat_hf"], seq_len=0)


def test_hf_dynamic_with_factor_one_is_ropemaths_dynamic_ntk():
    """Notebook 08: transformers' dynamic rule with factor 1 is s(l) = max(1, l/L); factor 2 is not."""
    from ropemath import dynamic_ntk_frequencies

    flat = {"rope_theta": 1e4, "head_dim": 128, "max_position_embeddings": 4096, "rope_type": "dynamic"}
    for n in (2048, 8192, 16384):
        ours = dynamic_ntk_frequencies(128, 1e4, length=n, original_length=4096)
        f1 = frequencies_from_config(dict(flat, factor=1.0), seq_len=n).theta
        assert np.allclose(f1, ours, rtol=1e-12)
        f2 = frequencies_from_config(dict(flat, factor=2.0), seq_len=n).theta
        assert (n <= 4096) == np.allclose(f2, ours, rtol=1e-12)



def test_static_ntk_pin_meets_the_dynamic_base_only_at_l_equal_L_2f_minus_1_over_f():
    """Notebooks 08 and 10: the pin b' = b f^(d/(d-2)) equals transformers' dynamic theta only where
    f l / L - (f - 1) = f, i.e. l = L (2f - 1) / f; at the served length f L the dynamic scale is f^2 - f + 1."""
    from ropemath import ntk_base

    flat = {"rope_theta": 1e4, "head_dim": 128, "max_position_embeddings": 4096, "rope_type": "dynamic"}
    for f in (2, 4, 8):
        pin = frequencies(128, ntk_base(128, 1e4, scale=float(f)))
        dyn = dict(flat, factor=float(f))
        meet = 4096 * (2 * f - 1) // f
        assert np.allclose(frequencies_from_config(dyn, seq_len=meet).theta, pin, rtol=1e-12, atol=0)
        at_fl = frequencies_from_config(dyn, seq_len=f * 4096).theta  # control: the served length
        assert not np.allclose(at_fl, pin, rtol=1e-3)
        assert np.allclose(at_fl, frequencies(128, ntk_base(128, 1e4, scale=float(f * f - f + 1))), rtol=1e-12)

def test_layout_verdicts_name_one_layout_per_implementation():
    from ropemath import layout_verdicts

    table = layout_verdicts()
    assert table == {"Meta complex form": {"interleaved": True, "half": False},
                     "GPT-J rotate_every_two": {"interleaved": True, "half": False},
                     "GPT-NeoX / HF rotate_half": {"interleaved": False, "half": True}}


# --- what real configs contain: per-layer RoPE, defaults, old names, M-RoPE ---------------------------------


def test_gemma3_4x_config_requires_the_layer_type():
    flat = {"model_type": "gemma3_text", "head_dim": 256, "rope_theta": 1e6, "rope_local_base_freq": 1e4}
    with pytest.raises(ValueError, match="layer_type must be one of 'full_attention', 'sliding_attention'"):
        frequencies_from_config(flat)  # never silently the global layers' theta
    assert np.array_equal(frequencies_from_config(flat, layer_type="full_attention").theta, frequencies(256, 1e6))
    assert np.array_equal(frequencies_from_config(flat, layer_type="sliding_attention").theta, frequencies(256, 1e4))
    with pytest.raises(ValueError, match="layer_type must be one of"):
        frequencies_from_config(flat, layer_type="global")


@pytest.mark.parametrize(("name", "head_dim"), [("gemma3_4b_it", 256), ("gemma3_27b_it", 128)])
def test_gemma3_published_configs_scale_only_the_global_layers(name, head_dim):
    flat = CONFIGS[name]  # multimodal: the text model's keys are in text_config; linear factor 8; bases left out
    full = frequencies_from_config(flat, layer_type="full_attention")
    local = frequencies_from_config(flat, layer_type="sliding_attention")
    assert np.allclose(full.theta, frequencies(head_dim, 1e6) / 8, rtol=1e-15)
    assert np.array_equal(local.theta, frequencies(head_dim, 1e4))
    assert full.filled["rope_theta"] == 1e6 and local.filled["rope_theta"] == 1e4  # Gemma3TextConfig's defaults
    assert ("head_dim" in full.filled) == (name == "gemma3_4b_it")
    assert not np.allclose(local.theta, frequencies(head_dim, 1e4) / 8)  # negative control: local layers unscaled


def test_copies_are_unedited_and_derived_files_say_what_they_change():
    """Copies carry no key of ours; every derived or typed file names its nature in `_source`."""
    for name, config in CONFIGS.items():
        source = config.get("_source", "")
        assert source == "" or re.match(r"(DERIVED from \w+\.(json|yml)|EXCERPT, typed)", source), name
    copies = {n for n, c in CONFIGS.items() if "_source" not in c}
    assert copies == {"cohere_command_r_v01", "deepseek_v3", "gemma2_9b_it", "gemma3_27b_it", "gemma3_4b_it",
                      "gpt_neox_20b_hf", "gptj_6b_hf", "gptj_6b_mesh_transformer_jax", "llama2_7b_chat_hf",
                      "llama3_1_8b_instruct", "llama3_8b", "phi3_mini_128k_instruct", "qwen2_5_7b_instruct", "qwen3_8b"}
    readme = (PUBLISHED / "README.md").read_text(encoding="utf-8")
    assert all(f"`{p.name}`" in readme for p in PUBLISHED.iterdir() if p.suffix in (".json", ".yml"))


def test_derived_files_equal_their_source_plus_the_stated_change():
    for derived, source in (("llama2_7b_dynamic", "llama2_7b_chat_hf"), ("qwen2_5_7b_yarn", "qwen2_5_7b_instruct")):
        rest = {k: v for k, v in CONFIGS[derived].items() if k not in ("_source", "rope_scaling")}
        assert rest == {k: v for k, v in CONFIGS[source].items() if k != "rope_scaling"}
    gemma_hub, gemma_old = CONFIGS["gemma2_9b_it_256"], CONFIGS["gemma2_9b_it"]
    assert {k: v for k, v in gemma_hub.items() if k != "_source"} == dict(gemma_old, query_pre_attn_scalar=256)
    assert gemma_old["query_pre_attn_scalar"] == 224 and gemma_hub["head_dim"] == 256  # softmax x sqrt(256/224)
    neox_hub, gptj_hub = CONFIGS["gpt_neox_20b_hf"], CONFIGS["gptj_6b_hf"]
    renamed = {"partial_rotary_factor": neox_hub["rotary_pct"], "rope_theta": neox_hub["rotary_emb_base"]}
    assert {k: v for k, v in CONFIGS["gpt_neox_20b"].items() if k != "_source"} == dict(
        {k: neox_hub[k] for k in ("model_type", "hidden_size", "num_attention_heads", "max_position_embeddings")},
        **renamed)
    assert {k: v for k, v in CONFIGS["gptj_6b"].items() if k != "_source"} == {
        "model_type": gptj_hub["model_type"], "hidden_size": gptj_hub["n_embd"], "num_attention_heads":
        gptj_hub["n_head"], "max_position_embeddings": gptj_hub["n_positions"], "rope_theta": 10000.0,
        "partial_rotary_factor": gptj_hub["rotary_dim"] / (gptj_hub["n_embd"] // gptj_hub["n_head"])}
    mesh = CONFIGS["gptj_6b_mesh_transformer_jax"]
    gptj = frequencies_from_config(CONFIGS["gptj_6b"]).theta
    assert 2 * gptj.size == mesh["pe_rotary_dims"] and CONFIGS["gptj_6b"]["hidden_size"] == mesh["d_model"]
    yml = (PUBLISHED / "gpt_neox_20b_training.yml").read_text(encoding="utf-8")
    neox = CONFIGS["gpt_neox_20b"]
    for key, value in (("hidden-size", neox["hidden_size"]), ("num-attention-heads", neox["num_attention_heads"]),
                       ("rotary_pct", neox["partial_rotary_factor"])):
        assert re.search(rf'"{key}": {value},', yml), key


def test_hub_gpt_neox_and_gptj_keys_are_read_as_transformers_reads_them():
    """GPT-NeoX's rotary_pct / rotary_emb_base and GPT-J's n_embd / n_head / rotary_dim (their Hub configs)."""
    for hub, derived, pairs in (("gpt_neox_20b_hf", "gpt_neox_20b", 12), ("gptj_6b_hf", "gptj_6b", 32)):
        theta = frequencies_from_config(CONFIGS[hub]).theta
        assert theta.shape == (pairs,) and np.array_equal(theta, frequencies_from_config(CONFIGS[derived]).theta)
    unread = {k: v for k, v in CONFIGS["gpt_neox_20b_hf"].items() if k != "rotary_pct"}
    assert frequencies_from_config(unread).theta.shape == (48,)  # negative control: without rotary_pct, all 96 dims
    no_rotary_dim = {k: v for k, v in CONFIGS["gptj_6b_hf"].items() if k != "rotary_dim"}
    assert frequencies_from_config(no_rotary_dim).theta.shape == (128,)  # GPT-J without rotary_dim: the whole head


def test_published_config_names_the_choices():
    with pytest.raises(ValueError, match="name must be one of cohere_command_r_v01, deepseek_v3, "):
        published_config("llama2_7b")


def test_transformers5_per_layer_rope_parameters():
    config = {"head_dim": 8, "layer_types": ["sliding_attention", "full_attention"], "rope_parameters": {
        "full_attention": {"rope_type": "linear", "factor": 2.0, "rope_theta": 1e6},
        "sliding_attention": {"rope_type": "default", "rope_theta": 1e4}}}
    assert np.allclose(frequencies_from_config(config, layer_type="full_attention").theta, frequencies(8, 1e6) / 2)
    assert np.array_equal(frequencies_from_config(config, layer_type="sliding_attention").theta, frequencies(8, 1e4))
    with pytest.raises(ValueError, match="layer_type must be one of"):
        frequencies_from_config(config)
    with pytest.raises(ValueError, match="layer_type must be None"):
        frequencies_from_config(CONFIGS["llama2_7b_chat_hf"], layer_type="full_attention")


def test_defaults_are_filled_as_transformers_fills_them_and_reported():
    r = frequencies_from_config({"model_type": "llama", "head_dim": 8})
    assert r.filled == {"rope_theta": 10000.0} and np.array_equal(r.theta, frequencies(8, 1e4))
    assert frequencies_from_config({"model_type": "llama4_text", "head_dim": 8}).filled == {"rope_theta": 500000.0}
    assert frequencies_from_config(CONFIGS["llama3_8b"]).filled == {}  # nothing to fill: nothing reported
    assert frequencies_from_config(CONFIGS["llama2_7b_chat_hf"]).filled == {"rope_theta": 10000.0}  # Llama 2 has none
    yarn = {"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 4096, "rope_type": "yarn", "factor": 4.0}
    r = frequencies_from_config(yarn)
    assert r.filled == {"original_max_position_embeddings": 4096}
    explicit = frequencies_from_config(dict(yarn, original_max_position_embeddings=4096))
    assert np.array_equal(r.theta, explicit.theta) and explicit.filled == {}
    other = frequencies_from_config(dict(yarn, original_max_position_embeddings=1024)).theta
    assert not np.allclose(other, r.theta)  # negative control: the filled value matters


def test_su_is_longrope_and_mrope_is_refused():
    flat = CONFIGS["phi3_128k"]
    su = dict(flat, rope_scaling=dict(flat["rope_scaling"], type="su"))
    assert np.array_equal(frequencies_from_config(su, seq_len=8192).theta,
                          frequencies_from_config(flat, seq_len=8192).theta)
    old_phi3 = dict(flat, model_type="phi3", rope_scaling=dict(flat["rope_scaling"], type="yarn"))
    assert np.array_equal(frequencies_from_config(old_phi3, seq_len=8192).theta,
                          frequencies_from_config(flat, seq_len=8192).theta)  # Phi3Config reads "yarn" as LongRoPE
    mrope = {"rope_theta": 1e6, "head_dim": 128, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}
    with pytest.raises(ValueError, match=r"^config has M-RoPE \(mrope_section\)"):
        frequencies_from_config(mrope)


def test_proportional_partial_rotary_divides_by_head_dim():
    """The two partial-rotary variants: d_rot-dimensional frequencies vs the first pairs of a head_dim RoPE."""
    config = {"rope_theta": 1e4, "head_dim": 16, "partial_rotary_factor": 0.5}
    classic = frequencies_from_config(config).theta
    proportional = frequencies_from_config(dict(config, rope_type="proportional")).theta
    assert np.array_equal(classic, frequencies(8, 1e4))
    assert proportional.shape == (8,) and np.array_equal(proportional[:4], frequencies(16, 1e4)[:4])
    assert np.all(proportional[4:] == 0) and not np.allclose(proportional[:4], classic)


def test_llama31_frequencies_accept_equal_band_factors():
    th = llama31_frequencies(128, 500000.0, factor=16.0, low_freq_factor=1.0, high_freq_factor=1.0)
    assert np.array_equal(th, frequencies_from_config(CONFIGS["llama4_scout"]).theta)


def _last_yarn_row(readme: str) -> str:
    section = readme.split("## transformers versions", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if re.match(r"\| \d+\.\d+ – \d+\.\d+ \|", line)][-1]


def test_readme_yarn_semantics_reach_the_pinned_transformers():
    """The README's table of YaRN's `factor` per version ends at the version the conformance suite pins (whose
    test_hf_frequencies checks the Qwen2.5 + YaRN config against transformers itself)."""
    root = Path(__file__).parents[1]
    pinned = re.search(r"^transformers==(\d+\.\d+)\.\d+$", (root / "requirements-conformance.txt").read_text(), re.M)[1]
    row = _last_yarn_row((root / "README.md").read_text(encoding="utf-8"))
    assert row.split("|")[1].strip().endswith(f"– {pinned}") and "`factor`" in row.split("|")[2]
    stale = "## transformers versions\n| 4.45 – 4.50 | `factor` | x |\n"
    assert not _last_yarn_row(stale).split("|")[1].strip().endswith(f"– {pinned}")  # negative control


def test_phi3_mini_copy_divides_by_the_short_factors_up_to_4096_and_the_long_ones_after():
    cfg = published_config("phi3_mini_128k_instruct")
    base = frequencies(96, 10000.0)
    short, long = (frequencies_from_config(cfg, seq_len=n) for n in (4096, 4097))
    np.testing.assert_allclose(base / short.theta, cfg["rope_scaling"]["short_factor"], rtol=1e-12)
    np.testing.assert_allclose(base / long.theta, cfg["rope_scaling"]["long_factor"], rtol=1e-12)
    for r in (short, long):  # one attention factor for both: sqrt(1 + ln s / ln L), s = 131072 / 4096
        assert abs(r.attention_factor - math.sqrt(1 + math.log(32) / math.log(4096))) < 1e-12
    # wrong variant: the other list is far from what either call uses
    assert np.max(np.abs(base / short.theta / cfg["rope_scaling"]["long_factor"] - 1)) > 0.5


def test_command_r_trimmed_copy_has_its_own_base_not_the_library_default():
    cfg = published_config("cohere_command_r_v01")
    r = frequencies_from_config(cfg)
    np.testing.assert_allclose(r.theta, frequencies(128, 8e6), rtol=1e-12)
    assert r.filled == {} or "rope_theta" not in r.filled
    # wrong variant: without the key, transformers' CohereConfig default (5e5) is filled, a different θ
    bare = {k: v for k, v in cfg.items() if k != "rope_theta"}
    d = frequencies_from_config(bare)
    assert d.filled.get("rope_theta") == 500000.0
    assert np.max(np.abs(d.theta / r.theta - 1)) > 0.1
