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
  results can differ from the two-product formula in the last bit (within 1.5 ulp either way);
  measured with numpy 2.4 on x86-64: with AVX2/AVX-512 the real part is ``fma(a, c, -(b*s))``
  and the imaginary part ``fma(a, s, b*c)`` (none of 2^20 random products differs), on the
  baseline (no FMA) the two-product formula.
* half (or a strided last axis): block by block (1 MiB), the pairs are copied next to each
  other into a small buffer that stays in cache, rotated there as complex numbers, and copied
  back.  numpy has no fused ``a*b + c*d``, so a real kernel on the two contiguous halves could
  not round as the fused complex multiply does (and measured slower: six products and sums on
  rows of d/2 numbers each, against four copies); the copies keep the arithmetic of the
  interleaved path.
* anything else (float16, non-native byte order): the two-product formula on strided views,
  in both layouts.

The table ``e^{i m θ}`` (:func:`_unit_table`): for float32 vectors at integer positions it is
built from two small tables, ``e^{i (64 m_hi) θ} · e^{i m_lo θ}`` with ``m = 64 m_hi + m_lo``,
multiplied in float64 and rounded once, so uncached :func:`apply_rope` evaluates cos/sin for
about 2·sqrt(P) rows instead of P (error bound in :func:`_factorised`); float64 and float16 keep
the direct ``cos(m θ) + i sin(m θ)``.  Finiteness (the input contract) is checked block by block
while the block is in cache: one BLAS dot product of the *input* block with itself, whose being
finite proves every rotated value finite (:func:`_rotate`); only otherwise is the result block
looked at.  A new output array is faulted in before the kernel fills it (:func:`_empty`).

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
#: block, 1 MiB beat 64-512 KiB on a 2-core AMD EPYC VM with a 512 KB L2 cache; on one with a 1 MiB
#: L2, 512 KiB to 4 MiB were within the noise of a loaded machine, 1 MiB or 2 MiB best for the half
#: layout; smaller blocks cost Python overhead per block, no blocking costs extra trips of full-size
#: temporaries through memory).
_BLOCK_BYTES = 2**20

_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}


#: bytes between the writes with which :func:`_empty` faults in a new array (a transparent huge page)
_FAULT_STRIDE = 2**21


