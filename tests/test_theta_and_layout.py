"""`layout=` is required wherever pairs are formed (a wrong guess would be silent), and `theta=` gives the
per-pair frequencies directly (exactly one of base/theta) — on apply_rope, RopeCache, the scores and the
attention functions."""

import inspect

import numpy as np
import pytest

import ropemath
from ropemath import (
    RopeCache,
    apply_rope,
    frequencies,
    frequencies_from_config,
    multihead_rope_attention,
    partial_rotary,
    rope_attention_weights,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    rope_scores,
    rope_softmax_attention,
    smallest_numerator,
    to_half,
    weight_sum_deviation,
)

PAIR_FORMING = [
    ropemath.pair_products,
    ropemath.complex_score,
    ropemath.abel_constant,
    ropemath.abel_bound,
    ropemath.abel_identity_error,
    apply_rope,
    RopeCache.apply,
    rope_scores,
    rope_attention_weights,
    rope_softmax_attention,
    rope_linear_attention,
    rope_linear_attention_prefix,
    rope_linear_terms,
    weight_sum_deviation,
    smallest_numerator,
    multihead_rope_attention,
    partial_rotary,
]


@pytest.mark.parametrize("fn", PAIR_FORMING, ids=lambda f: f.__qualname__)
def test_layout_is_a_required_keyword(fn):
    parameter = inspect.signature(fn).parameters["layout"]
    assert parameter.default is inspect.Parameter.empty and parameter.kind is inspect.Parameter.KEYWORD_ONLY


def test_a_missing_layout_is_an_error_not_a_guess():
    with pytest.raises(TypeError, match="layout"):
        apply_rope(np.ones(4), 1, base=1e4)
    with pytest.raises(TypeError, match="layout"):
        rope_scores(np.ones((2, 4)), np.ones((2, 4)), [0, 1], base=1e4)


def test_pair_products_in_the_half_layout_are_the_permuted_interleaved_ones():
    rng = np.random.default_rng(2)
    q, k = rng.standard_normal((2, 16))
    half = ropemath.pair_products(to_half(q), to_half(k), layout="half")
    assert np.array_equal(half, ropemath.pair_products(q, k, layout="interleaved"))
    assert not np.allclose(ropemath.pair_products(to_half(q), to_half(k), layout="interleaved"), half)


def test_the_wrong_layout_is_a_different_rotation():
    # Why the default had to go: HF data (half layout) rotated as interleaved gives a large error, silently.
    x = np.random.default_rng(0).standard_normal((16, 64))
    m = np.arange(16) * 37
    right = apply_rope(to_half(x), m, layout="half", base=1e4)
    wrong = apply_rope(to_half(x), m, layout="interleaved", base=1e4)
    assert np.linalg.norm(wrong - right) / np.linalg.norm(right) > 0.5


def test_theta_equals_base_when_it_is_the_same_frequencies():
    rng = np.random.default_rng(1)
    x, q, k = rng.standard_normal((3, 6, 16))
    pos = np.arange(6) * 11
    for layout in ("interleaved", "half"):
        assert np.array_equal(
            apply_rope(x, pos, layout=layout, theta=frequencies(16, 500000.0)),
            apply_rope(x, pos, layout=layout, base=500000.0),
        )
        assert np.array_equal(
            rope_scores(q, k, pos, layout=layout, theta=frequencies(16)),
            rope_scores(q, k, pos, layout=layout, base=1e4),
        )
    cache = RopeCache(16, max_position=100, theta=frequencies(16, 7.0))
    assert np.array_equal(cache.apply(x, pos, layout="interleaved"), apply_rope(x, pos, layout="interleaved", base=7.0))
    assert "theta=<given>" in repr(cache)


def test_theta_from_a_config_is_used():
    theta = frequencies_from_config({"rope_theta": 10000.0, "head_dim": 8, "rope_type": "linear", "factor": 4.0}).theta
    x = np.array([1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0])
    # position interpolation: position 4 with theta / 4 is position 1 with theta
    assert np.allclose(
        apply_rope(x, 4, layout="interleaved", theta=theta), apply_rope(x, 1, layout="interleaved", base=1e4)
    )
    assert not np.allclose(
        apply_rope(x, 4, layout="interleaved", theta=theta), apply_rope(x, 4, layout="interleaved", base=1e4)
    )


