"""check_answer: right answers pass, wrong ones raise WrongAnswer with the hint and without the answer."""

import numpy as np
import pytest

from ropemath.core.exercises import WrongAnswer, check_answer


@pytest.mark.parametrize(
    "answer,expected,tol",
    [(172, 171.887, 1.0), (4, 4, 0.0), (np.float64(0.5), 0.5, 0.0), (True, True, 0.0), ("Same", " same ", 0.0),
     ([1, 2.05], np.array([1.0, 2.0]), 0.1), ((8, 8), [8, 8], 0.0)],
)
def test_right_answers_pass(answer, expected, tol):
    assert check_answer("ex", answer, expected, tol=tol) == "ex: correct"


@pytest.mark.parametrize(
    "answer,expected,tol",
    [(170, 171.887, 1.0), (3, 4, 0.0), (1, True, 0.0), (False, True, 0.0), ("different", "same", 0.0),
     ([1, 2.5], [1.0, 2.0], 0.1), ([1], [1, 2], 0.0), ("4", 4, 0.0), (None, 4, 0.0), (4, "four", 0.0)],
)
def test_wrong_answers_raise_with_hint_not_answer(answer, expected, tol):
    with pytest.raises(WrongAnswer) as info:
        check_answer("ex", answer, expected, tol=tol, hint="think of pair 0")
    message = str(info.value)
    assert message.startswith("ex: ")
    if answer is not None:
        assert "Hint: think of pair 0" in message
        assert repr(expected) not in message.replace(repr(answer), "")
    assert isinstance(info.value, AssertionError)  # a wrong answer stops a notebook like a failing check


def test_bad_arguments():
    with pytest.raises(ValueError):
        check_answer("ex", 1, 1, tol=-1.0)
    with pytest.raises(TypeError):
        check_answer("", 1, 1)
    with pytest.raises(TypeError):
        check_answer("ex", 1, object())
