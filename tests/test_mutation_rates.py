"""tools/mutation_rates.py, the report of `make mutants`: it reads mutmut's result files and prints the kill rate
of each package; a survivor lowers the rate, and a package below the goal makes the exit status 1."""

import doctest
import importlib.util
import json
from pathlib import Path

import pytest

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
        "ropemath/core: 9 of 9 mutants killed (0 by timeout), 0 survived, 1 not run: 100.0% (goal 90%), "
        "95% interval 70.1-100.0% if the run ones are a random sample",  # 9 / (9 + 1.96^2) = 0.701
    ]
    write_meta(tmp_path, "ropemath/claims/report.py", [1] * 8 + [0, 33])  # a survivor and an untested mutant
    assert rates.main([str(tmp_path)]) == 1
    assert "ropemath/claims: 8 of 10 mutants killed (0 by timeout), 1 survived, 1 no tests: 80.0%" in \
        capsys.readouterr().out


def test_bad_usage_exits_2(tmp_path, capsys):
    assert rates.main([str(tmp_path / "absent")]) == 2
    assert rates.main([str(tmp_path), "--goal", "1.5"]) == 2
    assert capsys.readouterr().err.count("mutation_rates: error:") == 2


def test_wilson_interval_against_closed_forms():
    z = 1.96
    assert rates.wilson_interval(20, 20, z) == pytest.approx((20 / (20 + z * z), 1.0))  # all caught: n / (n + z^2)
    assert rates.wilson_interval(0, 20, z) == pytest.approx((0.0, z * z / (20 + z * z)))
    low, high = rates.wilson_interval(50, 100, z)  # p = 1/2: centre 1/2, half-width z sqrt(n/4 + z^2/4) / (n + z^2)
    assert (low + high) / 2 == pytest.approx(0.5)
    assert (high - low) / 2 == pytest.approx(z * (100 / 4 + z * z / 4) ** 0.5 / (100 + z * z))
    assert rates.wilson_interval(45, 50, z) != pytest.approx(rates.wilson_interval(45, 50, 1.0))  # z is used


def test_sample_draws_only_mutants_not_run_and_is_seeded(tmp_path, capsys):
    write_meta(tmp_path, "ropemath/symbolic/proofs.py", [1, 0] + [None] * 8)
    write_meta(tmp_path, "ropemath/core/rotation.py", [None] * 3)
    assert rates.main([str(tmp_path), "--sample", "4", "--seed", "1"]) == 0
    names = capsys.readouterr().out.split()
    pending_symbolic = {f"ropemath.symbolic.proofs.x_f__mutmut_{k}" for k in range(3, 11)}
    assert len(names) == 4 + 3 and len(set(names)) == 7
    assert set(names[:4]) <= pending_symbolic
    assert set(names[4:]) == {f"ropemath.core.rotation.x_f__mutmut_{k}" for k in (1, 2, 3)}
    seeds = set()
    for seed in range(5):
        rates.main([str(tmp_path), "--sample", "4", "--seed", str(seed)])
        seeds.add(tuple(capsys.readouterr().out.split()))
    assert len(seeds) > 1  # the seed changes the draw
    assert rates.main([str(tmp_path), "--sample", "0"]) == 2
