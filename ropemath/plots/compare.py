"""Compare a regenerated figure with the committed PNG the way matplotlib's own image tests do.

Scope: :func:`figure_difference` returns the RMS difference of two PNG files (pixel values 0-255,
over all channels) through ``matplotlib.testing.compare.compare_images`` — the function behind
matplotlib's ``@image_comparison`` tests and pytest-mpl — and :data:`RMS_TOLERANCE`, the tolerance
``ropemath figures --check`` applies.

Why a tolerance at all: the curves are computed with numpy, whose SIMD kernels (AVX-512, AVX2 or
the baseline, chosen by the CPU) round the last bits of a sine or a sum differently; the
anti-aliased rasteriser turns a sub-pixel shift into a few pixels that differ by 1/255.  Measured:
with numpy's AVX-512 kernels disabled, ``unseen_angles.png`` had 77 pixels differing by 1/255 (RMS
well below 0.05).  A real change — a curve moved, a label changed, a panel missing — gives an RMS
of order 1 or more (``tests/test_figures.py`` shows a one-line change failing).  The tolerance 0.5
sits between the two with a factor of about 10 of headroom on each side.

References: matplotlib documentation, ``matplotlib.testing.compare.compare_images``; pytest-mpl
(``--mpl-default-tolerance``, RMS on 0-255 pixel values).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["RMS_TOLERANCE", "figure_difference"]

RMS_TOLERANCE = 0.5


def figure_difference(expected: str | Path, actual: str | Path) -> float:
    """Return the RMS difference (0-255 scale) between two PNG files; ``inf`` if their sizes differ.

    >>> import tempfile, pathlib
    >>> from matplotlib.figure import Figure
    >>> from ropemath.plots import save_png
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