@pytest.mark.parametrize(
    ("kwargs", "exc", "message"),
    [
        ({"base": 1e4, "theta": [1.0, 0.1]}, ValueError, "exactly one of base and theta"),
        ({"theta": [1.0]}, ValueError, r"theta must be 2 frequencies > 0 .*got shape \(1,\)"),
        ({"theta": [1.0, -0.1]}, ValueError, "theta must be 2 frequencies > 0"),
        ({"theta": [1.0, np.nan]}, ValueError, "theta must contain only finite values"),
        ({"theta": ["a", "b"]}, TypeError, "theta must be a real number"),
        ({"layout": "rotate_half"}, ValueError, "layout must be one of"),
    ],
)
def test_bad_theta_and_layout(kwargs, exc, message):
    with pytest.raises(exc, match=message):
        apply_rope(np.ones(4), 1, **{"layout": "interleaved", **kwargs})


def test_public_api_exports():
    assert "frequencies_from_config" in ropemath.__all__ and "resolve_frequencies" in ropemath.core.rotation.__all__


#: Public functions that may keep a default layout, each with its reason.  They build RoFormer's own
#: matrix R^d_{Θ,m} (eq. 15, interleaved by definition) or its symbolic form, or check that matrix against
#: the kernels in the layout asked for; none of them rotates data a caller brings in.  Everything else
#: with a ``layout`` parameter must take it as a required keyword (or a required positional argument).
PAPER_MATRIX_DEFAULTS = {
    "ropemath.core.rotation.rotation_matrix": "the dense R^d_{Θ,m} of eq. 15; layout='half' is its permutation",
    "ropemath.core.checks.elementwise_error": "compares apply_rope with that matrix, both in the layout asked for",
    "ropemath.symbolic.notation.block_rotation": "the symbolic R^d_{Θ,m} of eq. 15",
    "ropemath.symbolic.proofs.prove_elementwise": "the sympy proof of eq. 34 for the symbolic matrix",
}


def _public_callables():
    """(qualified name, callable) of every public function and public-class method in ropemath."""
    import importlib
    import pkgutil

    for info in pkgutil.walk_packages(ropemath.__path__, "ropemath."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if getattr(obj, "__module__", None) != info.name:
                continue
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if inspect.isfunction(member) and not attr.startswith("_"):
                        yield f"{info.name}.{name}.{attr}", member
            elif callable(obj):
                yield f"{info.name}.{name}", obj


def _guessed_layouts():
    """Public callables whose ``layout`` parameter has a default and is not in PAPER_MATRIX_DEFAULTS."""
    found = []
    for name, fn in _public_callables():
        try:
            parameter = inspect.signature(fn).parameters.get("layout")
        except (TypeError, ValueError):
            continue
        if parameter is not None and parameter.default is not inspect.Parameter.empty:
            found.append(name)
    return found


def test_no_public_function_guesses_a_layout():
    """Found by walking the package, not by a hand-kept list (which had missed two functions of
    ropemath.models.pitfalls); the allowed defaults are exactly the paper-matrix ones, all still present."""
    guessed = _guessed_layouts()
    assert sorted(set(guessed) - set(PAPER_MATRIX_DEFAULTS)) == []
    assert sorted(PAPER_MATRIX_DEFAULTS) == sorted(guessed)


def test_the_walk_finds_a_default_layout(monkeypatch):
    """Negative control: a public function given a default layout again is found."""
    from ropemath.models import pitfalls as questions

    def attention_outputs(q, k, v, m, *, rotate_v, layout="interleaved"):  # the old signature
        return None

    attention_outputs.__module__ = questions.__name__
    monkeypatch.setattr(questions, "attention_outputs", attention_outputs)
    assert "ropemath.models.pitfalls.attention_outputs" in _guessed_layouts()
