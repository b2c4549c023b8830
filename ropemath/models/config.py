r"""From a Hugging Face model config to θ_i and the attention factor, as transformers 5.24 computes them.

Scope: :func:`frequencies_from_config` (rope types ``default``, ``linear``, ``dynamic``, ``yarn``, ``longrope``
(old name ``su``), ``llama3``, ``proportional``; defaults filled as transformers fills them, and reported;
per-layer RoPE needs ``layer_type``; M-RoPE refused) and :func:`published_config` (the configs shipped with
ropemath, provenance in ``published_configs/README.md``).  θ_i in float64 (transformers rounds to float32).

References: transformers ``modeling_rope_utils.py`` (5.24); Peng et al., *YaRN*, arXiv:2309.00071;
Ding et al., *LongRoPE*, arXiv:2402.13753; Meta, Llama 3.1 ``apply_scaling``.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ropemath.core._validate import MAX_D, check_int, finite_result
from ropemath.models.yarn import llama31_frequencies, yarn_frequencies

__all__ = ["ROPE_TYPES", "RopeFrequencies", "frequencies_from_config", "published_config"]

PUBLISHED = Path(__file__).with_name("published_configs")  # provenance of every file: its README.md

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional")
ALIASES = {"su": "longrope"}  # transformers' Phi-3 config reads the old name "su" as LongRoPE
PHI3_TYPES = ("phi3", "phi4_multimodal")  # their config classes also read an old "yarn" as LongRoPE

# transformers 5.24 ``default_theta`` of the config classes of the families this course covers (the mixin's
# default is 10000.0; Gemma 3 has one per layer type)
DEFAULT_THETA = {"llama4": 500000.0, "llama4_text": 500000.0, "cohere": 500000.0}
GEMMA3_TYPES = ("gemma3", "gemma3_text")
LAYER_TYPES = ("full_attention", "sliding_attention")
# the older names in GPT-NeoX's and GPT-J's Hub configs, read as GPTNeoXConfig / GPTJConfig (attribute_map) read them
LEGACY_KEYS = {"rotary_pct": "partial_rotary_factor", "rotary_emb_base": "rope_theta", "n_embd": "hidden_size",
               "n_head": "num_attention_heads", "n_positions": "max_position_embeddings"}


class RopeFrequencies(NamedTuple):
    """θ_i (float64, shape (d/2,), transformers' ``inv_freq``), the attention factor (``attention_scaling``),
    and the defaults filled in for keys the config left out (``{key: value}``, empty when none)."""

    theta: np.ndarray
    attention_factor: float
    filled: dict


def _per_layer(config: Mapping) -> dict | None:
    """The per-layer-type RoPE dicts of a config, or None if every layer uses the same θ."""
    rope = config.get("rope_parameters")
    if isinstance(rope, Mapping) and rope and all(isinstance(v, Mapping) for v in rope.values()):
        return dict(rope)  # transformers 5.x: {"full_attention": {...}, "sliding_attention": {...}}
    if config.get("model_type") in GEMMA3_TYPES or "rope_local_base_freq" in config:  # transformers 4.x Gemma 3
        scaling = config.get("rope_scaling") if isinstance(config.get("rope_scaling"), Mapping) else {}
        local = {"rope_type": "default"}
        if config.get("rope_local_base_freq") is not None:
            local["rope_theta"] = config["rope_local_base_freq"]
        return {"full_attention": dict(scaling), "sliding_attention": local}
    return None


def _flatten(config: object, layer_type: object) -> dict:
    if not isinstance(config, Mapping):
        raise TypeError(f"config must be a mapping (a Hugging Face config as a dict), got {type(config).__name__}")
    text = config.get("text_config")
    if isinstance(text, Mapping) and "rope_theta" not in config and "rope_parameters" not in config:
        config = text
    flat = {k: v for k, v in config.items() if k not in ("rope_scaling", "rope_parameters")}
    flat.update({new: flat[old] for old, new in LEGACY_KEYS.items() if old in flat and new not in flat})
    if flat.get("model_type") == "gptj" and flat.get("rotary_dim") and "partial_rotary_factor" not in flat:
        head_dim = int(_number(flat, "hidden_size")) // int(_number(flat, "num_attention_heads"))
        flat["partial_rotary_factor"] = _number(flat, "rotary_dim") / head_dim
    per_layer = _per_layer(config)
    if per_layer is not None:
        if layer_type not in per_layer:
            raise ValueError(f"layer_type must be one of {', '.join(map(repr, per_layer))} "
                             f"(this config's layers use different RoPE), got {layer_type!r}")
        flat.update(per_layer[layer_type])
        flat["_layer_type"] = layer_type
        return flat
    if layer_type is not None:
        raise ValueError(f"layer_type must be None: this config uses one RoPE for all layers, got {layer_type!r}")
    for nested in ("rope_scaling", "rope_parameters"):
        inner = config.get(nested)
        if isinstance(inner, Mapping):
            flat.update(inner)
    return flat


def _fill_defaults(flat: dict, rope_type: str) -> dict:
    """Fill the keys transformers 5.24 fills (``standardize_rope_params``); return what was filled."""
    filled = {}
    if flat.get("head_dim") is None and flat.get("model_type") in GEMMA3_TYPES:
        filled["head_dim"] = 256  # Gemma3TextConfig's default, which gemma-3-4b-it's config relies on
    if flat.get("rope_theta") is None:
        if flat.get("model_type") in GEMMA3_TYPES:
            filled["rope_theta"] = 10_000.0 if flat.get("_layer_type") == "sliding_attention" else 1_000_000.0
        else:
            filled["rope_theta"] = DEFAULT_THETA.get(flat.get("model_type"), 10000.0)
    if rope_type in ("yarn", "llama3", "longrope") and flat.get("original_max_position_embeddings") is None:
        filled["original_max_position_embeddings"] = flat.get("max_position_embeddings")
    flat.update({k: v for k, v in filled.items() if v is not None})
    return {k: v for k, v in filled.items() if v is not None}


def _number(flat: dict, key: str, *, positive: bool = True, default: object = None) -> float:
    value = flat.get(key, default)
    if value is None:
        raise ValueError(f"config[{key!r}] is required for this rope type")
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"config[{key!r}] must be a finite real number, got {value!r}")
    if positive and value <= 0:
        raise ValueError(f"config[{key!r}] must be > 0, got {value!r}")
    return float(value)


def _rotary_dim(flat: dict) -> int:
    head_dim = flat.get("qk_rope_head_dim", flat.get("head_dim"))  # DeepSeek-V2/V3 (MLA): the rotated part
    if head_dim is None and "hidden_size" in flat and "num_attention_heads" in flat:
        head_dim = int(_number(flat, "hidden_size")) // int(_number(flat, "num_attention_heads"))
    head_dim = int(_number(flat, "head_dim", default=head_dim))
    fraction = _number(flat, "partial_rotary_factor", default=1.0)
    if fraction > 1:
        raise ValueError(f"config['partial_rotary_factor'] must be in (0, 1], got {fraction!r}")
    dim = int(head_dim * fraction)
    if dim < 2 or dim % 2:
        raise ValueError(f"config['head_dim'] × partial_rotary_factor must be an even integer >= 2, got {dim}")
    if dim > MAX_D:
        raise ValueError(f"config['head_dim'] × partial_rotary_factor must be at most {MAX_D}, got {dim}")
    return dim


def _factor_list(flat: dict, key: str, pairs: int) -> np.ndarray:
    value = flat.get(key)
    if value is None:
        raise ValueError(f"config[{key!r}] is required for rope type 'longrope'")
    arr = np.asarray(value, dtype=np.float64)
    if arr.shape != (pairs,) or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"config[{key!r}] must be {pairs} finite numbers > 0 (one per pair), got shape {arr.shape}")
    return arr


def _yarn(flat: dict, base: float, dim: int) -> tuple[np.ndarray, float]:
    original = _number(flat, "original_max_position_embeddings")
    factor = flat.get("factor")
    factor = _number(flat, "max_position_embeddings") / original if factor is None else _number(flat, "factor")

    def mscale(scale: float, m: float = 1.0) -> float:
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

    attention = flat.get("attention_factor")
    if attention is not None:
        attention = _number(flat, "attention_factor")
    elif flat.get("mscale") and flat.get("mscale_all_dim"):
        attention = mscale(factor, _number(flat, "mscale")) / mscale(factor, _number(flat, "mscale_all_dim"))
    else:
        attention = mscale(factor)
    theta = yarn_frequencies(dim, base, scale=factor, original_length=round(original),
                             truncate=flat.get("truncate", True),
                             beta_fast=flat.get("beta_fast") or 32, beta_slow=flat.get("beta_slow") or 1)
    return theta, float(attention)


def frequencies_from_config(
    config: Mapping, *, seq_len: int | None = None, layer_type: str | None = None
) -> RopeFrequencies:
    r"""Return θ_i, the attention factor and the filled defaults of a Hugging Face config.

    .. math::
        \theta_i = \mathrm{rope\_theta}^{-2i/d}, \quad i = 0, \dots, d/2 - 1, \quad
        d = \mathrm{head\_dim} \cdot \mathrm{partial\_rotary\_factor},

    then per ``rope_type``: ``linear`` :math:`\theta_i/s`; ``dynamic`` the base
    :math:`b\,(s\ell/L - (s - 1))^{d/(d-2)}` with :math:`\ell = \max(\mathrm{seq\_len}, L)`;
    ``yarn`` the reference code's ramp between :math:`\theta_i/s` and :math:`\theta_i` (correction range from
    ``beta_fast``, ``beta_slow``), attention factor :math:`0.1\,m\ln s + 1` (ratio of two with
    ``mscale``/``mscale_all_dim``); ``longrope`` :math:`\theta_i/\mathrm{ext}_i` with the long factors
    when ``seq_len`` exceeds the original length, attention factor :math:`\sqrt{1 + \ln s/\ln L_0}`;
    ``llama3`` Llama 3.1's bands; ``proportional`` :math:`\mathrm{rope\_theta}^{-2i/\mathrm{head\_dim}}` for
    the first ``partial_rotary_factor · head_dim/2`` pairs and 0 (no rotation) for the others, over the whole
    head.  Source: transformers ``modeling_rope_utils.py`` (5.24).

    ``config``: a dict with HF's keys, flat or with a nested ``rope_parameters`` / ``rope_scaling``
    (``rope_type`` or legacy ``type``; missing means ``default``), or a ``text_config``.  ``layer_type``
    (``"full_attention"`` or ``"sliding_attention"``) is required exactly when the config's layers use
    different RoPE; ``qk_rope_head_dim`` (DeepSeek's MLA) stands for ``head_dim``; GPT-NeoX's and GPT-J's older
    names (``rotary_pct``, ``rotary_emb_base``, ``n_embd``, ``n_head``, ``rotary_dim``) are read as their config
    classes read them.  Other keys are ignored.

    >>> r = frequencies_from_config({"rope_theta": 10000.0, "head_dim": 8})
    >>> r.theta.tolist(), r.attention_factor, r.filled
    ([1.0, 0.1, 0.01, 0.001], 1.0, {})
    >>> frequencies_from_config({"model_type": "llama", "head_dim": 8}).filled
    {'rope_theta': 10000.0}
    >>> frequencies_from_config({"rope_theta": 10000.0, "head_dim": 8, "rope_type": "linear", "factor": 4.0}).theta[0]
    np.float64(0.25)
    """
    flat = _flatten(config, layer_type)
    rope_type = flat.get("rope_type", flat.get("type", "default"))
    if "mrope_section" in flat or rope_type == "mrope":
        raise ValueError("config has M-RoPE (mrope_section): its pairs follow 3 position axes (time, height, width), "
                         "which frequencies_from_config does not cover")
    rope_type = ALIASES.get(rope_type, rope_type)
    if rope_type == "yarn" and flat.get("model_type") in PHI3_TYPES:
        rope_type = "longrope"
    if rope_type not in ROPE_TYPES:
        raise ValueError(f"config['rope_type'] must be one of {', '.join(ROPE_TYPES)}, got {rope_type!r}")
    if seq_len is not None:
        check_int(seq_len, "seq_len", minimum=1)
    filled = _fill_defaults(flat, rope_type)
    base = _number(flat, "rope_theta")
    if base <= 1:
        raise ValueError(f"config['rope_theta'] must be > 1, got {base!r}")
    if rope_type == "proportional":
        head_dim = _rotary_dim(dict(flat, partial_rotary_factor=1.0))
        angles = int(_number(flat, "partial_rotary_factor", default=1.0) * head_dim // 2)
        theta = np.zeros(head_dim // 2)
        theta[:angles] = base ** -(np.arange(0, 2 * angles, 2, dtype=np.float64) / head_dim)
        return finite_result(
            RopeFrequencies(theta / _number(flat, "factor", default=1.0), 1.0, filled),
            "frequencies_from_config", seq_len=seq_len,
        )
    dim = _rotary_dim(flat)
    exponents = np.arange(0, dim, 2, dtype=np.float64) / dim
    theta = base**-exponents
    if rope_type == "default":
        return finite_result(RopeFrequencies(theta, 1.0, filled), "frequencies_from_config", seq_len=seq_len)
    if rope_type == "linear":
        return finite_result(
            RopeFrequencies(theta / _number(flat, "factor"), 1.0, filled),
            "frequencies_from_config", seq_len=seq_len,
        )
    if rope_type == "dynamic":
        factor, length = _number(flat, "factor"), _number(flat, "max_position_embeddings")
        current = max(seq_len if seq_len is not None else length, length)
        new_base = base * ((factor * current / length) - (factor - 1)) ** (dim / (dim - 2))
        return finite_result(
            RopeFrequencies(new_base**-exponents, 1.0, filled),
            "frequencies_from_config", seq_len=seq_len,
        )
    if rope_type == "yarn":
        return RopeFrequencies(*_yarn(flat, base, dim), filled)
    if rope_type == "llama3":
        factors = {key: _number(flat, key) for key in ("factor", "low_freq_factor", "high_freq_factor")}
        length = round(_number(flat, "original_max_position_embeddings"))
        return RopeFrequencies(llama31_frequencies(dim, base, **factors, original_length=length), 1.0, filled)
    # longrope
    original = _number(flat, "original_max_position_embeddings")
    factor = flat.get("factor")
    factor = _number(flat, "max_position_embeddings") / original if factor is None else _number(flat, "factor")
    attention = flat.get("attention_factor")
    if attention is not None:
        attention = _number(flat, "attention_factor")
    else:
        attention = 1.0 if factor <= 1 else math.sqrt(1 + math.log(factor) / math.log(original))
    key = "long_factor" if seq_len is not None and seq_len > original else "short_factor"
    ext = _factor_list(flat, key, dim // 2)
    return RopeFrequencies(theta / ext, float(attention), filled)


def published_config(name: str) -> dict:
    r"""Return a model's ``config.json`` as shipped with ropemath (``ropemath/models/published_configs``).

    .. math:: \mathrm{name} \mapsto \texttt{json.load}(\texttt{published\_configs/name.json})

    Most files are copies of the published ``config.json`` found in public repositories; a few are typed
    excerpts or derived variants and say so in their ``_source`` key.  Source of each: the folder's README.

    >>> published_config("llama3_1_8b_instruct")["rope_scaling"]["rope_type"]
    'llama3'
    """
    names = sorted(p.stem for p in PUBLISHED.glob("*.json"))
    if name not in names:
        raise ValueError(f"name must be one of {', '.join(names)}, got {name!r}")
    return json.loads((PUBLISHED / f"{name}.json").read_text(encoding="utf-8"))
