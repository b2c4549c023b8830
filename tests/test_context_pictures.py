"""The intuition pictures build and show what they claim (the critical pair, both layouts, legends off the plot)."""

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from ropemath.plots import (  # noqa: E402
    cos_sin_table_error_figure,
    extension_frequencies_figure,
    layout_pairs_figure,
    unseen_angles,
    wavelengths_figure,
)


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
