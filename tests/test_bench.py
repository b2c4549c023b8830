"""The benchmark's own correctness: every variant is checked before it is timed, and a wrong variant makes the
check fail.  No timed assertions: only that times exist and are positive.  The stored run is the performance page's."""

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from ropemath import apply_rope
from ropemath.cli import bench
from ropemath.cli.dispatch import main
from ropemath.models import gguf_file

TINY = {"heads": 2, "positions": 12, "d": 8, "repeats": 1, "warmup": 0, "dense_positions": 5}
STORED = Path(__file__).resolve().parents[1] / "figures" / "bench_amd_epyc_2core.json"


def test_table_has_every_variant_checked_and_timed():
    rows = bench.rope_table(**TINY) + bench.rope_table(**TINY, dtype="float64")
    names = {(r["dtype"], r["layout"], r["variant"]) for r in rows}
    for dtype in ("float32", "float64"):
        for layout in ("interleaved", "half"):
            for variant in ("apply_rope", "RopeCache.apply", "RopeCache.apply(out=)"):
                assert (dtype, layout, variant) in names
        assert (dtype, "-", "floor") in names
        for variant in ("dense (R prebuilt)", "dense (build R)"):
            assert (dtype, "interleaved", variant) in names
    assert all(r["seconds"] > 0 and np.isfinite(r["ratio"]) for r in rows)
    assert all(r["error"] <= 16 * np.finfo(r["dtype"]).eps for r in rows)
    assert all(r["ratio"] == 1.0 for r in rows if r["variant"] == "floor")


@pytest.mark.parametrize(
    "name, layout, fn",
    [
        ("clockwise", "interleaved", lambda x, m: apply_rope(x, -m, layout="interleaved", base=1e4)),
        ("wrong layout", "half", lambda x, m: apply_rope(x, m, layout="interleaved", base=1e4)),
        ("off by one position", "interleaved", lambda x, m: apply_rope(x, m + 1, layout="interleaved", base=1e4)),
        ("scaled positions", "interleaved", lambda x, m: apply_rope(x, m * 1.0001, layout="interleaved", base=1e4)),
        ("NaN", "half", lambda x, m: np.full_like(x, np.nan)),
        ("dropped batch axis", "interleaved", lambda x, m: apply_rope(x[0], m, layout="interleaved", base=1e4)),
    ],
)
def test_a_wrong_variant_fails_the_correctness_check(name, layout, fn):
    with pytest.raises(bench.CorrectnessError, match=name):
        bench.rope_table(**TINY, extra={name: (layout, fn)})


def test_a_correct_extra_variant_is_timed():
    again = ("half", lambda x, m: apply_rope(x, m, layout="half", base=1e4))
    rows = bench.rope_table(**TINY, dtype="float64", extra={"again": again})
    assert any(r["variant"] == "again" and r["layout"] == "half" for r in rows)


def test_float16_table_is_checked_too():
    rows = bench.rope_table(**TINY, dtype="float16")
    assert {r["dtype"] for r in rows} == {"float16"} and all(r["error"] <= 16 * np.finfo(np.float16).eps for r in rows)


def test_check_result():
    ref = np.array([[1.0, 2.0]])
    assert bench.check_result("ok", ref.copy(), ref, np.ones((1, 1))) == 0.0
    with pytest.raises(bench.CorrectnessError, match="shape"):
        bench.check_result("bad shape", ref[0], ref, np.ones((1, 1)))
    with pytest.raises(bench.CorrectnessError, match="exceeds"):
        bench.check_result("off", ref.astype(np.float32) + 1e-5, ref, np.ones((1, 1)))


