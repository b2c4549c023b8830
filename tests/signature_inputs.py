"""Valid and bad arguments for every public callable of ropemath, built from the signatures.

A parameter's *kind* (vector data, positions, dimension, count, base, tolerance, …) is looked
up by its name, so a new public function whose parameters use the project's names (README,
"Notation") is covered by the generated bad-input tests without new code.  ``VALID`` gives one
valid value per name; ``OVERRIDES`` the few functions whose valid arguments differ in shape.
Used by ``tests/test_generated_bad_input.py``.
"""

from __future__ import annotations

import inspect

import numpy as np

import ropemath

D = 8
_rng = np.random.default_rng(0)  # seed 0
_X = _rng.standard_normal((3, D))
_Q = _rng.standard_normal((3, D))
_K = _rng.standard_normal((3, D))

#: name -> kind (what the input contract, book/input-contract.md, says about it)
KINDS = {
    # vector data: real floating arrays, finite
    "x": "vectors",
    "q": "vectors",
    "k": "vectors",
    "v": "vectors",
    "w_q": "vectors",
    "w_k": "vectors",
    "w_v": "vectors",
    "p": "vectors",
    "table": "vectors",
    "blocks": "vectors",
    "values": "reals",
    # positions, distances, angles (negative and large are valid)
    "m": "positions",
    "n": "positions",
    "r": "positions",
    "positions": "positions",
    "a": "positions",
    "distances": "positions",
    "edges": "positions",
    "bases": "reals",
    "margins": "reals",
    "y": "reals",
    "shift": "real",
    # frequencies
    "theta": "frequencies",
    "theta_new": "frequencies",
    # dimensions and sizes (set the amount of work)
    "d": "dimension",
    "d_k": "dimension",
    "rotary_dim": "dimension",
    "length": "count",
    "new_length": "count",
    "original_length": "count",
    "context_length": "count",
    "max_position": "count",
    "trials": "count",
    "per_bin": "count",
    "chunk": "count",
    "n_heads": "count",
    "max_steps": "count",
    "seed": "seed",
    "s": "integer",
    # real parameters
    "base": "base",
    "attention_factor": "factor",
    "scale": "factor",
    "factor": "factor",
    "start": "base",
    "alpha": "real",
    "beta": "real",
    "beta_fast": "real",
    "beta_slow": "real",
    "low_freq_factor": "factor",
    "high_freq_factor": "factor",
    "num_rotations": "real",
    "r_max": "real",
    "step": "tolerance",
    "rtol": "tolerance",
    "bound": "reals",
    "quantiles": "quantiles",
    # choices and flags
    "layout": "layout",
    "dtype": "dtype",
    "what": "text",
    "bound_text": "text",
    "aligned": "flag",
    "exact": "flag",
    "truncate": "flag",
    "causal": "flag",
    "config": "config",
    "seq_len": "count",
    "out": "out",
    "w": "vectors",
    "feature_map": "callable",
    "kind": "choice",
    "formula": "choice",
    "name": "choice",
    "layer_type": "text",
    "n_tokens": "count",
    "d_feat": "count",
    "d_v": "count",
    "trig_ulps": "tolerance",
    "reference": "reals",
    "coefficients": "reals",
}

