"""Tests that tell mutants of the claims machinery from the original (``make mutants``): the verdict
constructors of ropemath.claims._verdict at their documented bounds, the controls' and the ledger's rules, the
report's rendering, and the counterexamples and evidence of the literal-reading checks — each expected value is a
documented constant or computed by hand here (math / cmath / numpy, not the code under test)."""

import cmath
import dataclasses
import math
import os
import unicodedata

import numpy as np
import pytest

from ropemath.claims import _verdict as V
from ropemath.claims import entries, report, summary
from ropemath.claims.controls import CONTROLS, Control, control
from ropemath.claims.ledger import Alternative, Entry, Outcome, Result, Source, note_source, run


def test_residuals_at_and_above_the_printed_bound():
    # res prints "< 1e-9" at or below 1e-9 (docstring), else two significant digits
    assert V.res(1e-9) == "< 1e-9"
    assert V.res(-1.5e-9) == "1.5e-09"  # |x|, and above the bound
    assert V.res(0.25) == "2.5e-01"


def test_num_rounds_to_four_decimals_and_never_shows_minus_zero():
    assert V.num(math.pi) == 3.1416 and V.num(math.pi, 2) == 3.14
    assert V.num(2.0) == 2.0 and V.num(-1.0) == -1.0
    zero = V.num(-0.00001)  # rounds to -0.0, shown as 0.0
    assert zero == 0.0 and math.copysign(1.0, zero) == 1.0
    assert V.num([[0.5, -2.0]]) == [[0.5, -2.0]]


def test_identity_tolerance_is_1e_12_inclusive():
    # TOL = 1e-12 is the tolerance every identity check prints ("tolerance 1e-12" in notebook 09)
    assert V.identity(1e-12, "x").verdict == "holds"
    assert V.identity(1.5e-12, "x").verdict == "fails"
    assert V.identity(0.5, "x", tol=1.0).verdict == "holds" and V.identity(2.0, "x", tol=1.0).verdict == "fails"
    assert "within the tolerance 1e-12" in V.identity(0.0, "x").evidence
    assert "(tolerance 1e-12)" in V.identity(0.5, "x").evidence


def test_refuted_gap_is_1e_6_exclusive_and_the_correction_tolerance_inclusive():
    assert V.refuted(0.0, 1e-6, {}, 0.0, "x").verdict == "holds"  # a gap of exactly GAP is no difference
    assert V.refuted(0.0, 1.5e-6, {}, 0.0, "x").verdict == "fails"
    assert V.refuted(1.0, 3.0, {}, 0.0, "x").verdict == "fails"  # |1 - 3| = 2
    assert V.refuted(1.0, 1.0, {}, 0.0, "x").verdict == "holds"
    assert V.refuted(0.0, 1.0, {}, 1e-12, "x").correction_holds is True
    assert V.refuted(0.0, 1.0, {}, 1.5e-12, "x").correction_holds is False
    o = V.refuted(0.5, 2.0, {"m": 1}, 2e-12, "w")
    assert o.counterexample == {"m": 1, "stated": 0.5, "actual": 2.0}
    assert "at m = 1 the stated formula gives 0.5 but the true value is 2.0" in o.evidence
    assert "(does NOT hold)" in o.evidence


def test_conditional_covers_its_three_verdicts():
    assert V.conditional(True, True, {"d": 8}, "e").verdict == "holds-if"
    assert V.conditional(True, False, {"d": 8}, "e").verdict == "fails"
    assert V.conditional(False, True, {}, "e").verdict == "holds"
    assert V.conditional(False, False, {}, "e").verdict == "holds"


def test_refutation_outcome_fails_the_refuted_claims():
    from ropemath.symbolic.refutations import get_refutation

    o = V.refutation_outcome(get_refutation("relative_sign"))
    assert o.verdict == "fails" and o.correction_holds is True and "sympy refutation 'relative_sign'" in o.evidence


