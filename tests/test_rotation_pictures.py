"""Pictures of the rotation and the pair speeds (ropemath.plots): the data drawn is read back and compared with
the package's own numbers; a wrong variant differs."""

import numpy as np

from ropemath import angles, rotation_2d, rotation_matrix
from ropemath.plots import pair_speeds_figure, rotated_pair_figure, sparsity_figure


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

