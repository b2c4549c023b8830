r"""Figures for notebook 03 (generalise RoPE to d dimensions): the spectrum and rounding vs position.

Scope: two figure functions built with the object API (``matplotlib.figure.Figure``, never
``pyplot``).  They are notebook figures and are *not* registered in
:data:`ropemath.plots.FIGURES`.  All numbers come from :mod:`ropemath.core.spectrum` and
:mod:`ropemath.core.roundoff`; these functions only draw.

* :func:`spectrum_figure`: :math:`\theta_i` and :math:`\lambda_i = 2\pi/\theta_i` against the
  pair index ``i`` (log scale) for one or more bases, with the context length marked;
* :func:`position_error_figure`: identity-check errors against :math:`|m|` (log-log) with the
  reference line :math:`|m|\,2^{-53}`.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (15)-(16); matplotlib's
object-oriented API (``Figure.subplots``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from ropemath.core._validate import check_base, check_d, check_int, check_real_array
from ropemath.core.rotation import frequencies
from ropemath.core.roundoff import UNIT_ROUNDOFF
from ropemath.core.spectrum import full_turn_count, wavelengths

__all__ = ["spectrum_figure", "position_error_figure"]


def spectrum_figure(
    d: int = 128, bases: Sequence[float] = (10000.0, 500000.0), context_length: int = 4096
) -> Figure:
    r"""Return a two-panel figure: :math:`\theta_i` and :math:`\lambda_i` against ``i`` (log y).

    .. math:: \theta_i = \mathrm{base}^{-2i/d}, \qquad \lambda_i = 2\pi\,\mathrm{base}^{2i/d}

    The right panel marks :math:`L - 1` (``context_length - 1``); pairs below the line make at
    least one full turn inside the context (their count, :func:`ropemath.full_turn_count`, is
    in the legend).  Source: RoFormer eq. (15).

    >>> fig = spectrum_figure(d=16, bases=(100.0,), context_length=64)
    >>> [ax.get_yscale() for ax in fig.axes]
    ['log', 'log']
    """
    d = check_d(d)
    L = check_int(context_length, "context_length", minimum=1)
    if isinstance(bases, (str, bytes)) or not isinstance(bases, Sequence):
        raise TypeError(f"bases must be a non-empty sequence of bases, got {type(bases).__name__}")
    if len(bases) == 0:
        raise ValueError("bases must be a non-empty sequence of bases, got an empty one")
    bases = [check_base(base) for base in bases]
    fig = Figure(figsize=(8, 3.4))
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.15, top=0.9, wspace=0.3)
    ax_theta, ax_wave = fig.subplots(1, 2)
    i = np.arange(d // 2)
    for base in bases:
        count = full_turn_count(L, d, base)
        ax_theta.plot(i, frequencies(d, base), ".-", ms=3, label=f"base {base:g}")
        ax_wave.plot(i, wavelengths(d, base), ".-", ms=3, label=f"base {base:g}: {count} pairs turn fully")
    ax_wave.axhline(L - 1, color="gray", ls="--", lw=1, label=f"L - 1 = {L - 1}")
    ax_theta.set(yscale="log", xlabel="pair index i", ylabel=r"$\theta_i$ (rad / position)",
                 title=rf"frequencies, d = {d}")
    ax_wave.set(yscale="log", xlabel="pair index i", ylabel=r"$\lambda_i = 2\pi/\theta_i$ (positions)",
                title="wavelengths (positions per full turn)")
    for ax in (ax_theta, ax_wave):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    return fig


def position_error_figure(positions: npt.ArrayLike, errors: Mapping[str, npt.ArrayLike]) -> Figure:
    r"""Return a log-log plot of each error series against :math:`|m|`, with the line :math:`|m|\,2^{-53}`.

    .. math:: \mathrm{err}(m) \;\text{vs}\; |m|, \qquad \text{reference } |m|\,u,\; u = 2^{-53}

    ``errors`` maps a label to an array aligned with ``positions`` (for example the output of
    :func:`ropemath.error_vs_position`).  Zero errors cannot be drawn on a log axis and are
    left out (the legend says how many).  Source: Higham (2002) §2.2 (unit roundoff).

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
