"""Pictures of the frequencies and of rounding (ropemath.plots): object API only, drawn from the package's numbers
(the critical pair, both layouts, every extension method), legends off the plot."""

import subprocess
import sys

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ropemath import frequencies, full_turn_count, wavelengths
from ropemath.core.roundoff import UNIT_ROUNDOFF
from ropemath.plots import (
    FIGURES,
    cos_sin_table_error_figure,
    extension_frequencies_figure,
    layout_pairs_figure,
    position_error_figure,
    spectrum_figure,
    unseen_angles,
    wavelengths_figure,
)


def test_module_does_not_import_pyplot():
    code = "import sys, ropemath.plots.frequencies; print('matplotlib.pyplot' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_not_registered_as_committed_figures():
    assert spectrum_figure not in FIGURES.values() and position_error_figure not in FIGURES.values()


def test_spectrum_figure_draws_the_package_numbers():
    fig = spectrum_figure(d=128, bases=(10000.0, 500000.0), context_length=4096)
    assert isinstance(fig, Figure)
    ax_theta, ax_wave = fig.axes
    theta_lines, wave_lines = ax_theta.get_lines(), ax_wave.get_lines()
    for line, base in zip(theta_lines, (10000.0, 500000.0), strict=True):
        np.testing.assert_array_equal(line.get_ydata(), frequencies(128, base))
    for line, base in zip(wave_lines[:2], (10000.0, 500000.0), strict=True):
        np.testing.assert_array_equal(line.get_ydata(), wavelengths(128, base))
        assert f"{full_turn_count(4096, 128, base)} pairs turn fully" in line.get_label()
    assert list(wave_lines[2].get_ydata()) == [4095, 4095]
    labels = [t.get_text() for t in ax_wave.get_legend().get_texts()]
    assert labels == ["base 10000: 46 pairs turn fully", "base 500000: 32 pairs turn fully", "L - 1 = 4095"]


def test_position_error_figure_drops_zeros_and_draws_reference():
    m = np.array([1.0, -10.0, 100.0, 1e6])
    fig = position_error_figure(m, {"a": [1e-16, 0.0, 1e-14, 1e-10]})
    data, ref = fig.axes[0].get_lines()
    np.testing.assert_array_equal(data.get_xdata(), [1.0, 100.0, 1e6])
    assert data.get_label() == "a (1 exact zeros not shown)"
    np.testing.assert_array_equal(ref.get_ydata(), np.array([1.0, 1e6]) * UNIT_ROUNDOFF)


def test_figure_bad_input():
    with pytest.raises(ValueError, match=r"errors\['a'\] must have the shape of positions"):
        position_error_figure([1.0, 2.0], {"a": [1e-16]})
    with pytest.raises(ValueError, match=r"^positions must be a non-empty 1-D sequence of nonzero positions$"):
        position_error_figure([0.0, 2.0], {"a": [1e-16, 1e-16]})
    with pytest.raises(ValueError, match=r"^bases must be a non-empty sequence"):
        spectrum_figure(bases=())
    with pytest.raises(TypeError, match=r"^bases must be a non-empty sequence of bases, got float$"):
        spectrum_figure(bases=10000.0)
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0, got -1.0$"):
        spectrum_figure(bases=(10000.0, -1.0))
    with pytest.raises(TypeError, match=r"^errors must be a mapping from labels to error arrays, got list$"):
        position_error_figure([1.0, 2.0], [1e-16, 1e-16])
    # a NaN or negative error is refused, not drawn or counted as an "exact zero"
    with pytest.raises(ValueError, match=r"^errors\['a'\] must contain only finite values"):
        position_error_figure([1.0, 2.0], {"a": [np.nan, 1e-16]})
    with pytest.raises(ValueError, match=r"^errors\['a'\] must contain only errors >= 0, got a negative entry$"):
        position_error_figure([1.0, 2.0], {"a": [-1e-16, 1e-16]})
    with pytest.raises(TypeError, match=r"^errors\['a'\] must be a real number or an array of real numbers"):
        position_error_figure([1.0, 2.0], {"a": [1j, 1e-16]})


def test_figures_build():
    assert len(layout_pairs_figure(8).axes) == 1
    fig = wavelengths_figure(128, 10000.0, 4096)
    assert any("critical pair i = 45" in t.get_text() for t in fig.axes[0].texts)
    fig = extension_frequencies_figure()
    labels = [line.get_label() for line in fig.axes[0].lines]
    assert {"PI", "NTK", "YaRN (paper)", "YaRN (reference code)"} <= set(labels)
    assert any("Llama 3.1" in x for x in labels) and any("dynamic NTK" in x for x in labels)
    assert len(cos_sin_table_error_figure(4096).axes[0].lines) >= 2


def test_unseen_angles_legend_does_not_cover_the_axes():
    fig = unseen_angles()
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    legend = fig.legends[0].get_window_extent(renderer)
    for ax in fig.axes:
        assert not legend.overlaps(ax.get_window_extent(renderer))
    assert legend.height < 0.2 * fig.bbox.height
