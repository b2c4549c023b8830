"""Notebooks 05 and 06: the motivation numbers, the intuition pictures, and the fixed figure.

Each check sits next to a deliberately wrong variant that must fail it.
"""

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from ropemath import apply_rope, frequencies, wavelengths  # noqa: E402
from ropemath.attention.softmax import rope_attention_weights, rope_scores  # noqa: E402
from ropemath.plots import (  # noqa: E402
    FIGURES,
    attention_pattern_figure,
    pair_cosines_figure,
    partial_sum_paths_figure,
    similar_key_figure,
)
from ropemath.symbolic import proofs  # noqa: E402
from ropemath.theory.base_bound import cosine_sum  # noqa: E402
from ropemath.theory.decay import decay_bound, partial_sums  # noqa: E402
from ropemath.theory.similar_key import (  # noqa: E402
    normalised_plateau,
    similar_key_expected_score,
    similar_key_scores,
)

# --- the expected score of a similar key (Su's condition, motivated) -------------------------------


def test_similar_key_expected_score_is_twice_the_cosine_sum():
    r = np.array([0.0, 1.0, 37.0, 1000.0, 3500.0])
    assert np.allclose(similar_key_expected_score(r, 128), 2 * cosine_sum(r, 128), rtol=0, atol=1e-10)
    # by a plain loop over the pairs, with a non-uniform power per pair
    power = np.arange(1.0, 5.0)
    theta = frequencies(8)
    loop = sum(power[i] * math.cos(37.0 * theta[i]) for i in range(4))
    assert similar_key_expected_score(37.0, 8, pair_power=power) == pytest.approx(loop, abs=1e-12)


@pytest.mark.parametrize("noise", [0.0, 1.0, 3.0])
def test_similar_key_monte_carlo_agrees_with_the_formula(noise):
    r = np.array([0.0, 5.0, 60.0, 700.0, 3000.0])
    mean, se = similar_key_scores(r, 32, trials=3000, noise=noise, seed=1)
    expected = similar_key_expected_score(r, 32)
    assert np.all(np.abs(mean - expected) <= 4.5 * se)
    # says no: the sine sum (the wrong trigonometric function) is rejected at r = 5 and r = 60
    wrong = 2 * np.sin(r[:, None] * frequencies(32)).sum(axis=1)
    assert np.any(np.abs(mean - wrong) > 10 * se)


def test_similar_key_scores_use_rotated_vectors():
    # one draw, checked by hand with apply_rope: the same seed gives the same vectors
    rng = np.random.default_rng(7)
    q = rng.standard_normal((2, 8))
    k = q + 0.5 * rng.standard_normal((2, 8))
    n = rng.integers(0, 10**4, size=2).astype(float)
    by_hand = np.mean(
        np.sum(
            apply_rope(q, n + 3.0, layout="interleaved", base=1e4) * apply_rope(k, n, layout="interleaved", base=1e4), 1
        )
    )
    mean, _ = similar_key_scores([3.0], 8, trials=2, noise=0.5, seed=7)
    assert mean[0] == pytest.approx(by_hand, rel=1e-12)


def test_base_10000_meets_su_condition_below_1024_but_not_below_2048():
    # what notebook 05 states next to the similar-key picture: the first negative expected score is at r = 1707
    e = similar_key_expected_score(np.arange(0.0, 2048.0), 128)
    assert np.all(e[:1024] >= 0) and np.any(e < 0)
    assert int(np.argmax(e < 0)) == 1707


# --- the plateau against d (note 001, "as the dimension increases") ----------------------------------


def test_normalised_plateau_falls_like_c_over_sqrt_d():
    dims = [32, 64, 128, 256, 512, 1024, 2048, 4096]
    rayleigh = 4 / 3 * math.sqrt(math.pi / 2)  # (1/(d/2)) sum_j sqrt(pi j)/2 over d/4, with sum sqrt j ~ (2/3) J^1.5
    for d in dims:
        assert normalised_plateau(d) * math.sqrt(d) == pytest.approx(rayleigh, rel=0.01)
    # says no: a 1/d law does not fit (its constant would grow with d)
    assert normalised_plateau(4096) * 4096 > 10 * normalised_plateau(32) * 32


