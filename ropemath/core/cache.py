r"""A cached cos/sin table for applying RoPE repeatedly at integer positions.

Scope: :class:`RopeCache`, the table that real implementations keep (Meta Llama's
``freqs_cis``; Hugging Face's rotary modules recompute cos/sin per forward from ``inv_freq``, older
releases cached them as ``cos_cached``/``sin_cached``): :math:`\cos m\theta_i` and
:math:`\sin m\theta_i` for every position ``0 <= m < max_position``, computed once in
float64 and rounded once per dtype, so a call only gathers rows and runs the kernel of
:mod:`ropemath.core.apply` (no trigonometric functions per call).  Results equal
:func:`ropemath.apply_rope` bit for bit: each dtype's table is built as ``apply_rope`` builds
its own, entry by entry (float32: from the split e^{i 64 m_hi θ}·e^{i m_lo θ}, m = 64 m_hi + m_lo,
formed in float64; float64 and float16: cos/sin of the float64 angles).

Memory: ``8 * max_position * d`` bytes for the float64 table (complex128, used as is for
float64), plus one table per other dtype used: ``max_position * d/2`` complex64 numbers
(float32; both layouts) or ``max_position * d`` reals (float16).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.2 eq. (34);
Meta Llama ``precompute_freqs_cis``; Hugging Face transformers 5.x ``LlamaRotaryEmbedding``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    _describe,
    check_angles,
    check_base,
    check_broadcast,
    check_d,
    check_int,
    check_layout,
    check_work,
    check_x,
    not_finite_error,
)
from ropemath.core.kernels import _COMPLEX, _rotate, _rotate_pairs
from ropemath.core.outputs import new_output
from ropemath.core.rotation import pair_frequencies
from ropemath.core.tables import _unit_table

__all__ = ["RopeCache"]


class RopeCache:
    r"""Cos/sin tables of RoPE for integer positions ``0 <= m < max_position``.

    .. math::
        T[m, i] = \cos m\theta_i + i \sin m\theta_i = e^{i m \theta_i},
        \quad \theta_i = \mathrm{base}^{-2i/d},\ i = 0, \dots, d/2 - 1

    (RoFormer eq. 15 with 0-based ``i``; the angles :math:`m\theta_i` are formed in float64; the
    float32 table by the split of :func:`ropemath.apply_rope`, bit for bit as it builds its own).
    :meth:`apply` rotates ``x`` exactly as :func:`ropemath.apply_rope` does (RoFormer eq. 34).

    >>> cache = RopeCache(4, max_position=8)
    >>> cache.apply(np.array([1.0, 0.0, 1.0, 0.0]), 1, layout="interleaved").round(4)
    array([0.5403, 0.8415, 1.    , 0.01  ])
    >>> cache.apply(np.ones((2, 3, 4), dtype=np.float32), [0, 1, 7], layout="half").shape
    (2, 3, 4)
    """

    def __init__(
        self, d: int, base: float | None = None, max_position: int = 4096, *, theta: npt.ArrayLike | None = None
    ) -> None:
        self.d = check_d(d)
        self.theta = pair_frequencies(self.d, base, theta)
        self.base = None if theta is not None else check_base(10000.0 if base is None else base)
        self.max_position = check_int(max_position, "max_position", minimum=1)
        check_work(self.max_position * (self.d // 2), 2**25, "max_position × d/2 (table entries, up to 40 bytes each)")
        with np.errstate(over="ignore"):  # the largest angles: finite, or every angle is
            check_angles((self.max_position - 1) * self.theta, self.max_position - 1, self.theta,
                         "max_position and theta")
        # e^{i m θ_i} for m = 0 .. max_position-1, complex128, shape (max_position, d/2); each dtype's
        # table is built as apply_rope builds it for that dtype (float32: the split of _unit_table)
        self._unit = self._build(np.dtype(np.complex128))
        self._tables: dict[tuple[np.dtype, str], object] = {}

    def __repr__(self) -> str:
        freqs = f"base={self.base!r}" if self.base is not None else "theta=<given>"
        return f"RopeCache(d={self.d}, {freqs}, max_position={self.max_position})"

    def _build(self, ctype: np.dtype) -> np.ndarray:
        """The table of every position as complex ``ctype``, built exactly as :func:`apply_rope` builds it."""
        return _unit_table(np.arange(self.max_position, dtype=np.float64), self.theta, ctype)

    def _table(self, dtype: np.dtype, kind: str):
        """The table for ``dtype``: ``kind`` 'complex' (e^{i m θ_i}) or 'cos_sin', built on first use."""
        key = (dtype, kind)
        if key not in self._tables:
            if kind == "complex":
                ctype = _COMPLEX[dtype]
                self._tables[key] = self._unit if ctype == self._unit.dtype else self._build(ctype)
            else:
                self._tables[key] = (self._unit.real.astype(dtype), self._unit.imag.astype(dtype))
        return self._tables[key]

    def _check_m(self, m: object) -> tuple[np.ndarray, np.ndarray | slice]:
        """Validate integer positions; return them and an index into the tables (a slice for a range)."""
        arr = np.asarray(m)
        if isinstance(m, (bool, np.bool_)) or arr.dtype.kind not in "iu":
            raise TypeError(f"m must be an integer or an array of integers, got {_describe(m)}")
        if arr.size:
            low, high = int(arr.min()), int(arr.max())
            if low < 0 or high >= self.max_position:
                raise ValueError(
                    f"m must be in [0, max_position={self.max_position}), got values from {low} to {high}"
                )
        if arr.ndim == 1 and arr.size > 1 and np.all(np.diff(arr) == 1):
            return arr, slice(int(arr[0]), int(arr[-1]) + 1)  # consecutive positions: a view, no gather
        return arr, arr.astype(np.intp, copy=False)

    def apply(
        self,
        x: npt.ArrayLike,
        m: npt.ArrayLike,
        *,
        layout: str,
        out: np.ndarray | None = None,
    ) -> np.ndarray:
        r"""Rotate each pair of ``x`` (shape (..., d)) by :math:`m\theta_i`, using the cached tables.

        .. math:: R^d_{\Theta,m} x \quad \text{(RoFormer eq. 34, as } \texttt{apply\_rope(x, m)}\text{)}

        ``m``: integers in ``[0, max_position)``, a scalar or an array broadcastable to
        ``x.shape[:-1]``.  ``out``: optional array of ``x``'s shape and dtype to write into
        (it may be ``x`` itself, for an in-place rotation); returned.

        >>> cache = RopeCache(2, max_position=4)
        >>> x = np.array([[1.0, 0.0], [1.0, 0.0]])
        >>> _ = cache.apply(x, [0, 3], out=x, layout="interleaved")
        >>> x.round(4).tolist()
        [[1.0, 0.0], [-0.99, 0.1411]]
        """
        x = check_x(x, d=self.d, finite=False)  # the result is checked instead (@finite_result)
        m, index = self._check_m(m)
        layout = check_layout(layout)
        check_broadcast(m, x.shape[:-1])
        out = self._check_out(out, x)
        with np.errstate(over="ignore", invalid="ignore"):
            if x.dtype in _COMPLEX:
                table = self._table(x.dtype, "complex")  # rotations: finite (check_angles), modulus ~1
                finite = _rotate(x, table[index], layout, out, unit=True)
            else:
                cos, sin = self._table(x.dtype, "cos_sin")
                finite = _rotate_pairs(x, cos[index], sin[index], layout, out)
        if not finite:  # checked block by block inside the kernels
            raise not_finite_error("RopeCache.apply", {"x": x, "m": m})
        return out

    @staticmethod
    def _check_out(out: object, x: np.ndarray) -> np.ndarray:
        """Return a writeable output array for ``x``: new if ``out`` is None, else ``out`` checked."""
        if out is None:
            return new_output(x.shape, x.dtype)
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy array or None, got {_describe(out)}")
        if out.shape != x.shape or out.dtype != x.dtype:
            raise ValueError(
                f"out must have x's shape {x.shape} and dtype {x.dtype}, got {_describe(out)}"
            )
        if not out.flags.writeable:
            raise ValueError("out must be writeable, got a read-only array")
        same = (
            out.__array_interface__["data"][0] == x.__array_interface__["data"][0]
            and out.strides == x.strides
        )
        if not same and np.may_share_memory(out, x):
            raise ValueError("out must be x itself or not overlap x, got an array sharing memory with x")
        return out
