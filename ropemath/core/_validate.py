r"""Input validation shared by every public function of ropemath, and the input contract.

Scope: one place that turns bad arguments into a clear ``TypeError`` (wrong kind of value)
or ``ValueError`` (right kind, wrong value) whose message names the parameter and says what
was expected, in one line of the form ``"<param> must be <expectation>, got <what was given>"``.
Public functions call these checks first, so a user never sees a silent NaN, a wrong shape, a
hang, or a traceback from deep inside numpy.

The input contract
------------------
What every public function accepts, by kind of argument (the README links here):

=================  ===================================================  ====================================
kind               accepted                                             rejected (error)
=================  ===================================================  ====================================
dimension ``d``    even integer, ``2 <= d <= MAX_D`` (65,536);          bool, float, str (TypeError); odd,
                   dense d×d matrices: ``d <= MAX_DENSE_D`` (8,192,     <= 0, above the ceiling (ValueError)
                   512 MiB in float64)
base, factors      finite real > 0 (factors: >= 1); the frequencies     bool, str, complex (TypeError); NaN,
                   base**(-2i/d) must be finite                         ±inf, <= 0, ints beyond float range,
                                                                        a base whose frequencies overflow
positions ``m``    finite reals of any sign and size (negative and      NaN/±inf (with the index of the first
``n``, ``r``       large positions are valid in RoPE); arrays           one), bool, complex, str (TypeError)
                   broadcast to the vectors' batch shape
tolerances         finite real >= 0                                     negative, NaN, ±inf
counts (lengths,   integer >= 1 (seeds >= 0) up to a ceiling that       bool, float (TypeError); < 1, above
trials, grid       keeps a call within ~2 GiB and ~10 s on 2 cores,     the ceiling: the message says what the
sizes, positions)  stated in each function's docstring                  request would cost and the maximum
vectors ``x``,     real floating arrays (float16/32/64) of shape        int, bool, complex, object arrays
``q``, ``k``,      (..., d), finite                                     (TypeError); odd or empty last axis,
``v``, weights                                                          NaN/±inf with the parameter's name and
                                                                        the index of the first bad element
frequencies        ``d/2`` finite numbers > 0 (``inv_freq``)            wrong length, <= 0, NaN/±inf
``theta``
layouts, dtypes    one of the listed names                              anything else
configs            a mapping with Hugging Face's keys (see              missing or unknown keys, values out
                   :func:`ropemath.frequencies_from_config`)            of range: the message names the key
=================  ===================================================  ====================================

Results: a function never returns NaN or ±inf from finite inputs.  Where finite inputs are
so large that the computation overflows (vectors near 1e308, positions × frequencies beyond
float range), it raises ``ValueError`` naming the inputs and their magnitude
(:func:`finite_result`).

References: none (project convention).
"""

from __future__ import annotations

import numbers
from typing import TypeVar

import numpy as np

LAYOUTS = ("interleaved", "half")

#: largest dimension d accepted by functions that work per pair (frequencies, elementwise RoPE)
MAX_D = 2**16
#: largest d for functions that build dense d×d float64 matrices (8192² × 8 B = 512 MiB)
MAX_DENSE_D = 2**13
#: largest magnitude of a vector entry: products of up to four entries, summed over d, stay finite in float64
MAX_ABS = 1e50
#: the range of bases and frequencies: their reciprocals, wavelengths and angles stay finite in float64
RANGE = (1e-100, 1e100)

R = TypeVar("R")

