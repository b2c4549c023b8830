"""tools/mutation_rates.py, the report of `make mutants`: it reads mutmut's result files and prints the kill rate
of each package; a survivor lowers the rate, and a package below the goal makes the exit status 1."""

import doctest
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("mutation_rates", ROOT / "tools" / "mutation_rates.py")
rates = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rates)


def write_meta(folder, source, codes):
    meta = folder / f"{source}.meta"
    meta.parent.mkdir(parents=True, exist_ok=True)
    keys = {f"{source[:-3].replace('/', '.')}.x_f__mutmut_{k}": code for k, code in enumerate(codes, 1)}
    meta.write_text(json.dumps({"exit_code_by_key": keys, "durations_by_key": {}}), encoding="utf-8")


def test_doctests():
    result = doctest.testmod(rates)
    assert result.attempted >= 3 and result.failed == 0


def test_rates_per_package_and_goal(tmp_path, capsys):
    write_meta(tmp_path, "ropemath/symbolic/proofs.py", [1] * 18 + [36, 0])  # 19 of 20
    write_meta(tmp_path, "ropemath/symbolic/common.py", [1] * 10)
    write_meta(tmp_path, "ropemath/core/rotation.py", [1] * 9 + [None])
    write_meta(tmp_path, "ropemath/theory/decay.py", [0] * 5)  # not one of the three packages
    assert rates.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "ropemath/claims: not run",
        "ropemath/symbolic: 29 of 30 mutants killed (1 by timeout), 1 survived: 96.7% (goal 90%)",
        "ropemath/core: 9 of 9 mutants killed (0 by timeout), 0 survived, 1 not run: 100.0% (goal 90%)",
    ]
    write_meta(tmp_path, "ropemath/claims/report.py", [1] * 8 + [0, 33])  # a survivor and an untested mutant
    assert rates.main([str(tmp_path)]) == 1
    assert "ropemath/claims: 8 of 10 mutants killed (0 by timeout), 1 survived, 1 no tests: 80.0%" in \
        capsys.readouterr().out


def test_bad_usage_exits_2(tmp_path, capsys):
    assert rates.main([str(tmp_path / "absent")]) == 2
    assert rates.main([str(tmp_path), "--goal", "1.5"]) == 2
    assert capsys.readouterr().err.count("mutation_rates: error:") == 2
