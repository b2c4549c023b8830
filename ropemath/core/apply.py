r"""Fast elementwise application of RoPE and the permutation between pair layouts.

Scope: :func:`apply_rope` (RoFormer eq. 34, O(d) per vector instead of the O(d^2) dense
product of :mod:`ropemath.core.rotation`), in both pair layouts, and :func:`to_half` /
:func:`to_interleaved`, which move coordinates between the layouts.  The private kernels
below (``_rotate_*``) are shared with :class:`ropemath.RopeCache`, which feeds them
precomputed tables.

Layouts (index ``i`` from 0, ``i = 0 .. d/2-1``):

* ``"interleaved"``: pair i is ``(x[2i], x[2i+1])`` — RoFormer, Meta Llama, GPT-J.
* ``"half"``: pair i is ``(x[i], x[i + d/2])`` — GPT-NeoX, Hugging Face ``rotate_half``.

How the kernels avoid temporaries (measured by ``ropemath bench``).  For float32 and float64
both layouts do the *same* arithmetic, one complex product per pair, so
``apply_rope(to_half(x), m, layout="half") == to_half(apply_rope(x, m, layout="interleaved"))`` bit for bit:

* interleaved, last axis contiguous: adjacent pairs *are* complex numbers in memory, so
  ``x.view(complex64) * e^{i m θ}`` rotates every pair in one pass, without temporaries (the
  Meta Llama formulation).  numpy's complex multiply may fuse a multiply and an add, so
  results can differ from the two-product formula in the last bit (within 1.5 ulp either way).
* half (or a strided last axis): block by block (256 KiB), the pairs are copied next to each
  other into a small buffer that stays in cache, rotated there as complex numbers, and copied
  back.  numpy has no fused ``a*b + c*d``; this is cheaper than two full-size products and a
  sum (about 3× instead of 5× a plain copy) and keeps the arithmetic of the interleaved path.
* anything else (float16, non-native byte order): the two-product formula on strided views,
  in both layouts.

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
from ropemath.core.rotation import half_permutation, pair_frequencies

__all__ = ["apply_rope", "to_half", "to_interleaved"]

#: bytes of a block of the kernels (tuned with ``ropemath bench``: with the finiteness check of each
#: block, 1 MiB beat 64-512 KiB on a 2-core AMD EPYC VM with a 512 KB L2 cache; smaller blocks cost
#: Python overhead per block, no blocking costs extra trips of full-size temporaries through memory).
_BLOCK_BYTES = 2**20

_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}


def _pair_views(a: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """Return views (first, second) of the pair coordinates on the last axis."""
    if layout == "interleaved":
        return a[..., 0::2], a[..., 1::2]
    h = a.shape[-1] // 2
    return a[..., :h], a[..., h:]


def _complex_viewable(a: np.ndarray) -> bool:
    """True if adjacent pairs of ``a``'s last axis can be viewed as complex numbers."""
    return a.dtype in _COMPLEX and a.dtype.isnative and a.strides[-1] == a.itemsize


