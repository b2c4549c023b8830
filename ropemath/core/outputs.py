r"""The arrays the RoPE kernels return: new arrays, faulted in up front, and a pool of released ones.

Scope: :func:`new_output` (the array :func:`ropemath.apply_rope` and :meth:`ropemath.RopeCache.apply`
return when no ``out=`` is given), :func:`set_output_pool` and :func:`pooled_bytes`.  Nothing here
computes; it decides where a result is written.

Why a pool.  numpy takes an array of 4 MiB or more from the operating system (``mmap``), with
transparent huge pages where Linux allows them, and the kernel zeroes each page on its first write.
For the memory-bound rotation that zeroing is most of the cost of a new array: a bare multiply into a
new 64 MiB float32 array took 2.0-2.6 times as long as the same multiply into an existing one
(``ropemath bench``, row "floor (new array)", 2-core AMD EPYC VM).  Real models call RoPE on arrays
of the same shape again and again (every layer, every step), and drop each result soon.  So a
released result's memory is handed out again, already faulted in, instead of new pages.

When is a buffer free?  Only the pool refers to it.  A returned array is a view of a pooled buffer
(``result.base``); every further numpy view, slice, reshape or ``memoryview`` of the result refers to
that buffer too (numpy keeps the owner of the memory as ``base``), so as long as any of them lives,
the buffer's reference count is above the pool's own and it is not handed out.  That count is
exact on CPython with the global interpreter lock; on other interpreters, or CPython built
without the GIL, the pool is off and every result is a new array.  (Raw addresses taken from
``__array_interface__`` or ``ctypes`` are not references, as with any numpy array that is freed.)

Cost in memory: at most ``max_bytes`` (default 256 MiB) of released results stay allocated;
``set_output_pool(0)`` empties the pool and turns it off.  Arrays under 4 MiB are never pooled
(malloc reuses small blocks anyway).  A result from the pool is an ordinary writeable C-contiguous
array; unlike ``np.empty``'s it does not own its memory (``result.flags.owndata`` is False), so
``result.resize`` refuses (use ``np.resize``).

References: numpy, *Memory management in NumPy* (NEP 49 allocator hooks; hugepage advice for
arrays of 4 MiB or more); Linux ``madvise(MADV_HUGEPAGE)``.
"""

from __future__ import annotations

import sys
import threading

import numpy as np

from ropemath.core._validate import check_int

__all__ = ["new_output", "pooled_bytes", "set_output_pool"]

#: bytes between the writes with which :func:`new_output` faults in a new array (a transparent huge page)
_FAULT_STRIDE = 2**21

#: arrays of at least this many bytes go through the pool (numpy's hugepage threshold)
_POOL_MIN_BYTES = 2**22

_LOCK = threading.Lock()
_POOL: list[np.ndarray] = []  # flat uint8 buffers, most recently handed out last
_MAX_BYTES = [2**28]  # in a list: set_output_pool rebinds nothing


def _refs(buffer: object) -> int:
    """The reference count of ``buffer`` as seen from here (the argument counts as one)."""
    return sys.getrefcount(buffer)


def _pool_works() -> bool:
    """True on CPython with the GIL, where reference counts say exactly who holds a buffer."""
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    return sys.implementation.name == "cpython" and gil


_PROBE = [np.empty(1, dtype=np.uint8)]
#: the count of a buffer referred to by the pool's list alone, measured the way :func:`new_output` looks
_FREE_COUNT = _refs(_PROBE[0])
del _PROBE
_ENABLED = _pool_works()


def _faulted(nbytes: int) -> np.ndarray:
    """A new flat uint8 buffer of ``nbytes`` with its pages faulted in: one byte written every 2 MiB.

    Taking the page faults in one go before a kernel fills the array was faster than letting them
    interrupt its blocks (2-core AMD EPYC VM under load, medians of four alternating runs of the
    ``ropemath bench`` table: ``RopeCache.apply`` into a new array 2.7 → 2.4 × the floor
    interleaved, 5.1 → 4.7 half).  With 4 KiB pages it touches one page in 512."""
    buffer = np.empty(nbytes, dtype=np.uint8)
    if nbytes >= 2 * _FAULT_STRIDE:
        buffer[::_FAULT_STRIDE] = 0
    return buffer


def _take(nbytes: int) -> np.ndarray:
    """A free pooled buffer of exactly ``nbytes``, or a new one added to the pool (evicting free
    buffers, oldest first, to stay within the pool's size); called with the lock held."""
    for i in range(len(_POOL)):
        if _POOL[i].nbytes == nbytes and _refs(_POOL[i]) == _FREE_COUNT:
            buffer = _POOL.pop(i)
            _POOL.append(buffer)
            return buffer
    buffer = _faulted(nbytes)
    limit = _MAX_BYTES[0]
    if nbytes > limit:
        return buffer
    total = sum(b.nbytes for b in _POOL) + nbytes
    i = 0
    while total > limit and i < len(_POOL):
        if _refs(_POOL[i]) == _FREE_COUNT:
            total -= _POOL.pop(i).nbytes
        else:
            i += 1
    if total <= limit:
        _POOL.append(buffer)
    return buffer


def new_output(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    r"""An uninitialised C-contiguous array of ``shape`` and ``dtype`` for a kernel to fill.

    .. math:: \text{bytes} \ge 2^{22}:\ \text{a released pooled buffer of the same size, else a new one}

    Small arrays are ``np.empty``; larger ones come from the pool (a released result's memory,
    already faulted in) or are new, faulted in up front.  Its contents are arbitrary: the caller
    writes every element.  Source: this project (see the module notes).

    >>> a = new_output((2, 3), np.dtype(np.float32))
    >>> a.shape, a.dtype.name, a.flags.c_contiguous
    ((2, 3), 'float32', True)
    """
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if nbytes < _POOL_MIN_BYTES:
        return np.empty(shape, dtype=dtype)
    if not _ENABLED or _MAX_BYTES[0] == 0:
        return _faulted(nbytes).view(dtype).reshape(shape)
    with _LOCK:  # the view refers to the buffer before another thread can look at its count
        return _take(nbytes).view(dtype).reshape(shape)


def set_output_pool(max_bytes: int) -> int:
    r"""Set how many bytes of released results the pool may keep; return the previous limit.

    .. math:: \sum_{\text{pooled}} \text{bytes} \le \texttt{max\_bytes}

    ``0`` turns the pool off and frees every released buffer (results still in use are unaffected).
    The default is 256 MiB.  Source: this project.

    >>> previous = set_output_pool(0)
    >>> pooled_bytes()
    0
    >>> set_output_pool(previous)
    0
    """
    limit = check_int(max_bytes, "max_bytes", minimum=0)
    with _LOCK:
        previous, _MAX_BYTES[0] = _MAX_BYTES[0], limit
        kept, total = [], 0
        for buffer in reversed(_POOL):  # keep the most recent that fit
            if limit and total + buffer.nbytes <= limit:
                kept.append(buffer)
                total += buffer.nbytes
        _POOL[:] = kept[::-1]
    return previous


def pooled_bytes() -> int:
    r"""Bytes held by the pool: released buffers and those of results still in use.

    .. math:: \sum_{\text{pooled}} \text{bytes}

    Source: this project.

    >>> pooled_bytes() >= 0
    True
    """
    with _LOCK:
        return sum(b.nbytes for b in _POOL)
