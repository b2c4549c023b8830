"""vLLM 0.33.0: the ``max_model_len`` it derives per rope type, the rows of its cos/sin table, the tables shared
through ``_ROPE_DICT``, and the fixes for YaRN, dynamic NTK and LongRoPE (notebook 08 §6).

``_get_and_verify_max_len`` (``vllm/config/model.py``, lines 2545-2684) is vLLM's own function, called here on CPU
with a transformers 5.24 config built from a file in ``ropemath/models/published_configs`` and a stand-in for the
one field it reads from the architecture config (``derived_max_model_len_and_key``, which for these models is
``max_position_embeddings``: ``transformers_utils/model_arch_config_convertor.py``, lines 374-407).  The default
length is multiplied by ``factor`` for ``linear``, ``dynamic`` and ``ntk``, not for ``llama3``, ``yarn``,
``longrope`` (lines 2598-2634); LongRoPE defaults to ``original_max_position_embeddings`` (lines 2643-2650); a
``--max-model-len`` above the derived length raises unless the config's ``model_max_length`` allows it (lines
2657-2682).  The table sizes come from ``get_rope``'s modules, built as in ``test_vllm_rotary.py``.  Each check has a
wrong variant that must fail: "multiply by the factor for every type", or a table as long as ``max_model_len``.
"""

from __future__ import annotations

import types
import warnings

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

import vllm_cpu

from ropemath import published_config  # noqa: E402


@pytest.fixture(scope="module")
def vllm():
    with vllm_cpu.loaded() as ns:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import transformers
            from vllm.config.model import _get_and_verify_max_len
        assert transformers.__version__ == "5.24.0"

        def hf(name, cls, **changes):
            values = {k: v for k, v in published_config(name).items() if not k.startswith("_")}
            values.update(changes)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return getattr(transformers, cls)(**values)

        def max_len(hf_config, user=None, tokenizer_config=None):
            arch = types.SimpleNamespace(
                derived_max_model_len_and_key=(hf_config.max_position_embeddings, "max_position_embeddings"))
            return _get_and_verify_max_len(hf_config, arch, tokenizer_config, user, False, None)

        def module(hf_config, max_model_len, clear=True, rope_parameters=None):
            """The rotary module vLLM's Llama builds (max_position = max_position_embeddings)."""
            head = hf_config.hidden_size // hf_config.num_attention_heads
            return vllm_cpu.build_rope(ns, head, hf_config.max_position_embeddings,
                                       rope_parameters or hf_config.rope_parameters, dtype=torch.float32,
                                       patch_phi3=True, max_model_len=max_model_len, clear=clear)

        def rows(hf_config, max_model_len):
            """Rows of the cos/sin table of that module."""
            rope = module(hf_config, max_model_len)
            cache = getattr(rope, "long_short_cos_sin_cache", None)
            return type(rope).__name__, int((cache if cache is not None else rope.cos_sin_cache).shape[0])

        yield types.SimpleNamespace(hf=hf, max_len=max_len, rows=rows, module=module,
                                    cache=ns.rotary_embedding._ROPE_DICT)


@pytest.fixture(scope="module")
def configs(vllm):
    """One published config per rope type (Llama 2 with a linear block added), as transformers 5.24 loads them."""
    return types.SimpleNamespace(
        plain=vllm.hf("llama2_7b_chat_hf", "LlamaConfig"),
        linear=vllm.hf("llama2_7b_chat_hf", "LlamaConfig", rope_scaling={"rope_type": "linear", "factor": 4.0}),
        dynamic=vllm.hf("llama2_7b_dynamic", "LlamaConfig"),
        llama31=vllm.hf("llama3_1_8b_instruct", "LlamaConfig"),
        qwen_yarn=vllm.hf("qwen2_5_7b_yarn", "Qwen2Config"),
        phi3=vllm.hf("phi3_mini_128k_instruct", "Phi3Config"),
    )


