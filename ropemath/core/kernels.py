r"""The elementwise kernels of RoPE: rotate every pair of ``x`` by a table of complex factors.

Scope: the private kernels behind :func:`ropemath.apply_rope` and :meth:`ropemath.RopeCache.apply`
(both give them the table :math:`e^{i m\theta_i}` of :mod:`ropemath.core.tables`).  How they avoid
temporaries and what they cost is measured by ``ropemath bench``.  For float32 and float64 both
layouts do the *same* arithmetic, one complex product per pair, so
``apply_rope(to_half(x), m, layout="half") == to_half(apply_rope(x, m, layout="interleaved"))`` bit for bit:

* interleaved, last axis contiguous (:func:`_rotate_complex`): adjacent pairs *are* complex numbers
  in memory, so ``x.view(complex64) * e^{i m θ}`` rotates every pair in one pass, without
  temporaries (the Meta Llama formulation).  numpy's complex multiply may fuse a multiply and an
  add, so results can differ from the two-product formula in the last bit (within 1.5 ulp either
  way); measured with numpy 2.4 on x86-64: with AVX2/AVX-512 the real part is ``fma(a, c, -(b*s))``
  and the imaginary part ``fma(a, s, b*c)`` (none of 2^20 random products differs), on the
  baseline (no FMA) the two-product formula.
* half (or a strided last axis) (:func:`_rotate_gathered`): block by block (1 MiB), the pairs are
  copied next to each other into a small buffer that stays in cache, rotated there as complex
  numbers, and copied back.  numpy has no fused ``a*b + c*d``, so a real kernel on the two
  contiguous halves could not round as the fused complex multiply does; the copies keep the
  arithmetic of the interleaved path.  The copies move bits only, by one of two movers that give
  the same bytes (``tests/test_pairs.py`` compares them, with faulty movers as negative controls):

  - compiled (:mod:`ropemath.core._pairs`, ``_pairs.c``, built at install when a C compiler is
    present): one pass in, one pass out, a row of pairs at a time.  Measured on a 2-core AMD EPYC
    VM (3 runs each): ``RopeCache.apply`` half 3.4-3.9 → 1.9-2.4 × the floor.
  - numpy (without the compiled module): numpy copies into or out of every other float one
    number at a time, but casts between contiguous integer arrays with vector instructions: for
    float32 on a little-endian machine a pair (a_k, b_k) in the buffer is also one 64-bit integer,
    and the same buffer viewed from one float further on holds (b_k, a_{k+1}); casting those 64-bit
    views to 32 bits keeps the low halves, a_k and b_k, so the results go out as two contiguous
    casts and b comes in as one (zero-extending into the shifted view, before a fills every other
    float); float64 (and big-endian machines) copy floats.

  Either way NaN payloads and signed zeros are moved unchanged.
* anything else (float16, non-native byte order) (:func:`_rotate_pairs`): the two-product formula
  on strided views, in both layouts.

Finiteness (the input contract) is checked block by block while the block is in cache: one BLAS
dot product of the *input* block with itself, whose being finite proves every rotated value finite
(:func:`_rotate`); only otherwise is the result block looked at.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.2 eq. (34); Meta Llama
``apply_rotary_emb`` (complex view); Hugging Face transformers ``rotate_half``;
:mod:`ropemath.core._pairs` (the compiled mover, ``ropemath/core/_pairs.c``).
"""

from __future__ import annotations

import sys

import numpy as np

from ropemath.core._validate import all_finite

try:  # the optional compiled mover of pair coordinates (bits only; built at install with a C compiler)
    from ropemath.core import _pairs
except ImportError:  # pragma: no cover - numpy copies move the same bytes, more slowly
    _pairs = None

__all__: list[str] = []  # private kernels of ropemath.core.apply and ropemath.core.cache


#: bytes of a block of the kernels (tuned with ``ropemath bench``: with the finiteness check of each
#: block, 1 MiB beat 64-512 KiB on a 2-core AMD EPYC VM with a 512 KB L2 cache; on one with a 1 MiB
#: L2, 512 KiB to 4 MiB were within the noise of a loaded machine, 1 MiB or 2 MiB best for the half
#: layout; smaller blocks cost Python overhead per block, no blocking costs extra trips of full-size
#: temporaries through memory).
_BLOCK_BYTES = 2**20

_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}

def _pair_mover() -> str:
    """Which mover the gathered kernel uses: ``"compiled"`` (:mod:`ropemath.core._pairs`) or ``"numpy"``."""
    return "numpy" if _pairs is None else "compiled"


def _pair_views(a: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """Return views (first, second) of the pair coordinates on the last axis."""
    if layout == "interleaved":
        return a[..., 0::2], a[..., 1::2]
    h = a.shape[-1] // 2
    return a[..., :h], a[..., h:]


def _complex_viewable(a: np.ndarray) -> bool:
    """True if adjacent pairs of ``a``'s last axis can be viewed as complex numbers."""
    return a.dtype in _COMPLEX and a.dtype.isnative and a.strides[-1] == a.itemsize


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

    The compiled mover (:mod:`ropemath.core._pairs`), when it was built, moves both coordinates in
    and out.  Without it, float32 on a little-endian machine moves the second coordinates and the
    results as integers (the module notes); otherwise: the first coordinates by numpy's float →
    complex cast (``a + 0i``, whole complex numbers: faster than a copy into every other float), the
    second into every other float, and both back out of every other float.

    Each block is read completely before it is written, so ``out`` may be ``x`` itself.
    """
    batch, d = x.shape[:-1], x.shape[-1]
    e = np.broadcast_to(e, batch + (d // 2,))
    first, second = _pair_views(x, layout)
    out_first, out_second = _pair_views(out, layout)
    mover = _pairs
    as_bits = mover is None and x.dtype == np.float32 and sys.byteorder == "little"
    if as_bits:
        second, out_first, out_second = (v.view(np.uint32) for v in (second, out_first, out_second))
    shape, finite = None, True
    for sl in _blocks(batch, d, max(1, _BLOCK_BYTES // x.itemsize)):
        a, b, oa, ob = first[sl], second[sl], out_first[sl], out_second[sl]
        if shape != a.shape:
            shape, n = a.shape, a.size
            flat = np.empty(2 * n + 2, dtype=x.dtype)  # pairs side by side: complex-viewable; 2 spare
            pairs = flat[: 2 * n]
            buf = pairs.reshape(shape + (2,))
            z = pairs.view(_COMPLEX[x.dtype]).reshape(shape)
            if as_bits:  # pair k as one 64-bit integer (low half: a_k), and shifted by one float (b_k)
                low = flat[: 2 * n].view(np.uint64).reshape(shape)
                high = flat[1 : 2 * n + 1].view(np.uint64).reshape(shape)
        small = unit and _dot_finite(x[sl])  # also brings the block into cache for the gathers
        if mover is not None:
            mover.gather(a, b, pairs)
        elif as_bits:
            np.copyto(high, b)  # b_k zero-extended: b_k into float 2k+1 (and 0 into 2k+2, written next)
            np.copyto(buf[..., 0], a)
        else:
            np.copyto(z, a)
            np.copyto(buf[..., 1], b)
        np.multiply(z, e[sl], out=z)
        if not small:
            finite = _block_finite(z) and finite
        if mover is not None:
            mover.scatter(pairs, oa, ob)
        elif as_bits:  # truncating 64 → 32-bit casts keep the low half: the real, resp. imaginary, part
            np.copyto(oa, low, casting="unsafe")
            np.copyto(ob, high, casting="unsafe")
        else:
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
