r"""Fast elementwise application of RoPE and the permutation between pair layouts.

Scope: :func:`apply_rope` (RoFormer eq. 34, O(d) per vector instead of the O(d^2) dense
product of :mod:`ropemath.rotation`), in both pair layouts, and :func:`to_half` /
:func:`to_interleaved`, which move coordinates between the layouts.  The private kernels
below (``_rotate_*``) are shared with :class:`ropemath.RopeCache`, which feeds them
precomputed tables.

Layouts (index ``i`` from 0, ``i = 0 .. d/2-1``):

* ``"interleaved"``: pair i is ``(x[2i], x[2i+1])`` — RoFormer, Meta Llama, GPT-J.
* ``"half"``: pair i is ``(x[i], x[i + d/2])`` — GPT-NeoX, Hugging Face ``rotate_half``.

How the kernels avoid temporaries (measured by ``ropemath bench``):

* interleaved, float32/float64, last axis contiguous: adjacent pairs *are* complex numbers
  in memory, so ``x.view(complex64) * e^{i m θ}`` rotates every pair in one pass (the Meta
  Llama formulation).  numpy's complex multiply may fuse a multiply-add, so results can
  differ from the two-product formula in the last bit (they are not less accurate).
* half: ``x`` is viewed as ``(..., 2, d/2)``; ``out = x ⊗ [cos, cos] + x_swapped ⊗ [-sin, sin]``
  is computed block by block (256 KiB per array) with one reused temporary, so the
  intermediate products stay in cache.  Bit-identical to the two-product formula.
* anything else (float16, a strided last axis): the two-product formula on strided views.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.2 eq. (34);
Hugging Face transformers ``rotate_half``; Meta Llama ``apply_rotary_emb``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._validate import check_base, check_broadcast, check_layout, check_positions, check_x
from .rotation import frequencies, half_permutation

__all__ = ["apply_rope", "to_half", "to_interleaved"]

#: bytes per array per block of the half-layout kernel (tuned with ``ropemath bench`` on a 2 MB
#: L2 cache: 256 KiB keeps the block of x, out and the temporary in L2; smaller blocks cost
#: Python overhead per block, unblocked temporaries cost two extra trips through memory).
_BLOCK_BYTES = 2**18

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


def _half_tables(cos: np.ndarray, sin: np.ndarray, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """Return ``([cos, cos], [-sin, sin])`` stacked on a new axis -2, in ``dtype``."""
    c = cos.astype(dtype, copy=False)
    s = sin.astype(dtype, copy=False)
    return np.stack([c, c], axis=-2), np.stack([-s, s], axis=-2)


def _rotate_complex(x: np.ndarray, e: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Interleaved kernel: ``out = x ⊙ e`` on complex views (``out`` complex-viewable)."""
    ctype = _COMPLEX[x.dtype]
    if not _complex_viewable(x):
        np.copyto(out, x)  # one pass to make the pairs adjacent, then rotate in place
        x = out
    np.multiply(x.view(ctype), e, out=out.view(ctype))
    return out


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


def _split_last(a: np.ndarray, *, writeable: bool) -> np.ndarray:
    """View ``a`` (shape (..., d)) as (..., 2, d/2) without copying, whatever its strides."""
    step = a.strides[-1]
    shape = a.shape[:-1] + (2, a.shape[-1] // 2)
    return np.lib.stride_tricks.as_strided(
        a, shape, a.strides[:-1] + (step * (a.shape[-1] // 2), step), writeable=writeable
    )


def _rotate_half(x: np.ndarray, c2: np.ndarray, s2: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Half kernel: ``out = x ⊗ c2 + swap(x) ⊗ s2`` on ``(..., 2, d/2)`` views, block by block.

    ``c2 = [cos, cos]``, ``s2 = [-sin, sin]`` (see :func:`_half_tables`), broadcastable to
    ``x.shape[:-1] + (2, d/2)``.  Each block reads its part of ``x`` completely before
    writing its part of ``out``, so ``out`` may be ``x`` itself.
    """
    batch, d = x.shape[:-1], x.shape[-1]
    shape4 = batch + (2, d // 2)
    x4, o4 = _split_last(x, writeable=False), _split_last(out, writeable=True)
    xs = x4[..., ::-1, :]  # the partner of each coordinate: (b, a) for pair (a, b)
    c2, s2 = np.broadcast_to(c2, shape4), np.broadcast_to(s2, shape4)
    tmp = None
    for sl in _blocks(batch, d, max(1, _BLOCK_BYTES // x.itemsize)):
        o = o4[sl]
        if tmp is None or tmp.shape != o.shape:
            tmp = np.empty(o.shape, dtype=o.dtype)
        np.multiply(xs[sl], s2[sl], out=tmp)
        np.multiply(x4[sl], c2[sl], out=o)
        np.add(o, tmp, out=o)
    return out


def _rotate_pairs(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str, out: np.ndarray) -> np.ndarray:
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
    return out


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
    :math:`a' = a\cos m\theta_i - b\sin m\theta_i`, :math:`b' = a\sin m\theta_i + b\cos m\theta_i`,
    i.e. :math:`a' + i b' = (a + i b)\, e^{i m\theta_i}`.

    ``m`` is a scalar or an array broadcastable to ``x.shape[:-1]``.  The angles are
    computed in float64; the result has ``x``'s shape and floating dtype.  For repeated
    calls with integer positions, :class:`ropemath.RopeCache` skips the cos/sin evaluation.

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
    cos, sin = np.cos(phi), np.sin(phi)
    out = np.empty(x.shape, dtype=x.dtype)
    if layout == "interleaved" and x.dtype in _COMPLEX:
        return _rotate_complex(x, _complex_table(cos, sin, x.dtype), out)
    if layout == "half":
        return _rotate_half(x, *_half_tables(cos, sin, x.dtype), out)
    return _rotate_pairs(x, cos, sin, layout, out)


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