def test_shift_change_by_hand():
    # s(p)_{ij} = p_i + p_j on p = 0, 1, 2: moving by 5 adds 10 everywhere; max |s(p)| = 4 -> 10 / 4
    assert V.shift_change(lambda p: p[:, None] + p[None, :], np.arange(3.0), 5.0) == 2.5
    # s(p) = p^2 on p = 1, 2: s(p + 1) - s(p) = 3, 5 -> 5 / max(1, 4)
    assert V.shift_change(lambda p: p**2, np.array([1.0, 2.0]), 1.0) == 1.25
    assert V.shift_change(lambda p: p[:, None] - p[None, :], np.arange(3.0), 5.0) == 0.0


def test_refutation_outcome_holds_when_the_refutation_does_not_refute():
    from types import SimpleNamespace

    stub = SimpleNamespace(
        name="stub",
        refuted=False,
        values_text=lambda: "x = 1",
        lhs_value=1,
        claim_value=1,
        summary=lambda: "equal",
        correct=SimpleNamespace(latex="x = x", holds=True),
        holds_when="always",
    )
    o = V.refutation_outcome(stub)
    assert o.verdict == "holds" and o.correction_holds is True


# --- controls: a control must name what is wrong and keyword-only parameters of its check --------------------


def _demo(x: int = 1, *, sign: int = 1) -> Outcome:
    return Outcome("holds" if sign == 1 else "fails", "demo")


def test_control_refuses_an_empty_description_and_unknown_or_positional_parameters():
    for wrong in ("", "   "):
        with pytest.raises(ValueError, match="wrong must say"):
            control(_demo, wrong, sign=-1)
    with pytest.raises(TypeError, match="'tilt' is not a keyword-only parameter"):
        control(_demo, "tilted", tilt=1)
    with pytest.raises(TypeError, match="'x' is not a keyword-only parameter"):
        control(_demo, "x changed", x=2)
    assert _demo not in CONTROLS


def test_a_registered_control_cannot_be_altered():
    c = Control(_demo, "sign flipped", {"sign": -1})
    assert c.run().verdict == "fails" and c.call == "_demo(sign=-1)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.wrong = "nothing"


# --- ledger: records cannot be altered after the fact; a check that returns no Outcome disagrees --------------


def test_ledger_records_are_frozen():
    src = note_source("003", "2D case")
    out = Outcome("holds", "e")
    entry = Entry("n003-frozen", src, "c", "holds", lambda: out)
    records = [src, out, Alternative("r", "holds", lambda: out), entry, Result(entry, out)]
    for record in records:
        field = dataclasses.fields(record)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, getattr(record, field))


def test_a_check_that_returns_no_outcome_is_a_disagreement():
    e = Entry("n003-no-outcome", note_source("003", "2D case"), "c", "holds", lambda: "holds")
    (r,) = run([e])
    assert r.outcome.verdict == "fails" and "returned str, not an Outcome" in r.outcome.evidence
    assert not r.agrees


def test_summary_counts_recorded_verdicts_per_note_and_leaves_out_notes_without_entries():
    def entry(i, note, verdict, **kw):
        return Entry(f"n{note}-s{i}", note_source(note, "s"), "c", verdict, lambda: Outcome(verdict, "e"), **kw)

    results = run([entry(1, "001", "holds"), entry(2, "001", "holds"), entry(3, "003", "fails", correction="c")])
    counts = summary(results)
    assert list(counts) == ["001", "003", "all"]
    assert counts["001"] == {"holds": 2, "fails": 0, "holds-if": 0, "not-checkable": 0}
    assert counts["003"] == {"holds": 0, "fails": 1, "holds-if": 0, "not-checkable": 0}
    assert counts["all"] == {"holds": 2, "fails": 1, "holds-if": 0, "not-checkable": 0}


def test_entries_by_prefix_and_all():
    assert {e.note for e in entries("003")} == {"003"} and len(entries("003")) < len(entries())
    with pytest.raises(TypeError):
        entries(3)
    with pytest.raises(ValueError, match=r"\(5 notes\)"):
        entries("0")
    with pytest.raises(ValueError, match=r"\(no note\)"):
        entries("9")


# --- report: layout rules of the table, the Markdown of explain, the controls table, exit codes --------------


