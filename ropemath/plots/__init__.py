"""Figures of ropemath: each figure is a function returning a matplotlib Figure.

Scope: the registry :data:`FIGURES` of committed figures (name -> function), and
:func:`save_png`, which writes a PNG byte-for-byte reproducibly.  Topic modules
(``ropemath.plots.<topic>``) hold the figure functions; they never compute mathematics
they could import from the rest of the package.  Figures are built with the object API
(``matplotlib.figure.Figure``, never ``pyplot``), so no backend is chosen or changed:
scripts save them with :func:`save_png`, notebooks display them as the last expression.

References: matplotlib documentation, ``Figure.savefig`` (``metadata={"Software": None}``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from matplotlib.figure import Figure

# name -> function returning the Figure; `ropemath figures` writes figures/<name>.png for each.
FIGURES: dict[str, Callable[[], Figure]] = {}


def save_png(fig: Figure, path: str | Path, *, dpi: int = 100) -> Path:
    """Save ``fig`` as a PNG without the Software/date metadata, so the bytes are reproducible."""
    path = Path(path)
    fig.savefig(path, format="png", dpi=dpi, metadata={"Software": None})
    return path