#: one valid value per parameter name
VALID = {
    "x": _X,
    "q": _Q,
    "k": _K,
    "v": _rng.standard_normal((3, 4)),
    "w_q": _rng.standard_normal((D, D)),
    "w_k": _rng.standard_normal((D, D)),
    "w_v": _rng.standard_normal((D, D)),
    "p": _rng.standard_normal((3, D)),
    "table": _rng.standard_normal(7),
    "blocks": [np.eye(2), np.eye(2)],
    "values": np.array([0.1, 0.2]),
    "m": np.arange(3),
    "n": 1,
    "r": np.arange(4.0),
    "positions": np.arange(3),
    "a": 0.5,
    "distances": np.arange(1.0, 5.0),
    "edges": np.array([0.0, 10.0, 20.0]),
    "bases": np.array([1.0, 2.0, 3.0]),
    "margins": np.array([1.0, -1.0, 1.0]),
    "y": np.array([1.0, 0.5, 0.25]),
    "shift": 2.0,
    "theta": ropemath.frequencies(D),
    "theta_new": ropemath.frequencies(D) / 2,
    "d": D,
    "d_k": 2,
    "rotary_dim": 4,
    "length": 64,
    "new_length": 128,
    "original_length": 64,
    "context_length": 64,
    "max_position": 16,
    "trials": 2,
    "per_bin": 4,
    "chunk": 16,
    "n_heads": 2,
    "max_steps": 1000,
    "seed": 0,
    "s": 2,
    "base": 10000.0,
    "attention_factor": 1.0,
    "scale": 2.0,
    "factor": 2.0,
    "start": 1.0,
    "alpha": 1.0,
    "beta": 32.0,
    "beta_fast": 32.0,
    "beta_slow": 1.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "num_rotations": 2.0,
    "r_max": 16.0,
    "step": 0.5,
    "rtol": 1e-9,
    "bound": 1.0,
    "quantiles": (0.1, 0.9),
    "layout": "interleaved",
    "dtype": "float32",
    "what": "error",
    "bound_text": None,
    "aligned": False,
    "exact": True,
    "truncate": True,
    "causal": True,
    "seq_len": 64,
    "kind": "softmax",
    "feature_map": ropemath.elu_plus_one,
    "w": _rng.standard_normal((D, 3)),
    "n_tokens": 256,
    "d_feat": 32,
    "d_v": 16,
    "trig_ulps": 4.0,
    "reference": np.array([3.0, 4.5]),
    "coefficients": np.array([[1.0, 2.0]]),
    "config": {"rope_type": "default", "rope_theta": 10000.0, "head_dim": D, "max_position_embeddings": 64},
}

#: functions whose valid arguments differ from VALID
OVERRIDES = {
    "relative_position_error": {"q": _Q[0], "k": _K[0], "m": 5.0, "n": 2.0},
    "shift_error_in_format": {"q": _Q[0], "k": _K[0], "m": 5, "n": 2},
    "composition_error": {"m": 5.0, "n": 2.0},
    "determinant_error": {"m": 5.0},
    "orthogonality_error": {"m": 5.0},
    "transpose_error": {"m": 5.0},
    "elementwise_error": {"m": 5.0},
    "abel_bound": {"q": _Q[0], "k": _K[0]},
    "abel_constant": {"q": _Q[0], "k": _K[0]},
    "abel_identity_error": {"q": _Q[0], "k": _K[0]},
    "complex_score": {"q": _Q[0], "k": _K[0]},
    "pair_products": {"q": _Q[0], "k": _K[0]},
    "additive_scores": {
        "x": _X,
        "p": _rng.standard_normal((3, D)),
        "w_q": _rng.standard_normal((4, D)),
        "w_k": _rng.standard_normal((4, D)),
    },
    "sinusoidal_scores": {"w_q": _rng.standard_normal((4, D)), "w_k": _rng.standard_normal((4, D))},
    "loglog_slope": {"x": np.array([1.0, 2.0, 4.0]), "y": np.array([1.0, 0.5, 0.25])},
    "multihead_rope_attention": {"w_v": _rng.standard_normal((D, D))},
    "relative_bias": {"positions": np.arange(3), "table": _rng.standard_normal(5)},
    "verdict": {"values": np.array([0.1, 0.2]), "bound": 1.0},
    "verdict_above": {"values": np.array([2.0, 3.0]), "bound": 1.0},
    "permute_for_half": {"w": _rng.standard_normal((D, 3))},
    "permute_for_interleaved": {"w": _rng.standard_normal((D, 3))},
    "round_to_format": {"x": _X, "dtype": "bfloat16"},
    "angles_in_format": {"dtype": "bfloat16"},
    "largest_distinct_integer": {"dtype": "bfloat16"},
    "rotation_2d": {"a": 0.5},
    "failing_intervals": {},
    "dynamic_ntk_frequencies": {"length": 128},
    "dynamic_ntk_scale": {"length": 128},
    "angle_range_ratio": {"length": 64, "new_length": 128},
    "unseen_angle_pairs": {"length": 64, "new_length": 128},
    "yarn_ramp": {"r": np.arange(4.0)},
    "yarn_correction_dim": {"base": 10000.0},
    "cosine_sum_minimum": {"length": 64, "d": D},
    "torch_float32_theta": {"d": 128, "base": 500000.0},
    "base_lower_bound": {"length": 64, "d": D},
    "full_turn_count": {"context_length": 64},
    "frequencies_from_config": {},
    "published_config": {"name": "llama3_8b"},
    "random_phase_level": {},
    "error_vs_position": {"positions": np.array([1.0, 100.0])},
    "abel_check": {"d": D, "trials": 2},
    "binned_bound": {"edges": np.array([0.0, 10.0, 20.0])},
    "pair_relative_error": {"y": np.array([3.0, 4.0]), "reference": np.array([3.0, 4.5]), "x": np.array([0.0, 5.0])},
    "two_product_rope": {"x": np.array([1.0, 0.0], dtype=np.float32), "m": 0},
    "composition_error_bound": {"m": 5, "n": 2},
    "relative_position_error_bound": {"m": 5, "n": 2},
}