def test_time_rounds_runs_round_robin_after_warmup():
    calls = []
    t = bench.time_rounds({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, repeats=3, warmup=2)
    assert calls == ["a", "b"] * 5 and set(t) == {"a", "b"}
    with pytest.raises(ValueError, match="repeats must be an integer >= 1"):
        bench.time_rounds({}, repeats=0)
    with pytest.raises(TypeError, match="warmup must be an integer"):
        bench.time_rounds({}, warmup=1.5)
    with pytest.raises(TypeError, match=r"^funcs must be a mapping of names to callables, got list"):
        bench.time_rounds([lambda: 1])


def test_decay_timing_reports_time_and_memory():
    row = bench.decay_timing(2000, 16, repeats=1)
    assert row["seconds"] > 0 and row["peak_bytes"] > 16 * 2000


def test_goals_compare_the_right_rows():
    rows = [{"dtype": "float32", "layout": "-", "variant": "floor", "seconds": 1.0},
            {"dtype": "float32", "layout": "interleaved", "variant": "RopeCache.apply(out=)", "seconds": 2.5},
            {"dtype": "float32", "layout": "half", "variant": "apply_rope", "seconds": 2.0},
            {"dtype": "float32", "layout": "half", "variant": "torch HF rotate_half", "seconds": 7.0},
            {"dtype": "float64", "layout": "interleaved", "variant": "apply_rope", "seconds": 0.1}]
    result = {g["goal"]: (round(g["value"], 6), g["met"]) for g in bench.goals(rows)}
    assert result == {"RopeCache.apply(out=) / floor [interleaved]": (2.5, False),  # goal <= 2
                      "torch HF rotate_half / apply_rope [half]": (3.5, True)}  # goal >= 3; float64 row ignored


def test_rope_table_rejects_bad_input():
    with pytest.raises(ValueError, match=r"^dtype must be one of \('float16', 'float32', 'float64'\), got 'int32'$"):
        bench.rope_table(**TINY, dtype="int32")
    with pytest.raises(ValueError, match=r"^heads must be an integer >= 1, got 0$"):
        bench.rope_table(**{**TINY, "heads": 0})


CLI_TINY = ["bench", "--heads", "2", "--positions", "16", "--dim", "8", "--sections", "table"]


def test_cli_json(capsys):
    assert main([*CLI_TINY, "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["shape"] == [2, 16, 8] and res["repeats"] == 5 and res["machine"]["name"]
    assert len(res["goals"]) == len(bench.GOALS) - 2 * (res["machine"]["torch"] is None)
    assert {r["variant"] for r in res["table"]} >= {"floor", "apply_rope", "RopeCache.apply", "dense (build R)"}


def test_cli_text_and_plot(tmp_path, capsys):
    assert main([*CLI_TINY, "--plot", str(tmp_path / "plots")]) == 0
    out = capsys.readouterr().out
    assert "x floor" in out and "goal RopeCache.apply(out=) / floor" in out
    assert (tmp_path / "plots" / "bench_ratios.png").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--repeats", "3"], "--repeats must be >= 5, got 3"),
        (["--plot", "figures"], "--plot DIR must not be figures/"),
        (["--plot", " "], "--plot DIR must be a directory name"),
        (["--dim", "7"], "--dim must be a positive even integer, got 7"),
        (["--heads", "0"], "--heads must be an integer >= 1, got 0"),
        (["--positions", "-5"], "--positions must be an integer >= 1, got -5"),
    ],
)
def test_cli_bad_usage(args, message, capsys):
    assert main([*CLI_TINY, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ropemath bench: error: {message}") and err.count("\n") == 1  # one line


def test_cli_checks_arguments_before_running_anything(tmp_path, capsys, monkeypatch):
    """A bad --dim is refused even when the table is not run; a --plot DIR that cannot be created (a path under a
    regular file) is refused up front with one line, not after the run."""
    for name in ("rope_table", "decay_timing"):
        monkeypatch.setattr(bench, name, lambda *a, **k: pytest.fail("a section ran before the arguments were checked"))
    assert main(["bench", "--sections", "decay", "--dim", "7"]) == 2
    assert capsys.readouterr().err == "ropemath bench: error: --dim must be a positive even integer, got 7\n"
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    for bad in (blocker, blocker / "sub"):
        assert main([*CLI_TINY, "--plot", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"ropemath bench: error: --plot DIR must be a writable directory, got '{bad}'")
        assert err.count("\n") == 1


def test_cli_wrong_variant_exits_1(monkeypatch, capsys):
    """The benchmark's own check, through the command: a wrong apply_rope is reported, nothing is timed."""
    wrong = lambda x, m, theta, layout: apply_rope(x, m + 1, theta=theta, layout=layout)  # noqa: E731
    monkeypatch.setattr(bench, "apply_rope", wrong)
    monkeypatch.setattr(bench, "time_rounds", lambda *a, **k: pytest.fail("timed a wrong variant"))
    assert main(CLI_TINY) == 1
    err = capsys.readouterr().err
    assert err.startswith("ropemath bench: correctness check failed: apply_rope|interleaved (float32): relative error")


def test_missing_model_file_is_one_line_naming_the_command(monkeypatch, capsys):
    monkeypatch.setattr(gguf_file.importlib.util, "find_spec", lambda name: None)
    assert main(["bench", "--quick", "--sections", "decay", "--model"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and gguf_file.MODEL_FETCH_COMMAND in err


def test_model_report_verdicts(capsys):
    model = {"tokens": 512, "load_seconds": 2.0, "numpy_seconds": 1.2, "transformers_seconds": 1.0,
             "ratio": 1.2, "max_logit_difference": 1e-4}
    machine = {"name": "a CPU, 2 cores", "numpy": "2", "torch": None, "blas_threads": {}}
    res = {"machine": machine, "load_average": {"before": [1.0], "after": [1.0]}, "model": model}
    bench._print_report(res)
    assert "ratio 1.20 (goal <= 1.5): met" in capsys.readouterr().out
    bench._print_report({**res, "model": {**model, "ratio": 1.8}})
    assert "ratio 1.80 (goal <= 1.5): MISSED" in capsys.readouterr().out


def test_stored_run_is_the_commands_output_on_float32():
    """The stored run (quoted by the performance page) has the command's keys; float32 table, ratio = t / floor."""
    run = json.loads(STORED.read_text(encoding="utf-8"))
    assert {"machine", "load_average", "repeats", "shape", "table", "goals"} <= set(run)
    assert run["shape"] == [32, 4096, 128] and {r["dtype"] for r in run["table"]} == {"float32"}
    floor = next(r["seconds"] for r in run["table"] if r["variant"] == "floor")
    assert all(r["ratio"] == pytest.approx(r["seconds"] / floor, rel=1e-12) for r in run["table"])
    assert bench.goals(run["table"]) == run["goals"]


def test_bench_arguments_match_the_documented_options():
    parser = argparse.ArgumentParser()
    bench.add_cli_arguments(parser)
    documented = {"--quick", "--json", "--plot", "--sections", "--model", "--repeats", "--heads", "--positions",
                  "--dim"}
    assert documented <= {s for action in parser._actions for s in action.option_strings}
