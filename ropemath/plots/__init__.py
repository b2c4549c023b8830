"""Figures of ropemath: each figure is a function returning a matplotlib ``Figure`` built with the object API
(never ``pyplot``, so no backend is chosen), grouped by what it draws: ``rotation`` (clocks, pairs, the dense
matrix), ``frequencies`` (θ_i, wavelengths, context extension), ``decay``, ``attention`` and ``rounding``.

:data:`FIGURES` registers the committed figures that ``ropemath figures`` writes to ``figures/``; :func:`save_png`
writes reproducible bytes and :func:`figure_difference` compares two PNGs as matplotlib's own image tests do.

References: matplotlib documentation, ``Figure.savefig`` (``metadata={"Software": None}``) and
``matplotlib.testing.compare.compare_images``; pytest-mpl (RMS tolerance on 0-255 pixel values).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

from matplotlib.figure import Figure

from ropemath.plots import attention as _attention
from ropemath.plots import decay as _decay
from ropemath.plots import frequencies as _frequencies
from ropemath.plots import rotation as _rotation
from ropemath.plots import rounding as _rounding
from ropemath.plots.attention import *  # noqa: F403
from ropemath.plots.decay import *  # noqa: F403
from ropemath.plots.frequencies import *  # noqa: F403
from ropemath.plots.rotation import *  # noqa: F403
from ropemath.plots.rounding import *  # noqa: F403

# name -> function returning the Figure; `ropemath figures` writes figures/<name>.png for each.
FIGURES: dict[str, Callable[[], Figure]] = {
    "long_term_decay": _decay.long_term_decay,
    "decay_across_bases": _decay.decay_across_bases,
    "bound_vs_scores": _decay.bound_vs_scores,
    "unseen_angles": _frequencies.unseen_angles,
}

DPI = 100
# CPUs round the last bits of numpy's sines and sums differently; anti-aliasing turns that into a few pixels that
# differ by 1/255 (RMS below 0.05), while a moved curve, a changed label or a missing panel gives an RMS of 1 or more.
RMS_TOLERANCE = 0.5

__all__ = ["DPI", "FIGURES", "RMS_TOLERANCE", "figure_difference", "png_bytes", "save_png", *_rotation.__all__,
           *_frequencies.__all__, *_decay.__all__, *_attention.__all__, *_rounding.__all__]


def png_bytes(fig: Figure, *, dpi: int = DPI) -> bytes:
    """Render ``fig`` as PNG bytes without the Software/date metadata (reproducible bytes)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def save_png(fig: Figure, path: str | Path, *, dpi: int = DPI) -> Path:
    """Save ``fig`` as a PNG without metadata, written beside ``path`` and renamed (never a truncated file)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(png_bytes(fig, dpi=dpi))
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def figure_difference(expected: str | Path, actual: str | Path) -> float:
    """Return the RMS difference (0-255 scale) between two PNG files; ``inf`` if their sizes differ.

    >>> import tempfile, pathlib
    >>> fig = Figure(figsize=(2, 1)); _ = fig.subplots().plot([0, 1], [0, 1])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     a = save_png(fig, pathlib.Path(tmp) / "a.png"); b = save_png(fig, pathlib.Path(tmp) / "b.png")
    ...     figure_difference(a, b)
    0.0
    """
    from matplotlib.testing.compare import ImageComparisonFailure, compare_images

    try:
        result = compare_images(str(expected), str(actual), tol=0, in_decorator=True)
    except ImageComparisonFailure:  # raised when the two images differ in size
        return float("inf")
    return 0.0 if result is None else float(result["rms"])
