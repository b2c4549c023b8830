"""Figures of ropemath: each figure is a function returning a matplotlib Figure.

Scope: the registry :data:`FIGURES` of committed figures (name -> function), and
:func:`png_bytes` / :func:`save_png`, which render a PNG byte-for-byte reproducibly.
Topic modules (``ropemath.plots.<topic>``) hold the figure functions; they never compute
mathematics they could import from the rest of the package.  Figures are built with the
object API (``matplotlib.figure.Figure``, never ``pyplot``), so no backend is chosen or
changed: scripts save them with :func:`save_png`, notebooks display them as the last
expression.  ``ropemath figures`` (:mod:`ropemath.plots.cli`) writes ``<name>.png`` for
every entry of :data:`FIGURES`; ``ropemath figures --check`` says which committed files are stale.

To add a figure: write ``ropemath/plots/<topic>.py`` with a function returning a Figure
(no arguments needed), import it below and add one line ``"<name>": function,`` to FIGURES.

References: matplotlib documentation, ``Figure.savefig`` (``metadata={"Software": None}``).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

from matplotlib.figure import Figure

from ropemath.plots.attention_pattern import attention_pattern_figure
from ropemath.plots.compare import RMS_TOLERANCE, figure_difference
from ropemath.plots.decay import bound_vs_scores, decay_across_bases, long_term_decay
from ropemath.plots.frequencies import position_error_figure, spectrum_figure
from ropemath.plots.rotation_pictures import pair_speeds_figure, rotated_pair_figure, sparsity_figure
from ropemath.plots.scaling import unseen_angles
from ropemath.plots.tour_pictures import clock_figure, query_key_clock_figure, score_map_figure

# name -> function returning the Figure; `ropemath figures` writes figures/<name>.png for each.
FIGURES: dict[str, Callable[[], Figure]] = {
    "long_term_decay": long_term_decay,
    "decay_across_bases": decay_across_bases,
    "bound_vs_scores": bound_vs_scores,
    "unseen_angles": unseen_angles,
}

DPI = 100

__all__ = ["DPI", "FIGURES", "RMS_TOLERANCE", "figure_difference", "png_bytes", "save_png"]
__all__ += ["pair_speeds_figure", "position_error_figure", "rotated_pair_figure", "spectrum_figure"]
__all__ += ["attention_pattern_figure", "clock_figure", "query_key_clock_figure", "score_map_figure"]
__all__ += ["sparsity_figure"]  # notebooks


def png_bytes(fig: Figure, *, dpi: int = DPI) -> bytes:
    """Render ``fig`` as PNG bytes without the Software/date metadata (reproducible bytes)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def save_png(fig: Figure, path: str | Path, *, dpi: int = DPI) -> Path:
    """Save ``fig`` as a PNG without the Software/date metadata, so the bytes are reproducible.

    The file is written next to its final name and then renamed, so an interrupted run
    never leaves a truncated PNG behind.
    """
    path = Path(path)
    data = png_bytes(fig, dpi=dpi)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path