def test_factor_multiplies_linear_and_dynamic_only(vllm, configs):
    plain, linear, dynamic = configs.plain, configs.linear, configs.dynamic
    llama31, qwen_yarn, phi3 = configs.llama31, configs.qwen_yarn, configs.phi3
    assert dynamic.rope_parameters["rope_type"] == "dynamic" and dynamic.rope_parameters["factor"] == 2.0
    got = {name: vllm.max_len(c) for name, c in
           {"default": plain, "linear": linear, "dynamic": dynamic, "llama3": llama31, "yarn": qwen_yarn,
            "longrope": phi3}.items()}
    assert got == {"default": 4096, "linear": 16384, "dynamic": 8192, "llama3": 131072, "yarn": 32768,
                   "longrope": 4096}
    # wrong variant: the factor applied to every type
    every = {"llama3": 131072 * 8, "yarn": 32768 * 4, "longrope": 131072}
    assert all(got[k] != v for k, v in every.items())
    # an explicit length: Phi-3 may ask for its 131072; Qwen2.5 + YaRN may not ask for 4 x 32768
    assert vllm.max_len(phi3, 131072) == 131072
    with pytest.raises(ValueError, match="VLLM_ALLOW_LONG_MAX_MODEL_LEN"):
        vllm.max_len(qwen_yarn, 131072)
    assert vllm.max_len(qwen_yarn, 32768) == 32768


def test_table_rows_against_the_accepted_length(vllm, configs):
    dynamic, linear, qwen_yarn, llama31, phi3 = (configs.dynamic, configs.linear, configs.qwen_yarn, configs.llama31,
                                                 configs.phi3)
    table = {
        "dynamic": vllm.rows(dynamic, vllm.max_len(dynamic)),
        "linear": vllm.rows(linear, vllm.max_len(linear)),
        "yarn": vllm.rows(qwen_yarn, vllm.max_len(qwen_yarn)),
        "llama3": vllm.rows(llama31, vllm.max_len(llama31)),
        "longrope": vllm.rows(phi3, 131072),
    }
    assert table == {
        "dynamic": ("DynamicNTKScalingRotaryEmbedding", 4096),  # L rows, while 8192 tokens are accepted
        "linear": ("LinearScalingRotaryEmbedding", 16384),  # f L rows = the accepted length
        "yarn": ("YaRNScalingRotaryEmbedding", 131072),  # f x original rows, 32768 accepted
        "llama3": ("Llama3RotaryEmbedding", 131072),
        "longrope": ("Phi3LongRoPEScaledRotaryEmbedding", 4096 + 131072),  # short rows, then long ones
    }
    # wrong variant: a table as long as the accepted length, for dynamic NTK
    assert table["dynamic"][1] != vllm.max_len(dynamic)


def test_layers_with_equal_settings_share_one_table(vllm):
    """``get_rope`` memoises its modules in ``_ROPE_DICT`` (``rotary_embedding/__init__.py`` lines 29, 74-85, 351)."""
    llama = vllm.hf("llama2_7b_chat_hf", "LlamaConfig")
    first = vllm.module(llama, 4096)
    second = vllm.module(llama, 4096, clear=False)  # a second layer, same settings
    other = vllm.module(llama, 4096, clear=False, rope_parameters=dict(llama.rope_parameters, rope_theta=5e5))
    assert second is first and len(vllm.cache) == 2  # one table per distinct setting, not per layer
    # wrong variant: a different base shares the table
    assert other is not first and not torch.equal(other.cos_sin_cache, first.cos_sin_cache)