#: Work ceilings by parameter name (applied by :func:`check_int` unless a call passes its own):
#: (maximum, what the argument costs).  Each keeps a call within ~2 GiB and ~10 s on 2 cores;
#: functions whose work is a product (positions × pairs) check the product as well.
CEILINGS: dict[str, tuple[int, str]] = {
    "length": (2**24, "positions of a context; 2**24 = 16.7M exceeds every published model's"),
    "new_length": (2**24, "positions of the extended context"),
    "original_length": (2**24, "positions of the training context"),
    "context_length": (2**24, "positions of a context"),
    "seq_len": (2**24, "positions of the current sequence"),
    "max_position": (2**24, "rows of the cos/sin table"),
    "trials": (10**4, "random (q, k) pairs, each a full decay curve"),
    "chunk": (2**20, "distances per block: chunk × d/2 × 8 bytes of temporaries"),
    "per_bin": (10**4, "distances sampled per bin"),
    "max_steps": (10**6, "search steps, each one evaluation of the cosine sum"),
    "n_heads": (MAX_D, "heads, at most d"),
}


def _describe(value: object) -> str:
    """Short description of a value for error messages."""
    if isinstance(value, np.ndarray):
        return f"array of dtype {value.dtype} and shape {value.shape}"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def _short_int(value: int) -> str:
    """An integer for a message: in full up to 20 digits, else as 10**k."""
    text = str(value)
    return text if len(text) <= 20 else f"an integer of {len(text)} digits"


def as_array(value: object, name: str, dtype: object = None) -> np.ndarray:
    """``np.asarray(value, dtype)``, or a ValueError naming ``name`` for a ragged nested list."""
    try:
        return np.asarray(value, dtype=dtype)
    except ValueError:
        raise ValueError(f"{name} must be a rectangular array (equal lengths along each axis), "
                         f"got {_describe(value)}") from None


def check_d(d: object, name: str = "d", *, maximum: int = MAX_D) -> int:
    """Return ``d`` as a Python int if it is a positive even integer <= ``maximum``, else raise."""
    if isinstance(d, (bool, np.bool_)) or not isinstance(d, numbers.Integral):
        raise TypeError(f"{name} must be a positive even integer, got {_describe(d)}")
    d = int(d)
    if d <= 0 or d % 2:
        raise ValueError(f"{name} must be a positive even integer, got {_short_int(d)}")
    if d > maximum:
        raise ValueError(f"{name} must be a positive even integer <= {maximum}, got {_short_int(d)}")
    return d


def _to_float(value: numbers.Real, name: str, expectation: str) -> float:
    """``float(value)``, or a ValueError naming ``name`` for an integer beyond float range."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be {expectation}, got {_short_int(int(value))} (beyond float range)") from None


def check_real(value: object, name: str) -> float:
    """Return ``value`` as a finite Python float, else raise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {_describe(value)}")
    value = _to_float(value, name, "a finite real number")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def check_base(base: object, name: str = "base") -> float:
    """Return ``base`` as a float if it is a real number in :data:`RANGE`, else raise."""
    expectation = "a finite real number > 0"
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, numbers.Real):
        raise TypeError(f"{name} must be {expectation}, got {_describe(base)}")
    value = _to_float(base, name, expectation)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be {expectation}, got {value}")
    if not RANGE[0] <= value <= RANGE[1]:
        raise ValueError(f"{name} must be in [{RANGE[0]:.0e}, {RANGE[1]:.0e}] (its frequencies then stay finite), "
                         f"got {value}")
    return value


def check_positions(m: object, name: str = "m") -> np.ndarray:
    """Return positions as a float64 array (any shape) if all are finite reals, else raise.

    Integer and floating inputs are accepted (fractional positions are meaningful for
    interpolation schemes); booleans, complex numbers, strings and objects are not.
    """
    if isinstance(m, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {_describe(m)}")
    arr = as_array(m, name)
    if arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must be a real number or an array of real numbers, got {_describe(m)}"
        )
    try:
        arr = arr.astype(np.float64, copy=False)
    except OverflowError:
        raise ValueError(f"{name} must contain only finite values, got an integer beyond float range") from None
    check_finite(arr, name)
    return arr


