r"""RoPE applied elementwise (RoFormer eq. 34), uncached and with a cos/sin cache, in numpy.

Scope: :func:`apply_rope`, :class:`RopeCache` and the layout permutations :func:`to_half` /
:func:`to_interleaved`.  The path is the formula: float64 angles :math:`m\theta_i` → cos, sin
(times ``attention_factor``, cast to ``x``'s dtype) → per pair ``(a, b)``:
:math:`a' = a\cos - b\sin`, :math:`b' = a\sin + b\cos`.

Layouts (``i = 0 .. d/2-1``): ``"interleaved"`` pairs ``(x[2i], x[2i+1])`` (RoFormer, Meta Llama,
GPT-J); ``"half"`` pairs ``(x[i], x[i + d/2])`` (GPT-NeoX, Hugging Face ``rotate_half``).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.2 eq. (34); Meta Llama
``apply_rotary_emb`` (complex view); Hugging Face transformers ``rotate_half``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    _describe,
    as_array,
    check_angles,
    check_broadcast,
    check_d,
    check_int,
    check_layout,
    check_positions,
    check_real,
    check_work,
    check_x,
    finite_result,
)
from ropemath.core.rotation import half_permutation, resolve_frequencies

__all__ = ["apply_rope", "RopeCache", "to_half", "to_interleaved"]

_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}


def _check_factor(attention_factor: object) -> float:
    """``attention_factor`` as a float > 0 (Hugging Face's scaling of cos and sin)."""
    factor = check_real(attention_factor, "attention_factor")
    if factor <= 0:
        raise ValueError(f"attention_factor must be a finite real number > 0, got {factor}")
    return factor


def _cos_sin(angles: np.ndarray, factor: float, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """``factor·cos`` and ``factor·sin`` of float64 ``angles``, each rounded once to ``dtype``."""
    cos, sin = np.cos(angles), np.sin(angles)
    if factor != 1.0:
        cos *= factor
        sin *= factor
    return cos.astype(dtype, copy=False), sin.astype(dtype, copy=False)


def _pairs(a: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """Views ``(first, second)`` of the pair coordinates on the last axis of ``a``."""
    if layout == "interleaved":
        return a[..., 0::2], a[..., 1::2]
    h = a.shape[-1] // 2
    return a[..., :h], a[..., h:]


def _complex_view(a: np.ndarray) -> np.ndarray | None:
    """``a`` viewed as complex numbers (pairs adjacent in memory), or None if it cannot be."""
    if a.dtype in _COMPLEX and a.dtype.isnative and a.strides[-1] == a.itemsize:
        return a.view(_COMPLEX[a.dtype])
    return None


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, layout: str, out: np.ndarray) -> np.ndarray:
    r"""Write the rotated ``x`` into ``out`` (which may be ``x``); ``cos``, ``sin`` broadcast to the pairs.

    Interleaved, contiguous float32/64: :math:`(a + \mathrm{i} b)(\cos + \mathrm{i}\sin)` on complex
    views, one pass (Meta Llama).  Otherwise :math:`x \otimes \cos + \mathrm{rotate}(x) \otimes \sin` with
    full-width cos (Hugging Face): for each pair ``fl(fl(a cos) - fl(b sin))``, ``fl(fl(b cos) + fl(a sin))``.

    The layouts agree within a derived bound, not bit for bit.  Per pair, with :math:`u` the unit
    roundoff of the dtype and :math:`c, s` the rounded table entries (the same in both layouts),
    each layout computes :math:`ac - bs` (and :math:`as + bc`) with at most three roundings, either as
    ``fl(fl(ac) - fl(bs))`` or with a fused multiply-add, so each is within
    :math:`2u(|ac| + |bs|) + O(u^2)` of the exact value; by Cauchy-Schwarz
    :math:`|ac| + |bs| \le \|(a, b)\|\,\|(c, s)\| \le \|(a, b)\|\, f(1 + u)` with
    :math:`f` the attention factor.  Hence, per coordinate,

    .. math:: |\mathrm{half}(Px)_k - (P\,\mathrm{interleaved}(x))_k| \le 4.01\,u\,f\,\|(a_i, b_i)\|
        \le 4.01\,u\,f\,\|x\|

    for the pair ``i`` holding coordinate ``k``.
    """
    xz = _complex_view(x) if layout == "interleaved" else None
    if xz is not None:
        e = np.empty(cos.shape, dtype=xz.dtype)
        e.real, e.imag = cos, sin
        oz = _complex_view(out)
        if oz is not None:
            np.multiply(xz, e, out=oz)
        else:  # a strided out: the same products, then copied
            out[...] = (xz * e).view(x.dtype)
        return out
    # x ⊗ cos + rotate(x) ⊗ sin with rotate((a, b)) = (-b, a): eq. 34 (GPT-J), Hugging Face's rotate_half.
    # The pairs as an axis of length 2: (d/2, 2) interleaved, (2, d/2) half; the last axis stays contiguous.
    h = x.shape[-1] // 2
    shape, axis = (x.shape[:-1] + (h, 2), -1) if layout == "interleaved" else (x.shape[:-1] + (2, h), -2)
    x2 = x.reshape(shape)
    rotated = np.flip(x2, axis) * np.stack([np.negative(sin), sin], axis)  # before out is written: out may be x
    in_place = out.flags.c_contiguous  # then reshape gives a view of out
    out2 = out.reshape(shape) if in_place else np.empty(shape, dtype=x.dtype)
    np.multiply(x2, np.stack([cos, cos], axis), out=out2)
    out2 += rotated
    if not in_place:
        out[...] = out2.reshape(out.shape)
    return out


def apply_rope(
    x: npt.ArrayLike,
    m: npt.ArrayLike,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    attention_factor: float = 1.0,
) -> np.ndarray:
    r"""Rotate each pair of ``x`` (shape (..., d)) by the angle :math:`m\theta_i`.

    .. math::
        R^d_{\Theta,m} x = x \otimes (\cos m\theta_0, \cos m\theta_0, \dots)
        + (-x_1, x_0, -x_3, x_2, \dots) \otimes (\sin m\theta_0, \sin m\theta_0, \dots)

    (interleaved layout; RoFormer eq. 34 with 0-based indices): :math:`a' + \mathrm{i} b' =
    (a + \mathrm{i} b)\, e^{\mathrm{i} m\theta_i}` for each pair ``(a, b)``.

    ``m``: positions, a scalar or an array broadcastable to ``x.shape[:-1]``.  ``layout`` (required:
    a wrong guess is silent): ``"interleaved"`` or ``"half"``.  Exactly one of ``base``
    (:math:`\theta_i = \mathrm{base}^{-2i/d}`) and ``theta`` (the ``d/2`` frequencies, e.g. from
    :func:`ropemath.frequencies_from_config`) is required.  ``attention_factor`` scales cos and sin
    (Hugging Face's YaRN and LongRoPE).  The angles are float64; cos and sin are rounded once to
    ``x``'s dtype, the result's dtype.  The layouts agree to :math:`4.01\,u\,f\,\|x\|` per
    coordinate (:math:`u` the dtype's unit roundoff, :math:`f` the attention factor).

    >>> x = np.array([1.0, 0.0, 1.0, 0.0])
    >>> apply_rope(x, 1, layout="interleaved", base=1e4).round(4)
    array([0.5403, 0.8415, 1.    , 0.01  ])
    >>> apply_rope(to_half(x), 1, layout="half", base=1e4).round(4)
    array([0.5403, 1.    , 0.8415, 0.01  ])
    """
    x = check_x(x, finite=False)  # the result is checked; a non-finite x is then named
    m = check_positions(m)
    layout = check_layout(layout)
    factor = _check_factor(attention_factor)
    theta = resolve_frequencies(x.shape[-1], base, theta)
    check_broadcast(m, x.shape[:-1])
    with np.errstate(over="ignore", invalid="ignore"):
        cos, sin = _cos_sin(m[..., None] * theta, factor, x.dtype)
        out = _rotate(x, cos, sin, layout, np.empty_like(x, order="C"))
    return finite_result(out, "apply_rope", x=x, m=m, base=base, theta=theta, attention_factor=factor)


class RopeCache:
    r"""The cos/sin table of RoPE for integer positions ``0 <= m < max_position``, built once.

    .. math::
        T[m, i] = f\,(\cos m\theta_i + \mathrm{i} \sin m\theta_i),
        \quad \theta_i = \mathrm{base}^{-2i/d}\ \text{or given},\ i = 0, \dots, d/2 - 1

    (RoFormer eq. 15; Meta Llama's ``freqs_cis``.)  Exactly one of ``base`` and ``theta`` is
    required; ``attention_factor`` :math:`f` as in :func:`apply_rope`.  :meth:`apply` equals
    :func:`apply_rope` bit for bit (the same float64 cos/sin, rounded once per dtype).  Memory:
    16 bytes per table entry (``max_position × d/2`` entries), plus one table per other dtype used.

    >>> cache = RopeCache(4, base=1e4, max_position=8)
    >>> cache.apply(np.array([1.0, 0.0, 1.0, 0.0]), 1, layout="interleaved").round(4)
    array([0.5403, 0.8415, 1.    , 0.01  ])
    >>> cache.apply(np.ones((2, 3, 4), dtype=np.float32), [0, 1, 7], layout="half").shape
    (2, 3, 4)
    """

    def __init__(
        self,
        d: int,
        base: float | None = None,
        max_position: int = 4096,
        *,
        theta: npt.ArrayLike | None = None,
        attention_factor: float = 1.0,
    ) -> None:
        self.d = check_d(d)
        self.theta = resolve_frequencies(self.d, base, theta)
        self.base = None if base is None else float(base)
        self.attention_factor = _check_factor(attention_factor)
        self.max_position = check_int(max_position, "max_position", minimum=1)
        check_work(self.max_position * (self.d // 2), 2**25, "max_position × d/2 (table entries, 16 bytes each)")
        with np.errstate(over="ignore"):
            self._angles = check_angles(
                np.arange(self.max_position, dtype=np.float64)[:, None] * self.theta,
                self.max_position - 1, self.theta, "max_position and theta",
            )
        self._tables: dict[np.dtype, tuple[np.ndarray, np.ndarray]] = {}

    def __repr__(self) -> str:
        freqs = f"base={self.base!r}" if self.base is not None else "theta=<given>"
        return f"RopeCache(d={self.d}, {freqs}, max_position={self.max_position})"

    def _cos_sin(self, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
        """The table for ``dtype``, shape (max_position, d/2) each, built on first use."""
        if dtype not in self._tables:
            self._tables[dtype] = _cos_sin(self._angles, self.attention_factor, dtype)
        return self._tables[dtype]

    def apply(self, x: npt.ArrayLike, m: npt.ArrayLike, *, layout: str, out: np.ndarray | None = None) -> np.ndarray:
        r"""Rotate each pair of ``x`` (shape (..., d)) by :math:`m\theta_i` from the table.

        .. math:: R^d_{\Theta,m} x \quad \text{(RoFormer eq. 34, as } \texttt{apply\_rope}\text{)}

        ``m``: integers in ``[0, max_position)``, broadcastable to ``x.shape[:-1]``.  ``out``: an
        array of ``x``'s shape and dtype to write into (it may be ``x`` itself); returned.

        >>> cache = RopeCache(2, base=1e4, max_position=4)
        >>> x = np.array([[1.0, 0.0], [1.0, 0.0]])
        >>> _ = cache.apply(x, [0, 3], out=x, layout="interleaved")
        >>> x.round(4).tolist()
        [[1.0, 0.0], [-0.99, 0.1411]]
        """
        x = check_x(x, d=self.d, finite=False)
        index = self._check_m(m)
        layout = check_layout(layout)
        check_broadcast(as_array(m, "m"), x.shape[:-1])
        out = np.empty_like(x, order="C") if out is None else self._check_out(out, x)
        cos, sin = self._cos_sin(x.dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            _rotate(x, cos[index], sin[index], layout, out)
        return finite_result(out, "RopeCache.apply", x=x)

    def _check_m(self, m: object) -> np.ndarray | slice:
        """An index into the table for integer positions ``m`` (a slice for consecutive ones)."""
        arr = as_array(m, "m")
        if isinstance(m, (bool, np.bool_)) or arr.dtype.kind not in "iu":
            raise TypeError(f"m must be an integer or an array of integers, got {_describe(m)}")
        if arr.size and (arr.min() < 0 or arr.max() >= self.max_position):
            raise ValueError(
                f"m must be in [0, max_position={self.max_position}), got values from {arr.min()} to {arr.max()}"
            )
        if arr.ndim == 1 and arr.size > 1 and np.all(np.diff(arr) == 1):
            return slice(int(arr[0]), int(arr[-1]) + 1)  # consecutive positions: a view, no gather
        return arr.astype(np.intp, copy=False)

    @staticmethod
    def _check_out(out: object, x: np.ndarray) -> np.ndarray:
        """``out`` if it is a writeable array of ``x``'s shape and dtype that is ``x`` or does not overlap it."""
        if not isinstance(out, np.ndarray):
            raise TypeError(f"out must be a numpy array or None, got {_describe(out)}")
        if out.shape != x.shape or out.dtype != x.dtype:
            raise ValueError(f"out must have x's shape {x.shape} and dtype {x.dtype}, got {_describe(out)}")
        if not out.flags.writeable:
            raise ValueError("out must be writeable, got a read-only array")
        same = out.ctypes.data == x.ctypes.data and out.strides == x.strides
        if not same and np.may_share_memory(out, x):
            raise ValueError("out must be x itself or not overlap x, got an array sharing memory with x")
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
    return x[..., np.argsort(half_permutation(x.shape[-1]))]
