"""The intuition pictures of notebooks 00 and 01 draw what they claim: hands at m θ_i, heat maps of the given data."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from ropemath import frequencies  # noqa: E402
from ropemath.plots.tour_pictures import clock_figure, score_map_figure  # noqa: E402
from ropemath.theory.relative_position import same_token_score_maps, toeplitz_deviation  # noqa: E402


def test_clock_hands_point_at_m_theta():
    positions, d = (0, 1, 3, 100), 8
    fig = clock_figure(positions, d)
    theta = frequencies(d)
    assert len(fig.axes) == len(positions) * d // 2
    for r, m in enumerate(positions):
        for i in range(d // 2):
            hand = fig.axes[r * (d // 2) + i].lines[-1]
            assert np.allclose(hand.get_xdata(), [0.0, np.cos(m * theta[i])])
            assert np.allclose(hand.get_ydata(), [0.0, np.sin(m * theta[i])])
    # Fast to slow: at m = 1 pair 0 has turned further than pair 1, which has turned further than pair 2.
    heights = [fig.axes[d // 2 + i].lines[-1].get_ydata()[1] for i in range(3)]
    assert heights[0] > heights[1] > heights[2] > 0


def test_a_wrong_hand_would_be_seen():
    fig = clock_figure((5,), 4)
    hand = fig.axes[0].lines[-1]
    assert not np.allclose(hand.get_xdata(), [0.0, np.cos(-5.0)]) or not np.allclose(
        hand.get_ydata(), [0.0, np.sin(-5.0)])  # clockwise (the wrong sign) is not what is drawn


def test_score_map_figure_shows_the_data():
    rng = np.random.default_rng(0)
    d, pos = 16, np.arange(32)
    x = rng.standard_normal(d)
    wq, wk = rng.standard_normal((2, d, d)) / np.sqrt(d)
    maps = same_token_score_maps(x, pos, wq, wk)
    fig = score_map_figure(maps, pos)
    rope_img, abs_img = fig.axes[0].images[0], fig.axes[1].images[0]
    assert np.array_equal(rope_img.get_array(), maps["rope"])
    assert np.array_equal(abs_img.get_array(), maps["absolute"])
    assert toeplitz_deviation(rope_img.get_array()) <= 1e-12 * np.max(np.abs(maps["rope"]))
    assert toeplitz_deviation(abs_img.get_array()) > 0.1


def test_bad_positions():
    with pytest.raises(ValueError):
        clock_figure((), 4)
