"""The verdict rubric of the claims ledger (ropemath.claims.ledger), enforced entry by entry:
verbatim quotes, the fields each verdict needs, alternative readings decided by their own checks,
and a negative control for every check that must get a different verdict.
"""

import functools
import os
from pathlib import Path

import pytest

from ropemath.claims import LEDGER, NOTE_MODULES, NOTES, run
from ropemath.claims.controls import CONTROLS, Control, control
from ropemath.claims.ledger import Alternative, Entry, Outcome, note_source

# The source notes are not shipped: $ROPEMATH_SEEDS, or shared/seeds beside the checkout (authoring workspace).
SEEDS = Path(os.environ.get("ROPEMATH_SEEDS") or Path(__file__).resolve().parents[2] / "shared" / "seeds")
IDS = [e.id for e in LEDGER]
CHECKED = [e for e in LEDGER if e.verdict != "not-checkable"]


def normalise(text: str) -> str:
    """Whitespace runs become one space (scraped notes wrap lines arbitrarily)."""
    return " ".join(text.split())


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source notes are not in this checkout")
@pytest.mark.parametrize("entry", LEDGER, ids=IDS)
def test_quote_is_the_notes_exact_words(entry):
    assert entry.quote.strip(), f"{entry.id}: no quote"
    note = normalise((SEEDS / NOTES[entry.note][0]).read_text(encoding="utf-8"))
    assert normalise(entry.quote) in note, f"{entry.id}: quote not found verbatim in note {entry.note}"


@pytest.mark.parametrize("entry", LEDGER, ids=IDS)
def test_verdict_carries_what_the_rubric_requires(entry):
    outcome = run([entry])[0].outcome
    if entry.verdict == "holds-if":
        assert entry.condition and "$" in entry.condition, f"{entry.id}: the condition must be stated as a formula"
        assert outcome.counterexample, f"{entry.id}: a case outside the condition is needed"
    elif entry.verdict == "fails":
        assert entry.correction and outcome.counterexample and outcome.correction_holds is True
    elif entry.verdict == "not-checkable":
        assert entry.reason and len(entry.reason) > 20, f"{entry.id}: say why no computation bears on it"


@pytest.mark.parametrize("entry", CHECKED, ids=[e.id for e in CHECKED])
def test_every_check_has_a_negative_control_that_says_no(entry):
    ctl = CONTROLS.get(entry.check)
    assert ctl is not None, f"{entry.id}: check {entry.check_name} has no registered negative control"
    wrong = ctl.run()
    assert wrong.verdict != entry.verdict, (
        f"{entry.id}: the control {ctl.call} ({ctl.wrong}) also computes {wrong.verdict!r}: the check cannot say no"
    )
    if entry.verdict in ("holds", "holds-if"):  # the wrong variant (for holds-if: a case outside the condition) fails
        assert wrong.verdict == "fails", f"{entry.id}: the control {ctl.call} computes {wrong.verdict!r}, not 'fails'"


HOLDING_ALTERNATIVES = [a for e in LEDGER for a in e.alternatives if a.verdict in ("holds", "holds-if")]


@pytest.mark.parametrize("alt", HOLDING_ALTERNATIVES, ids=lambda a: getattr(a.check, "__name__", "partial"))
def test_the_control_of_a_holding_alternative_fails(alt):
    if isinstance(alt.check, functools.partial):  # a reading given by keywords: without them the check reads literally
        assert alt.check.keywords and alt.check.func().verdict == "fails"
    else:
        assert CONTROLS[alt.check].run().verdict == "fails", CONTROLS[alt.check].call


@pytest.mark.parametrize(
    "entry_alt",
    [(e, a) for e in LEDGER for a in e.alternatives],
    ids=[f"{e.id}-alt{i}" for e in LEDGER for i, _ in enumerate(e.alternatives)],
)
def test_alternative_readings_are_decided_by_their_own_checks(entry_alt):
    entry, alt = entry_alt
    assert alt.check().verdict == alt.verdict, f"{entry.id}: alternative {alt.reading!r}"


# --- the machinery itself can say no ----------------------------------------------------------


def _demo(*, sign: int = 1) -> Outcome:
    return Outcome("holds" if 1 + sign == 2 else "fails", "1 + sign = 2")


def test_control_calls_the_same_function_with_wrong_arguments():
    c = control(_demo, "sign flipped", sign=-1)
    assert c.check is _demo and isinstance(c, Control) and _demo not in CONTROLS
    assert _demo().verdict == "holds" and c.run().verdict == "fails" and c.call == "_demo(sign=-1)"


def test_control_refuses_an_empty_or_unknown_variant():
    with pytest.raises(ValueError, match="keyword arguments"):
        control(_demo, "nothing changed")
    with pytest.raises(TypeError, match="'scale' is not a keyword-only parameter"):
        control(_demo, "wrong", scale=2)


def test_a_control_with_the_same_verdict_is_caught():
    # a check that ignores its argument: its control computes the same verdict, which the test above rejects
    def blind(*, sign: int = 1) -> Outcome:
        return Outcome("holds", "ignores sign")

    ctl = Control(blind, "sign flipped", {"sign": -1})
    assert ctl.run().verdict == blind().verdict


def test_an_alternative_needs_a_valid_verdict_and_a_callable():
    with pytest.raises(ValueError, match="verdict must be one of"):
        Alternative("x", "maybe", _demo)
    with pytest.raises(TypeError, match="check must be callable"):
        Alternative("x", "holds", None)
    e = Entry("n003-x", note_source("003", "2D case"), "c", "holds", _demo, quote="q",
              alternatives=(Alternative("other", "fails", lambda: _demo(sign=-1)),))
    assert e.alternatives[0].check().verdict == "fails"


# --- coverage pass: every mathematical sentence of a note is an entry or merged into one ------

@pytest.mark.parametrize("prefix", sorted(NOTES))
def test_merged_sentences_name_entries_of_their_note(prefix):
    module = NOTE_MODULES[prefix]
    ids = {e.id for e in module.ENTRIES}
    named = {entry_id for _, entry_id in module.MERGED}
    assert named <= ids, f"note {prefix}: merged sentences name unknown entries {sorted(named - ids)}"
    quote = {e.id: normalise(e.quote) for e in module.ENTRIES}
    redundant = [s for s, i in module.MERGED if not s.strip() or normalise(s) in quote[i]]
    assert not redundant, f"note {prefix}: sentences already in their entry's own quote: {redundant[:2]}"


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source notes are not in this checkout")
@pytest.mark.parametrize("prefix", sorted(NOTES))
def test_coverage_sentences_are_verbatim(prefix):
    note = normalise((SEEDS / NOTES[prefix][0]).read_text(encoding="utf-8"))
    missing = [s for s, _ in NOTE_MODULES[prefix].MERGED if normalise(s) not in note]
    assert not missing, f"note {prefix}: not verbatim: {missing[:3]}"


def test_checking_page_and_docstring_state_the_same_rubric():
    """The book's page "How ropemath checks itself" quotes the rubric of ledger.py word for word."""
    from ropemath.claims.ledger import rubric

    page = (Path(__file__).resolve().parent.parent / "book" / "checking.md").read_text(encoding="utf-8")
    copy = page.split("<!-- rubric:start -->")[1].split("<!-- rubric:end -->")[0]
    assert normalise(copy) == normalise(rubric())
    assert normalise(copy.replace("holds-if", "holds")) != normalise(rubric())  # a changed verdict name is seen
