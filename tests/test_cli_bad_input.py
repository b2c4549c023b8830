"""The command line on bad input: exit 2 and one line on stderr, never a traceback, nothing written.

Each case runs ``ropemath.cli.main`` in an empty working directory, which must stay empty.
A failed check (a real "no") is exit 1; the controls show good arguments still exit 0.
"""

from __future__ import annotations

import os

import pytest

from ropemath.cli.dispatch import main

USAGE_ERRORS = [
    (["check", "--trials", "0"], "ropemath check: error: --trials must be an integer >= 1, got 0"),
    (["check", "--trials", "-1"], "ropemath check: error: --trials must be an integer >= 1, got -1"),
    (["check", "--trials", "100000"], "ropemath check: error: --trials must be at most 1000"),
    (["check", "--tol", "nan"], "ropemath check: error: --tol must be finite, got nan"),
    (["check", "--tol", "-1"], "ropemath check: error: --tol must be a finite real number >= 0"),
    (["check", "--dims", "3"], "ropemath check: error: --dims must be a positive even integer, got 3"),
    (["check", "--dims", "1000000"], "ropemath check: error: --dims must be a positive even integer <= 4096"),
    (["check", "--trials", "x"], "ropemath check: error: argument --trials: invalid int value: 'x'"),
    (["check", "--seed", "-3"], "ropemath check: error: --seed must be an integer >= 0, got -3"),
    (["figures", "--check", "--out", "/missing"], "ropemath figures: error: --out: directory does not exist: /missing"),
    (["figures", "--out", "/missing"], "ropemath figures: error: --out: directory does not exist: /missing"),
    (["figures", "--out", ""], "ropemath figures: error: --out: an empty name is not a directory"),
    (["figures", "--out"], "ropemath figures: error: argument --out: expected one argument"),
    (["figures", "--only", "nope"], "ropemath figures: error: unknown figure 'nope'"),
    (["claims", "--source", "/nonexistent/dir/003"], "ropemath claims: error: --source: no such file: /nonexistent"),
    (["claims", "--source", "999"], "ropemath claims: error: source must be one note's file name"),
    (["bench", "--repeats", "1"], "ropemath bench: error:"),
    (["bench", "--plot", ""], "ropemath bench: error: --plot DIR must be a directory name"),
    (["bogus"], "ropemath: error: argument COMMAND: invalid choice: 'bogus'"),
    (["check", "--nope"], "ropemath: error: unrecognized arguments: --nope"),
]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own exits (usage errors, --help)
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("argv", "start"), USAGE_ERRORS, ids=[" ".join(a) or "''" for a, _ in USAGE_ERRORS])
def test_usage_error_is_exit_2_and_one_line(argv, start, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(argv, capsys)
    assert code == 2, (code, err)
    assert err.startswith(start), err
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert "Traceback" not in err and out == ""
    assert os.listdir(tmp_path) == [], "a usage error wrote files"


def test_unwritable_out_is_a_usage_error(capsys, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who can write anywhere (root): no unwritable directory to test")
        code, _, err = run(["figures", "--out", str(locked)], capsys)
        assert code == 2 and err.startswith("ropemath figures: error: --out: directory is not writable")
    finally:
        locked.chmod(0o700)


def test_failed_check_is_exit_1_with_what_failed(capsys, tmp_path, monkeypatch):
    """The control on the other side: valid arguments, a tolerance no rounding error meets."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["check", "--dims", "8", "--trials", "1", "--tol", "0"], capsys)
    assert code == 1 and "FAILED" in out and err == ""
    code, out, _ = run(["check", "--dims", "8", "--trials", "1"], capsys)
    assert code == 0 and out.rstrip().endswith(": ok")
    assert os.listdir(tmp_path) == []


def test_figures_write_only_into_out(capsys, tmp_path, monkeypatch):
    cwd, out = tmp_path / "cwd", tmp_path / "out"
    cwd.mkdir()
    out.mkdir()
    monkeypatch.chdir(cwd)
    code, _, _ = run(["figures", "--out", str(out), "--only", "unseen_angles"], capsys)
    assert code == 0
    assert os.listdir(cwd) == [] and os.listdir(out) == ["unseen_angles.png"]
