"""check_answer: right answers pass, wrong ones raise WrongAnswer with the hint and without the answer."""

import numpy as np
import pytest

from ropemath.teaching import WrongAnswer, check_answer


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


@pytest.mark.parametrize("expected,tol", [(171.887, 1.0), (4, 0.0), (True, 0.0), ("same", 0.0), ([1.0, 2.0], 0.1)])
def test_no_prediction_yet_is_one_line_never_correct(expected, tol):
    """``...`` (the placeholder the notebooks ship) returns one line, raises nothing, never says correct."""
    line = check_answer("exercise 1", ..., expected, tol=tol, hint="think of pair 0")
    assert line == "exercise 1: no prediction yet — replace ... with yours and re-run this cell"
    assert "correct" not in line and "\n" not in line
    assert repr(expected) not in line and "think of pair 0" not in line  # neither the answer nor the hint


def test_placeholder_then_wrong_then_right():
    """The reader's path through one exercise: no prediction yet, a wrong one (raises), the right one."""
    assert "no prediction yet" in check_answer("exercise 2", ..., 62.83, tol=0.05)
    with pytest.raises(WrongAnswer, match="Hint: a full turn is 2 pi radians"):
        check_answer("exercise 2", 10.0, 62.83, tol=0.05, hint="a full turn is 2 pi radians")
    assert check_answer("exercise 2", 62.8, 62.83, tol=0.05) == "exercise 2: correct"


def test_placeholder_still_validates_the_exercise():
    """A broken exercise (unsupported expected value, bad tolerance) fails even before the reader predicts."""
    with pytest.raises(TypeError):
        check_answer("ex", ..., object())
    with pytest.raises(ValueError):
        check_answer("ex", ..., 1.0, tol=-1.0)


def test_reveal_prints_the_checked_answer_and_its_reason():
    """The reveal line shows the answer and its reason only; a reference that does not match stops the notebook."""
    from ropemath.teaching import reveal

    assert reveal("exercise 1", 279, 278.9, "30 rad is four turns and 278.9°", tol=1.0) == (
        "exercise 1: 279 — 30 rad is four turns and 278.9°")
    line = reveal("exercise 3", (True, False), [True, False], "M_1 is a scaled rotation")
    assert line == "exercise 3: (True, False) — M_1 is a scaled rotation"
    with pytest.raises(WrongAnswer):
        reveal("exercise 1", 1719, 278.9, "forgot the full turns", tol=1.0)
    with pytest.raises(TypeError, match="reason"):
        reveal("exercise 1", 279, 278.9, "", tol=1.0)
