r"""Small measurements behind notebook 07: which coordinates pair up, error bands, and low-precision angles.

Scope: the pairing of coordinates, error bands of scores, and low-precision angles.

* :func:`layout_pairs` — the pair each coordinate belongs to, in the interleaved or half layout
  (the picture at the top of notebook 07);
* :func:`relative_error` and :func:`distance_band_errors` — Frobenius relative error of a score
  tensor, overall and per band of distances :math:`|m - n|`;
* :func:`bfloat16_distances` — the distance :math:`\mathrm{fl}(n+s+r) - \mathrm{fl}(n+s)` that
  bfloat16 positions still encode, counted over many shifts;
* :func:`rope_float32_angles` — RoPE (interleaved) with the angles formed in float32, as a
  framework does, for contrast with :func:`ropemath.apply_rope` (float64 angles);
* :func:`max_phase_error` — the largest phase error over the pairs, floored for a log plot.

References: RoFormer (Su et al., arXiv:2104.09864 v5) eq. (34); Meta ``llama`` ``precompute_freqs_cis``
(angles in float32, table complex64); GPT-NeoX / Hugging Face ``rotate_half``; gpt-neox PR #1016.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_d, check_layout, check_positions, check_x
from ropemath.core.precision import phase_error, round_to_format
from ropemath.core.rotation import frequencies

__all__ = [
    "layout_pairs",
    "relative_error",
    "distance_band_errors",
    "bfloat16_distances",
    "rope_float32_angles",
    "max_phase_error",
]


def layout_pairs(d: int, layout: str) -> np.ndarray:
    r"""The pair index of every coordinate, shape (d,): which coordinates rotate together.

    .. math:: \text{interleaved: } p(j) = \lfloor j/2 \rfloor, \qquad
        \text{half: } p(j) = j \bmod d/2

    >>> layout_pairs(8, "interleaved").tolist(), layout_pairs(8, "half").tolist()
    ([0, 0, 1, 1, 2, 2, 3, 3], [0, 1, 2, 3, 0, 1, 2, 3])
    """
    d = check_d(d)
    layout = check_layout(layout)
    j = np.arange(d)
    return j // 2 if layout == "interleaved" else j % (d // 2)


def relative_error(a: npt.ArrayLike, ref: npt.ArrayLike) -> float:
    r"""Frobenius relative error of ``a`` against ``ref``.

    .. math:: \varepsilon = \|A - A_{\mathrm{ref}}\|_F / \|A_{\mathrm{ref}}\|_F

    >>> relative_error([3.0, 4.0], [3.0, 0.0])
    1.3333333333333333
    """
    a, ref = np.asarray(a, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    if a.shape != ref.shape:
        raise ValueError(f"a and ref must have one shape, got {a.shape} and {ref.shape}")
    norm = np.linalg.norm(ref)
    if norm == 0:
        raise ValueError("ref must not be zero")
    return float(np.linalg.norm(a - ref) / norm)


def distance_band_errors(scores: npt.ArrayLike, reference: npt.ArrayLike, bands: list[tuple[int, int]]) -> list[float]:
    r"""Relative error of (..., T, T) scores over each band ``lo <= |m - n| <= hi`` of distances.

    .. math:: \varepsilon_{[lo,hi]} = \frac{\| (S - S_{\mathrm{ref}})|_{lo\le|m-n|\le hi}\|_F}
        {\| S_{\mathrm{ref}}|_{lo\le|m-n|\le hi}\|_F}

    >>> S = np.eye(3) + np.ones((3, 3)); R = np.ones((3, 3))
    >>> distance_band_errors(S, R, [(0, 0), (1, 2)])
    [1.0, 0.0]
    """
    S, R = np.asarray(scores, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    if S.shape != R.shape or S.ndim < 2 or S.shape[-1] != S.shape[-2]:
        raise ValueError(f"scores and reference must share a shape (..., T, T), got {S.shape} and {R.shape}")
    T = S.shape[-1]
    distance = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])
    return [
        relative_error(S[..., (distance >= lo) & (distance <= hi)], R[..., (distance >= lo) & (distance <= hi)])
        for lo, hi in bands
    ]


def bfloat16_distances(shifts: npt.ArrayLike, distance: int) -> dict[int, int]:
    r"""Count, over the given shifts :math:`s`, the distance that bfloat16 positions still encode.

    .. math:: \tilde r(s) = \mathrm{fl}_{\mathrm{bf16}}(s + r) - \mathrm{fl}_{\mathrm{bf16}}(s)

    Returns ``{distance seen: number of shifts}``.

    >>> bfloat16_distances([0, 1000, 10_000], 5)
    {0: 1, 4: 1, 5: 1}
    """
    s = check_positions(shifts, "shifts").reshape(-1)
    seen = round_to_format(s + float(distance), "bfloat16") - round_to_format(s, "bfloat16")
    values, counts = np.unique(seen, return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts, strict=True)}


def rope_float32_angles(x: npt.ArrayLike, m: float, base: float = 10000.0) -> np.ndarray:
    r"""RoPE of a float32 vector (interleaved) with the angles formed in float32, as frameworks do.

    .. math:: \tilde\phi_i = \mathrm{fl}_{32}\big(\mathrm{fl}_{32}(m)\,\mathrm{fl}_{32}(\theta_i)\big), \quad
        (a, b) \mapsto (a\cos\tilde\phi_i - b\sin\tilde\phi_i,\ a\sin\tilde\phi_i + b\cos\tilde\phi_i)

    The contrast to :func:`ropemath.apply_rope`, which keeps float64 angles.

    >>> y = rope_float32_angles(np.array([1.0, 0.0], dtype=np.float32), 1.0)
    >>> y.dtype == np.float32, [round(float(v), 4) for v in y]
    (True, [0.5403, 0.8415])
    """
    x32 = check_x(x).astype(np.float32)
    phi = np.float32(check_positions(m)) * frequencies(x32.shape[-1], base).astype(np.float32)
    c, s = np.cos(phi), np.sin(phi)
    out = np.empty_like(x32)
    out[..., 0::2] = x32[..., 0::2] * c - x32[..., 1::2] * s
    out[..., 1::2] = x32[..., 0::2] * s + x32[..., 1::2] * c
    return out


def max_phase_error(
    m: npt.ArrayLike, d: int, base: float = 10000.0, dtype: str = "float32", floor: float = 1e-9
) -> np.ndarray:
    r"""Largest phase error over the pairs at each position, floored at ``floor`` (for a log axis).

    .. math:: E(m) = \max\big(\max_i e_i(m),\ \epsilon_{\mathrm{floor}}\big)

    with :math:`e_i(m)` from :func:`ropemath.phase_error`.

    >>> max_phase_error([257], 128, dtype="bfloat16").round(6).tolist()
    [1.0]
    """
    return np.maximum(phase_error(m, d, base, dtype).max(axis=-1), floor)
