r"""Fast elementwise application of RoPE and the permutation between pair layouts.

Scope: :func:`apply_rope` (RoFormer eq. 34, O(d) per vector instead of the O(d^2) dense
product of :mod:`ropemath.rotation`), in both pair layouts, and :func:`to_half` /
:func:`to_interleaved`, which move coordinates between the layouts.

Layouts (index ``i`` from 0, ``i = 0 .. d/2-1``):

* ``"interleaved"``: pair i is ``(x[2i], x[2i+1])`` — RoFormer, Meta Llama, GPT-J.
* ``"half"``: pair i is ``(x[i], x[i + d/2])`` — GPT-NeoX, Hugging Face ``rotate_half``.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.2 eq. (34);
Hugging Face transformers ``rotate_half``; Meta Llama ``apply_rotary_emb``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._validate import check_base, check_broadcast, check_layout, check_positions, check_x
from .rotation import frequencies, half_permutation

__all__ = ["apply_rope", "to_half", "to_interleaved"]


def _pair_views(a: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """Return views (first, second) of the pair coordinates on the last axis."""
    if layout == "interleaved":
        return a[..., 0::2], a[..., 1::2]
    h = a.shape[-1] // 2
    return a[..., :h], a[..., h:]


def apply_rope(
    x: npt.ArrayLike,
    m: npt.ArrayLike,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
) -> np.ndarray:
    r"""Rotate each pair of ``x`` (shape (..., d)) by the angle :math:`m\theta_i`.

    .. math::
        R^d_{\Theta,m} x = x \otimes (\cos m\theta_0, \cos m\theta_0, \dots)
        + (-x_1, x_0, -x_3, x_2, \dots) \otimes (\sin m\theta_0, \sin m\theta_0, \dots)

    (interleaved layout; RoFormer eq. 34 with 0-based indices).  For pair ``(a, b)``:
    :math:`a' = a\cos m\theta_i - b\sin m\theta_i`, :math:`b' = a\sin m\theta_i + b\cos m\theta_i`.

    ``m`` is a scalar or an array broadcastable to ``x.shape[:-1]``.  The angles are
    computed in float64; the result has ``x``'s shape and floating dtype.

    >>> x = np.array([1.0, 0.0, 1.0, 0.0])
    >>> apply_rope(x, 1, base=1e4).round(4)
    array([0.5403, 0.8415, 1.    , 0.01  ])
    >>> apply_rope(to_half(x), 1, base=1e4, layout="half").round(4)
    array([0.5403, 1.    , 0.8415, 0.01  ])
    """
    x = check_x(x)
    m = check_positions(m)
    base = check_base(base)
    layout = check_layout(layout)
    check_broadcast(m, x.shape[:-1])
    phi = m[..., None] * frequencies(x.shape[-1], base)  # float64 angles
    cos = np.cos(phi).astype(x.dtype, copy=False)
    sin = np.sin(phi).astype(x.dtype, copy=False)
    a, b = _pair_views(x, layout)
    out = np.empty(x.shape, dtype=x.dtype)
    out_a, out_b = _pair_views(out, layout)
    np.subtract(a * cos, b * sin, out=out_a)
    np.add(a * sin, b * cos, out=out_b)
    return out


def to_half(x: npt.ArrayLike) -> np.ndarray:
    r"""Reorder the last axis from the interleaved layout to the half layout.

    .. math:: x^{\mathrm{half}} = x^{\mathrm{inter}}[P], \quad P = [0, 2, \dots, d-2, 1, 3, \dots, d-1]

    Source: Hugging Face's Llama weight conversion (per-head row permutation).

    >>> to_half(np.arange(6.0)).tolist()
    [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]
    """
    x = check_x(x)
    return x[..., half_permutation(x.shape[-1])]


def to_interleaved(x: npt.ArrayLike) -> np.ndarray:
    r"""Reorder the last axis from the half layout to the interleaved layout (inverse of :func:`to_half`).

    .. math:: x^{\mathrm{inter}}[P] = x^{\mathrm{half}}

    >>> to_interleaved(np.array([0.0, 2.0, 4.0, 1.0, 3.0, 5.0])).tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    """
    x = check_x(x)
    inverse = np.argsort(half_permutation(x.shape[-1]))
    return x[..., inverse]
