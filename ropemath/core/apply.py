r"""Fast elementwise application of RoPE and the permutation between pair layouts.

Scope: :func:`apply_rope` (RoFormer eq. 34, O(d) per vector instead of the O(d^2) dense
product of :mod:`ropemath.core.rotation`), in both pair layouts, and :func:`to_half` /
:func:`to_interleaved`, which move coordinates between the layouts.  The arithmetic is in
:mod:`ropemath.core.tables` (the factors :math:`e^{i m\theta_i}`) and :mod:`ropemath.core.kernels`
(one complex product per pair, block by block, with the finiteness check); the result array comes
from :mod:`ropemath.core.outputs`.  :class:`ropemath.RopeCache` shares all three.

Layouts (index ``i`` from 0, ``i = 0 .. d/2-1``):

* ``"interleaved"``: pair i is ``(x[2i], x[2i+1])`` — RoFormer, Meta Llama, GPT-J.
* ``"half"``: pair i is ``(x[i], x[i + d/2])`` — GPT-NeoX, Hugging Face ``rotate_half``.

Both layouts do the same arithmetic, so
``apply_rope(to_half(x), m, layout="half") == to_half(apply_rope(x, m, layout="interleaved"))`` bit for bit
(float32 and float64; :mod:`ropemath.core.kernels` says how).  For float32 vectors at integer
positions the table is built from two small ones, :math:`e^{i (64 m_{hi})\theta_i} e^{i m_{lo}\theta_i}`
(:mod:`ropemath.core.tables`, with its error bound); float64 and float16 use the direct
:math:`\cos(m\theta_i) + i \sin(m\theta_i)`.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.2 eq. (34);
Hugging Face transformers ``rotate_half``; Meta Llama ``apply_rotary_emb``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    all_finite,
    check_broadcast,
    check_layout,
    check_positions,
    check_x,
    finite_result,
    not_finite_error,
)
from ropemath.core.kernels import _COMPLEX, _rotate, _rotate_pairs
from ropemath.core.outputs import new_output
from ropemath.core.rotation import half_permutation, pair_frequencies
from ropemath.core.tables import _unit_table

__all__ = ["apply_rope", "to_half", "to_interleaved"]


# not @finite_result: the kernels check each block while it is in cache (no second pass)
def apply_rope(
    x: npt.ArrayLike,
    m: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
) -> np.ndarray:
    r"""Rotate each pair of ``x`` (shape (..., d)) by the angle :math:`m\theta_i`.

    .. math::
        R^d_{\Theta,m} x = x \otimes (\cos m\theta_0, \cos m\theta_0, \dots)
        + (-x_1, x_0, -x_3, x_2, \dots) \otimes (\sin m\theta_0, \sin m\theta_0, \dots)

    (interleaved layout; RoFormer eq. 34 with 0-based indices).  For pair ``(a, b)``:
    :math:`a' = a\cos m\theta_i - b\sin m\theta_i`, :math:`b' = a\sin m\theta_i + b\cos m\theta_i`,
    i.e. :math:`a' + i b' = (a + i b)\, e^{i m\theta_i}`.

    ``m`` is a scalar or an array broadcastable to ``x.shape[:-1]``.  ``layout`` is required
    (``"interleaved"``: RoFormer, Meta, GPT-J; ``"half"``: GPT-NeoX, Hugging Face ``rotate_half``): a
    wrong guess would be silent.  The frequencies are :math:`\mathrm{base}^{-2i/d}` (``base``, default
    10000) or given per pair as ``theta`` (e.g. from :func:`ropemath.frequencies_from_config`).  The
    angles are computed in float64; the result has ``x``'s shape and floating dtype.  For float32
    ``x`` at integer positions the rotations :math:`e^{i m\theta_i}` are formed in float64 as
    :math:`e^{i (64 m_{hi})\theta_i} e^{i m_{lo}\theta_i}` (m = 64 m_hi + m_lo; a few float64
    roundings of the angle from the direct value, see the module notes) and rounded once to
    float32.  For repeated calls with integer positions, :class:`ropemath.RopeCache` skips the
    cos/sin evaluation and gives the same bits.

    >>> x = np.array([1.0, 0.0, 1.0, 0.0])
    >>> apply_rope(x, 1, layout="interleaved").round(4)
    array([0.5403, 0.8415, 1.    , 0.01  ])
    >>> apply_rope(to_half(x), 1, base=1e4, layout="half").round(4)
    array([0.5403, 1.    , 0.8415, 0.01  ])
    """
    x = check_x(x, finite=False)  # the kernels check the result; then a bad x is named
    m = check_positions(m)
    layout = check_layout(layout)
    theta = pair_frequencies(x.shape[-1], base, theta)
    check_broadcast(m, x.shape[:-1])
    out = new_output(x.shape, x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):  # overflowing angles → NaN, reported below
        if x.dtype in _COMPLEX:
            e = _unit_table(m, theta, _COMPLEX[x.dtype])
            finite = _rotate(x, e, layout, out, unit=all_finite(e))
        else:
            e = _unit_table(m, theta, np.dtype(np.complex128))
            finite = _rotate_pairs(x, e.real, e.imag, layout, out)
    if not finite:  # checked block by block inside the kernels; now say which input caused it
        raise not_finite_error("apply_rope", {"x": x, "m": m, "base": base, "theta": theta})
    return out


@finite_result
def to_half(x: npt.ArrayLike) -> np.ndarray:
    r"""Reorder the last axis from the interleaved layout to the half layout.

    .. math:: x^{\mathrm{half}} = x^{\mathrm{inter}}[P], \quad P = [0, 2, \dots, d-2, 1, 3, \dots, d-1]

    Source: Hugging Face's Llama weight conversion (per-head row permutation).

    >>> to_half(np.arange(6.0)).tolist()
    [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]
    """
    x = check_x(x)
    return x[..., half_permutation(x.shape[-1])]


@finite_result
def to_interleaved(x: npt.ArrayLike) -> np.ndarray:
    r"""Reorder the last axis from the half layout to the interleaved layout (inverse of :func:`to_half`).

    .. math:: x^{\mathrm{inter}}[P] = x^{\mathrm{half}}

    >>> to_interleaved(np.array([0.0, 2.0, 4.0, 1.0, 3.0, 5.0])).tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    """
    x = check_x(x)
    inverse = np.argsort(half_permutation(x.shape[-1]))
    return x[..., inverse]