@pytest.mark.parametrize("d", [32, 512])
def test_normalised_plateau_matches_the_measured_far_out_bound(d):
    far = np.random.default_rng(4).uniform(1e7, 1e8, 4000)
    measured = decay_bound(far, d).mean() / ((d // 2 + 1) / 2)
    assert measured == pytest.approx(normalised_plateau(d), rel=0.03)


def test_wavelength_of_the_slowest_pair_is_not_one_over_theta():
    # notebook 05 §0: 2 pi / theta_63 = 54,410 positions (d = 128); 1/theta_63 = 8660 is not a wavelength
    lam, inv = wavelengths(128)[-1], 1 / frequencies(128)[-1]
    assert round(lam, -1) == 54410 and round(inv) == 8660
    r = np.arange(0.0, 60000.0)
    first_full_turn = r[np.argmax(r * frequencies(128)[-1] >= 2 * np.pi)]
    assert first_full_turn == math.ceil(lam) and first_full_turn > 6 * inv


# --- Abel summation with d = 4, by hand ------------------------------------------------------------------


def test_abel_summation_d4_by_hand():
    # h_0 = 3, h_1 = 1, h_2 = 0 at r = 0: S_1 = 1, S_2 = 2; -(S_1 (h_1 - h_0) + S_2 (h_2 - h_1)) = 4 = h_0 + h_1
    h, s = [3.0, 1.0, 0.0], [0.0, 1.0, 2.0]
    assert -(s[1] * (h[1] - h[0]) + s[2] * (h[2] - h[1])) == h[0] + h[1] == 4.0
    assert max(abs(h[1] - h[0]), abs(h[2] - h[1])) * (s[1] + s[2]) == 6.0  # the bound of eq. 37
    assert proofs.prove_abel_summation(2).holds  # d/2 = 2, symbolic
    # numerically at r = 7 for random complex h
    rng = np.random.default_rng(0)
    hh = np.append(rng.standard_normal(2) + 1j * rng.standard_normal(2), 0.0)
    sj = np.concatenate([[0.0], partial_sums(7.0, 4)])
    direct = hh[0] * np.exp(7j * frequencies(4)[0]) + hh[1] * np.exp(7j * frequencies(4)[1])
    assert -(sj[1] * (hh[1] - hh[0]) + sj[2] * (hh[2] - hh[1])) == pytest.approx(direct, abs=1e-12)
    assert sj[1] * (hh[1] - hh[0]) + sj[2] * (hh[2] - hh[1]) != pytest.approx(direct, abs=1e-3)  # sign dropped


# --- the pictures draw what they claim ----------------------------------------------------------------------


def test_pair_cosines_figure_draws_cos_r_theta_and_marks_the_context():
    fig = pair_cosines_figure((0, 32, 63), 128, context=4096)
    theta = frequencies(128)
    assert len(fig.axes) == 3
    for ax, i in zip(fig.axes, (0, 32, 63), strict=True):
        line = ax.lines[0]
        assert np.allclose(line.get_ydata(), np.cos(line.get_xdata() * theta[i]))
        marks = [ln.get_xdata()[0] for ln in ax.lines[1:]]
        assert 4096 in marks and any(m == pytest.approx(2 * np.pi / theta[i]) for m in marks)


def test_partial_sum_paths_are_unit_steps_and_the_circle_has_radius_b():
    fig = partial_sum_paths_figure((0.0, 10.0, 100.0), 16)
    for ax, r in zip(fig.axes, (0.0, 10.0, 100.0), strict=True):
        path, circle = ax.lines[0], ax.lines[1]
        z = path.get_xdata() + 1j * path.get_ydata()
        assert z[0] == 0 and np.allclose(np.abs(np.diff(z)), 1.0)
        assert np.allclose(z[1:], partial_sums(r, 16))
        radius = np.hypot(circle.get_xdata(), circle.get_ydata())
        assert np.allclose(radius, float(decay_bound(r, 16)))
        assert np.allclose(radius, np.abs(z[1:]).mean())


def test_similar_key_figure_draws_the_formula():
    fig = similar_key_figure(32, r_max=500.0)
    line = fig.axes[0].lines[0]
    assert np.allclose(line.get_ydata(), similar_key_expected_score(line.get_xdata(), 32))


def test_attention_pattern_figure_shows_scores_and_weights_that_ignore_a_shift():
    fig = attention_pattern_figure(16, 8, seed=3, shift=1000.0)
    images = [ax.images[0].get_array() for ax in fig.axes if ax.images]
    x = 2.0 * np.random.default_rng(3).standard_normal(8)
    tokens, pos = np.tile(x, (16, 1)), np.arange(16.0)
    assert np.allclose(images[0], rope_scores(tokens, tokens, pos, layout="interleaved", base=1e4))
    weights = rope_attention_weights(tokens, tokens, pos, causal=True, layout="interleaved", base=1e4)
    lower = np.tril(np.ones((16, 16), dtype=bool))
    assert np.allclose(np.asarray(images[1])[lower], weights[lower])
    assert len(images) == 2  # a map of the shifted weights would repeat the second one
    assert "no weight moves by more than 1e-9" in fig.axes[1].get_title()  # the shift, stated as a verdict
    shifted = rope_attention_weights(tokens, tokens, pos + 1000.0, causal=True, layout="interleaved", base=1e4)
    assert np.max(np.abs(shifted - weights)[lower]) <= 1e-9
    # constant along diagonals: the score depends on m - n only; an absolute additive encoding would not
    s = np.asarray(images[0])
    assert all(np.allclose(np.diag(s, k), np.diag(s, k)[0]) for k in range(-15, 16))
    absolute = (tokens + np.sin(pos)[:, None]) @ (tokens + np.sin(pos)[:, None]).T
    assert not np.allclose(np.diag(absolute, 1), np.diag(absolute, 1)[0])


def test_bound_vs_scores_left_panel_shows_every_curve():
    # the random and aligned curves must be visible, not flat at 0 on a linear axis of ±34
    left = FIGURES["bound_vs_scores"]().axes[0]
    assert left.get_yscale() == "log"
    bottom, top = left.get_ylim()
    for line in left.get_lines():
        y = np.asarray(line.get_ydata(), dtype=float)
        # visible: the median sits at least a decade above the bottom of the axis and below its top
        assert bottom * 10 < np.median(y) < top, line.get_label()
    # says no: on the old linear axis (±34) the random curve's median spans under 0.2 % of the height
    random_curve = [ln for ln in left.get_lines() if ln.get_label() == "random q, k"][0]
    assert np.median(random_curve.get_ydata()) / 68.0 < 0.002
