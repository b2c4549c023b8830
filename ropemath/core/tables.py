r"""The rotation factors :math:`e^{i m\theta_i}` that the elementwise kernels multiply by.

Scope: the private table builders shared by :func:`ropemath.apply_rope` and
:class:`ropemath.RopeCache` — :func:`_unit_rows` (cos + i sin of float64 angles) and
:func:`_unit_table`, which for float32 vectors at integer positions builds the table from two
small ones, :math:`e^{i (64 m_{hi})\theta_i} e^{i m_{lo}\theta_i}` (:func:`_factorised`, with its
error bound), so that uncached ``apply_rope`` evaluates cos/sin for about 2·sqrt(P) rows instead
of P.  Every entry depends only on its own (m, θ_i, dtype), which is why ``apply_rope`` and
``RopeCache`` agree bit for bit.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.4.2 eq. (34); Meta Llama
``precompute_freqs_cis`` (the table as complex numbers).
"""

from __future__ import annotations

import numpy as np

__all__: list[str] = []  # private helpers of ropemath.core.apply and ropemath.core.cache


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