def test_the_fixes_stay_inside_the_table(vllm, monkeypatch):
    """Qwen2.5 + YaRN: allow a long max_model_len, or raise max_position_embeddings (config/model.py 2610-2612,
    2657-2682); dynamic NTK: max_model_len = L; Phi-3: max_model_len <= L_o keeps the short list (phi3 l. 51-56)."""
    qwen_yarn = vllm.hf("qwen2_5_7b_yarn", "Qwen2Config")
    table = vllm.rows(qwen_yarn, 32768)[1]
    monkeypatch.setenv("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1")
    assert vllm.max_len(qwen_yarn, 131072) == 131072 == table  # allowed, inside the table
    assert vllm.max_len(qwen_yarn, 262144) == 262144 > table  # wrong variant: the flag does not check the table
    monkeypatch.delenv("VLLM_ALLOW_LONG_MAX_MODEL_LEN")
    raised = vllm.hf("qwen2_5_7b_yarn", "Qwen2Config", max_position_embeddings=131072)
    assert vllm.max_len(raised) == 131072 == vllm.rows(raised, 131072)[1]  # default length = table, not x factor
    assert vllm.max_len(raised) != 4 * 131072  # wrong variant: the factor applied again
    dynamic = vllm.hf("llama2_7b_dynamic", "LlamaConfig")
    assert vllm.max_len(dynamic, 4096) == 4096 == vllm.rows(dynamic, 4096)[1]  # --max-model-len L: every row exists
    assert vllm.max_len(dynamic) > vllm.rows(dynamic, 4096)[1]  # wrong variant: the default length
    phi3 = vllm.hf("phi3_mini_128k_instruct", "Phi3Config")
    assert not vllm.module(phi3, 4096).use_long_rope and vllm.module(phi3, 4097).use_long_rope


def test_exercise_2_dynamic_config(vllm):
    """Notebook 08's exercise 2: ``max_position_embeddings`` 4096, ``dynamic`` with factor 8, the tokenizer's
    ``model_max_length`` 2048, no ``--max-model-len``: vLLM caps at the tokenizer first (``config/model.py`` lines
    2570-2575), then multiplies by the factor (line 2634)."""
    config = vllm.hf("llama2_7b_chat_hf", "LlamaConfig", max_position_embeddings=4096,
                     rope_scaling={"rope_type": "dynamic", "factor": 8.0})
    accepted = vllm.max_len(config, tokenizer_config={"model_max_length": 2048})
    name, rows = vllm.rows(config, accepted)
    assert (name, rows, accepted) == ("DynamicNTKScalingRotaryEmbedding", 4096, 16384)
    assert accepted - rows == 12288  # accepted positions without a table row
    # wrong variants: a table as long as the accepted length; no tokenizer cap (8 x 4096); cap after the factor (2048)
    assert rows != accepted and accepted != 8 * 4096 and accepted != 2048
    assert vllm.max_len(config) == 8 * 4096  # without the tokenizer's cap


def test_transformers_dynamic_reset_needs_max_position_at_most_L_minus_2(vllm):
    """transformers 5.24 ``modeling_rope_utils.py`` line 113: plain theta again only when ``max(position_ids) + 1 <
    L`` (after a growth past L).  A call whose largest position is L - 1 keeps the scaled theta'."""
    import transformers
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    L = 16
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        config = transformers.LlamaConfig(max_position_embeddings=L, hidden_size=64, num_attention_heads=1,
                                          rope_scaling={"rope_type": "dynamic", "factor": 2.0})
    rope = LlamaRotaryEmbedding(config)
    plain = rope.inv_freq.clone()
    x = torch.zeros(1, 1, 64)

    def call(last):
        rope(x, torch.arange(last + 1)[None])
        return torch.equal(rope.inv_freq, plain)

    assert not call(4 * L - 1)  # growth past L: scaled theta'
    assert not call(L - 1)  # largest position L - 1: seq_len = L is not < L, theta' kept
    # wrong variant: "plain theta once every position lies below L" would have reset on the call above
    assert call(L - 2)  # largest position L - 2: reset to plain theta