def _empty(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """``np.empty(shape, dtype)`` with its memory faulted in up front: one byte written every 2 MiB.

    numpy asks Linux for transparent huge pages for arrays of 4 MiB or more; the kernel zeroes each
    2 MiB page on its first write.  Taking those faults in one go before a kernel fills the array
    was faster than letting them interrupt its blocks (2-core AMD EPYC VM under load, four
    alternating runs of the ``ropemath bench`` table each way, medians: ``RopeCache.apply`` into a
    new array 2.7 → 2.4 × the floor interleaved, 5.1 → 4.7 half; a bare multiply into a new 64 MiB
    array 2.3 → 1.8-2.1).  The zeroing itself stays.  With 4 KiB pages it touches 1 page in 512."""
    out = np.empty(shape, dtype=dtype)
    if out.nbytes >= 2 * _FAULT_STRIDE:
        out.reshape(-1).view(np.uint8)[::_FAULT_STRIDE] = 0
    return out


def _pair_views(a: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """Return views (first, second) of the pair coordinates on the last axis."""
    if layout == "interleaved":
        return a[..., 0::2], a[..., 1::2]
    h = a.shape[-1] // 2
    return a[..., :h], a[..., h:]


def _complex_viewable(a: np.ndarray) -> bool:
    """True if adjacent pairs of ``a``'s last axis can be viewed as complex numbers."""
    return a.dtype in _COMPLEX and a.dtype.isnative and a.strides[-1] == a.itemsize


def _unit_rows(angles: np.ndarray) -> np.ndarray:
    """``cos + i sin`` of contiguous float64 ``angles`` (any shape), as complex128."""
    e = np.empty(angles.shape, dtype=np.complex128)
    e.real = np.cos(angles)
    e.imag = np.sin(angles)
    return e


def _unit_table(m: np.ndarray, theta: np.ndarray, ctype: np.dtype) -> np.ndarray:
    r"""The rotation factors :math:`e^{i m\theta_i}` as complex ``ctype``, shape ``m.shape + (d/2,)``,
    for float64 positions ``m`` and frequencies ``theta``.

    complex128 (float64 and float16 vectors): ``cos(fl(m θ_i)) + i sin(fl(m θ_i))`` directly.

    complex64 (float32 vectors): integer positions are split (:func:`_factorised`),

    .. math::
        e^{i m\theta_i} = e^{i (K m_{hi})\theta_i}\, e^{i m_{lo}\theta_i},
        \quad m = K m_{hi} + m_{lo},\ 0 \le m_{lo} < K = 64,

    the product formed in float64 and rounded once to complex64; other positions are evaluated
    directly.  For P consecutive positions that is about (P/K + K)·d/2 cos/sin evaluations instead of
    P·d/2 (at P = 4096: 128 rows instead of 4096), the cost that dominated uncached
    :func:`apply_rope`.  The split's float64 table differs from the direct one by a few float64
    rounding errors of the angle (bound in :func:`_factorised`): invisible after rounding to
    float32 except for an entry whose float64 value lies that close to a float32 rounding boundary
    (measured: none of 524,288 at 4096 positions, d = 128; 335 of 16.8 million at 131,072 positions,
    base 5·10^5).  float64 results keep the direct table, where those bits would reach the result.

    Each entry depends only on its own ``m``, ``θ_i`` and ``ctype`` (not on the other positions
    passed), so :func:`apply_rope` and :class:`ropemath.RopeCache` agree bit for bit.
    """
    h = theta.shape[-1]
    if ctype != np.complex64:
        return _unit_rows(m[..., None] * theta)
    flat = m.reshape(-1)
    integral = np.floor(flat) == flat
    if integral.all():
        return _factorised(flat, theta, ctype).reshape(m.shape + (h,))
    out = np.empty((flat.size, h), dtype=ctype)  # fractional positions: cos/sin of the angles directly
    rest = ~integral
    out[rest] = _unit_rows(flat[rest][:, None] * theta)
    if integral.any():
        out[integral] = _factorised(flat[integral], theta, ctype)
    return out.reshape(m.shape + (h,))


#: K of the position split of :func:`_unit_table` (a power of two; sqrt(4096), the bench's positions)
_SPLIT = 64


def _factorised(v: np.ndarray, theta: np.ndarray, ctype: np.dtype) -> np.ndarray:
    r""":math:`e^{i v\theta_i}` as complex ``ctype``, shape (v.size, d/2), for 1-D integral float64 ``v``.

    .. math:: T_{v,i} = e^{i\,\mathrm{fl}(K v_{hi}\theta_i)} \cdot e^{i\,\mathrm{fl}(v_{lo}\theta_i)},
        \quad v = K v_{hi} + v_{lo},\ 0 \le v_{lo} < K

    The split is exact in float64 (K = 64 is a power of two); both factors are cos/sin of float64
    angles and their product is numpy's complex128 multiply, rounded once to ``ctype``.

    Error of the complex128 table (ε = 2^-52; θ_i the float64 frequencies; exact reference
    :math:`e^{i v\theta_i}`): each factor's angle is off by at most half an ulp, as the direct angle
    ``fl(v θ_i)`` is, and cos/sin and the product add a few ε:

    .. math:: |T_{v,i} - e^{i v\theta_i}| \le 4\varepsilon + \varepsilon\,(|v| + K)\,\theta_i

    The direct ``cos(fl(v θ_i)) + i sin(fl(v θ_i))`` satisfies the same bound (both are dominated by
    rounding the angle), so the two tables differ by at most twice it.  Measured (d = 128, θ from
    base 10^4 and from base 5·10^5 scaled by 1/8; positions 0..4095, -4096..-1, 10^6.., 2^40..;
    sampled entries): at most 0.9 of the bound (the direct table: 0.5), and at most 1.1 ε from
    cos/sin and the product alone, against the exact product of the two rounded-angle factors.
    ``tests/test_kernels_speedpath.py`` checks these three bounds against mpmath, with wrong
    splits (K ± 1 for the high part) as the negative controls.

    Each entry depends only on (v, θ_i): P >= 2K positions over a dense range slice (consecutive) or
    gather rows of one table built by broadcasting the two factors; others multiply their own two
    factors (same angles, same elementwise cos/sin and complex multiply; compared byte for byte for
    d = 2 to 130 in ``tests/test_kernels_speedpath.py``, and measured equal with numpy limited to
    its AVX2 and to its baseline kernels).
    """
    h, n, k = theta.shape[-1], v.size, _SPLIT
    hi = np.floor(v / k)  # exact: k is a power of two
    lo = v - hi * k  # exact, 0 <= lo < k
    if n >= 2 * k:
        h0, h1 = hi.min(), hi.max()
        rows = int(h1 - h0 + 1) * k
        if rows <= 2 * n:  # dense: one table over whole blocks of k positions, by broadcasting
            H = _unit_rows(((h0 + np.arange(rows // k)) * k)[:, None] * theta)
            L = _unit_rows(np.arange(k, dtype=np.float64)[:, None] * theta)
            table = np.empty((rows // k, k, h), dtype=ctype)
            np.multiply(H[:, None, :], L, out=table)
            table = table.reshape(rows, h)
            start = int(v[0] - h0 * k)
            if v[-1] - v[0] == n - 1 and np.all(np.diff(v) == 1):  # consecutive: a view
                return table[start : start + n]
            return np.take(table, (v - h0 * k).astype(np.intp), axis=0)
    out = np.empty((n, h), dtype=ctype)
    step = max(1, 2**16 // h)  # sparse or few positions: each its own two factors, in chunks
    for start in range(0, n, step):
        sl = slice(start, start + step)
        np.multiply(_unit_rows((hi[sl] * k)[:, None] * theta), _unit_rows(lo[sl, None] * theta), out=out[sl])
    return out


def _dot_finite(block: np.ndarray) -> bool:
    """True if the BLAS dot product of a C-contiguous block's real entries with themselves is
    finite: then every entry is finite and below sqrt(largest float) in magnitude.  False for a
    non-contiguous block (not looked at) and for one holding NaN, ±inf or entries that large.
    Called inside ``np.errstate(over="ignore", invalid="ignore")`` (no context manager per block)."""
    if not block.flags.c_contiguous:
        return False
    flat = block.reshape(-1).view(block.real.dtype)
    return bool(np.isfinite(np.dot(flat, flat)))


def _block_finite(block: np.ndarray) -> bool:
    """True if a complex block (just written, still in cache) holds only finite numbers: the dot
    product of :func:`_dot_finite`, or when that overflows for large finite entries (or the block
    is not contiguous), :func:`all_finite` looks closer."""
    return _dot_finite(block) or all_finite(block)


def _rotate_complex(x: np.ndarray, e: np.ndarray, out: np.ndarray, unit: bool) -> bool:
    """Interleaved kernel: ``out = x ⊙ e`` on complex views (both complex-viewable), block by block;
    ``e`` broadcasts to ``x.shape[:-1] + (d/2,)``.  Returns whether every result is finite; see
    :func:`_rotate` for ``unit`` and how each block is checked while it is in cache."""
    ctype = _COMPLEX[x.dtype]
    xv, ov = x.view(ctype), out.view(ctype)
    e = np.broadcast_to(e, xv.shape)
    finite = True
    for sl in _blocks(x.shape[:-1], x.shape[-1], max(1, _BLOCK_BYTES // x.itemsize)):
        small = unit and _dot_finite(xv[sl])  # read before out is written: out may be x
        np.multiply(xv[sl], e[sl], out=ov[sl])
        if not small:
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


def _rotate_gathered(x: np.ndarray, e: np.ndarray, out: np.ndarray, layout: str, unit: bool) -> bool:
    """Either layout, any strides: per block, gather the pairs into a contiguous complex buffer,
    multiply by ``e`` there, scatter back.  Same arithmetic as :func:`_rotate_complex`; returns
    whether every result is finite (see :func:`_rotate`).

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
        small = unit and _dot_finite(x[sl])  # also brings the block into cache for the gathers
        np.copyto(z, a)  # a + 0i: numpy's float → complex cast writes whole complex numbers, faster
        np.copyto(buf[..., 1], b)  # than a copy into every other float (measured: 7% of the kernel)
        np.multiply(z, e[sl], out=z)
        if not small:
            finite = _block_finite(z) and finite
        np.copyto(oa, buf[..., 0])
        np.copyto(ob, buf[..., 1])
    return finite


def _rotate(x: np.ndarray, e: np.ndarray, layout: str, out: np.ndarray, unit: bool) -> bool:
    """Rotate float32/float64 ``x`` by the complex table ``e`` into ``out`` (the complex kernels).

    Returns whether every result is finite, checked block by block while the block is in cache.
    ``unit``: the caller knows every entry of ``e`` is finite with modulus at most 1 + 2ε (a table
    of rotations, :func:`_unit_table`).  Then an input block whose sum of squares is finite (one
    BLAS dot product, which also brings it into cache) has every |x_i| < sqrt(largest float), so
    each rotated coordinate, at most |a| + |b| in magnitude, is finite: the block's result need not
    be looked at.  Otherwise (or for a non-contiguous block) the result block is checked.

    A lone pair (``x.size == 2``: d = 2, one vector) goes through the gathered kernel in both
    layouts: numpy multiplies a single complex number out of place by another route than in
    place, and the last bit can differ (measured: 175 of 400 random cases), which would break
    the bit-for-bit agreement of the layouts."""
    if layout == "interleaved" and x.size > 2 and _complex_viewable(x) and _complex_viewable(out):
        return _rotate_complex(x, e, out, unit)
    return _rotate_gathered(x, e, out, layout, unit)


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
    out = _empty(x.shape, x.dtype)
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
