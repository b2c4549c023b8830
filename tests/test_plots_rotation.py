"""Pictures of the rotation (ropemath.plots): hands at φ_i + m θ_i, the rotated pair, the dense matrix's pattern,
the pair speeds and the score maps draw what they claim; the data drawn is read back, and a wrong variant differs."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from test_relative_examples import same_token_score_maps, toeplitz_deviation  # noqa: E402

from ropemath import angles, frequencies, rotation_2d, rotation_matrix  # noqa: E402
from ropemath.plots import (  # noqa: E402
    clock_figure,
    pair_speeds_figure,
    query_key_clock_figure,
    rotated_pair_figure,
    score_map_figure,
    sparsity_figure,
)


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


def test_each_hand_starts_at_its_content_angle():
    """With content angles phi_i the hand of pair i is at phi_i + m theta_i (not at m theta_i)."""
    positions, d, phases = (0, 2, 7), 6, np.array([0.3, 2.0, -1.0])
    fig = clock_figure(positions, d, phases=phases)
    theta = frequencies(d)
    for r, m in enumerate(positions):
        for i in range(d // 2):
            hand = fig.axes[r * (d // 2) + i].lines[-1]
            assert np.allclose(hand.get_xdata(), [0.0, np.cos(phases[i] + m * theta[i])])
            assert np.allclose(hand.get_ydata(), [0.0, np.sin(phases[i] + m * theta[i])])
    wrong = fig.axes[d // 2].lines[-1]  # m = 2, pair 0: the hand drawn from 0 instead of phi_0 is not it
    assert not np.allclose(wrong.get_xdata(), [0.0, np.cos(2 * theta[0])])
    with pytest.raises(ValueError, match="phases"):
        clock_figure((0,), 4, phases=[0.0])


def test_query_key_clock_shows_the_angle_between_hands():
    """Hands at phi_q + m theta and phi_k + n theta; the angle between them is (phi_k - phi_q) + (n - m) theta."""
    phase_q, phase_k, theta = 0.4, 1.9, 0.5
    pairs = [(3, 1), (13, 11), (1, 3)]
    fig = query_key_clock_figure(phase_q, phase_k, pairs, theta)
    between = []
    for ax, (m, n) in zip(fig.axes, pairs, strict=True):
        q_hand, k_hand = ax.lines[-2], ax.lines[-1]
        assert np.allclose(q_hand.get_xdata(), [0.0, np.cos(phase_q + m * theta)])
        assert np.allclose(k_hand.get_ydata(), [0.0, np.sin(phase_k + n * theta)])
        angle = np.arctan2(k_hand.get_ydata()[1], k_hand.get_xdata()[1]) - np.arctan2(
            q_hand.get_ydata()[1], q_hand.get_xdata()[1])
        between.append(np.angle(np.exp(1j * angle)))
    expected = [np.angle(np.exp(1j * ((phase_k - phase_q) + (n - m) * theta))) for m, n in pairs]
    assert np.allclose(between, expected)
    assert np.isclose(between[0], between[1]) and not np.isclose(between[0], between[2])  # same n - m, same angle
    with pytest.raises(ValueError, match="position_pairs"):
        query_key_clock_figure(0.0, 0.0, [])


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


def test_rotated_pair_arrows_and_equal_scores():
    fig = rotated_pair_figure(((1, 3), (4, 6), (1, 5)), theta=0.35)
    for ax, (m, n) in zip(fig.axes, ((1, 3), (4, 6), (1, 5)), strict=True):
        q_line, k_line = ax.lines[0], ax.lines[1]
        np.testing.assert_allclose(q_line.get_xydata()[1], rotation_2d(m * 0.35) @ [1.0, 0.0], atol=1e-15)
        np.testing.assert_allclose(k_line.get_xydata()[1], rotation_2d(n * 0.35) @ [0.8, 0.0], atol=1e-15)
    scores = [ax.get_title().split("score = ")[1] for ax in fig.axes]
    assert scores[0] == scores[1] == f"{0.8 * np.cos(0.7):.3f}"  # same n - m, same score
    assert scores[2] != scores[0]  # control: another n - m, another score


def test_pair_speeds_image_is_cos_of_the_angles():
    fig = pair_speeds_figure(d=16, pairs=(0, 7), positions=20)
    image = fig.axes[1].images[0].get_array()
    np.testing.assert_array_equal(image, np.cos(angles(np.arange(21), 16)).T)
    lines = fig.axes[0].lines
    np.testing.assert_allclose(lines[0].get_ydata(), np.mod(np.arange(21) * 1.0, 2 * np.pi))
    assert not np.allclose(lines[1].get_ydata(), lines[0].get_ydata())


def test_sparsity_figure_shows_the_matrix_and_its_two_vectors():
    fig = sparsity_figure(d=8, m=3)
    shown = fig.axes[0].images[0].get_array()
    R = rotation_matrix(3, 8)
    np.testing.assert_array_equal(shown.filled(0.0), np.sign(R))  # every nonzero entry coloured by its sign
    assert int(np.sum(~shown.mask)) == np.count_nonzero(R) == 16
    tiny = np.abs(R) < 0.05  # small sines (here 3 * 0.01 and 3 * 0.001) are nonzero and drawn at full strength
    assert np.any(tiny & (R != 0)) and np.all(np.abs(shown.filled(0.0)[tiny & (R != 0)]) == 1.0)
    assert np.all(shown.mask == (R == 0.0))  # white exactly where R is 0
    cols = fig.axes[1].images[0].get_array()
    np.testing.assert_array_equal(cols[:, 0], np.repeat(np.cos(angles(3, 8)), 2))
    assert "16 of 64" in fig.axes[0].get_title()

