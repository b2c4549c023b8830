"""The command line: `ropemath --help`, `python -m ropemath --help`, and `ropemath check`."""

import shutil
import subprocess
import sys

import pytest

from ropemath.cli.dispatch import COMMANDS, main


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def test_console_script_help():
    exe = shutil.which("ropemath") or str(__import__("pathlib").Path(sys.executable).parent / "ropemath")
    result = run(exe, "--help")
    assert result.returncode == 0
    for name in COMMANDS:
        assert name in result.stdout


def test_module_help():
    result = run(sys.executable, "-m", "ropemath", "--help")
    assert result.returncode == 0 and "usage: ropemath" in result.stdout


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help(name, capsys):
    with pytest.raises(SystemExit) as exc:
        main([name, "--help"])
    assert exc.value.code == 0
    assert "usage: ropemath " + name in capsys.readouterr().out


def test_no_command_prints_help_and_returns_2(capsys):
    assert main([]) == 2
    assert "usage: ropemath" in capsys.readouterr().out


def test_check_command_passes(capsys):
    assert main(["check", "--dims", "2", "8", "64", "--trials", "2"]) == 0
    out = capsys.readouterr().out
    assert "largest error" in out and out.rstrip().endswith(": ok")


def test_check_command_fails_when_tolerance_is_impossible(capsys):
    # d = 64 at |m| ~ 1e6 has rounding errors far above 1e-30: the command must report failure
    assert main(["check", "--dims", "64", "--tol", "1e-30"]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_check_command_bad_dimension(capsys):
    assert main(["check", "--dims", "7"]) == 2
    assert "ropemath check: error: --dims must be a positive even integer, got 7" in capsys.readouterr().err


def test_readme_documents_every_command():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f"`ropemath {name}" in readme, f"README does not document `ropemath {name}`"
