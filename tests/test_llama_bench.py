"""``ropemath bench --model``: a missing model file is a one-line error naming the command that fetches it;
the report's verdict follows the goal (and a ratio above it is reported as missed)."""

import argparse

from ropemath.cli import bench_cli, bench_model
from ropemath.models import gguf_file


def parse(argv):
    parser = argparse.ArgumentParser()
    bench_cli.add_cli_arguments(parser)
    return parser.parse_args(argv)


def test_missing_model_file_is_one_line_naming_the_command(monkeypatch, capsys):
    monkeypatch.setattr(gguf_file.importlib.util, "find_spec", lambda name: None)
    code = bench_cli.run_cli(parse(["--quick", "--sections", "decay", "--model"]))
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and gguf_file.MODEL_FETCH_COMMAND in err


def report(ratio, capsys):
    bench_model.print_report({"tokens": 512, "repeats": 3, "load_seconds": 2.0, "load_goal": 10.0,
                              "numpy_seconds": ratio, "transformers_seconds": 1.0, "ratio": ratio,
                              "ratio_goal": 1.5, "max_logit_difference": 1e-4})
    return capsys.readouterr().out


def test_report_verdicts(capsys):
    assert "ratio 1.20 (goal <= 1.5): met" in report(1.2, capsys)
    assert "ratio 1.80 (goal <= 1.5): MISSED" in report(1.8, capsys)
