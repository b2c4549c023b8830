r"""Teaching helpers: verdicts against a stated bound instead of rounding noise, and exercises
("predict, then run": :func:`check_answer` for the reader's prediction, :func:`reveal` for the answer).

References: none (conventions of this project's notebooks).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import _describe, as_array, check_real_array

if TYPE_CHECKING:
    import sympy

__all__ = ["WrongAnswer", "check_answer", "format_bound", "verdict", "verdict_above"]

# ropemath.theory.encodings names positions i, j, frequencies omega and a 2x2 block's entries a, b, c, e
COURSE_NAMES = {"i": "m", "j": "n", "x_i": "x_m", "x_j": "x_n", "p_i": "p_m", "p_j": "p_n", "omega": "theta",
                "omega_0": "theta_0", "omega_1": "theta_1", "a": "alpha", "b": "beta", "c": "gamma", "e": "delta"}


def format_bound(bound: float | str) -> str:
    """Format a bound for a verdict line: strings are kept, numbers get 2 significant digits.

    >>> format_bound(1e-12), format_bound(0.5), format_bound("4·|m|·θ_i·2⁻⁵³")
    ('1e-12', '0.5', '4·|m|·θ_i·2⁻⁵³')
    """
    return bound if isinstance(bound, str) else f"{float(bound):.2g}"


def _checked(what: str, values: npt.ArrayLike, bound: object, bound_text: object) -> tuple[np.ndarray, np.ndarray]:
    """The values (finite float64, flattened) and the bound (float64, >= 0) of a verdict."""
    if not isinstance(what, str) or not what:
        raise TypeError(f"what must be a non-empty str, got {what!r}")
    if bound_text is not None and not isinstance(bound_text, str):
        raise TypeError(f"bound_text must be a str or None, got {_describe(bound_text)}")
    raw = as_array(values, "values")
    if raw.dtype.kind not in "iuf":
        raise TypeError(f"values must be real numbers, got {_describe(values)}")
    arr = raw.astype(np.float64).ravel()
    if arr.size == 0:
        raise ValueError(f"{what}: values must not be empty")
    if not np.all(np.isfinite(arr)):
        raise AssertionError(f"{what}: non-finite value at index {int(np.flatnonzero(~np.isfinite(arr))[0])}")
    if isinstance(bound, (bool, np.bool_, str, bytes)) or bound is None:
        raise TypeError(f"bound must be a real number or an array of real numbers, got {_describe(bound)}")
    bound = check_real_array(bound, "bound")
    if np.any(bound < 0):
        raise ValueError(f"bound must be >= 0 (a bound on errors), got {float(bound.min())}")
    return arr, bound


def verdict(what: str, values: npt.ArrayLike, bound: npt.ArrayLike, *, bound_text: str | None = None) -> str:
    r"""Check :math:`v_j \le b_j` for every value (``bound`` broadcasts); return ``"<what> ≤ <bound>: yes"``.

    Raises ``AssertionError`` naming the first value over its bound otherwise; ``bound_text``
    replaces the printed bound (e.g. a formula when ``bound`` is an array).

    >>> verdict("max |R^T R - I|", [2.2e-16, 1.1e-16], 1e-15)
    'max |R^T R - I| ≤ 1e-15: yes'
    """
    arr, bound = _checked(what, values, bound, bound_text)
    try:
        b = np.broadcast_to(bound, arr.shape)
    except ValueError:
        raise ValueError(f"bound must broadcast to the values' shape {arr.shape}, got shape {bound.shape}") from None
    text = bound_text if bound_text is not None else format_bound(float(np.max(b)) if np.ndim(b) else float(b))
    over = arr > b
    if np.any(over):
        j = int(np.flatnonzero(over)[0])
        limit = float(b[j]) if np.ndim(b) else float(b)
        ratio = arr[j] / limit if limit > arr[j] * 1e-300 else np.inf
        raise AssertionError(f"{what} ≤ {text}: NO (value at index {j} is {ratio:.2g}× the bound)")
    return f"{what} ≤ {text}: yes"


def verdict_above(what: str, values: npt.ArrayLike, bound: float, *, bound_text: str | None = None) -> str:
    r"""Check :math:`v_j \ge b` for every value (a wrong variant whose error must be large).

    >>> verdict_above("error of the wrong sign", [0.8, 1.9], 0.1)
    'error of the wrong sign ≥ 0.1: yes'
    """
    arr, bound = _checked(what, values, bound, bound_text)
    if bound.ndim:
        raise ValueError(f"bound must be one real number, got shape {bound.shape}")
    text = bound_text if bound_text is not None else format_bound(float(bound))
    under = np.flatnonzero(arr < bound)
    if under.size:
        raise AssertionError(f"{what} ≥ {text}: NO (value at index {int(under[0])} is below the bound)")
    return f"{what} ≥ {text}: yes"


class WrongAnswer(AssertionError):
    """A prediction that does not match (raised by :func:`check_answer`); the message carries the hint."""


def _matches(answer: object, expected: object, tol: float) -> bool:
    if isinstance(expected, bool) or isinstance(answer, bool):
        return isinstance(answer, bool) and isinstance(expected, bool) and answer is expected
    if isinstance(expected, str):
        return isinstance(answer, str) and answer.strip().lower() == expected.strip().lower()
    if isinstance(expected, numbers.Real):
        return isinstance(answer, numbers.Real) and abs(float(answer) - float(expected)) <= tol
    if isinstance(expected, Sequence) or hasattr(expected, "tolist"):
        if isinstance(answer, (str, bytes)) or not (isinstance(answer, Sequence) or hasattr(answer, "tolist")):
            return False
        exp, ans = (list(v.tolist() if hasattr(v, "tolist") else v) for v in (expected, answer))
        return len(ans) == len(exp) and all(_matches(a, e, tol) for a, e in zip(ans, exp, strict=True))
    raise TypeError(f"expected must be a bool, a number, a str or a sequence of them, got {type(expected).__name__}")


def check_answer(name: str, answer: object, expected: object, *, tol: float = 0.0, hint: str = "") -> str:
    r"""Return ``"<name>: correct"`` if ``answer`` matches ``expected``, else raise :class:`WrongAnswer`.

    .. math:: |\text{answer} - \text{expected}| \le \mathrm{tol} \quad \text{(numbers; exact for bool, int, text)}

    ``expected`` is what the notebook computes; ``hint`` is shown when the answer is wrong, never the
    answer.  ``...`` (the placeholder notebooks ship) is "no prediction yet"; ``None`` is wrong.

    >>> check_answer("exercise 1", ..., 171.887, tol=1.0)
    'exercise 1: no prediction yet — replace ... with yours and re-run this cell'
    >>> check_answer("exercise 1", 172, 171.887, tol=1.0)
    'exercise 1: correct'
    >>> check_answer("exercise 3", 3, 4, hint="count the pairs")
    Traceback (most recent call last):
    ropemath.teaching.WrongAnswer: exercise 3: 3 is not what the computation gives. Hint: count the pairs
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str, got {name!r}")
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not 0 <= tol < float("inf"):
        raise ValueError(f"tol must be a finite number >= 0, got {tol!r}")
    if answer is ...:
        _matches(expected, expected, float(tol))  # raises TypeError for an unsupported expected value
        return f"{name}: no prediction yet — replace ... with yours and re-run this cell"
    if answer is None:
        raise WrongAnswer(f"{name}: no answer yet — write your prediction into the variable and re-run")
    if _matches(answer, expected, float(tol)):
        return f"{name}: correct"
    raise WrongAnswer(f"{name}: {answer!r} is not what the computation gives." + (f" Hint: {hint}" if hint else ""))


