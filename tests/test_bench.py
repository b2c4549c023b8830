"""The benchmark's own correctness: every variant is checked before it is timed, and a wrong
variant makes the check fail.  No timed assertions: only that times exist and are positive."""

import json

import numpy as np
import pytest

from ropemath import apply_rope
from ropemath.cli import bench, bench_cli
from ropemath.cli.dispatch import main

TINY = {"heads": 2, "positions": 12, "d": 8, "repeats": 1, "warmup": 0, "dense_positions": 5}


def test_table_has_every_variant_checked_and_timed():
    rows = bench.rope_table(**TINY)
    names = {(r["dtype"], r["layout"], r["variant"]) for r in rows}
    for dtype in ("float32", "float64"):
        for layout in ("interleaved", "half"):
            for variant in ("plain", "apply_rope", "RopeCache.apply", "RopeCache.apply(out=)"):
                assert (dtype, layout, variant) in names
        assert (dtype, "-", "floor") in names
        for variant in ("dense gemm (R prebuilt)", "dense matvec (R prebuilt)", "dense gemm (build R)"):
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
        (
            "positions scaled by 1.0001",
            "interleaved",
            lambda x, m: apply_rope(x, m * 1.0001, layout="interleaved", base=1e4),
        ),
        ("NaN", "half", lambda x, m: np.full_like(x, np.nan)),
        ("dropped batch axis", "interleaved", lambda x, m: apply_rope(x[0], m, layout="interleaved", base=1e4)),
    ],
)
def test_a_wrong_variant_fails_the_correctness_check(name, layout, fn):
    with pytest.raises(bench.CorrectnessError, match=name):
        bench.rope_table(**TINY, extra={name: (layout, fn)})


def test_a_correct_extra_variant_is_timed():
    rows = bench.rope_table(
        **TINY, dtypes=("float64",), extra={"again": ("half", lambda x, m: apply_rope(x, m, layout="half", base=1e4))}
    )
    assert any(r["variant"] == "again" and r["layout"] == "half" for r in rows)


def test_check_result():
    ref = np.array([[1.0, 2.0]])
    assert bench.check_result("ok", ref.copy(), ref, np.ones((1, 1))) == 0.0
    with pytest.raises(bench.CorrectnessError, match="shape"):
        bench.check_result("bad shape", ref[0], ref, np.ones((1, 1)))
    with pytest.raises(bench.CorrectnessError, match="exceeds"):
        bench.check_result("off", ref.astype(np.float32) + 1e-5, ref, np.ones((1, 1)))


def test_dense_apply_is_one_matrix_per_position():
    rng = np.random.default_rng(30)  # seed 30
    x, R = rng.standard_normal((3, 4, 6)), rng.standard_normal((4, 6, 6))
    y = bench.dense_apply(x, R)
    for h in range(3):
        for p in range(4):
            np.testing.assert_allclose(y[h, p], R[p] @ x[h, p], atol=1e-14)


def test_plain_rope_half_is_rotate_half():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    ones = np.ones(4)
    # cos = 0, sin = 1 leaves rotate_half(x) = (-x3, -x4, x1, x2)
    assert bench.plain_rope(x, 0 * ones, ones, "half").tolist() == [-3.0, -4.0, 1.0, 2.0]


def test_scaling_checks_elementwise_against_dense(monkeypatch):
    rows = bench.scaling((4, 8, 16), elements=256, matrix_elements=256, repeats=1, warmup=0)
    assert [r["d"] for r in rows] == [4, 8, 16] and all(r["elementwise"] > 0 < r["dense"] for r in rows)
    monkeypatch.setattr(bench, "apply_rope", lambda x, m, base, layout: apply_rope(x, m + 1, base=base, layout=layout))
    with pytest.raises(bench.CorrectnessError, match="elementwise d=4"):
        bench.scaling((4,), elements=64, matrix_elements=64, repeats=1, warmup=0)


def test_fit_exponent_recovers_a_power_law():
    d = np.array([16, 64, 256, 1024, 4096])
    assert bench.fit_exponent(d, 3e-9 * d**1.0, 256) == pytest.approx(1.0)
    assert bench.fit_exponent(d, 1e-9 * d**2.0 + (d < 256), 256) == pytest.approx(2.0)  # small d ignored
    with pytest.raises(ValueError, match="d_min must leave at least two points"):
        bench.fit_exponent(d, d, 4096)


def test_time_rounds_runs_round_robin_after_warmup():
    calls = []
    t = bench.time_rounds({"a": lambda: calls.append("a"), "b": lambda: calls.append("b")}, repeats=3, warmup=2)
    assert calls == ["a", "b"] * 5 and set(t) == {"a", "b"}
    with pytest.raises(ValueError, match="repeats must be an integer >= 1"):
        bench.time_rounds({}, repeats=0)
    with pytest.raises(TypeError, match="warmup must be an integer"):
        bench.time_rounds({}, warmup=1.5)


def test_decay_timing_reports_time_and_memory():
    row = bench.decay_timing(2000, 16, repeats=1)
    assert row["available"] and row["seconds"] > 0 and row["peak_bytes"] > 16 * 2000


