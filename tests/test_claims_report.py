"""What notebook 09 shows of the ledger (ropemath.claims.report): one entry explained, every check
against its negative control, and the coverage counts — each computed, and each able to say no."""

from ropemath.claims.controls import CONTROLS, control
from ropemath.claims.ledger import Alternative, Entry, Outcome, note_source, run
from ropemath.claims.report import controls_table, coverage_table, explain


def _sum_check(*, sign: int = 1) -> Outcome:
    ok = 1 + sign * 1 == 2
    return Outcome("holds" if ok else "fails", f"1 + {sign} = {1 + sign}", None if ok else {"1 + sign": 1 + sign}, None)


def _entry(check=_sum_check, **kw) -> Entry:
    base = dict(quote="1 +\n 1 = 2", alternatives=(Alternative("as 1 - 1 = 2", "fails", lambda: _sum_check(sign=-1)),))
    return Entry("n003-demo", note_source("003", "2D case"), "$1 + 1 = 2$", "holds", check, **{**base, **kw})


def test_explain_shows_the_notes_words_the_reading_and_computed_alternatives():
    text = explain(run([_entry()])[0])
    assert "*The note says*: `1 + 1 = 2`" in text  # verbatim (a code span), whitespace normalised
    assert "*Reading checked*: $1 + 1 = 2$" in text
    assert "*Another reading*: as 1 - 1 = 2 — fails (computed: fails)" in text
    assert "*Evidence*: 1 + 1 = 2" in text


def test_explain_reports_an_alternative_whose_check_disagrees():
    wrong = _entry(alternatives=(Alternative("as 1 + 1 = 2 again", "fails", _sum_check),))
    assert "— fails (computed: holds)" in explain(run([wrong])[0])


def test_explain_shows_an_unchecked_correction_as_such():
    e = Entry("n003-demo2", note_source("003", "2D case"), "c", "fails", lambda: _sum_check(sign=-1),
              correction="1 + 1 = 2", quote="q")
    text = explain(run([e])[0])
    assert "*Correction* (checked: does NOT hold)" in text and "*Counterexample*: 1 + sign = 0" in text


def test_controls_table_counts_checks_that_cannot_say_no():
    CONTROLS[_sum_check] = control(_sum_check, "sign flipped", sign=-1)

    def blind(*, sign: int = 1) -> Outcome:
        return Outcome("holds", "ignores sign")

    CONTROLS[blind] = control(blind, "sign flipped", sign=-1)
    try:
        table, same = controls_table(run([_entry(), _entry(check=blind)]))
        assert same == 1
        assert "_sum_check" in table and "holds     -> fails" in table
        _, none = controls_table(run([_entry()]))
        assert none == 0
    finally:
        del CONTROLS[_sum_check], CONTROLS[blind]


def test_controls_table_counts_a_check_without_control():
    _, same = controls_table(run([_entry()]))
    assert same == 1


def test_coverage_table_has_one_row_per_note():
    lines = coverage_table().splitlines()
    assert lines[0].split() == ["note", "entries", "merged", "passages"]
    assert [line.split()[0] for line in lines[1:]] == ["000", "001", "002", "003", "004"]
