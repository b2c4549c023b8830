"""The claims ledger (ropemath.claims): every check agrees with its recorded verdict, the
runner notices when they disagree, counterexamples hold up under independent recomputation,
and the `ropemath claims` command prints, filters and exits as documented.

Independent recomputations below use plain Python/numpy loops written from the definitions
(RoFormer eq. 15, 35-37; the notes' formulas), not the code of ropemath.claims.
"""

import dataclasses
import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
from constructions import rotate_pairs

import ropemath.claims as claims
from ropemath.claims import LEDGER, NOTES, VERDICTS, Entry, Outcome, entries, note_source, run, run_ledger, summary
from ropemath.cli.dispatch import main
from ropemath.core.apply import apply_rope

# The source notes are not shipped: $ROPEMATH_SEEDS, or shared/seeds beside the checkout (authoring workspace).
SEEDS = Path(os.environ.get("ROPEMATH_SEEDS") or Path(__file__).resolve().parents[2] / "shared" / "seeds")
BY_ID = {e.id: e for e in LEDGER}


def result(entry_id):
    return run([BY_ID[entry_id]])[0]


# --- every entry -------------------------------------------------------------------------


@pytest.mark.parametrize("entry", LEDGER, ids=[e.id for e in LEDGER])
def test_check_agrees_with_recorded_verdict(entry):
    r = run([entry])[0]
    assert r.outcome.verdict == entry.verdict, r.outcome.evidence
    assert r.agrees, r.problems
    assert r.outcome.evidence


@pytest.mark.parametrize("entry", LEDGER, ids=[e.id for e in LEDGER])
def test_runner_detects_an_altered_verdict(entry):
    for other in VERDICTS:
        if other == entry.verdict:
            continue
        altered = dataclasses.replace(entry, verdict=other, condition="c", correction="c", reason="r")
        r = run([altered])[0]
        assert not r.agrees, (entry.id, other)
        assert any("ledger records" in p for p in r.problems)


def test_fails_entries_carry_counterexample_and_a_correction_that_holds():
    fails = [e for e in LEDGER if e.verdict == "fails"]
    assert len(fails) >= 15
    for r in run(fails):
        assert r.entry.correction
        assert r.outcome.counterexample, r.entry.id
        assert r.outcome.correction_holds is True, r.entry.id
        json.dumps(r.outcome.counterexample)  # plain numbers and strings anyone can plug in


def test_holds_if_entries_state_a_condition_and_a_case_outside_it():
    for r in run([e for e in LEDGER if e.verdict == "holds-if"]):
        assert r.entry.condition and r.outcome.counterexample, r.entry.id


def test_not_checkable_entries_say_why():
    assert all(e.reason for e in LEDGER if e.verdict == "not-checkable")


def test_ids_are_unique_and_name_their_note():
    assert len(BY_ID) == len(LEDGER)
    for e in LEDGER:
        assert e.id.startswith(f"n{e.note}-"), e.id
        assert e.source.title == NOTES[e.note][1] and e.source.file == NOTES[e.note][0]


def _headings(file):
    """The note's lines with Markdown '#' markers and the scraped pages' trailing '#' anchors stripped."""
    lines = (SEEDS / file).read_text(encoding="utf-8").splitlines()
    return [line.strip().lstrip("#").strip().rstrip("#").strip() for line in lines]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source notes are not in this checkout")