def _row(section: str, id_: str = "n003-w") -> str:
    e = Entry(id_, Source("t", "003_707044a7c764f131.txt", section), "c", "holds", lambda: Outcome("holds", "e"))
    return report.table(run([e])).splitlines()[1]


def test_table_truncates_sections_wider_than_48_columns_counting_wide_characters_twice():
    # East Asian Width W / F: two columns; N / Na / A: one (checked against unicodedata, not the code)
    for ch, columns in (("x", 1), ("\u2014", 1), ("\u2000", 1), ("\u1100", 2), ("\u2e80", 2), ("旋", 2)):
        assert (unicodedata.east_asian_width(ch) in "WF") == (columns == 2)
        fits = ch * (48 // columns)  # exactly 48 columns: shown whole
        assert _row(fits).endswith(f"003 {fits}")
        kept = ch * (47 // columns)  # wider: cut to at most 47 columns, then an ellipsis
        assert _row(ch * (60 // columns)).endswith(f"003 {kept}…")
        assert _row(ch * (48 // columns + 1)).endswith(f"003 {kept}…")


def test_table_id_column_is_as_wide_as_its_header_or_longest_id():
    assert report.table([]).splitlines()[0] == "id  verdict        check  section"
    assert _row("s", id_="ab").startswith("ab  holds          ok     003 s")


def test_note_words_pads_a_span_that_ends_with_a_backtick():
    e = Entry("n003-q", note_source("003", "2D case"), "c", "holds", lambda: Outcome("holds", "-"), quote="uses `b`")
    assert report.note_words(e) == "`` uses `b` ``"  # CommonMark: a space keeps the inner backtick off the fence


def test_explain_shows_a_checked_correction_as_holding():
    fix = Outcome("fails", "e", {"x": 1}, True)
    e = Entry("n003-c", note_source("003", "2D case"), "c", "fails", lambda: fix, correction="1 + 1 = 2")
    assert "*Correction* (checked: holds): 1 + 1 = 2" in report.explain(run([e])[0])


def test_controls_table_lists_each_check_once_and_skips_not_checkable_entries():
    def check(*, sign: int = 1) -> Outcome:
        return Outcome("holds" if sign == 1 else "fails", "e")

    def opinion() -> Outcome:
        return Outcome("not-checkable", "e")

    CONTROLS[check] = control(check, "sign flipped", sign=-1)
    try:
        src = note_source("003", "2D case")
        es = [Entry(f"n003-{i}", src, "c", "holds", check) for i in range(2)]
        es.append(Entry("n003-nc", src, "c", "not-checkable", opinion, reason="r"))
        text, same = report.controls_table(run(es))
        assert same == 0 and len(text.splitlines()) == 2  # header and one line for the shared check
    finally:
        del CONTROLS[check]


def test_coverage_table_counts_merged_rows():
    from ropemath.claims import NOTE_MODULES

    for line in report.coverage_table().splitlines()[1:]:
        prefix, n_entries, merged, sentences = line.split()
        module = NOTE_MODULES[prefix]
        assert int(n_entries) == len(module.ENTRIES) and int(merged) == len(module.MERGED)
        quotes = {e.quote for e in module.ENTRIES}
        assert len(quotes) < int(sentences) == len(quotes | {s for s, _ in module.MERGED})


def test_cli_exit_code_2_for_a_missing_source_path(capsys):
    import argparse

    missing = os.path.join(os.sep, "no", "such", "dir", "001_7e3e9fdbef5f3390.txt")
    assert report.run_cli(argparse.Namespace(source=missing, json=False)) == 2
    assert "no such file" in capsys.readouterr().err


# --- literal checks: every counterexample reproduces its two sides when its own numbers are plugged in --------


def test_literal_000_counterexamples_plug_in():
    from ropemath.claims import checks_literal as L0

    ex = L0.sinusoidal_position_variable().counterexample
    i0, i1 = ex["positions i"]  # p_(i,0) = sin(i / 10000^0) = sin(i) (Vaswani et al.)
    assert (i0, i1) == (0, 1) and ex["actual"] == round(math.sin(i1) - math.sin(i0), 4)
    ex = L0.complex_score_frequency_index().counterexample
    r = ex["m"] - ex["n"]  # q = k = (1, 0), d = 2: the score is cos(r theta), the note's sum uses theta_0 = 10^4
    assert (ex["m"], ex["n"]) == (1, 0) and ex["frequency used"] == 10000.0
    assert (ex["stated"], ex["actual"]) == (round(math.cos(r * 10000.0), 4), round(math.cos(r * 1.0), 4))


def test_literal_001_counterexamples_are_at_position_0_and_plug_in():
    from ropemath.claims import checks_literal as L1

    ex = L1.modulus_initial_condition().counterexample  # §2.5 is about position 0: |f(1, 0)|^2 = |2|^2
    assert ex["m = n"] == 0 and ex["actual"] == abs(2 * 1 * cmath.exp(1j * ex["m = n"])) ** 2 == 4.0
    ex = L1.phase_initial_condition().counterexample  # §2.7: e^{i varphi(0)}, varphi(m) = m + 0.5
    z = cmath.exp(1j * (ex["m"] + 0.5))
    assert ex["m"] == 0 and ex["actual"] == [round(z.real, 4), round(z.imag, 4)]
    ex = L1.sinusoidal_rotated().counterexample  # RoPE of q = (x, y) at m = 1: (x cos 1 - y sin 1, x sin 1 + y cos 1)
    x, y = ex["q"]
    assert ex["q"] == [1.0, 0.0]
    assert ex["RoPE"] == [round(x * math.cos(1) - y * math.sin(1), 4), round(x * math.sin(1) + y * math.cos(1), 4)]


def test_literal_001_evidence_names_the_ropes_base_and_the_weights_spread():
    from ropemath.claims import checks_literal as L1

    assert L1.distinct_pair_frequencies().evidence.startswith("base 10000: ")  # theta_i = 10000^(-2i/d)
    # attention weights by hand: pair i of q, k as a complex number turned by e^{i p theta_i}, theta_i = 10^(-i)
    q, k = np.random.default_rng(55).standard_normal((2, 6, 8))
    theta = 10000.0 ** (-np.arange(4) / 4)

    def weights(p):
        zq = (q[:, 0::2] + 1j * q[:, 1::2]) * np.exp(1j * np.outer(p, theta))
        zk = (k[:, 0::2] + 1j * k[:, 1::2]) * np.exp(1j * np.outer(p, theta))
        s = (zq @ zk.conj().T).real / math.sqrt(8)
        e = np.exp(s)
        return e / e.sum(axis=1)[:, None]

    pos = np.array([0.0, 1.0, 2.0, 5.0, 9.0, 10.0])
    spread = float(np.max(np.abs(weights(pos) - weights(2 * pos))))
    assert f"doubling the offsets changes them by {spread:.2f}." in L1.attention_relative().evidence


def test_literal_002_texts_and_counterexample():
    from ropemath.claims import checks_literal as L2

    # in 2D the check also searches the grid of angles; in 3D it does not
    assert "at no grid angle" in L2.direction_rotation_unique().evidence
    assert "grid angle" not in CONTROLS[L2.direction_rotation_unique].run().evidence
    assert L2.lengths_and_same_angle().evidence.startswith("R_m: ")
    assert CONTROLS[L2.lengths_and_same_angle].run().evidence.startswith("2 R_m: ")
    ex = L2.elementwise_display().counterexample  # d = 8, theta_i = 10^-i, q = e_5: (R q)_4 = -sin(theta_2)
    assert ex["d"] == 8 and ex["coordinate"] == 4
    assert (ex["stated"], ex["actual"]) == (round(-math.sin(1e-1), 4), round(-math.sin(1e-2), 4))


def test_literal_004_counterexample_plugs_in():
    from ropemath.claims import checks_literal as L4

    ex = L4.initial_projection_literal().counterexample
    w, xm, xn = np.array(ex["W_q"]), np.array(ex["x_m"]), np.array(ex["x_n"])
    assert ex["W_q"] == [[2.0, 1.0], [0.0, 1.0]]
    assert (ex["stated"], ex["actual"]) == ((w @ xn)[0], (w @ xm)[0]) == (1.0, 2.0)
