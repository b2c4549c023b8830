"""Input checks shared by every public function of ropemath.

Each check returns the argument converted (an int, a float, a float64 array) or raises, in one line
``"<param> must be <expectation>, got <what was given>"``, a ``TypeError`` (wrong kind of value) or a
``ValueError`` (right kind, wrong value).  :func:`finite_result` checks a result instead: NaN or ±inf from
finite inputs becomes a ``ValueError`` naming the inputs.

References: the contract these checks implement, kind by kind, is ``book/input-contract.md``.
"""

from __future__ import annotations

import numbers
from typing import TypeVar

import numpy as np

LAYOUTS = ("interleaved", "half")

#: largest dimension d accepted by functions that work per pair (frequencies, elementwise RoPE)
MAX_D = 2**16
#: largest magnitude of a vector entry: products of up to four entries, summed over d, stay finite in float64
MAX_ABS = 1e50
#: the range of bases and frequencies: their reciprocals, wavelengths and angles stay finite in float64
RANGE = (1e-100, 1e100)

#: Work ceilings by parameter name, applied by :func:`check_int` unless a call passes its own:
#: (maximum, what the argument costs).  Each keeps a call within ~2 GiB and ~10 s on 2 cores.
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

R = TypeVar("R")


def _describe(value: object) -> str:
    """Short description of a value for error messages."""
    if isinstance(value, np.ndarray):
        return f"array of dtype {value.dtype} and shape {value.shape}"
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and len(str(value)) > 20:
        return f"an integer of {len(str(value))} digits"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def as_array(value: object, name: str, dtype: object = None) -> np.ndarray:
    """``np.asarray(value, dtype)``, or a ValueError naming ``name`` for a ragged nested list."""
    try:
        return np.asarray(value, dtype=dtype)
    except ValueError:
        raise ValueError(f"{name} must be a rectangular array (equal lengths along each axis), "
                         f"got {_describe(value)}") from None


def check_int(
    value: object, name: str, *, minimum: int | None = None, maximum: int | None = None, cost: str | None = None
) -> int:
    """Return ``value`` as an int (not bool) in ``[minimum, maximum]``, else raise.

    ``maximum`` is a work ceiling (default: :data:`CEILINGS` by name); ``cost`` says what one unit costs."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {_describe(value)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    if maximum is None and name in CEILINGS:
        maximum, cost = CEILINGS[name]
    if maximum is not None and value > maximum:
        why = f" ({cost})" if cost else ""
        got = value if len(str(value)) <= 20 else _describe(value)
        raise ValueError(f"{name} must be at most {maximum} (the ceiling that keeps a call within ~2 GiB and ~10 s"
                         f"{why}), got {got}")
    return value


def check_d(d: object, name: str = "d", *, maximum: int = MAX_D) -> int:
    """Return ``d`` as a Python int if it is a positive even integer <= ``maximum``, else raise."""
    if isinstance(d, (bool, np.bool_)) or not isinstance(d, numbers.Integral):
        raise TypeError(f"{name} must be a positive even integer, got {_describe(d)}")
    got = int(d) if len(str(int(d))) <= 20 else _describe(d)
    if d <= 0 or d % 2:
        raise ValueError(f"{name} must be a positive even integer, got {got}")
    if d > maximum:
        raise ValueError(f"{name} must be a positive even integer <= {maximum}, got {got}")
    return int(d)


def check_real(value: object, name: str, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """Return ``value`` as a finite Python float in ``[minimum, maximum]``, else raise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {_describe(value)}")
    try:
        value = float(value)
    except OverflowError:
        raise ValueError(f"{name} must be a finite real number, got {_describe(value)}") from None
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        bounds = f">= {minimum:.15g}" if maximum is None else f"in [{minimum:.15g}, {maximum:.15g}]"
        raise ValueError(f"{name} must be a finite real number {bounds}, got {value}")
    return value


def check_base(base: object, name: str = "base") -> float:
    """Return ``base`` as a float if it is a real number in :data:`RANGE`, else raise."""
    try:
        value = check_real(base, name)
    except (TypeError, ValueError) as exc:  # the same error, stating what a base must be
        raise type(exc)(f"{name} must be a finite real number > 0, got {str(exc).split(', got ', 1)[1]}") from None
    if value <= 0:
        raise ValueError(f"{name} must be a finite real number > 0, got {value}")
    if not RANGE[0] <= value <= RANGE[1]:
        raise ValueError(f"{name} must be in [{RANGE[0]:.0e}, {RANGE[1]:.0e}] (its frequencies then stay finite), "
                         f"got {value}")
    return value


def check_scale(scale: object, name: str = "scale") -> float:
    """Return a context-extension factor L'/L as a float in [1, 2**24], else raise."""
    return check_real(scale, name, minimum=1.0, maximum=2.0**24)