def test_sections_are_whole_heading_lines_of_the_notes_in_order():
    # a section must be a whole line of the note (not just a substring such as "RoPE"), and the
    # entries of a note follow the note's order of sections
    for note in NOTES:
        lines = _headings(NOTES[note][0])
        where = []
        for e in entries(note):
            assert e.source.section in lines, (e.id, e.source.section)
            where.append(lines.index(e.source.section))
        assert where == sorted(where), note


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source notes are not in this checkout")
def test_sections_with_mathematics_have_entries():
    # Headings of the notes that carry no checkable mathematics (navigation, experiments reported
    # as tables and figures, link lists); every other heading must have at least one entry.
    no_math = {
        "000": {"實作", "推導", "一些性質", "Reference"},
        "001": {"1. 前置数学公式", "2. 推导过程", "2.1 目标", "3. 总结"},
        "004": {"Recommended", "Rotary Position Embedding", "Theoretical Explanation", "Experiments and Evaluations"},
    }
    headings = {
        "000": [
            "Basics",
            "實作",
            "基本定義",
            "Self-Attention",
            "推導",
            "二維空間",
            "一般化",
            "效能優化",
            "一些性質",
            "Long-term Decay",
            "與線性注意力",
            "靈活性",
            "正交性",
            "Reference",
        ],
        "001": [
            "1. 前置数学公式",
            "1.1 复数的指数形式",
            "1.2 复数的乘法",
            "1.3 复数的共轭",
            "1.4 旋转矩阵",
            "2. 推导过程",
            "2.1 目标",
            "2.2 假设",
            "2.3 复数的引入",
            "2.4 使用复数的指数形式",
            "2.5 求解模长",
            "2.6 求解角度",
            "2.7 得到解",
            "2.8 二维编码形式",
            "2.8.1 推导公式",
            "2.9 跟Sinusoidal公式比较",
            "2.10 多维情况",
            "2.10.1 乘性位置编码的变体",
            "3. 总结",
        ],
        "002": [
            "精英笔记:旋转位置编码 (RoPE)",
            "1. 目标:真正的相对位置编码",
            "2. 核心思想:用旋转编码位置",
            "3. 高维空间的实现",
            "4. 数学与代码实现",
            "4.1 高效实现",
            "4.2 代码实现",
        ],
        "003": ["RoPE", "2D case", "General form"],
        "004": [
            "Recommended",
            "Background and Related Work",
            "Preliminary",
            "Absolute Position Embedding",
            "Relative Position Embedding",
            "RoPE",
            "Formulation",
            "Rotary Position Embedding",
            "Derivation of RoPE under 2D",
            "General form",
            "Properties of RoPE",
            "Theoretical Explanation",
            "Computational efficient realization of rotary matrix multiplication",
            "Long-term decay of RoPE",
            "Experiments and Evaluations",
            "Machine Translation",
            "Pre-training Language Modeling",
            "Fine-tuning on GLUE tasks",
            "Performer with RoPE",
            "Evaluation on Chinese Data",
            "Summary",
        ],
    }  # written by reading the notes; §1.5 of note 001 is the mangled-LaTeX heading below
    headings["001"].insert(5, claims.note001.SECTION_1_5)
    for note, names in headings.items():
        lines = _headings(NOTES[note][0])
        assert all(name in lines for name in names), note  # the list above is itself quoted verbatim
        covered = {e.source.section for e in entries(note)}
        assert set(names) - no_math.get(note, set()) == covered, note


def test_every_note_and_verdict_is_represented():
    counts = summary(run_ledger())
    assert set(counts) == {*NOTES, "all"}
    assert all(counts["all"][v] > 0 for v in VERDICTS)
    assert all(sum(counts[n].values()) >= 10 for n in NOTES)


@pytest.mark.parametrize(
    "entry_id",
    [
        "n000-weights-transpose",
        "n000-decay",
        "n000-linear-rope-reason",
        "n001-matrix-step",
        "n001-norms-times-cos",
        "n001-cross-term",
        "n001-relative-sign",
        "n002-f-is-score",
        "n004-theta-10000",
        "n004-tupe",
    ],
)
def test_known_slips_are_recorded_as_failures(entry_id):
    assert BY_ID[entry_id].verdict == "fails" and result(entry_id).agrees


# --- the data model ----------------------------------------------------------------------


def test_entry_requires_the_field_its_verdict_needs():
    src = note_source("003", "2D case")
    for verdict in ("holds-if", "fails", "not-checkable"):
        with pytest.raises(ValueError, match="needs a"):
            Entry("n003-x", src, "claim", verdict, lambda: Outcome("holds", "-"))
    with pytest.raises(ValueError, match="verdict must be one of"):
        Entry("n003-x", src, "claim", "true", lambda: Outcome("holds", "-"))
    with pytest.raises(ValueError, match="prefix must be one of"):
        note_source("005", "x")


def test_a_crashing_check_is_a_disagreement():
    def broken():
        raise ZeroDivisionError("boom")

    r = run([Entry("n003-broken", note_source("003", "RoPE"), "claim", "holds", broken)])[0]
    assert not r.agrees and "ZeroDivisionError" in r.outcome.evidence


def test_a_fails_entry_whose_correction_does_not_hold_disagrees():
    def check():
        return Outcome("fails", "-", {"x": 1}, correction_holds=False)

    e = Entry("n003-bad-correction", note_source("003", "RoPE"), "claim", "fails", check, correction="c")
    assert run([e])[0].problems == ["the correction was not shown to hold"]


def test_entries_filters_by_file_name_path_or_prefix():
    assert entries("001") == entries("001_7e3e9fdbef5f3390.txt") == entries("/x/seeds/001_7e3e9fdbef5f3390.txt")
    assert {e.note for e in entries("001")} == {"001"}
    assert len(entries()) == len(LEDGER)
    for bad, why in [("007", "no note"), ("00", "5 notes"), ("", "no note")]:
        with pytest.raises(ValueError, match=f"source must be.*{why}"):
            entries(bad)
    with pytest.raises(TypeError):
        entries(1)


