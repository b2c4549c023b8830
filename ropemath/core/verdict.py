r"""Verdicts instead of rounding noise: state a bound, check every value against it, print "yes".

Scope: the one way notebooks and command-line summaries report a numeric check.  The last digits
of a rounding error (an error of 4.4e-16, a residual of a sum) depend on the CPU's SIMD kernels,
the BLAS kernel and fused multiply-add, so printing them makes stored outputs machine-dependent
and teaches nothing.  :func:`verdict` compares values with a bound stated *before* the
computation, raises ``AssertionError`` (failing the notebook's execution, not only the text
comparison) when a value exceeds it, and returns one line of text that does not depend on the
rounding: ``"<what> ≤ <bound>: yes"``.  :func:`verdict_above` is the mirror image (a quantity
that must be at least a bound, e.g. a wrong variant that must fail).

Choose the bound with headroom: derived from the analysis (e.g. :math:`4|m|\theta_i 2^{-53}`)
or an order of magnitude at least 10× above every value seen under any numeric configuration.

References: none (project convention; see README, "Why the notebooks pass on your machine").
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import _describe, as_array, check_positions, finite_result

__all__ = ["format_bound", "verdict", "verdict_above"]


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


@finite_result
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
        ratio = arr[j] / limit if limit > 0 else np.inf
        raise AssertionError(f"{what} ≤ {text}: NO (value at index {j} is {ratio:.2g}× the bound)")
    return f"{what} ≤ {text}: yes"


@finite_result
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
