r"""Negative controls: every check of the ledger can say no.

Scope: :func:`control` registers, next to a check function, a deliberately wrong variant of the
claim it decides — the *same* function called with keyword arguments that flip a sign, shift an
index, drop a factor or reverse a condition.  :data:`CONTROLS` maps each check to its
:class:`Control`; ``tests/test_claims_rubric.py`` runs the control of every entry's check and
requires a verdict different from the entry's (a check whose wrong variant gets the same verdict
cannot tell the claim from its negation, and checks nothing).

Example:

>>> from ropemath.claims.ledger import Outcome
>>> @control("sign flipped: 1 - 1 = 2", sign=-1)
... def one_plus_one(*, sign: int = 1) -> Outcome:
...     return Outcome("holds" if 1 + sign * 1 == 2 else "fails", "computed")
>>> one_plus_one().verdict, CONTROLS[one_plus_one].run().verdict
('holds', 'fails')

References: rule 7 of the verdict rubric (:mod:`ropemath.claims.ledger`).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from ropemath.claims.ledger import Outcome

__all__ = ["CONTROLS", "Control", "control"]

F = TypeVar("F", bound=Callable[..., Outcome])


@dataclasses.dataclass(frozen=True)
class Control:
    """A wrong variant of a check's claim: the check called with ``kwargs``; ``wrong`` says what is wrong."""

    check: Callable[..., Outcome]
    wrong: str
    kwargs: dict[str, Any]

    def run(self) -> Outcome:
        """Run the check on the wrong variant."""
        return self.check(**self.kwargs)

    @property
    def call(self) -> str:
        """The call as text, e.g. ``transpose_rule(sign=-1)``."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.kwargs.items())
        return f"{self.check.__name__}({args})"


CONTROLS: dict[Callable[..., Outcome], Control] = {}


def control(wrong: str, **kwargs: Any) -> Callable[[F], F]:
    """Register ``check(**kwargs)`` as the negative control of the decorated check function.

    ``kwargs`` must be non-empty (a control that calls the check unchanged is not a control) and
    must name keyword parameters of the check.
    """
    if not kwargs:
        raise ValueError("control needs keyword arguments that make the claim wrong")
    if not isinstance(wrong, str) or not wrong.strip():
        raise ValueError("wrong must say what the control changes")

    def register(fn: F) -> F:
        params = inspect.signature(fn).parameters
        for name in kwargs:
            if name not in params or params[name].kind is not inspect.Parameter.KEYWORD_ONLY:
                raise TypeError(f"control of {fn.__name__}: {name!r} is not a keyword-only parameter of it")
        CONTROLS[fn] = Control(fn, wrong, dict(kwargs))
        return fn

    return register