def test_ntk_type_and_yarn_rows_past_the_default_length(vllm):
    """vLLM 0.33.0 ``ntk`` (``ntk_scaling_rope.py`` lines 32-36): theta_i f^(-2(i+1)/d), pair 0 moved too.  Qwen2.5 +
    YaRN: the rows between the default 32768 and the table's 131072 are finite, not the "nan" of the flag's warning
    (``config/model.py`` line 2672)."""
    import numpy as np

    llama = vllm.hf("llama2_7b_chat_hf", "LlamaConfig")
    f, d = 4.0, 128
    rope = vllm.module(llama, 4096, rope_parameters={"rope_type": "ntk", "factor": f, "rope_theta": 1e4})
    got = rope._compute_inv_freq(rope.base).double().numpy()
    i = np.arange(d // 2)
    theta = 1e4 ** (-2 * i / d)
    assert np.allclose(got, theta * f ** (-2 * (i + 1) / d), rtol=1e-6, atol=0)
    assert not np.allclose(got, theta * f ** (-2 * i / (d - 2)), rtol=1e-3, atol=0)  # wrong variant: NTK-aware
    qwen_yarn = vllm.hf("qwen2_5_7b_yarn", "Qwen2Config")
    cache = vllm.module(qwen_yarn, 131072).cos_sin_cache
    assert cache.shape[0] == 131072 and torch.isfinite(cache[32768:]).all()
    assert not torch.equal(cache[40000], cache[0])  # wrong variant: rows past 32768 copies of row 0 (no position)


def test_notebook_helper_matches_vllm(vllm):
    """Notebook 08's ``vllm_lengths`` (the §6 table's vLLM columns, which exercise 2 uses) against vLLM's own
    ``_get_and_verify_max_len`` and ``get_rope``, for every type it accepts."""
    import json
    from pathlib import Path

    cells = json.loads((Path(__file__).parents[2] / "notebooks" / "08_stretch_the_context.ipynb").read_text())["cells"]
    code = [text for text in ("".join(c["source"]) for c in cells if c["cell_type"] == "code")
            if "def vllm_lengths" in text]
    assert len(code) == 1
    ns: dict = {}
    exec(code[0].split("\n\n\nfor ")[0], ns)  # the function only
    helper = ns["vllm_lengths"]
    cases = {  # published config name, transformers class, changes
        "default": ("llama2_7b_chat_hf", "LlamaConfig", {}),
        "linear": ("llama2_7b_chat_hf", "LlamaConfig", {"rope_scaling": {"rope_type": "linear", "factor": 4.0}}),
        "dynamic": ("llama2_7b_dynamic", "LlamaConfig", {}),
        "exercise 2": ("llama2_7b_chat_hf", "LlamaConfig",
                       {"max_position_embeddings": 4096, "rope_scaling": {"rope_type": "dynamic", "factor": 8.0}}),
        "llama3": ("llama3_1_8b_instruct", "LlamaConfig", {}),
        "yarn": ("qwen2_5_7b_yarn", "Qwen2Config", {}),
    }
    for label, (name, cls, changes) in cases.items():
        raw = dict(published_config(name), **changes)
        hf_config = vllm.hf(name, cls, **changes)
        accepted = vllm.max_len(hf_config)
        assert helper(raw) == (vllm.rows(hf_config, accepted)[1], accepted), label
        capped = vllm.max_len(hf_config, tokenizer_config={"model_max_length": 2048})  # the tokenizer's cap
        assert helper(raw, tokenizer_max=2048) == (vllm.rows(hf_config, capped)[1], capped), label
        assert capped != min(helper(raw)[1], 2048) or label in ("default", "llama3", "yarn"), label  # wrong: cap last
    # wrong variant: a helper that multiplies the default length by the factor for every type
    raw = published_config("qwen2_5_7b_yarn")
    wrong = int(raw["rope_scaling"]["factor"] * raw["max_position_embeddings"])
    assert wrong != vllm.max_len(vllm.hf("qwen2_5_7b_yarn", "Qwen2Config")) == helper(raw)[1]


def test_deepseek_yarn_cos_sin_factor_is_the_mscale_ratio(vllm):
    """Notebook 08 §2 (attention factor) and §9: vLLM 0.33.0's DeepSeek ``yarn`` (``deepseek_v2.py`` lines 1115-1127
    rename it ``deepseek_yarn``, or ``deepseek_llama_scaling`` when ``attention_factor`` is 1.0) multiplies cos and sin
    by a(f, mscale) / a(f, mscale_all_dim), a(f, mu) = 0.1 mu ln f + 1 (``deepseek_scaling_rope.py`` lines 52-55),
    whatever ``attention_factor`` says; plain ``yarn`` takes ``attention_factor`` first (``yarn_scaling_rope.py``
    lines 38-39).  Wrong variant: YaRN's 0.1 ln f + 1 on cos/sin."""
    import math

    llama = vllm.hf("llama2_7b_chat_hf", "LlamaConfig")
    ds = {k: v for k, v in published_config("deepseek_v3")["rope_scaling"].items() if k != "type"}
    f = float(ds["factor"])

    def a(mu):
        return 0.1 * mu * math.log(f) + 1.0

    def row0(rope_type, **changes):  # row 0 of the table: cos(0) x factor on the first half
        params = dict(ds, rope_type=rope_type, rope_theta=1e4, **changes)
        return float(vllm.module(llama, 4096, rope_parameters=params).cos_sin_cache[0, 0])

    for kind in ("deepseek_yarn", "deepseek_llama_scaling"):
        assert math.isclose(row0(kind), 1.0, rel_tol=1e-6)  # published: mscale = mscale_all_dim = 1
        got = row0(kind, mscale=0.707, attention_factor=1.0)  # attention_factor is not read
        assert math.isclose(got, a(0.707) / a(1.0), rel_tol=1e-6)
        assert not math.isclose(row0(kind), a(1.0), rel_tol=1e-3)  # wrong variant: YaRN's factor
    assert math.isclose(row0("yarn", attention_factor=1.3), 1.3, rel_tol=1e-6)  # plain yarn: attention_factor first
    assert math.isclose(row0("yarn"), 1.0, rel_tol=1e-6)  # plain yarn, both mscales set: their ratio


def test_transformers_never_writes_attention_factor_for_deepseek_v3():
    """Notebook 08 §9: transformers 5.24 leaves ``attention_factor`` out of DeepSeek-V3's ``rope_parameters`` on
    load, when building the rotary module and through a save/load round trip; it only reads it
    (``modeling_rope_utils.py`` line 419).  Wrong variant: a config that sets the key keeps it, so the check can
    fail."""
    import json

    import transformers
    from transformers import DeepseekV3Config
    from transformers.models.deepseek_v3.modeling_deepseek_v3 import DeepseekV3RotaryEmbedding

    assert transformers.__version__ == "5.24.0"

    def keys_seen(rope_scaling):
        raw = {k: v for k, v in published_config("deepseek_v3").items() if not k.startswith("_")}
        raw["rope_scaling"] = rope_scaling
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            config = DeepseekV3Config(**raw)
            seen = [dict(config.rope_parameters)]
            DeepseekV3RotaryEmbedding(config)
            seen.append(dict(config.rope_parameters))
            again = DeepseekV3Config.from_dict(json.loads(config.to_json_string()))
            seen.append(dict(again.rope_parameters))
        return seen

    published = published_config("deepseek_v3")["rope_scaling"]
    assert all("attention_factor" not in p and p["rope_type"] == "yarn" for p in keys_seen(dict(published)))
    assert all(p.get("attention_factor") == 1.0 for p in keys_seen(dict(published, attention_factor=1.0)))


def test_ntk_and_gemma4_proportional_factor_accept_f_L_with_L_rows(vllm):
    """Notebook 10's checklist: ``ntk`` and Gemma 4 ``proportional`` with a ``factor`` key are accepted up to f L
    (``_get_and_verify_max_len``, ``config/model.py`` lines 2603-2634) while ``get_rope`` builds L rows
    (``NTKScalingRotaryEmbedding`` inherits ``RotaryEmbeddingBase``'s table; ``Gemma4RotaryEmbedding``; Gemma 4 passes
    ``max_position=max_position_embeddings``, ``models/gemma4.py`` line 496), as Llama-style ``dynamic`` does."""
    import transformers

    f = 4.0
    ntk = vllm.hf("llama2_7b_chat_hf", "LlamaConfig")
    ntk.rope_parameters = {"rope_type": "ntk", "factor": f, "rope_theta": 1e4}
    L = ntk.max_position_embeddings
    assert vllm.max_len(ntk) == f * L
    assert vllm.module(ntk, int(f * L)).cos_sin_cache.shape[0] == L
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gemma = transformers.Gemma4TextConfig()
    full = dict(gemma.rope_parameters["full_attention"])
    assert full["rope_type"] == "proportional" and "factor" not in full  # 5.24's default: no factor
    G = gemma.max_position_embeddings
    assert vllm.max_len(gemma) == G  # wrong variant: without a factor key the length is not multiplied
    gemma.rope_parameters = dict(gemma.rope_parameters, full_attention=dict(full, factor=f))
    assert vllm.max_len(gemma) == f * G
    rope = vllm.module(gemma, int(f * G), rope_parameters=dict(full, factor=f))  # max_position = G, as gemma4.py
    assert type(rope).__name__ == "Gemma4RotaryEmbedding" and rope.cos_sin_cache.shape[0] == G


def test_static_ntk_overrides_replace_a_dynamic_config(vllm, tmp_path):
    """Notebook 08 §6, dynamic NTK's fix: pin the base at b' = b f^(d/(d-2)).  vLLM's ``--hf-overrides`` needs
    ``rope_scaling: null`` with ``rope_theta`` (``get_config`` then ``patch_rope_parameters``,
    ``transformers_utils/config.py`` lines 989-995); transformers' ``from_pretrained`` needs ``rope_parameters``.
    Wrong variant for both: ``rope_theta`` alone, which leaves the config's ``dynamic`` block and base unchanged."""
    import json

    from transformers import AutoConfig
    from vllm.transformers_utils.config import get_config

    from ropemath import ntk_base

    values = {k: v for k, v in published_config("llama2_7b_dynamic").items() if not k.startswith("_")}
    (tmp_path / "config.json").write_text(json.dumps(values))
    f, L = int(values["rope_scaling"]["factor"]), values["max_position_embeddings"]
    b2 = ntk_base(128, 10000.0, scale=f)  # the config names no base: the default
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fixed = get_config(str(tmp_path), trust_remote_code=False,
                           hf_overrides_kw={"rope_scaling": None, "rope_theta": b2, "max_position_embeddings": f * L})
        alone = get_config(str(tmp_path), trust_remote_code=False, hf_overrides_kw={"rope_theta": b2})
        as_parameters = get_config(str(tmp_path), trust_remote_code=False,  # notebook 10's form
                                   hf_overrides_kw={"rope_parameters": {"rope_type": "default", "rope_theta": b2},
                                                    "max_position_embeddings": f * L})
        hf = AutoConfig.from_pretrained(tmp_path, rope_parameters={"rope_type": "default", "rope_theta": b2})
        hf_alone = AutoConfig.from_pretrained(tmp_path, rope_theta=b2)
    assert fixed.rope_parameters == {"rope_type": "default", "rope_theta": b2} == hf.rope_parameters
    assert as_parameters.rope_parameters == fixed.rope_parameters and vllm.max_len(as_parameters) == f * L
    assert vllm.max_len(fixed) == f * L == vllm.rows(fixed, f * L)[1]  # every accepted position has a row
    for wrong in (alone, hf_alone):  # wrong variant: rope_theta alone is ignored
        assert wrong.rope_parameters["rope_type"] == "dynamic" and wrong.rope_parameters["rope_theta"] == 10000.0
    # theta' as each library builds it: vLLM's cos/sin table rows, transformers' inv_freq
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding
    theta2 = b2 ** (-torch.arange(0, 128, 2, dtype=torch.float64) / 128)
    m = torch.tensor([1.0, 1000.0, f * L - 1.0], dtype=torch.float64)

    def cos_rows(config, positions):
        cache = vllm.module(config, f * L).cos_sin_cache
        return cache[positions.long(), :64].double()

    assert torch.allclose(cos_rows(fixed, m), torch.cos(m[:, None] * theta2), rtol=0, atol=1e-3)  # float32 table
    assert torch.allclose(LlamaRotaryEmbedding(hf).inv_freq.double(), theta2, rtol=1e-6, atol=0)
    # wrong variant: rope_theta alone keeps plain theta in both
    assert not torch.allclose(cos_rows(alone, m[1:2]), torch.cos(m[1:2, None] * theta2), rtol=0, atol=1e-3)
    assert not torch.allclose(LlamaRotaryEmbedding(hf_alone).inv_freq.double(), theta2, rtol=1e-6, atol=0)


def test_hf_overrides_give_ntk_and_dynamic_a_row_for_every_accepted_position(vllm, tmp_path):
    """Notebook 10's checklist fixes.  Llama-style ``dynamic``: ``--hf-overrides`` switching to YaRN,
    ``{"rope_scaling": {"rope_type": "yarn", "factor": f, "original_max_position_embeddings": L,
    "rope_theta": b}, "max_position_embeddings": f L}`` (``get_config``, ``transformers_utils/config.py`` lines
    989-995): f L rows
    (``YaRNScalingRotaryEmbedding``), f L accepted.  ``ntk``: ``{"max_position_embeddings": f L}`` with
    ``--max-model-len`` f L: f L rows, theta unchanged.  Wrong variants: YaRN without the length (only L accepted)
    or without ``rope_theta`` in the block (the base is lost);
    ntk without ``--max-model-len`` (f^2 L accepted, f L rows)."""
    import json

    from vllm.transformers_utils.config import get_config

    values = {k: v for k, v in published_config("llama2_7b_dynamic").items() if not k.startswith("_")}
    (tmp_path / "config.json").write_text(json.dumps(values))
    f, L = int(values["rope_scaling"]["factor"]), values["max_position_embeddings"]
    yarn = {"rope_type": "yarn", "factor": float(f), "original_max_position_embeddings": L}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        block = dict(yarn, rope_theta=1e4)
        fixed = get_config(str(tmp_path), trust_remote_code=False,
                           hf_overrides_kw={"rope_scaling": block, "max_position_embeddings": f * L})
        short = get_config(str(tmp_path), trust_remote_code=False, hf_overrides_kw={"rope_scaling": block})
        no_base = get_config(str(tmp_path), trust_remote_code=False,
                             hf_overrides_kw={"rope_scaling": yarn, "max_position_embeddings": f * L})
        as_parameters = get_config(str(tmp_path), trust_remote_code=False,  # notebook 10's form, no FutureWarning
                                   hf_overrides_kw={"rope_parameters": block, "max_position_embeddings": f * L})
    assert fixed.rope_parameters["rope_type"] == "yarn" and fixed.rope_parameters["factor"] == f
    assert as_parameters.rope_parameters == fixed.rope_parameters
    assert vllm.max_len(as_parameters) == f * L == vllm.rows(as_parameters, f * L)[1]
    assert fixed.rope_parameters["rope_theta"] == 1e4
    assert no_base.rope_parameters.get("rope_theta") is None  # wrong variant: without rope_theta the base is lost
    assert vllm.max_len(fixed) == f * L == vllm.rows(fixed, f * L)[1]
    assert vllm.rows(fixed, f * L)[0] == "YaRNScalingRotaryEmbedding"
    assert vllm.max_len(short) == L  # wrong variant: the YaRN block alone serves only L tokens

    ntk = vllm.hf("llama2_7b_chat_hf", "LlamaConfig")
    ntk.rope_parameters = {"rope_type": "ntk", "factor": float(f), "rope_theta": 1e4}
    L2 = ntk.max_position_embeddings
    before = vllm.module(ntk, f * L2).cos_sin_cache
    ntk.update({"max_position_embeddings": f * L2})  # what get_config does with the override
    after = vllm.module(ntk, f * L2).cos_sin_cache
    assert vllm.max_len(ntk, f * L2) == f * L2 == after.shape[0]
    torch.testing.assert_close(after[:L2], before, rtol=0, atol=0)  # same theta, more rows
    assert vllm.max_len(ntk) == f * f * L2 > after.shape[0]  # wrong variant: without --max-model-len
