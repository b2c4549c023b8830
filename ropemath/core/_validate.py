"""Input validation shared by every public function of ropemath.

Scope: one place that turns bad arguments into a clear ``TypeError`` (wrong kind of
value) or ``ValueError`` (right kind, wrong value) whose message names the parameter
and says what was expected.  Public functions call these checks first, so a user
never sees a silent NaN, a wrong shape or a traceback from deep inside numpy.

Every message has the form ``"<param> must be <expectation>, got <what was given>"``.

References: none (project convention).
"""

from __future__ import annotations

import numbers

import numpy as np

LAYOUTS = ("interleaved", "half")


def _describe(value: object) -> str:
    """Short description of a value for error messages."""
    if isinstance(value, np.ndarray):
        return f"array of dtype {value.dtype} and shape {value.shape}"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def check_d(d: object, name: str = "d") -> int:
    """Return ``d`` as a Python int if it is a positive even integer, else raise."""
    if isinstance(d, (bool, np.bool_)) or not isinstance(d, numbers.Integral):
        raise TypeError(f"{name} must be a positive even integer, got {_describe(d)}")
    d = int(d)
    if d <= 0 or d % 2:
        raise ValueError(f"{name} must be a positive even integer, got {d}")
    return d


def check_real(value: object, name: str) -> float:
    """Return ``value`` as a finite Python float, else raise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {_describe(value)}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


def check_base(base: object, name: str = "base") -> float:
    """Return ``base`` as a float if it is a finite real number > 0, else raise."""
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, numbers.Real):
        raise TypeError(f"{name} must be a finite real number > 0, got {_describe(base)}")
    value = float(base)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite real number > 0, got {value}")
    return value


def check_positions(m: object, name: str = "m") -> np.ndarray:
    """Return positions as a float64 array (any shape) if all are finite reals, else raise.

    Integer and floating inputs are accepted (fractional positions are meaningful for
    interpolation schemes); booleans, complex numbers, strings and objects are not.
    """
    if isinstance(m, (bool, np.bool_)):
        raise TypeError(f"{name} must be a real number or an array of real numbers, got {_describe(m)}")
    arr = np.asarray(m)
    if arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} must be a real number or an array of real numbers, got {_describe(m)}"
        )
    arr = arr.astype(np.float64, copy=False)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got non-finite entries")
    return arr


def check_x(x: object, name: str = "x", *, d: int | None = None) -> np.ndarray:
    """Return ``x`` as a floating ndarray of shape (..., d) with even d > 0, else raise.

    Integer, boolean and complex arrays are rejected: RoPE acts on real vectors and the
    result must have the input's floating dtype.
    """
    arr = np.asarray(x)
    if arr.dtype.kind != "f":
        raise TypeError(
            f"{name} must be a real floating-point array (float16/32/64), got {_describe(arr)}"
        )
    if arr.ndim == 0:
        raise ValueError(f"{name} must have at least one axis (shape (..., d)), got a scalar")
    last = arr.shape[-1]
    if d is not None and last != d:
        raise ValueError(f"{name} must have last axis of length d={d}, got shape {arr.shape}")
    if last == 0 or last % 2:
        raise ValueError(
            f"{name} must have a positive even last axis (pairs of coordinates), got shape {arr.shape}"
        )
    return arr


def check_layout(layout: object, name: str = "layout") -> str:
    """Return ``layout`` if it is one of :data:`LAYOUTS`, else raise."""
    if not isinstance(layout, str):
        raise TypeError(f"{name} must be one of {LAYOUTS}, got {_describe(layout)}")
    if layout not in LAYOUTS:
        raise ValueError(f"{name} must be one of {LAYOUTS}, got {layout!r}")
    return layout


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


def check_int(value: object, name: str, *, minimum: int | None = None) -> int:
    """Return ``value`` as an int (not bool) that is >= ``minimum``, else raise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {_describe(value)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return value


# --- attention inputs (shared by ropemath.attention.softmax and .linear) -------------------


def check_finite(arr: np.ndarray, name: str) -> None:
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values, got non-finite entries")


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
    arr = np.asarray(v)
    if arr.dtype.kind != "f":
        raise TypeError(f"v must be a real floating-point array of shape (N, d_v), got {_describe(arr)}")
    if arr.ndim != 2 or arr.shape[0] != n or arr.shape[1] == 0:
        raise ValueError(f"v must have shape ({n}, d_v) with d_v >= 1, got shape {arr.shape}")
    check_finite(arr, "v")
    return arr.astype(np.float64)


def check_bool(value: object, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {_describe(value)}")
    return bool(value)


# --- context-extension factors -------------------------------------------------------------


def check_scale(scale: object, name: str = "scale") -> float:
    """Return ``scale`` as a float >= 1 (a context-extension factor L'/L)."""
    s = check_real(scale, name)
    if s < 1:
        raise ValueError(f"{name} must be a real number >= 1 (the extension factor L'/L), got {s}")
    return s
