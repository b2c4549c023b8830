r"""How a check turns what it measured into an :class:`~ropemath.claims.ledger.Outcome` (every ``checks_*`` module).

:func:`identity`, :func:`refuted`, :func:`conditional` (``holds-if``) and stable formatting (no rounding-level
digits are ever printed).

References: none (project convention).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ropemath.claims.ledger import Outcome

TOL = 1e-12  # relative residual below which a floating-point identity counts as exact
GAP = 1e-6  # difference above which two sides of a counterexample count as different


def res(x: float) -> str:
    """Render a residual stably: ``< 1e-9`` at or below 1e-9 (a printing threshold, not a verdict), else 2 digits.

    >>> res(0.0), res(2.2e-16), res(3.1e-13), res(0.25)
    ('< 1e-9', '< 1e-9', '< 1e-9', '2.5e-01')
    """
    return "< 1e-9" if abs(float(x)) <= 1e-9 else f"{abs(float(x)):.1e}"


def within_tol(x: float, tol: float = TOL) -> str:
    """Render a residual against the tolerance actually used, never with rounding-level digits.

    >>> within_tol(2.2e-16), within_tol(3e-11), within_tol(0.25)
    ('within the tolerance 1e-12', '< 1e-9 but above the tolerance 1e-12', '2.5e-01 (tolerance 1e-12)')
    """
    x = abs(float(x))
    if x <= tol:
        return f"within the tolerance {tol:.0e}"
    if x <= 1e-9:
        return f"< 1e-9 but above the tolerance {tol:.0e}"
    return f"{res(x)} (tolerance {tol:.0e})"


def num(x: Any, digits: int = 4) -> Any:
    """Round a number (or nested list/array of numbers) to ``digits`` decimals as plain Python floats.

    >>> num(np.array([np.pi, -0.0]))
    [3.1416, 0.0]
    """
    if isinstance(x, (list, tuple, np.ndarray)):
        return [num(v, digits) for v in np.asarray(x, dtype=float).tolist()]
    value = round(float(x), digits)
    return 0.0 if value == 0 else value


def identity(residual: float, what: str, tol: float = TOL) -> Outcome:
    """``holds`` if ``residual <= tol`` else ``fails``; the evidence names what was compared.

    >>> identity(1e-16, "R^T R = I").verdict, identity(0.5, "x = y").verdict
    ('holds', 'fails')
    """
    verdict = "holds" if residual <= tol else "fails"
    return Outcome(verdict, f"{what}: largest residual {within_tol(residual, tol)}.")


def refuted(
    stated: float, actual: float, inputs: dict[str, Any], correction_residual: float, what: str, *, tol: float = TOL
) -> Outcome:
    """Outcome of testing a stated formula on one counterexample, plus the correction's residual.

    >>> o = refuted(0.0, 0.8415, {"m": 1}, 0.0, "q^T R_{m-n} k")
    >>> o.verdict, o.counterexample["stated"], o.correction_holds
    ('fails', 0.0, True)
    """
    verdict = "fails" if abs(stated - actual) > GAP else "holds"
    ok, at = bool(correction_residual <= tol), ", ".join(f"{key} = {value}" for key, value in inputs.items())
    evidence = (
        f"{what}: at {at} the stated formula gives {num(stated)} but the true value is {num(actual)}. "
        f"Correction checked: residual {within_tol(correction_residual, tol)} ({'holds' if ok else 'does NOT hold'})."
    )
    example = {**inputs, "stated": num(stated), "actual": num(actual)}
    return Outcome(verdict, evidence, example, ok)


def conditional(broken_outside: bool, holds_inside: bool, counterexample: dict[str, Any], evidence: str) -> Outcome:
    """``holds-if`` when the statement breaks outside its condition and holds inside it.

    >>> conditional(True, True, {"d": 8}, "...").verdict, conditional(False, True, {}, "...").verdict
    ('holds-if', 'holds')
    """
    verdict = "holds" if not broken_outside else "holds-if" if holds_inside else "fails"
    return Outcome(verdict, evidence, counterexample)


def refutation_outcome(r: Any, *, proof: bool = False) -> Outcome:
    """``fails`` iff the sympy refutation ``r`` refutes its claim; the counterexample is its exact substitution."""
    from ropemath.symbolic.common import is_zero  # sympy: imported only when a check needs it

    example = {"values": r.values_text(), "true side": str(r.lhs_value), "stated formula": str(r.claim_value)}
    evidence = (
        f"sympy refutation '{r.name}': {r.summary()}. Correct form ${r.correct.latex}$ proved by sympy "
        f"({'holds' if r.correct.holds else 'FAILS'}); the stated form holds {r.holds_when}."
    )
    holds = not r.refuted and (not proof or is_zero(r.lhs - r.claim))
    return Outcome("holds" if holds else "fails", evidence, example, bool(r.correct.holds))


def max_diff(a: np.ndarray, b: np.ndarray) -> float:
    r""":math:`\max_j |a_j - b_j|`, the largest entrywise difference of two arrays.

    >>> max_diff(np.array([1.0, 2.0]), np.array([1.5, 2.0]))
    0.5
    """
    return float(np.max(np.abs(a - b)))


def shift_change(score: Callable[[np.ndarray], np.ndarray], positions: np.ndarray, shift: float) -> float:
    r""":math:`\max|s(p) - s(p + c)| / \max|s(p)|`: how much ``score`` changes when every position moves by c.

    >>> shift_change(lambda p: p[:, None] - p[None, :], np.arange(3.0), 5.0)
    0.0
    >>> shift_change(lambda p: p[:, None] + p[None, :], np.arange(3.0), 5.0)
    2.5
    """
    a, b = np.asarray(score(positions)), np.asarray(score(positions + shift))
    return float(np.max(np.abs(a - b)) / np.max(np.abs(a)))