#: callables that take no data (constants, classes of results) or are not part of the input contract
SKIP = {"ROPE_TYPES", "RopeFrequencies", "BaseBound", "PublishedBase", "WrongAnswer", "SUBPACKAGES"}


#: public callables the generated cases do not run on yet: each still fails some of them in its own module (a NaN or
#: bool accepted for a tolerance, shift or distance; numpy's message for an empty or string array; an overflow
#: warning on 1e308), or takes arguments with no kind here (sympy terms, bands, answers).  The list may only shrink
#: (tests/test_generated_bad_input.py checks it).
NOT_YET_FUZZED = {
    "attention_outputs", "bfloat16_distances", "cached_key_scores", "check_answer", "check_published_bases",
    "distance_band_errors", "expansion_term_values", "format_bound", "hf_cos_sin_error",
    "linear_attention_two_ways", "max_phase_error",
    "relative_error", "rope_float32_angles", "round_up", "similar_key_expected_score", "similar_key_scores",
    "ulp_errors", "yarn_bands",
}


def public_callables() -> dict[str, object]:
    """Every callable in ``ropemath.__all__`` (functions and RopeCache) except :data:`SKIP` and
    :data:`NOT_YET_FUZZED`."""
    return {name: getattr(ropemath, name) for name in ropemath.__all__
            if name not in SKIP | NOT_YET_FUZZED and callable(getattr(ropemath, name))}


