"""Generated bad input for every public callable: a clear error naming the parameter, or a finite result.

The cases come from the signatures (``tests/signature_inputs.py``): for each public function and
each of its parameters, hypothesis picks a bad value of that parameter's kind — NaN/±inf inside
arrays (at a drawn index), huge and tiny values, empty and wrongly shaped arrays, wrong types,
out-of-range counts and tolerances — and calls the function with every other argument valid.
The call must, within :data:`TIME_LIMIT` seconds, either return a result whose every number is
finite, or raise ``ValueError``/``TypeError`` whose message names the parameter.  Values that are
nonsense for their kind (NaN, wrong types, negative counts, counts beyond the documented ceilings)
must raise.  The input contract is book/input-contract.md.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import signal
import warnings

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from signature_inputs import (
    EXEMPT,
    NOT_YET_FUZZED,
    VALID,
    bad_values,
    call,
    parameters,
    public_callables,
    valid_arguments,
)

import ropemath

TIME_LIMIT = 10  # seconds per call; the ceilings keep every in-range call far below a minute

CALLABLES = dict(public_callables())
_CACHE = ropemath.RopeCache(VALID["d"], max_position=16, base=10000.0)
CALLABLES["RopeCache.apply"] = _CACHE.apply


def _all_finite(value: object) -> bool:
    """True if every number inside ``value`` (arrays, scalars, containers, dataclasses) is finite."""
    if isinstance(value, np.ndarray):
        return value.dtype.kind not in "fc" or bool(np.all(np.isfinite(value)))
    if isinstance(value, (float, complex, np.floating, np.complexfloating)):
        return bool(np.isfinite(value))
    if isinstance(value, dict):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return all(_all_finite(v) for v in value)
    if dataclasses.is_dataclass(value):
        return all(_all_finite(getattr(value, f.name)) for f in dataclasses.fields(value))
    return True  # ints, strings, sympy expressions, None


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def run_case(name: str, param: str, value: object, must_raise: bool) -> str | None:
    """Call ``name`` with ``param=value`` (everything else valid); return a failure text or None."""
    fn = CALLABLES[name]
    args = dict(valid_arguments(name, fn))
    args[param] = value
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a RuntimeWarning (overflow, invalid value) is a failure too
            result = call(fn, args)
    except AssertionError as exc:
        if name.startswith("verdict"):  # a verdict's "no" (NaN values, a value over the bound) is its answer
            return None
        return f"AssertionError: {exc}"
    except (ValueError, TypeError) as exc:
        if not re.search(rf"(?<![A-Za-z0-9_]){re.escape(param)}(?![A-Za-z0-9_])", str(exc)):
            return f"{type(exc).__name__} does not name {param!r}: {exc}"
        if "\n" in str(exc):
            return f"message spans several lines: {exc!r}"
        return None
    except _Timeout:
        return f"no answer within {TIME_LIMIT} s"
    except Exception as exc:  # noqa: BLE001 - every other exception is the failure being tested for
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    if must_raise:
        return f"accepted and returned {type(result).__name__}"
    if isinstance(result, sympy.Basic):
        return None
    if not _all_finite(result):
        return "returned non-finite numbers without an error"
    return None


def _valid_value(name: str, param: inspect.Parameter) -> object:
    """The valid value the generator perturbs: the function's own valid argument, else its default."""
    args = valid_arguments(name, CALLABLES[name])
    if param.name in args:
        return args[param.name]
    if param.default is not param.empty and param.default is not None:
        return param.default
    return VALID.get(param.name)


def cases_of(name: str) -> list[tuple[str, str, object, bool]]:
    """Every listed (param, label, value, must_raise) for callable ``name``."""
    out = []
    for p in parameters(CALLABLES[name]):
        exempt = EXEMPT.get((name, p.name), (set(), ""))[0]
        for label, value, must_raise in bad_values(p.name, _valid_value(name, p), p.default):
            if label not in exempt:
                out.append((p.name, label, value, must_raise))
    return out


def test_the_unfuzzed_list_only_names_public_callables():
    """NOT_YET_FUZZED may only shrink: each entry is still a public callable (a renamed or removed one fails here)."""
    assert all(callable(getattr(ropemath, name, None)) and name in ropemath.__all__ for name in NOT_YET_FUZZED)
    assert len(NOT_YET_FUZZED) <= 20


def test_every_public_callable_has_valid_arguments():
    """The generator knows every parameter name of the public API (a new name must be given a kind)."""
    for name, fn in CALLABLES.items():
        args = valid_arguments(name, fn)
        call(fn, args)  # the valid call succeeds
        assert cases_of(name) or not parameters(fn), name


def _drawn_case(name: str, data: st.DataObject) -> tuple[str, str, object, bool]:
    """A listed bad value, with NaN/±inf moved to a drawn index, or a drawn float for a scalar."""
    param, label, value, must_raise = data.draw(st.sampled_from(cases_of(name)), label="case")
    p = next(q for q in parameters(CALLABLES[name]) if q.name == param)
    valid = _valid_value(name, p)
    if label in ("nan", "inf", "-inf") and isinstance(value, np.ndarray) and np.size(valid) > 1:
        value = np.array(valid, dtype=np.float64)
        index = data.draw(st.integers(0, value.size - 1), label="index")
        value.flat[index] = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf}[label]
        label = f"{label} at flat index {index}"
    elif isinstance(valid, float) and data.draw(st.booleans(), label="draw a float"):
        value = data.draw(st.floats(allow_nan=True, allow_infinity=True), label="float")
        label, must_raise = f"{value!r}", not np.isfinite(value)
    return param, label, value, must_raise


@pytest.mark.parametrize("name", sorted(CALLABLES))
@settings(max_examples=25)
@given(data=st.data())
def test_bad_input_is_rejected_by_name_or_gives_finite_results(name, data):
    if not cases_of(name):
        return  # no parameters
    param, label, value, must_raise = _drawn_case(name, data)
    failure = run_case(name, param, value, must_raise)
    assert failure is None, f"{name}({param}={label}): {failure}"


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_every_case_once(name):
    """Every listed bad value of every parameter, once (the generated test samples them)."""
    failures = []
    for param, label, value, must_raise in cases_of(name):
        failure = run_case(name, param, value, must_raise)
        if failure:
            failures.append(f"{param}={label}: {failure}")
    assert not failures, f"{name}: " + "; ".join(failures)
