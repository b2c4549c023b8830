r"""Teaching helpers: verdicts instead of rounding noise, and exercises that answer back.

Scope: :func:`verdict` / :func:`verdict_above` compare values with a bound stated before the
computation and return one line that does not depend on rounding (``"<what> ≤ <bound>: yes"``) or
raise ``AssertionError``; the last digits of a rounding error depend on the CPU's kernels, so a
notebook prints the verdict, not the digits.  Choose the bound with headroom: derived from the
analysis, or at least 10× above every value seen.  :func:`check_answer` compares a reader's
prediction with the computed answer ("predict, then run"): ``...`` means no prediction yet; a
wrong answer raises :class:`WrongAnswer` with a hint, never the answer.

References: none (conventions of this project's notebooks).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import _describe, as_array, check_positions

__all__ = ["WrongAnswer", "check_answer", "format_bound", "verdict", "verdict_above"]


def format_bound(bound: float | str) -> str:
    """Format a bound for a verdict line: strings are kept, numbers get 2 significant digits.

    >>> format_bound(1e-12), format_bound(0.5), format_bound("4·|m|·θ_i·2⁻⁵³")
    ('1e-12', '0.5', '4·|m|·θ_i·2⁻⁵³')
    """
    if isinstance(bound, str):
        return bound
    return f"{float(bound):.2g}"


def _values(values: npt.ArrayLike, what: str) -> np.ndarray:
    if not isinstance(what, str) or not what:
        raise TypeError(f"what must be a non-empty str, got {what!r}")
    raw = as_array(values, "values") if not isinstance(values, (str, bytes)) else np.asarray([values])
    if raw.dtype.kind not in "iuf":
        raise TypeError(f"values must be real numbers, got {_describe(values)}")
    arr = raw.astype(np.float64).ravel()
    if arr.size == 0:
        raise ValueError(f"{what}: values must not be empty")
    if not np.all(np.isfinite(arr)):
        raise AssertionError(f"{what}: non-finite value at index {int(np.flatnonzero(~np.isfinite(arr))[0])}")
    return arr


def _bound(bound: object, bound_text: object) -> np.ndarray:
    """The bound as finite float64 (scalar or array); ``bound_text`` must be a str or None."""
    if bound_text is not None and not isinstance(bound_text, str):
        raise TypeError(f"bound_text must be a str or None, got {_describe(bound_text)}")
    if isinstance(bound, (bool, np.bool_, str, bytes)) or bound is None:
        raise TypeError(f"bound must be a real number or an array of real numbers, got {_describe(bound)}")
    bound = check_positions(bound, "bound")
    if np.any(bound < 0):
        raise ValueError(f"bound must be >= 0 (a bound on errors), got {float(bound.min())}")
    return bound


def verdict(what: str, values: npt.ArrayLike, bound: npt.ArrayLike, *, bound_text: str | None = None) -> str:
    r"""Check :math:`v_j \le b_j` for every value (``bound`` broadcasts); return ``"<what> ≤ <bound>: yes"``.

    Raises ``AssertionError`` naming the first value over its bound (and by how much) otherwise.
    ``bound_text`` replaces the printed bound (e.g. a formula when ``bound`` is an array).

    >>> verdict("max |R^T R - I|", [2.2e-16, 1.1e-16], 1e-15)
    'max |R^T R - I| ≤ 1e-15: yes'
    >>> verdict("max |R^T R - I|", [2.2e-16, 3e-15], 1e-15)
    Traceback (most recent call last):
    AssertionError: max |R^T R - I| ≤ 1e-15: NO (value at index 1 is 3× the bound)
    """
    arr = _values(values, what)
    bound = _bound(bound, bound_text)
    try:
        b = np.broadcast_to(bound, arr.shape) if np.ndim(bound) else np.float64(bound)
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
    r"""Check :math:`v_j \ge b` for every value; return ``"<what> ≥ <bound>: yes"`` or raise ``AssertionError``.

    Use it for negative controls: a deliberately wrong variant whose error must be large.

    >>> verdict_above("error of the wrong sign", [0.8, 1.9], 0.1)
    'error of the wrong sign ≥ 0.1: yes'
    """
    arr = _values(values, what)
    bound = _bound(bound, bound_text)
    if bound.ndim:
        raise ValueError(f"bound must be one real number, got shape {bound.shape}")
    bound = float(bound)
    text = bound_text if bound_text is not None else format_bound(bound)
    under = arr < bound
    if np.any(under):
        j = int(np.flatnonzero(under)[0])
        raise AssertionError(f"{what} ≥ {text}: NO (value at index {j} is below the bound)")
    return f"{what} ≥ {text}: yes"


class WrongAnswer(AssertionError):
    """Raised by :func:`check_answer` when a prediction does not match; the message carries the hint."""


def _matches(answer: object, expected: object, tol: float) -> bool:
    if isinstance(expected, bool) or isinstance(answer, bool):
        return isinstance(answer, bool) and isinstance(expected, bool) and answer is expected
    if isinstance(expected, str):
        return isinstance(answer, str) and answer.strip().lower() == expected.strip().lower()
    if isinstance(expected, numbers.Real):
        if not isinstance(answer, numbers.Real):
            return False
        return abs(float(answer) - float(expected)) <= tol
    if isinstance(expected, Sequence) or hasattr(expected, "tolist"):
        exp = list(expected.tolist() if hasattr(expected, "tolist") else expected)
        if isinstance(answer, (str, bytes)) or not (isinstance(answer, Sequence) or hasattr(answer, "tolist")):
            return False
        ans = list(answer.tolist() if hasattr(answer, "tolist") else answer)
        return len(ans) == len(exp) and all(_matches(a, e, tol) for a, e in zip(ans, exp, strict=True))
    raise TypeError(f"expected must be a bool, a number, a str or a sequence of them, got {type(expected).__name__}")


def check_answer(name: str, answer: object, expected: object, *, tol: float = 0.0, hint: str = "") -> str:
    r"""Return ``"<name>: correct"`` if ``answer`` matches ``expected``, else raise :class:`WrongAnswer`.

    .. math:: |\text{answer} - \text{expected}| \le \mathrm{tol} \quad \text{(numbers; exact for bool, int, text)}

    ``answer`` is the reader's prediction, ``expected`` the value the notebook computes with the
    package; ``tol`` (≥ 0) is the slack an exercise allows for a number worked out by hand, and
    ``hint`` is shown when the answer is wrong.

    ``answer`` may be ``...`` (Ellipsis), the placeholder every notebook ships: then no comparison is
    made and the line ``"<name>: no prediction yet — replace ... with yours and re-run this cell"`` is
    returned (never "correct", never the answer; ``expected`` is still validated).  ``None`` is *not*
    a placeholder: it is what a reader gets from an expression that returns nothing (``answer_1 =
    print(x)``), so it raises :class:`WrongAnswer` ("no answer yet") like any other wrong answer.
    Source: project convention ("predict, then run").

    >>> check_answer("exercise 1", ..., 171.887, tol=1.0)
    'exercise 1: no prediction yet — replace ... with yours and re-run this cell'
    >>> check_answer("exercise 1", 172, 171.887, tol=1.0)
    'exercise 1: correct'
    >>> check_answer("exercise 2", " Same ", "same")
    'exercise 2: correct'
    >>> check_answer("exercise 3", 3, 4, hint="count the pairs")
    Traceback (most recent call last):
    ropemath.teaching.WrongAnswer: exercise 3: 3 is not what the computation gives. Hint: count the pairs
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str, got {name!r}")
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not tol >= 0 or tol == float("inf"):
        raise ValueError(f"tol must be a finite number >= 0, got {tol!r}")
    if answer is ...:
        _matches(expected, expected, float(tol))  # raises TypeError for an unsupported expected value
        return f"{name}: no prediction yet — replace ... with yours and re-run this cell"
    if answer is None:
        raise WrongAnswer(f"{name}: no answer yet — write your prediction into the variable and re-run")
    if _matches(answer, expected, float(tol)):
        return f"{name}: correct"
    tail = f" Hint: {hint}" if hint else ""
    raise WrongAnswer(f"{name}: {answer!r} is not what the computation gives.{tail}")