def parameters(fn: object) -> list[inspect.Parameter]:
    """The named parameters of ``fn`` (no ``*args``/``**kwargs``)."""
    sig = inspect.signature(fn)
    return [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def valid_arguments(name: str, fn: object) -> dict[str, object]:
    """Valid keyword arguments for ``fn``: every required parameter, and optional ones that
    :data:`OVERRIDES` sets."""
    over = OVERRIDES.get(name, {})
    args = {}
    for p in parameters(fn):
        if p.name in over:
            args[p.name] = over[p.name]
        elif p.default is inspect.Parameter.empty:
            args[p.name] = VALID[p.name]
    names = {p.name for p in parameters(fn)}
    if {"base", "theta"} <= names and not {"base", "theta"} & set(args):  # exactly one of them is required
        args["base"] = VALID["base"]
    return args


def call(fn: object, args: dict[str, object]) -> object:
    """Call ``fn`` with ``args`` (positional-only parameters passed by position)."""
    pos = [args[p.name] for p in parameters(fn) if p.kind == p.POSITIONAL_ONLY and p.name in args]
    kw = {k: v for k, v in args.items() if k not in {p.name for p in parameters(fn) if p.kind == p.POSITIONAL_ONLY}}
    return fn(*pos, **kw)


# --- bad values, by kind ------------------------------------------------------------------

HUGE_COUNT = 10**12
NOT_A_NUMBER = ("three", None, 1 + 2j, [1, 2])


def bad_array_values(valid: object, *, data: bool) -> list[tuple[str, object, bool]]:
    """(label, value, must_raise) for an array parameter whose valid value is ``valid``.

    ``data``: vectors (finite floating values; ±inf and NaN rejected).  Huge finite values may be
    accepted when the result stays finite."""
    arr = np.asarray(valid, dtype=float)
    cases: list[tuple[str, object, bool]] = []
    if arr.size:
        for label, bad in (("nan", np.nan), ("inf", np.inf), ("-inf", -np.inf)):
            a = arr.copy()
            a.flat[arr.size // 2] = bad
            cases.append((label, a, True))
        cases.append(("huge", np.full_like(arr, 1e308), False))
        cases.append(("tiny", np.full_like(arr, 5e-324), False))
        cases.append(("empty", np.empty((0,) + arr.shape[1:]), False))
        cases.append(("extra axis", arr[None, None], False))
        if arr.ndim and arr.shape[-1] > 1:
            cases.append(("odd last axis", arr[..., :-1], False))
    cases += [
        ("string", "abc", True),
        ("None", None, True),
        ("complex", arr + 1j, True),
        ("object", np.array([object()] * 2), True),
    ]
    if data:
        cases.append(("integers", arr.astype(np.int64), False))
    return cases


def bad_scalar_values(kind: str) -> list[tuple[str, object, bool]]:
    """(label, value, must_raise) for a scalar parameter of ``kind``."""
    wrong_type = [("string", "3", True), ("None", None, True), ("complex", 1 + 2j, True), ("list", [1, 2], True)]
    if kind in ("dimension", "count", "seed", "integer"):
        cases = [
            ("float", 2.5, True),
            ("bool", True, True),
            ("10**400", 10**400, kind != "seed"),
            ("nan", float("nan"), True),
            ("-1", -1, kind != "integer"),
            ("0", 0, kind in ("count", "dimension")),
        ]
        if kind in ("dimension", "count"):
            cases += [("10**12", HUGE_COUNT, True), ("2**40", 2**40, True)]
        if kind == "dimension":
            cases += [("odd", 3, False)]
        return cases + wrong_type
    if kind in ("base", "factor", "real", "tolerance"):
        cases = [
            ("nan", float("nan"), True),
            ("inf", float("inf"), True),
            ("-inf", -float("inf"), True),
            ("10**400", 10**400, True),
            ("bool", True, True),
            ("1e308", 1e308, False),
            ("5e-324", 5e-324, False),
            ("0", 0.0, kind in ("base", "factor")),
            ("-1", -1.0, kind in ("base", "factor", "tolerance")),
        ]
        return cases + wrong_type
    if kind == "out":
        return [
            ("string", "abc", True),
            ("wrong shape", np.empty((2, 2)), True),
            ("wrong dtype", np.empty(_X.shape, dtype=np.float32), True),
            ("read-only", _readonly(), True),
        ]
    if kind == "callable":
        return [
            ("not callable", 3, True),
            ("None", None, True),
            ("nan map", lambda x: x * np.nan, True),
            ("wrong shape", lambda x: x[:1], True),
        ]
    if kind in ("layout", "dtype", "choice"):
        return [("empty", "", True), ("bogus", "bogus", True), ("None", None, True), ("int", 3, True)]
    if kind == "text":
        return [("int", 3, True), ("bytes", b"x", True)]
    if kind == "flag":
        return [("string", "yes", True), ("int", 2, True), ("None", None, True)]
    if kind == "quantiles":
        return [
            ("reversed", (0.9, 0.1), True),
            ("nan", (float("nan"), 0.5), True),
            ("outside", (-1.0, 2.0), True),
            ("string", "ab", True),
            ("None", None, True),
        ]
    if kind == "config":
        base = dict(VALID["config"])
        return [
            ("empty", {}, True),
            ("None", None, True),
            ("string", "llama", True),
            ("bogus type", {**base, "rope_type": "bogus"}, True),
            ("nan theta", {**base, "rope_theta": float("nan")}, True),
            ("huge head_dim", {**base, "head_dim": HUGE_COUNT}, True),
            ("odd head_dim", {**base, "head_dim": 7}, True),
        ]
    raise KeyError(kind)


def _readonly() -> np.ndarray:
    out = np.empty(_X.shape)
    out.flags.writeable = False
    return out


#: (function, parameter) -> labels of bad values that are valid there, and why
EXEMPT = {
    ("to_bfloat16", "x"): ({"nan", "inf", "-inf", "huge"}, "IEEE rounding: NaN/±inf pass through, overflow gives inf"),
    ("round_to_format", "x"): ({"nan", "inf", "-inf", "huge"}, "IEEE rounding, as to_bfloat16"),
    ("cosine_sum_minimum", "base"): ({"list"}, "base may be an array of bases"),
}


def bad_values(name: str, valid: object, default: object = inspect.Parameter.empty) -> list[tuple[str, object, bool]]:
    """Every bad value of parameter ``name`` (valid value ``valid``): (label, value, must_raise).

    A parameter whose default is None accepts None."""
    cases = _bad_values(name, valid)
    if default is None:
        cases = [c for c in cases if c[1] is not None]
    return cases


def _bad_values(name: str, valid: object) -> list[tuple[str, object, bool]]:
    kind = KINDS[name]
    if kind in ("vectors", "positions", "frequencies", "reals"):
        if np.ndim(valid) == 0 and kind in ("positions", "reals"):  # a scalar where arrays are valid too
            return [c for c in bad_scalar_values("real") if c[0] != "list"]
        if name == "blocks":
            return [
                ("nan block", [np.full((2, 2), np.nan)], True),
                ("empty", [], True),
                ("string", "ab", True),
                ("None", None, True),
            ]
        return bad_array_values(valid, data=kind == "vectors")
    return bad_scalar_values(kind)