def test_goals_compare_the_right_rows():
    rows = [{"dtype": "float32", "layout": "-", "variant": "floor", "seconds": 1.0}]
    rows += [
        {"dtype": "float32", "layout": "interleaved", "variant": "RopeCache.apply(out=)", "seconds": 2.5},
        {"dtype": "float32", "layout": "half", "variant": "apply_rope", "seconds": 2.0},
        {"dtype": "float32", "layout": "half", "variant": "torch HF rotate_half", "seconds": 7.0},
    ]
    result = {g["goal"].split(" / ")[0]: (round(g["value"], 6), g["met"]) for g in bench_cli.goals(rows)}
    assert result == {
        "interleaved, float32: RopeCache.apply(out=)": (2.5, False),  # goal <= 2
        "half, float32: torch HF rotate_half": (3.5, True),
    }  # goal >= 3


def test_suites_missing_are_reported(tmp_path, monkeypatch):
    monkeypatch.setattr("ropemath.cli.dispatch.COMMANDS", {})
    rows = bench.suite_timings(tmp_path)
    assert [r["suite"] for r in rows] == ["symbolic tests", "ropemath figures", "notebooks (strict nbval)"]
    assert all(r["seconds"] is None and r["tail"] == "not present" for r in rows)


def test_suites_are_run_in_a_subprocess(tmp_path, monkeypatch):
    monkeypatch.setattr("ropemath.cli.dispatch.COMMANDS", {})
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_symbolic_tiny.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    row = bench.suite_timings(tmp_path)[0]
    assert row["returncode"] == 0 and row["seconds"] > 0 and "1 passed" in row["tail"]


CLI_TINY = ["bench", "--heads", "2", "--positions", "16", "--dim", "8", "--sections", "table"]


def test_cli_json(capsys):
    assert main([*CLI_TINY, "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert (
        res["shape"] == [2, 16, 8]
        and res["repeats"] == 5
        and len(res["goals"]) == len(bench_cli.GOALS) - 2 * (res["machine_before"]["torch"] is None)
    )
    assert {r["variant"] for r in res["table"]} >= {"floor", "apply_rope", "RopeCache.apply", "dense gemm (build R)"}


def test_cli_text_and_plots(tmp_path, capsys):
    assert main([*CLI_TINY, "--plot", str(tmp_path / "plots")]) == 0
    out = capsys.readouterr().out
    assert "x floor" in out and "goals:" in out and (tmp_path / "plots" / "bench_ratios.png").exists()
    res = {
        "scaling": {
            "rows": [{"d": d, "elementwise": d * 1e-9, "dense": d * d * 1e-9} for d in (256, 512)],
            "exponents": {"elementwise": 1.0, "dense": 2.0},
        }
    }
    assert bench_cli._plot(res, tmp_path) == [tmp_path / "bench_scaling.png"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--repeats", "3"], "--repeats must be >= 5, got 3"),
        (["--plot", "figures"], "--plot DIR must not be figures/"),
        (["--dim", "7"], "--dim must be a positive even integer, got 7"),
        (["--heads", "0"], "--heads must be an integer >= 1, got 0"),
        (["--positions", "-5"], "--positions must be an integer >= 1, got -5"),
    ],
)
def test_cli_bad_usage(args, message, capsys):
    assert main([*CLI_TINY, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ropemath bench: error: {message}") and err.count("\n") == 1  # one line


def test_cli_checks_sizes_and_plot_dir_before_running_anything(tmp_path, capsys, monkeypatch):
    """A bad --dim is refused even when the table is not run; a --plot DIR that cannot be created
    (here: a path under a regular file) is refused up front with one line, not a traceback after the run."""

    def must_not_run(*args, **kwargs):
        raise AssertionError("a section ran before the arguments were checked")

    for name in ("rope_table", "scaling", "decay_timing"):
        monkeypatch.setattr(bench, name, must_not_run)
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


def test_bench_functions_reject_bad_input():
    with pytest.raises(
        ValueError,
        match=r"^dtypes must be a non-empty tuple of names from \('float16', 'float32', "
        r"'float64'\), got \('int32',\)$",
    ):
        bench.rope_table(**TINY, dtypes=("int32",))
    with pytest.raises(TypeError, match=r"^dtypes must be a tuple of names"):
        bench.rope_table(**TINY, dtypes="float32")
    with pytest.raises(ValueError, match=r"^d and t must contain only positive values"):
        bench.fit_exponent([256, 512], [0.0, 1.0])
    with pytest.raises(ValueError, match=r"^d and t must be 1-D of equal length, got shapes \(3,\) and \(2,\)$"):
        bench.fit_exponent([256, 512, 1024], [1.0, 1.0])
    with pytest.raises(TypeError, match=r"^funcs must be a mapping of names to callables, got list"):
        bench.time_rounds([lambda: 1])
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array"):
        bench.plain_rope(np.arange(4), np.ones(4), np.ones(4), "half")
    with pytest.raises(
        ValueError,
        match=r"^x and R must have shapes \(heads, P, d\) and \(P, d, d\), got \(2, 3, 4\) "
        r"and \(3, 5, 5\)$",
    ):
        bench.dense_apply(np.ones((2, 3, 4)), np.ones((3, 5, 5)))


def test_float16_table_is_checked_too():
    rows = bench.rope_table(**TINY, dtypes=("float16",))
    assert {r["dtype"] for r in rows} == {"float16"} and all(r["error"] <= 16 * np.finfo(np.float16).eps for r in rows)
