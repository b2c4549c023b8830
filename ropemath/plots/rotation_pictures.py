r"""Intuition pictures for notebooks 02, 03 and 04, and the stored benchmark drawn for notebook 04.

Scope: figure functions built with the object API (``matplotlib.figure.Figure``, never ``pyplot``);
notebook figures, not registered in :data:`ropemath.plots.FIGURES`.  They only draw; every number
comes from :mod:`ropemath.core` or from a stored file.

* :func:`rotated_pair_figure` (notebook 02): a 2D query and key rotated by :math:`m\theta` and
  :math:`n\theta`, with the angle between them, :math:`(n-m)\theta`, marked — the score
  depends only on it;
* :func:`pair_speeds_figure` (notebook 03): the angle :math:`m\theta_i` (modulo a turn) against m
  for fast, middle and slow pairs, and :math:`\cos m\theta_i` of every pair as an image;
* :func:`sparsity_figure` (notebook 04): the nonzeros of the dense :math:`R^d_{\Theta,m}` next to
  the two length-d vectors of the elementwise form;
* :func:`bench_figure` (notebook 04): the ratios to the memory floor from a stored run of
  ``ropemath bench --json`` (:func:`load_bench`), with the machine it was measured on.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, eq. (12)-(13), (15), (34);
matplotlib's object-oriented API (``Figure.subplots``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from ropemath.core._validate import check_base, check_d, check_int, check_real
from ropemath.core.rotation import angles, frequencies, rotation_2d, rotation_matrix

__all__ = ["rotated_pair_figure", "pair_speeds_figure", "sparsity_figure", "load_bench", "bench_figure"]

#: where the stored benchmark runs live (the repository's figures/ folder)
FIGURES_DIR = Path(__file__).resolve().parents[2] / "figures"


def _arc(ax, start: float, stop: float, radius: float, color: str, label: str | None = None) -> None:
    t = np.linspace(start, stop, 50)
    ax.plot(radius * np.cos(t), radius * np.sin(t), color=color, lw=1.5, label=label)


def rotated_pair_figure(
    pairs: Sequence[tuple[int, int]] = ((1, 3), (4, 6), (1, 5)), theta: float = 0.35
) -> Figure:
    r"""Return one panel per (m, n): q = (1, 0) rotated by mθ, k = (0.8, 0) by nθ, the angle between marked.

    .. math:: (R_{m\theta} q)^\top (R_{n\theta} k) = |q|\,|k| \cos\big((n - m)\theta\big)
              \quad (q \parallel k)

    q and k start on the same axis, so the angle between the rotated vectors is exactly
    :math:`(n - m)\theta` and the score printed in each title depends on it alone.  The arrow data
    are ``rotation_2d(m θ) @ q`` and ``rotation_2d(n θ) @ k`` (the test reads them back).
    Source: RoFormer eq. (12)-(13).

    >>> fig = rotated_pair_figure(((1, 2),), theta=0.5)
    >>> fig.axes[0].get_title().splitlines()[0]
    'm = 1, n = 2'
    """
    theta = check_real(theta, "theta")
    q, k = np.array([1.0, 0.0]), np.array([0.8, 0.0])
    fig = Figure(figsize=(3.3 * len(pairs), 3.6))
    axes = np.atleast_1d(fig.subplots(1, len(pairs)))
    for ax, (m, n) in zip(axes, pairs, strict=True):
        m, n = check_int(m, "m"), check_int(n, "n")
        qm, kn = rotation_2d(m * theta) @ q, rotation_2d(n * theta) @ k
        ax.annotate("", xy=qm, xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": "tab:blue", "lw": 2})
        ax.annotate("", xy=kn, xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": "tab:red", "lw": 2})
        ax.plot([0, qm[0]], [0, qm[1]], color="tab:blue", lw=2, label=r"$R_{m\theta}\,q$")
        ax.plot([0, kn[0]], [0, kn[1]], color="tab:red", lw=2, label=r"$R_{n\theta}\,k$")
        _arc(ax, 0.0, m * theta, 0.25, "tab:blue")
        _arc(ax, 0.0, n * theta, 0.35, "tab:red")
        _arc(ax, m * theta, n * theta, 0.6, "black", label=r"$(n-m)\theta$")
        ax.plot(np.cos(np.linspace(0, 2 * np.pi, 181)), np.sin(np.linspace(0, 2 * np.pi, 181)), color="0.85", lw=0.8)
        ax.axhline(0, color="0.8", lw=0.6)
        ax.set(xlim=(-1.15, 1.15), ylim=(-1.15, 1.15), aspect="equal", xticks=[], yticks=[])
        ax.set_title(f"m = {m}, n = {n}\n(n - m)θ = {(n - m) * theta:.2f} rad, score = {qm @ kn:.3f}", fontsize=9)
        ax.legend(loc="lower left", fontsize=7, frameon=False)
    fig.suptitle("Rotate q by mθ and k by nθ: only the angle between them, (n − m)θ, is left", fontsize=10)
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.02, top=0.8, wspace=0.08)
    return fig


def pair_speeds_figure(
    d: int = 128, base: float = 10000.0, pairs: Sequence[int] = (0, 16, 32, 63), positions: int = 100
) -> Figure:
    r"""Return the angle :math:`m\theta_i \bmod 2\pi` against m for some pairs, and :math:`\cos m\theta_i` of all.

    .. math:: \varphi_i(m) = m\,\theta_i \bmod 2\pi, \qquad \theta_i = \text{base}^{-2i/d}

    Left: one line per pair in ``pairs`` over :math:`m = 0..` ``positions``; right: the image of
    :math:`\cos m\theta_i` with pairs as rows and positions as columns.  The image data is
    ``cos(angles(m, d, base)).T`` (the test reads it back).  Source: RoFormer eq. (15).

    >>> fig = pair_speeds_figure(d=8, pairs=(0, 3), positions=10)
    >>> len(fig.axes[0].lines)
    2
    """
    d, base = check_d(d), check_base(base)
    positions = check_int(positions, "positions", minimum=1, maximum=100_000)
    m = np.arange(positions + 1)
    phi, theta = angles(m, d, base), frequencies(d, base)
    fig = Figure(figsize=(10.0, 3.6))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1.0]})
    for i in pairs:
        i = check_int(i, "pair", minimum=0, maximum=d // 2 - 1)
        left.plot(m, np.mod(phi[:, i], 2 * np.pi), lw=1.5, label=f"pair {i}: θ = {theta[i]:.3g}")
    left.set(xlabel="position m", ylabel="angle m θ_i (mod 2π) [rad]", ylim=(0, 2 * np.pi + 0.3),
             title=f"each pair turns at its own speed (d = {d})")
    left.legend(fontsize=8, loc="upper right")
    image = right.imshow(np.cos(phi).T, aspect="auto", cmap="RdBu_r", origin="upper", interpolation="nearest",
                         extent=(-0.5, positions + 0.5, d // 2 - 0.5, -0.5), vmin=-1, vmax=1)
    right.set(xlabel="position m", ylabel="pair i (fast at the top)", title="cos(m θ_i) for all d/2 pairs")
    fig.colorbar(image, ax=right, shrink=0.85)
    fig.subplots_adjust(left=0.07, right=0.97, bottom=0.15, top=0.88, wspace=0.25)
    return fig


def sparsity_figure(d: int = 16, m: int = 1, base: float = 10000.0) -> Figure:
    r"""Return the nonzero pattern of the dense :math:`R^d_{\Theta,m}` next to the two vectors of eq. (34).

    .. math:: R^d_{\Theta,m} x = x \otimes \cos + \mathrm{rot}(x) \otimes \sin
              \quad (2d \text{ nonzeros of } d^2;\ 2d \text{ numbers})

    Left: the :math:`d \times d` matrix drawn by the sign of each entry — red positive, blue
    negative, however small (a sine of 0.001 is as dark as a cosine near 1) — and white exactly where
    an entry is 0; right: the columns :math:`(\cos m\theta_0, \cos m\theta_0, \cos m\theta_1, \dots)`
    and the same with sin, all the elementwise form stores.  Image data: ``sign(rotation_matrix(m, d))``
    masked where the entry is 0, and the two columns (the test reads them back).  Source: RoFormer
    eq. (15), (34).

    >>> fig = sparsity_figure(d=4)
    >>> fig.axes[0].images[0].get_array().shape
    (4, 4)
    """
    d = check_d(d, maximum=512)
    m, base = check_int(m, "m"), check_base(base)
    R = rotation_matrix(m, d, base)
    phi = np.repeat(angles(m, d, base), 2)
    fig = Figure(figsize=(7.6, 4.0))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [d, 5]})
    signs = np.ma.masked_where(R == 0.0, np.sign(R))
    left.imshow(signs, cmap="RdBu_r", vmin=-1.5, vmax=1.5, interpolation="nearest")
    left.set(title=f"dense R (d = {d}): {np.count_nonzero(R)} of {d * d} entries nonzero\n"
                   "red/blue: sign of a nonzero entry; white: exactly 0",
             xlabel="column", ylabel="row")
    right.imshow(np.stack([np.cos(phi), np.sin(phi)], axis=1), cmap="RdBu_r", vmin=-1, vmax=1,
                 interpolation="nearest", aspect="auto")
    right.set(title=f"elementwise:\n2 × {d} numbers", xticks=[0, 1], xticklabels=["cos", "sin"], yticks=[])
    fig.suptitle(f"R at m = {m}: the matrix is almost all zeros; eq. (34) keeps only what is not", fontsize=10)
    fig.subplots_adjust(left=0.08, right=0.97, bottom=0.1, top=0.78, wspace=0.15)
    return fig


def load_bench(name: str = "bench_amd_epyc_2core.json") -> dict:
    r"""Return a stored ``ropemath bench --json`` run from the repository's ``figures/`` folder.

    .. math:: \text{ratio} = t_{\text{variant}} / t_{\text{floor}}

    The file holds the bench output plus a ``machine`` entry (CPU model, cores, flags, the command).
    Source: project convention (README, "Performance").

    >>> sorted(load_bench())[:3]
    ['decay', 'dense_positions', 'goals']
    """
    if not isinstance(name, str) or "/" in name or not name.endswith(".json"):
        raise ValueError(f"name must be a .json file name inside figures/, got {name!r}")
    return json.loads((FIGURES_DIR / name).read_text(encoding="utf-8"))


def bench_figure(run: dict, dtype: str = "float32") -> Figure:
    r"""Return the stored benchmark as bars (time / floor per variant and layout) and time per vector against d.

    .. math:: \text{ratio} = t / t_{\text{floor}}, \qquad t(d) \propto d^{\,p}

    Left: one bar per (layout, variant) of ``run["table"]`` for ``dtype``, log scale, labelled with its
    ratio; right: ``run["scaling"]`` (elementwise and dense, seconds per vector) on log-log axes with
    the fitted exponents.  The title names ``run["machine"]``.  Source: README, "Performance".

    >>> fig = bench_figure(load_bench())
    >>> len(fig.axes)
    2
    """
    rows = [r for r in run["table"] if r["dtype"] == dtype]
    if not rows:
        raise ValueError(f"dtype must be one of the dtypes in the run, got {dtype!r}")
    fig = Figure(figsize=(11.0, 4.6))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.5, 1.0]})
    labels = [f"{r['variant']}" + ("" if r["layout"] == "-" else f" [{r['layout']}]") for r in rows]
    ratios = [r["ratio"] for r in rows]
    colors = ["0.6" if r["layout"] == "-" else "tab:red" if "dense" in r["variant"] else
              "tab:blue" if r["layout"] == "interleaved" else "tab:orange" for r in rows]
    y = np.arange(len(rows))
    left.barh(y, ratios, color=colors)
    for yi, ratio in zip(y, ratios, strict=True):
        left.text(ratio * 1.05, yi, f"{ratio:.1f}×", va="center", fontsize=7)
    left.set(yticks=y, xscale="log", xlabel="time / floor (one streaming pass over x)", xlim=(0.8, 4 * max(ratios)))
    left.set_yticklabels(labels, fontsize=7)
    left.invert_yaxis()
    shape = "×".join(str(s) for s in run["shape"])
    left.set_title(f"x = ({shape}), {dtype}: grey floor, blue interleaved, orange half, red dense", fontsize=8)
    scaling = run["scaling"]["rows"]
    d = [r["d"] for r in scaling]
    exps = run["scaling"]["exponents"]
    for key, style, color in (("elementwise", "o-", "tab:blue"), ("dense", "s-", "tab:red")):
        right.loglog(d, [1e6 * r[key] for r in scaling], style, color=color, label=f"{key} (∝ d^{exps[key]:.2f})")
    right.set(xlabel="d", ylabel="time per vector [µs]", title=f"fitted on d ≥ {run['scaling']['fit_from']}")
    right.legend(fontsize=8)
    machine = run.get("machine", {})
    load = run["machine_before"]["load_average"][0], run["machine_after"]["load_average"][0]
    name, numpy_version = machine.get("name", "an unnamed machine"), run["machine_before"]["numpy"]
    fig.suptitle(f"measured once on {name}, numpy {numpy_version}, load average {load[0]:.1f} → {load[1]:.1f}",
                 fontsize=9)
    fig.subplots_adjust(left=0.22, right=0.98, bottom=0.12, top=0.88, wspace=0.25)
    return fig