def reveal(name: str, answer: object, expected: object, reason: str, *, tol: float = 0.0) -> str:
    """``"<name>: <answer> — <reason>"`` once the reference ``answer`` matches ``expected`` (else WrongAnswer).

    >>> reveal("exercise 2", 62.83, 20 * np.pi, "2 pi / 0.1 positions", tol=0.05)
    'exercise 2: 62.83 — 2 pi / 0.1 positions'
    """
    if not isinstance(reason, str) or not reason:
        raise TypeError(f"reason must be a non-empty str, got {reason!r}")
    check_answer(name, answer, expected, tol=tol)
    return f"{name}: {answer} — {reason}"


def course_notation(expr: sympy.Basic) -> sympy.Basic:
    """Rename the symbols of ``ropemath.theory.encodings`` for display: positions i, j → m, n, ω → θ.

    Renaming only (:data:`COURSE_NAMES`); every symbol keeps its shape and assumptions.

    >>> import sympy as sp
    >>> i, j = sp.symbols("i j", real=True)
    >>> course_notation(sp.cos((i - j) * sp.Symbol("omega", positive=True)))
    cos(theta*(m - n))
    """
    import sympy as sp

    if not isinstance(expr, sp.Basic):
        raise TypeError(f"expr must be a sympy expression, got {type(expr).__name__}")
    swap = {s: (sp.MatrixSymbol(COURSE_NAMES[s.name], *s.shape) if isinstance(s, sp.MatrixSymbol)
                else sp.Symbol(COURSE_NAMES[s.name], **s.assumptions0))
            for s in expr.free_symbols if getattr(s, "name", None) in COURSE_NAMES}
    return expr.xreplace(swap)
