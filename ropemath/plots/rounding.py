r"""Pictures of rounding: the error of the identity checks against the position |m|, and the error of a bfloat16
cos/sin table at every position with float32 against float64 angles.

References: Higham, *Accuracy and Stability of Numerical Algorithms* (2002), §2.2 (unit roundoff); Hugging Face
transformers ``LlamaRotaryEmbedding`` (float32 angles).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
from matplotlib import style
from matplotlib.figure import Figure

from ropemath.core._validate import check_real_array
from ropemath.core.roundoff import UNIT_ROUNDOFF
from ropemath.models.pitfalls import hf_cos_sin_error

__all__ = ["position_error_figure", "cos_sin_table_error_figure"]


def position_error_figure(positions: npt.ArrayLike, errors: Mapping[str, npt.ArrayLike]) -> Figure:
    r"""Return a log-log plot of each error series against :math:`|m|`, with the line :math:`|m|\,2^{-53}`.

    .. math:: \mathrm{err}(m) \;\text{vs}\; |m|, \qquad \text{reference } |m|\,u,\; u = 2^{-53}

    ``errors`` maps a label to errors aligned with ``positions`` (e.g. :func:`ropemath.error_vs_position`); exact
    zeros cannot be drawn on a log axis and are counted in the legend.  Source: Higham (2002) §2.2.

    >>> fig = position_error_figure([1, -10, 100], {"composition": [1e-16, 1e-15, 0.0]})
    >>> fig.axes[0].get_xscale(), len(fig.axes[0].get_lines())
    ('log', 2)
    """
    m = check_real_array(positions, name="positions")
    if m.ndim != 1 or m.size == 0 or np.any(m == 0):
        raise ValueError("positions must be a non-empty 1-D sequence of nonzero positions")
    if not isinstance(errors, Mapping):
        raise TypeError(f"errors must be a mapping from labels to error arrays, got {type(errors).__name__}")
    checked = {}
    for label, values in errors.items():
        err = check_real_array(values, name=f"errors[{label!r}]")
        if err.shape != m.shape:
            raise ValueError(f"errors[{label!r}] must have the shape of positions {m.shape}, got {err.shape}")
        if np.any(err < 0):
            raise ValueError(f"errors[{label!r}] must contain only errors >= 0, got a negative entry")
        checked[label] = err
    fig = Figure(figsize=(7, 3.8))
    fig.subplots_adjust(left=0.11, right=0.97, bottom=0.13, top=0.91)
    ax = fig.subplots()
    size = np.abs(m)
    markers = "os^vDx"
    for j, (label, err) in enumerate(checked.items()):
        keep = err > 0
        zeros = int(np.count_nonzero(~keep))
        note = f" ({zeros} exact zeros not shown)" if zeros else ""
        ax.plot(size[keep], err[keep], markers[j % len(markers)], ms=4, alpha=0.7, label=label + note)
    line = np.array([size.min(), size.max()])
    ax.plot(line, line * UNIT_ROUNDOFF, "k--", lw=1, label=r"$|m|\,2^{-53}$")
    ax.set(xscale="log", yscale="log", xlabel="|m| (query position, both signs)", ylabel="error",
           title="identity-check error against position (float64)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def cos_sin_table_error_figure(length: int = 131072, d: int = 128, base: float = 10000.0, *,
                               theta: npt.ArrayLike | None = None) -> Figure:
    r"""Return the largest error of a bfloat16 cos/sin table per block of 256 positions, float32 vs float64 angles.

    .. math:: e(m) = \max_i \big|\mathrm{bf16}(\cos m\theta_i) - \cos m\theta_i\big| \text{ (and the same for sin)}

    Source: :func:`ropemath.models.pitfalls.hf_cos_sin_error` (``theta``: the float32 :math:`\theta_i` used, as there).

    >>> len(cos_sin_table_error_figure(1024, 8).axes[0].lines)
    3
    """
    m = np.arange(length)
    with style.context("default"):
        fig = Figure(figsize=(7.5, 3.6))
        ax = fig.subplots()
        for dtype, color in (("float32", "C3"), ("float64", "C0")):
            e = hf_cos_sin_error(m, d, base, angle_dtype=dtype, theta=theta if dtype == "float32" else None)
            blocks = e[: (length // 256) * 256].reshape(-1, 256).max(axis=1)  # max per block of 256 positions
            on_line = " (on the 2⁻⁹ line: the cast alone)" if dtype == "float64" else ""
            ax.loglog(m[255 : (length // 256) * 256 : 256] + 1, blocks, color=color, lw=2.4 if on_line else 1.2,
                      label=f"angles in {dtype}, cos/sin cast to bfloat16{on_line}")
        ax.axhline(2.0**-9, color="k", lw=0.8, ls=":")
        ax.text(300, 2.0**-9 * 1.15, "2⁻⁹: half a bfloat16 spacing below 1", fontsize=8)
        in_h = ax.secondary_yaxis("right", functions=(lambda y: y / 2.0**-9, lambda u: u * 2.0**-9))
        in_h.set_yticks([1, 2, 3, 4, 5], labels=["1h", "2h", "3h", "4h", "5h"], minor=False)
        in_h.set_yticks([], minor=True)
        in_h.set_ylabel("in units of h = 2⁻⁹")
        ax.set(xlabel="position m (max over each block of 256)", ylabel="max error of cos, sin",
               title=f"A bfloat16 cos/sin table (d = {d}, base {base:g})")
        ax.legend(fontsize=8, loc="upper left")
        ax.grid(alpha=0.3, which="both")
    return fig