def check_real_array(value: object, name: str, *, broadcast_to: tuple[int, ...] | None = None) -> np.ndarray:
    """Return finite reals (positions, distances, any real data) as a float64 array, else raise.

    ``broadcast_to``: the batch shape the array must broadcast to exactly (positions for vectors
    of shape ``broadcast_to + (d,)``).
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {_describe(value)}")
    arr = as_array(value, name)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {_describe(value)}")
    try:
        arr = arr.astype(np.float64, copy=False)
    except OverflowError:
        raise ValueError(f"{name} must contain only finite values, got an integer beyond float range") from None
    check_finite(arr, name)
    if broadcast_to is not None:
        try:
            shape = np.broadcast_shapes(arr.shape, broadcast_to)
        except ValueError:
            shape = None
        if shape != tuple(broadcast_to):
            raise ValueError(f"{name} must be broadcastable to x.shape[:-1]={tuple(broadcast_to)}, "
                             f"got shape {arr.shape}")
    return arr


def check_frequencies(theta: object, name: str = "theta", *, d: int | None = None) -> np.ndarray:
    """Return frequencies as a float64 vector (of length ``d/2`` if ``d`` is given) with entries in :data:`RANGE`."""
    arr = check_real_array(theta, name)
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
    """Return vectors as a floating ndarray of shape (..., d), d > 0 and even if ``pairs``, else raise.

    Integer, boolean and complex arrays are rejected: RoPE acts on real vectors and the result has
    the input's floating dtype.  ``finite``: entries must be finite and at most :data:`MAX_ABS` in
    magnitude (functions that check their result with :func:`finite_result` pass False and read the
    input once less).  ``min_norm``: the vector's norm must reach it (a result relative to the norm).
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError):
        arr = None
    if arr is None or arr.dtype.kind != "f":
        raise TypeError(f"{name} must be a real floating-point array (float16/32/64), got {_describe(x)}")
    if arr.ndim == 0:
        raise ValueError(f"{name} must have at least one axis (shape (..., d)), got a scalar")
    if d is not None and arr.shape[-1] != d:
        raise ValueError(f"{name} must have last axis of length d={d}, got shape {arr.shape}")
    if arr.shape[-1] == 0 or (pairs and arr.shape[-1] % 2):
        even = " even" if pairs else ""
        raise ValueError(f"{name} must have a positive{even} last axis (pairs of coordinates), got shape {arr.shape}")
    if finite:
        check_finite(arr, name)
        largest = float(np.max(np.abs(arr))) if arr.size else 0.0
        if largest > MAX_ABS:
            raise ValueError(f"{name} must have entries of magnitude at most {MAX_ABS:.0e} (products of such "
                             f"vectors then stay finite in float64), got largest |{name}| = {largest:.3g}")
        if min_norm and not (largest and np.linalg.norm(arr / largest) * largest >= min_norm):
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


def check_finite(arr: np.ndarray, name: str) -> None:
    """Raise ValueError naming ``name`` and the index of the first NaN/±inf entry of ``arr``."""
    if all_finite(arr):
        return
    index = tuple(int(i) for i in np.unravel_index(int(np.argmin(np.isfinite(arr))), arr.shape))
    where = f" at index {index[0] if len(index) == 1 else index}" if index else ""
    raise ValueError(f"{name} must contain only finite values, got {arr[index]}{where}")


def all_finite(value: object) -> bool:
    """True if every number in ``value`` (an array, a float, or tuples, lists and dicts of them) is finite."""
    if isinstance(value, dict):
        return all(all_finite(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return all(all_finite(v) for v in value)
    if isinstance(value, (float, complex, np.floating, np.complexfloating)):
        return bool(np.isfinite(value))
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "fc" or value.size == 0:
        return True
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(np.sum(value)):  # one pass, no temporary: a NaN or ±inf entry makes the sum non-finite
            return True
    return bool(np.all(np.isfinite(value)))  # an entry is not finite, or the sum of finite ones overflowed


def finite_result(result: R, function: str, **inputs: object) -> R:
    """Return ``result`` if every number in it is finite, else raise a ValueError naming the inputs.

    A non-finite input array entry is named with its index; otherwise the numeric ``inputs`` of
    ``function`` are named with their magnitudes (the computation overflowed float64 for them).
    """
    if all_finite(result):
        return result
    sizes = {}
    for name, value in inputs.items():
        if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
            continue
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            continue
        if arr.size == 0:
            continue
        size = float(np.max(np.abs(arr)))
        if not np.isfinite(size):
            check_finite(arr, name)
        sizes[name] = size
    large = {k: v for k, v in sizes.items() if v > 1e30 or v < 1e-290} or sizes
    text = ", ".join(f"{k} (largest |{k}| = {v:.3g})" for k, v in sorted(large.items(), key=lambda kv: -kv[1]))
    raise ValueError(f"{text}: the result of {function} is not finite for these finite inputs "
                     "(float64 overflow, or a division by a zero norm); scale the inputs into a normal range")