def _complex_table(cos: np.ndarray, sin: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Return ``cos + i sin`` as the complex dtype matching real ``dtype`` (float32/64)."""
    e = np.empty(cos.shape, dtype=_COMPLEX[np.dtype(dtype)])
    e.real = cos
    e.imag = sin
    return e


def _block_finite(block: np.ndarray) -> bool:
    """True if a contiguous complex block (just written, still in cache) holds only finite numbers.

    The BLAS dot product of its real entries with themselves is non-finite if any entry is NaN or
    ±inf; when it overflows for large finite entries, :func:`all_finite` looks closer.  Called
    inside ``np.errstate(over="ignore", invalid="ignore")`` (no context manager per block)."""
    flat = block.reshape(-1).view(block.real.dtype)
    return bool(np.isfinite(np.dot(flat, flat))) or all_finite(block)


def _rotate_complex(x: np.ndarray, e: np.ndarray, out: np.ndarray) -> bool:
    """Interleaved kernel: ``out = x ⊙ e`` on complex views (both complex-viewable), block by block;
    ``e`` broadcasts to ``x.shape[:-1] + (d/2,)``.  Returns whether every result is finite (each
    block is summed while it is in cache, which costs far less than a second pass over ``out``)."""
    ctype = _COMPLEX[x.dtype]
    xv, ov = x.view(ctype), out.view(ctype)
    e = np.broadcast_to(e, xv.shape)
    finite = True
    for sl in _blocks(x.shape[:-1], x.shape[-1], max(1, _BLOCK_BYTES // x.itemsize)):
        np.multiply(xv[sl], e[sl], out=ov[sl])
        finite = _block_finite(ov[sl]) and finite
    return finite


def _blocks(batch: tuple[int, ...], d: int, block: int):
    """Yield index tuples that cut an array of shape ``batch + (d,)`` into blocks of at most
    ``block`` elements (or one vector, if d > block), slicing the innermost batch axis needed."""
    inner, k = d, len(batch)
    while k > 0 and inner * batch[k - 1] <= block:
        inner *= batch[k - 1]
        k -= 1
    if k == 0:
        yield (Ellipsis,)
        return
    axis, step = k - 1, max(1, block // inner)
    for index in np.ndindex(batch[:axis]):
        for start in range(0, batch[axis], step):
            yield index + (slice(start, start + step),)


def _rotate_gathered(x: np.ndarray, e: np.ndarray, out: np.ndarray, layout: str) -> bool:
    """Either layout, any strides: per block, gather the pairs into a contiguous complex buffer,
    multiply by ``e`` there, scatter back.  Same arithmetic as :func:`_rotate_complex`; returns
    whether every result is finite.

    Each block is read completely before it is written, so ``out`` may be ``x`` itself.
    """
    batch, d = x.shape[:-1], x.shape[-1]
    e = np.broadcast_to(e, batch + (d // 2,))
    first, second = _pair_views(x, layout)
    out_first, out_second = _pair_views(out, layout)
    buf, finite = None, True
    for sl in _blocks(batch, d, max(1, _BLOCK_BYTES // x.itemsize)):
        a, b, oa, ob = first[sl], second[sl], out_first[sl], out_second[sl]
        if buf is None or buf.shape[:-1] != a.shape:
            buf = np.empty(a.shape + (2,), dtype=x.dtype)  # pairs side by side: complex-viewable
            z = buf.view(_COMPLEX[x.dtype])[..., 0]
        np.copyto(buf[..., 0], a)
        np.copyto(buf[..., 1], b)
        np.multiply(z, e[sl], out=z)
        finite = _block_finite(z) and finite
        np.copyto(oa, buf[..., 0])
        np.copyto(ob, buf[..., 1])
    return finite


def _rotate(x: np.ndarray, e: np.ndarray, layout: str, out: np.ndarray) -> bool:
    """Rotate float32/float64 ``x`` by the complex table ``e`` into ``out`` (the complex kernels).

    A lone pair (``x.size == 2``: d = 2, one vector) goes through the gathered kernel in both
    layouts: numpy multiplies a single complex number out of place by another route than in
    place, and the last bit can differ (measured: 175 of 400 random cases), which would break
    the bit-for-bit agreement of the layouts.  Returns whether every result is finite."""
    if layout == "interleaved" and x.size > 2 and _complex_viewable(x) and _complex_viewable(out):
        return _rotate_complex(x, e, out)
    return _rotate_gathered(x, e, out, layout)


def _rotate_pairs(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str, out: np.ndarray) -> bool:
    """General kernel (any float dtype, any strides): the two-product formula of eq. (34)."""
    cos = cos.astype(x.dtype, copy=False)
    sin = sin.astype(x.dtype, copy=False)
    a, b = _pair_views(x, layout)
    first = a * cos
    first -= b * sin
    second = a * sin
    second += b * cos
    out_a, out_b = _pair_views(out, layout)
    out_a[...] = first
    out_b[...] = second
    return all_finite(first) and all_finite(second)


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
    angles are computed in float64; the result has ``x``'s shape and floating dtype.  For repeated
    calls with integer positions, :class:`ropemath.RopeCache` skips the cos/sin evaluation.

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
    out = np.empty(x.shape, dtype=x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        phi = m[..., None] * theta  # float64 angles (overflow → NaN cos/sin, reported below)
        cos, sin = np.cos(phi), np.sin(phi)
        if x.dtype in _COMPLEX:
            finite = _rotate(x, _complex_table(cos, sin, x.dtype), layout, out)
        else:
            finite = _rotate_pairs(x, cos, sin, layout, out)
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