# --- counterexamples recomputed independently --------------------------------------------


def _score_loop(q, k, r, d, base=1e4):
    """Re[sum_i (q_2i + i q_2i+1) conj(k_2i + i k_2i+1) e^{i r theta_i}] by a Python loop (RoFormer eq. 35)."""
    total = 0.0
    for i in range(d // 2):
        h = complex(q[2 * i], q[2 * i + 1]) * complex(k[2 * i], -k[2 * i + 1])
        total += (h * complex(math.cos(r * base ** (-2 * i / d)), math.sin(r * base ** (-2 * i / d)))).real
    return total


def _bound_loop(r, d, base=1e4):
    """(1/(d/2)) sum_j |S_j(r)|, S_j = sum_{i<j} e^{i r theta_i}, by a Python loop (RoFormer Fig. 2)."""
    s, total = 0j, 0.0
    for i in range(d // 2):
        s += complex(math.cos(r * base ** (-2 * i / d)), math.sin(r * base ** (-2 * i / d)))
        total += abs(s)
    return total / (d // 2)


def test_decay_counterexample_recomputed():
    ex = result("n000-decay").outcome.counterexample
    q = np.ones(128)
    assert ex["score(r=11)"] == pytest.approx(_score_loop(q, q, 11, 128), abs=1e-4)
    assert ex["score(r=12)"] == pytest.approx(_score_loop(q, q, 12, 128), abs=1e-4)
    # and from rotated vectors directly: the score at distance 12 exceeds the one at 11
    s11, s12 = (
        float(apply_rope(q, r, layout="interleaved", base=1e4) @ apply_rope(q, 0, layout="interleaved", base=1e4))
        for r in (11, 12)
    )
    assert s12 > s11 + 0.05


def test_bound_and_base_counterexamples_recomputed():
    ex = result("n004-bound-decreasing").outcome.counterexample
    assert ex["B(18)"] == pytest.approx(_bound_loop(18, 128), abs=1e-4) and _bound_loop(19, 128) > _bound_loop(18, 128)
    assert _bound_loop(4096, 128) > _bound_loop(1024, 128)  # it levels off far out
    ex = result("n004-larger-base").outcome.counterexample
    assert ex["B at base 100000"] == pytest.approx(_bound_loop(59, 128, 1e5), abs=1e-4)
    assert _bound_loop(59, 128, 1e5) < _bound_loop(59, 128, 1e4)


def test_two_dimensional_counterexamples_by_hand():
    # theta = 1: R(1)(1, 0) = (cos 1, sin 1).
    ex = result("n002-similarity").outcome.counterexample
    assert (ex["score(q, k)"], ex["score(q, k')"]) == (round(math.sin(1), 4), round(-math.sin(1), 4))
    ex = result("n002-converse").outcome.counterexample
    assert ex["m - n = 1"] == ex["m - n = -1"] == round(math.cos(1), 4)
    ex = result("n001-cos-theta").outcome.counterexample  # q = k = (1, 0), m - n = 2: cos 2 vs cos 1
    assert (ex["true side"], ex["stated"]) == (round(math.cos(2), 4), round(math.cos(1), 4))
    ex = result("n000-linear-rope-reason").outcome.counterexample  # phi = (1, 1) at distance 3: 2 cos 3
    assert ex["rotated numerator"] == round(2 * math.cos(3), 4)
    ex = result("n004-tupe").outcome.counterexample  # p_0 = (0, 1), p_1 = (sin 1, cos 1), M = diag(1, 2)
    assert (ex["score(0, 0)"], ex["score(1, 1)"]) == (2.0, round(math.sin(1) ** 2 + 2 * math.cos(1) ** 2, 4))
    ex = result("n001-relative-sign").outcome.counterexample  # theta = pi/2: R_1 q = (0, 1) = k, q^T R_1 k = -1
    assert (ex["true side"], ex["stated formula"]) == ("1", "-1")


def test_frequency_counterexamples_by_hand():
    ex = result("n003-theta-last").outcome.counterexample
    assert ex["theta_(d/2)"] == pytest.approx(10000 ** (-6 / 8)) and ex["ratio"] == pytest.approx(10000 ** (2 / 8))
    assert result("n004-theta-10000").outcome.counterexample["theta from RoFormer eq. (15)"] == 10000.0**0
    ex = result("n001-decay-dimension").outcome.counterexample
    loop = sum(math.cos(100 * 10000 ** (-2 * i / 1024)) for i in range(512)) / 512
    assert ex["d"][1] == 1024 and ex["r = 100"]["sums"][1] == round(loop, 4) and abs(loop) > 0.4
    from ropemath.claims.checks_properties import stability

    ex = stability().counterexample  # the alternative reading of n000-stability: angles rounded in bfloat16
    # bfloat16 keeps 8 significant bits: 257 = 256 + 1 lies halfway between 256 and 258; ties go to even -> 256.
    assert ex["angle of pair 0"] == [256.0, 256.0]


def test_odd_dimension_counterexample_by_hand():
    # note 000 never says d is even: for d = 3 the 2x2 blocks cover 2 coordinates, and Theta's index set
    # i = 1..d/2 ends at 1.5.
    ex = result("n000-definitions").outcome.counterexample
    assert (ex["d"], ex["d/2"], ex["coordinates covered by the 2x2 blocks"]) == (3, 1.5, 2)


def test_values_left_unrotated_keep_outputs_relative():
    # n002-values, recomputed with a plain softmax loop: shifting all positions leaves o_m unchanged when v
    # is not rotated, and changes it when v is rotated too.
    q, k, v = np.random.default_rng(7).standard_normal((3, 5, 4))  # seed 7
    pos = [0.0, 2.0, 3.0, 7.0, 8.0]

    def outputs(shift, rotate_v):
        rq = [rotate_pairs(q[a], pos[a] + shift, 4) for a in range(5)]
        rk = [rotate_pairs(k[b], pos[b] + shift, 4) for b in range(5)]
        vv = [rotate_pairs(v[b], pos[b] + shift, 4) if rotate_v else v[b] for b in range(5)]
        out = []
        for a in range(5):
            w = [math.exp(float(rq[a] @ rk[b]) / 2.0) for b in range(5)]
            out.append(sum(wb * vb for wb, vb in zip(w, vv, strict=True)) / sum(w))
        return np.array(out)

    assert np.max(np.abs(outputs(0.0, False) - outputs(5.0, False))) < 1e-12
    assert np.max(np.abs(outputs(0.0, True) - outputs(5.0, True))) > 0.1
    assert result("n002-values").agrees


# --- the command -------------------------------------------------------------------------


def test_cli_table(capsys):
    assert main(["claims"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["id", "verdict", "check", "section"]
    assert "n001-relative-sign" in out and "2.10 多维情况" in out
    assert f"{len(LEDGER)} entries; every check agrees" in out


def test_cli_json(capsys):
    assert main(["claims", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["id"] for d in data] == [e.id for e in LEDGER]
    fields = {
        "id",
        "source",
        "quote",
        "claim",
        "verdict",
        "computed_verdict",
        "agrees",
        "check",
        "evidence",
        "counterexample",
        "reading",
        "alternatives",
        "condition",
        "correction",
        "correction_holds",
        "reason",
    }
    assert all(set(d) == fields for d in data)
    assert all(set(d["source"]) == {"title", "file", "section"} for d in data)
    fails = [d for d in data if d["verdict"] == "fails"]
    assert fails and all(d["counterexample"] and d["correction"] and d["correction_holds"] is True for d in fails)
    assert all(d["verdict"] == d["computed_verdict"] and d["agrees"] for d in data)
    assert data[0]["check"].startswith("ropemath.claims.checks_")


def test_cli_source_filter_and_utf8(capsys, tmp_path):
    assert main(["claims", "--json", "--source", "001"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {d["source"]["file"] for d in data} == {"001_7e3e9fdbef5f3390.txt"}
    assert main(["claims", "--source", "001_7e3e9fdbef5f3390.txt", "--json"]) == 0
    raw = capsys.readouterr().out
    assert "旋转位置编码(RoPE)公式详细推导过程" in raw  # not \\u-escaped
    note = tmp_path / "seeds" / "001_7e3e9fdbef5f3390.txt"  # a path to the note (its content is not read)
    note.parent.mkdir()
    note.write_text("", encoding="utf-8")
    assert main(["claims", "--source", str(note), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == data
    for bad in ("nope", "00"):
        assert main(["claims", "--source", bad]) == 2
        captured = capsys.readouterr()
        assert "source must be" in captured.err and captured.out == ""


def test_cli_exits_1_when_a_check_disagrees(monkeypatch, capsys):
    altered = dataclasses.replace(BY_ID["n003-transpose"], verdict="fails", correction="c")
    monkeypatch.setattr(claims, "LEDGER", (altered, *LEDGER[1:3]))
    assert main(["claims"]) == 1
    out = capsys.readouterr().out
    assert "DIFF" in out and "check computed 'holds', ledger records 'fails'" in out
