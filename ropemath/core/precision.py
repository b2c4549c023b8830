r"""What low-precision angles do to RoPE: bfloat16 emulation, phase errors, lost shift invariance.

Scope: the angles :math:`m\theta_i` computed the way a framework computes them in a lower
precision — position and inverse frequency stored in the format, their product rounded to the
format — compared with the float64 angles of :func:`ropemath.angles`.

* :func:`to_bfloat16` emulates bfloat16 with numpy (8 significand bits, float32's exponent
  range) by round-to-nearest-even on the float32 bit pattern;
* :func:`round_to_format` rounds to ``"float64"``, ``"float32"`` or ``"bfloat16"``;
* :func:`angles_in_format`, :func:`phase_error`: the low-precision angles and their error;
* :func:`largest_distinct_integer`: the last position before consecutive integers collide;
* :func:`shift_error_in_format`: how far the score at ``(m + s, n + s)`` drifts from the
  score at ``(m, n)`` when the angles are rounded.

Emulated arithmetic is exact: a product of two float32 (or bfloat16) numbers is exact in
float64, and rounding that once to the format gives the correctly rounded product.

References: gpt-neox PR #1016 (``inv_freq`` in bf16 made positions 256 and 257
indistinguishable); Hugging Face transformers PR #29285 ("RoPE loses precision for Llama /
Gemma", angles forced to float32); IEEE 754-2008 round-to-nearest-even; bfloat16 (Google
Brain floating-point format: 1 sign, 8 exponent, 7 stored fraction bits).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    _describe,
    as_array,
    check_base,
    check_choice,
    check_d,
    check_int,
    check_positions,
    check_x,
    finite_result,
)
from ropemath.core.rotation import angles, frequencies

__all__ = [
    "FORMATS",
    "to_bfloat16",
    "round_to_format",
    "angles_in_format",
    "phase_error",
    "largest_distinct_integer",
    "shift_error_in_format",
]

FORMATS = ("float64", "float32", "bfloat16")


def _check_format(dtype: object, name: str = "dtype") -> str:
    return check_choice(dtype, name, FORMATS)


def _real_array(x: object, name: str) -> np.ndarray:
    if isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {_describe(x)}")
    arr = as_array(x, name)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {_describe(x)}")
    return arr


# no finite_result check: IEEE rounding overflows to ±inf and lets NaN/±inf through, which is what it models
def to_bfloat16(x: npt.ArrayLike) -> np.ndarray:
    r"""Round to the nearest bfloat16 value (ties to even); return it as a float32 array.

    .. math:: \mathrm{bits}(y) = \big(\mathrm{bits}(x) + \mathtt{0x7FFF} + b_{16}\big)
        \,\&\, \mathtt{0xFFFF0000}, \quad b_{16} = \text{bit 16 of } \mathrm{bits}(x)

    bfloat16 is the upper half of a float32 (sign, 8 exponent bits, 7 fraction bits), so
    rounding drops the lower 16 bits: adding ``0x7FFF`` carries into bit 16 exactly when the
    dropped part exceeds half a unit, and adding bit 16 as well breaks a tie towards the even
    result.  The carry may run into the exponent (e.g. 255.5 → 256) and past the largest
    finite bfloat16 into infinity, as IEEE rounding requires.  Works on the sign-magnitude
    pattern, so negatives round symmetrically.  Input is first converted to float32 (so a
    float64 input is rounded twice, float64 → float32 → bfloat16, as when a float32 tensor is
    cast).  Infinities pass through; NaN stays NaN (its payload is kept as in the float32).
    Source: IEEE 754 round-to-nearest-even applied to the bfloat16 format.

    >>> float(to_bfloat16(257.0)), float(to_bfloat16(259.0)), float(to_bfloat16(1 / 3))
    (256.0, 260.0, 0.333984375)
    >>> to_bfloat16([-1 / 3, np.inf]).tolist()
    [-0.333984375, inf]
    """
    arr = _real_array(x, "x")
    with np.errstate(over="ignore"):  # float64 beyond the float32 range rounds to ±inf
        f32 = np.asarray(arr, dtype=np.float32)
    bits = f32.view(np.uint32).astype(np.uint64)
    u = np.uint64  # typed constants: numpy 1.x refuses uint64 >> int64
    rounded = (bits + u(0x7FFF) + ((bits >> u(16)) & u(1))) & u(0xFFFF0000)
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(f32), f32, out)


# no finite_result check: IEEE rounding overflows to ±inf and lets NaN/±inf through, which is what it models
def round_to_format(x: npt.ArrayLike, dtype: str) -> np.ndarray:
    r"""Round ``x`` to the nearest value of format ``dtype``; return the values as float64.

    .. math:: \mathrm{fl}_{\mathrm{dtype}}(x)

    ``"float64"`` returns ``x`` unchanged, ``"float32"`` rounds with numpy's float32 cast and
    ``"bfloat16"`` with :func:`to_bfloat16`.  Returning float64 lets callers do further
    arithmetic exactly and round once.  Overflow gives ±inf, as a cast would.

    >>> round_to_format([257.0, 16777217.0], "float32").tolist()
    [257.0, 16777216.0]
    >>> round_to_format([257.0, 16777217.0], "bfloat16").tolist()
    [256.0, 16777216.0]
    """
    arr = _real_array(x, "x").astype(np.float64)
    dtype = _check_format(dtype)
    if dtype == "float64":
        return arr
    if dtype == "float32":
        with np.errstate(over="ignore"):
            return arr.astype(np.float32).astype(np.float64)
    return to_bfloat16(arr).astype(np.float64)


def angles_in_format(m: npt.ArrayLike, d: int, base: float = 10000.0, dtype: str = "float32") -> np.ndarray:
    r"""Return the angles :math:`m\theta_i` as computed in format ``dtype`` (as float64 values).

    .. math:: \tilde\phi_i(m) = \mathrm{fl}\big(\mathrm{fl}(m)\cdot \mathrm{fl}(\theta_i)\big)

    The position and the inverse frequency are stored in the format, multiplied, and the
    product rounded to the format — what ``outer(t, inv_freq)`` does when ``t`` and
    ``inv_freq`` have that dtype (gpt-neox PR #1016; transformers PR #29285 under bf16
    autocast).  :math:`\theta_i` is first computed in float64, so only the representation
    error of the format enters, not a particular ``pow`` routine's; every value reaches
    bfloat16 through float32 (:func:`round_to_format`), as a float32 ``inv_freq`` cast to
    bfloat16 does.

    >>> angles_in_format([256, 257], 4, dtype="bfloat16")[:, 0].tolist()
    [256.0, 256.0]
    """
    m = check_positions(m)
    d = check_d(d)
    dtype = _check_format(dtype)
    theta = round_to_format(frequencies(d, check_base(base)), dtype)
    phi = round_to_format(round_to_format(m, dtype)[..., None] * theta, dtype)
    if not np.all(np.isfinite(phi)):
        biggest = float(np.abs(m).max())
        raise ValueError(
            f"m and base must keep m*theta finite in {dtype}, got max |m| {biggest} and largest theta "
            f"{float(np.max(theta)):.3g} (base {base!r})"
        )
    return finite_result(phi, "angles_in_format", m=m, d=d, base=base)


def phase_error(m: npt.ArrayLike, d: int, base: float = 10000.0, dtype: str = "float32") -> np.ndarray:
    r"""Return the low-precision angles' error wrapped to :math:`[0, \pi]`, shape ``m.shape + (d//2,)``.

    .. math:: e_i(m) = \big|\,\big((\tilde\phi_i(m) - m\theta_i + \pi) \bmod 2\pi\big) - \pi\,\big|

    against the float64 reference :math:`m\theta_i` of :func:`ropemath.angles`.  Wrapping
    measures what the rotation sees: angles that differ by a multiple of :math:`2\pi` rotate
    alike.  ``dtype="float64"`` gives 0 exactly (the same arithmetic).

    >>> e = phase_error(257, 128, dtype="bfloat16")
    >>> round(float(e[0]), 6)  # position 257 stored as 256: one radian off at theta_0 = 1
    1.0
    """
    ref = angles(m, d, base)
    diff = angles_in_format(m, d, base, dtype) - ref
    return finite_result(np.abs(np.mod(diff + np.pi, 2 * np.pi) - np.pi), "phase_error", m=m, d=d, base=base)


def largest_distinct_integer(dtype: str) -> int:
    r"""Return the first integer ``n`` with :math:`\mathrm{fl}(n + 1) = n`: from there on, positions collide.

    .. math:: N = \min\{ n \in \mathbb{N} : \mathrm{fl}(n + 1) = n \}

    Computed, not looked up: :math:`n = 1, 2, 4, \dots` is doubled until ``n + 1`` rounds back to
    ``n``.  Powers of two are enough, because the gap between neighbouring values is constant
    within each binade :math:`[2^j, 2^{j+1})`: if :math:`2^j + 1` is representable the gap there
    is at most 1 and every integer of the binade is representable.  So all integers
    :math:`0 \dots N` are exact and :math:`N + 1` is not.

    >>> largest_distinct_integer("bfloat16"), largest_distinct_integer("float32")
    (256, 16777216)
    """
    dtype = _check_format(dtype)
    n = 1
    while True:
        here = float(round_to_format(float(n), dtype))
        above = float(round_to_format(float(n) + 1.0, dtype))
        if above == here:
            return n
        n *= 2


def _rotate(x: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """Rotate interleaved pairs of float64 ``x`` by the given float64 angles (shape (d/2,))."""
    a, b = x[0::2], x[1::2]
    out = np.empty_like(x)
    out[0::2] = a * np.cos(phi) - b * np.sin(phi)
    out[1::2] = a * np.sin(phi) + b * np.cos(phi)
    return out


def shift_error_in_format(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    m: int,
    n: int,
    s: int,
    *,
    base: float = 10000.0,
    dtype: str = "float32",
) -> float:
    r"""Relative change of the RoPE score when both positions move by ``s``, with angles in ``dtype``.

    .. math:: \frac{\big|\,\langle \tilde R_{m+s} q, \tilde R_{n+s} k\rangle
        - \langle \tilde R_{m} q, \tilde R_{n} k\rangle\,\big|}{\|q\|\,\|k\|}

    where :math:`\tilde R_m` rotates by :func:`angles_in_format` (vectors and trigonometry in
    float64, so only the angles carry the format's error).  With exact angles the two scores
    are equal (RoFormer eq. 16: the score depends on ``n - m`` only).

    >>> q = k = np.ones(8)
    >>> shift_error_in_format(q, k, 3, 0, 10**6, dtype="float64") < 1e-9
    True
    >>> shift_error_in_format(q, k, 3, 0, 10**6, dtype="bfloat16") > 0.1
    True
    """
    q = check_x(q, "q", min_norm=1e-100).astype(np.float64)
    k = check_x(k, "k", d=q.shape[-1], min_norm=1e-100).astype(np.float64)
    if q.ndim != 1 or k.ndim != 1:
        raise ValueError(f"q and k must be vectors of shape (d,), got {q.shape} and {k.shape}")
    m, n, s = (check_int(v, name, minimum=-(2**53), maximum=2**53) for v, name in ((m, "m"), (n, "n"), (s, "s")))
    d = q.shape[0]
    phi = angles_in_format([m, n, m + s, n + s], d, base, dtype)
    before = _rotate(q, phi[0]) @ _rotate(k, phi[1])
    after = _rotate(q, phi[2]) @ _rotate(k, phi[3])
    return finite_result(
        float(abs(after - before) / (np.linalg.norm(q) * np.linalg.norm(k))),
        "shift_error_in_format", q=q, k=k, m=m, n=n, s=s, base=base,
    )