def check_frequencies(theta: object, name: str = "theta", *, d: int | None = None) -> np.ndarray:
    """Return frequencies as a float64 vector (of length ``d/2`` if ``d`` is given) with entries in :data:`RANGE`."""
    arr = check_positions(theta, name)
    count = f"{d // 2} " if d is not None else ""
    expectation = f"{name} must be {count}frequencies > 0 (in [{RANGE[0]:.0e}, {RANGE[1]:.0e}])"
    if arr.ndim != 1 or arr.size == 0 or (d is not None and arr.size != d // 2):
        raise ValueError(f"{expectation}, got shape {arr.shape}")
    if np.any((arr < RANGE[0]) | (arr > RANGE[1])):
        raise ValueError(f"{expectation}, got values from {arr.min():.3g} to {arr.max():.3g}")
    return arr


def check_x(
    x: object, name: str = "x", *, d: int | None = None, finite: bool = True, pairs: bool = True, min_norm: float = 0.0
) -> np.ndarray:
    """Return ``x`` as a floating ndarray of shape (..., d) with even d > 0 (any d > 0 if not ``pairs``), else raise.

    Integer, boolean and complex arrays are rejected: RoPE acts on real vectors and the
    result must have the input's floating dtype.  ``finite``: reject NaN/±inf entries (naming
    the first one's index); functions that check their result instead (:func:`finite_result`,
    which then names the bad input) pass False to read large inputs once less.
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError):
        raise TypeError(f"{name} must be a real floating-point array (float16/32/64), got {_describe(x)}") from None
    if arr.dtype.kind != "f":
        raise TypeError(
            f"{name} must be a real floating-point array (float16/32/64), got {_describe(arr)}"
        )
    if arr.ndim == 0:
        raise ValueError(f"{name} must have at least one axis (shape (..., d)), got a scalar")
    last = arr.shape[-1]
    if d is not None and last != d:
        raise ValueError(f"{name} must have last axis of length d={d}, got shape {arr.shape}")
    if last == 0 or (pairs and last % 2):
        raise ValueError(
            f"{name} must have a positive even last axis (pairs of coordinates), got shape {arr.shape}"
        )
    if finite:
        check_finite(arr, name)
        largest = float(np.max(np.abs(arr))) if arr.size else 0.0
        if largest > MAX_ABS:
            raise ValueError(f"{name} must have entries of magnitude at most {MAX_ABS:.0e} (products of such "
                             f"vectors then stay finite in float64), got largest |{name}| = {largest:.3g}")
        if min_norm and not np.linalg.norm(arr / largest if largest else arr) * largest >= min_norm:
            raise ValueError(f"{name} must have a norm of at least {min_norm:.0e} (the result is relative to it), "
                             f"got largest |{name}| = {largest:.3g}")
    return arr


def check_choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of the strings ``choices``, else raise."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {choices}, got {_describe(value)}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def check_layout(layout: object, name: str = "layout") -> str:
    """Return ``layout`` if it is one of :data:`LAYOUTS`, else raise."""
    return check_choice(layout, name, LAYOUTS)


def check_broadcast(m: np.ndarray, batch_shape: tuple[int, ...], name: str = "m") -> tuple[int, ...]:
    """Raise unless positions of shape ``m.shape`` broadcast to ``batch_shape`` exactly."""
    try:
        shape = np.broadcast_shapes(m.shape, batch_shape)
    except ValueError:
        shape = None
    if shape != tuple(batch_shape):
        raise ValueError(
            f"{name} must be broadcastable to x.shape[:-1]={tuple(batch_shape)}, got shape {m.shape}"
        )
    return shape


def check_int(
    value: object, name: str, *, minimum: int | None = None, maximum: int | None = None, cost: str | None = None
) -> int:
    """Return ``value`` as an int (not bool) in ``[minimum, maximum]``, else raise.

    ``maximum`` is a work ceiling; ``cost`` describes what one unit costs, for the message
    (e.g. ``"8 bytes per position and pair"``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {_describe(value)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {_short_int(value)}")
    if maximum is None and name in CEILINGS:
        maximum, cost = CEILINGS[name]
    if maximum is not None and value > maximum:
        why = f" ({cost})" if cost else ""
        raise ValueError(
            f"{name} must be at most {maximum} (the ceiling that keeps a call within ~2 GiB and ~10 s{why}), "
            f"got {_short_int(value)}"
        )
    return value


def check_work(units: int, limit: int, what: str) -> None:
    """Raise ValueError if a product of sizes (``units``, e.g. positions × pairs) exceeds ``limit``.

    ``what`` names the arguments and the unit, e.g. ``"length × d/2 (cosines evaluated)"``."""
    if units > limit:
        raise ValueError(
            f"{what} must be at most {limit} (~2 GiB and ~10 s on 2 cores), got {_short_int(units)}: "
            "reduce the arguments it is the product of"
        )


def check_tolerance(value: object, name: str) -> float:
    """Return a tolerance as a finite float >= 0, else raise."""
    t = check_real(value, name)
    if t < 0:
        raise ValueError(f"{name} must be a finite real number >= 0 (a tolerance), got {t}")
    return t


def _first_bad(arr: np.ndarray) -> tuple[int, ...]:
    """Index of the first non-finite entry of ``arr`` (C order)."""
    flat = int(np.argmin(np.isfinite(arr).ravel()))
    return tuple(int(i) for i in np.unravel_index(flat, arr.shape))


def all_finite(arr: np.ndarray) -> bool:
    """True if every entry of a numeric array is finite; one pass, no full-size temporary when
    the sum is finite (a NaN or ±inf entry makes the sum non-finite)."""
    if arr.dtype.kind not in "fc" or arr.size == 0:
        return True
    with np.errstate(over="ignore", invalid="ignore"):
        if arr.flags.c_contiguous and arr.dtype in _BLAS_DOT:
            # BLAS dot of the entries with themselves: about twice as fast as np.sum, and a NaN or
            # ±inf entry makes it non-finite (large finite entries may overflow it: then look closer)
            flat = arr.reshape(-1).view(_BLAS_DOT[arr.dtype])
            if np.isfinite(np.dot(flat, flat)):
                return True
        elif np.isfinite(np.sum(arr)):
            return True
    return bool(np.all(np.isfinite(arr)))


#: dtypes whose contiguous data np.dot hands to BLAS, with the real dtype to view them as
_BLAS_DOT = {
    np.dtype(np.float32): np.float32,
    np.dtype(np.float64): np.float64,
    np.dtype(np.complex64): np.float32,
    np.dtype(np.complex128): np.float64,
}


# --- attention inputs (shared by ropemath.attention.softmax and .linear) -------------------


def check_finite(arr: np.ndarray, name: str) -> None:
    """Raise ValueError naming ``name`` and the index of the first NaN/±inf entry of ``arr``."""
    if not all_finite(arr):
        index = _first_bad(arr)
        value = arr[index] if index else arr[()]
        where = f" at index {index[0] if len(index) == 1 else index}" if index else ""
        raise ValueError(f"{name} must contain only finite values, got {value}{where}")


def check_qk(q: object, k: object, positions: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate q, k of shape (N, d) and positions of shape (N,); return float64 copies."""
    q = check_x(q, "q")
    if q.ndim != 2 or q.shape[0] == 0:
        raise ValueError(f"q must have shape (N, d) with N >= 1, got shape {q.shape}")
    k = check_x(k, "k", d=q.shape[1])
    if k.shape != q.shape:
        raise ValueError(f"k must have the shape of q {q.shape}, got shape {k.shape}")
    positions = check_positions(positions, "positions")
    if positions.shape != (q.shape[0],):
        raise ValueError(f"positions must have shape ({q.shape[0]},), got shape {positions.shape}")
    check_finite(q, "q")
    check_finite(k, "k")
    return q.astype(np.float64), k.astype(np.float64), positions


def check_v(v: object, n: int) -> np.ndarray:
    """Validate v of shape (N, d_v) with d_v >= 1; return a float64 copy."""
    arr = as_array(v, "v")
    if arr.dtype.kind != "f":
        raise TypeError(f"v must be a real floating-point array of shape (N, d_v), got {_describe(arr)}")
    if arr.ndim != 2 or arr.shape[0] != n or arr.shape[1] == 0:
        raise ValueError(f"v must have shape ({n}, d_v) with d_v >= 1, got shape {arr.shape}")
    check_x(arr, "v", pairs=False)
    return arr.astype(np.float64)


def check_bool(value: object, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {_describe(value)}")
    return bool(value)


# --- context-extension factors -------------------------------------------------------------


def check_scale(scale: object, name: str = "scale") -> float:
    """Return ``scale`` as a float >= 1 (a context-extension factor L'/L)."""
    s = check_real(scale, name)
    if not 1 <= s <= 2**24:
        raise ValueError(f"{name} must be a real number in [1, 2**24] (the extension factor L'/L), got {s}")
    return s


def check_angles(phi: np.ndarray, m: object, theta: np.ndarray, names: str = "m and theta") -> np.ndarray:
    """Return the angles ``phi = m θ`` if all are finite, else raise naming the positions and frequencies."""
    if not all_finite(phi):
        largest_m = _magnitude(m)
        raise ValueError(
            f"{names} must keep m*theta finite in float64, got max |m| {largest_m:.3g} and largest theta "
            f"{float(np.max(theta)):.3g}"
        )
    return phi


# --- results: never NaN or inf from finite inputs --------------------------------------------


def _magnitude(value: object) -> float | None:
    """Largest |entry| of a real number or numeric array (None for anything else)."""
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        return None
    if isinstance(value, numbers.Real):
        try:
            return abs(float(value))
        except OverflowError:
            return float("inf")
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError):
        return None
    if arr.dtype.kind not in "iuf" or arr.size == 0:
        return None
    with np.errstate(over="ignore"):
        return float(np.max(np.abs(arr.astype(np.float64))))


def _result_finite(value: object) -> bool:
    """True if every number in a result (arrays, floats, tuples, lists, dicts, dataclasses) is finite."""
    if isinstance(value, np.ndarray):
        return all_finite(value)
    if isinstance(value, (float, complex, np.floating, np.complexfloating)):
        return bool(np.isfinite(value))
    if isinstance(value, dict):
        return all(_result_finite(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return all(_result_finite(v) for v in value)
    return True


def finite_result(result: R, function: str, **inputs: object) -> R:
    """Return ``result`` if every number in it (arrays, floats, tuples, lists, dicts) is finite.

    Otherwise raise the ValueError of :func:`not_finite_error` for ``function`` called with
    ``inputs`` (name -> value): finite inputs whose computation overflowed float64 are named with
    their magnitudes.
    """
    if _result_finite(result):
        return result
    raise not_finite_error(function, inputs)


def not_finite_error(function: str, arguments: dict[str, object]) -> ValueError:
    """The error for a non-finite result of ``function`` called with ``arguments`` (name -> value):
    a non-finite input entry is reported by name and index (raised here); otherwise the numeric
    arguments are named with their magnitudes (the computation overflowed)."""
    sizes = {}
    for pname, value in arguments.items():
        size = _magnitude(value)
        if size is None:
            continue
        if not np.isfinite(size):
            check_finite(np.asarray(value, dtype=np.float64), pname)
        sizes[pname] = size
    large = {k: v for k, v in sizes.items() if v > 1e30 or v < 1e-290}
    named = large or sizes
    text = ", ".join(f"{k} (largest |{k}| = {v:.3g})" for k, v in sorted(named.items(), key=lambda kv: -kv[1]))
    return ValueError(
        f"{text}: the result of {function} is not finite for these finite inputs "
        "(float64 overflow, or a division by a zero norm); scale the inputs into a normal range"
    )
