r"""Exercises that answer back: compare a reader's prediction with the computed answer.

Scope: the "predict, then run" exercises of the notebooks (00–11).  A reader writes
a prediction into a variable; :func:`check_answer` compares it with the answer the package
computes and either returns one line (``"exercise 1: correct"``) or raises :class:`WrongAnswer`
(an ``AssertionError``, so a wrong answer stops the notebook like a failing check) with a hint,
never with the answer itself — the notebook reveals that in a separate "reveal" cell further down.
The notebooks ship every prediction as ``...`` (Ellipsis, "no prediction yet"), for which the check
returns one line saying so and does not raise, so a notebook still runs from top to bottom without
showing the answer before the reader has predicted.  Numbers are compared
within a tolerance stated by the exercise (:math:`|a - e| \le \mathrm{tol}`), booleans and integers
exactly, text without regard to case or surrounding spaces, sequences entry by entry.

References: none (teaching convention of this project: predict, then run).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

__all__ = ["WrongAnswer", "check_answer"]


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
    ropemath.core.exercises.WrongAnswer: exercise 3: 3 is not what the computation gives. Hint: count the pairs
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
