"""tools/mutants.py, the mutation run of `make mutants`: its operators produce the mutants they
promise, leave docstrings, f-strings and annotations alone, and a mutant's source differs from
the original in exactly the one spot named.  (The run itself is slow and is not part of `make test`.)
"""

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("mutants_tool", ROOT / "tools" / "mutants.py")
mutants = importlib.util.module_from_spec(spec)
sys.modules["mutants_tool"] = mutants  # dataclasses look their module up by name
spec.loader.exec_module(mutants)

SAMPLE = '''"""Docstring with 1 + 2 and "holds"."""


def check(x: int = 3) -> bool:
    """Return whether x + 1 > 2."""
    y = -x * 2.5
    label = f"{x + 1}"  # an f-string is never mutated
    verdict = "holds" if x >= 0 and y < 0 else "fails"
    z = sp.simplify(x - 1)  # no mutate
    return not (x == y)
'''


@pytest.fixture
def sample(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(SAMPLE, encoding="utf-8")
    monkeypatch.setattr(mutants, "ROOT", tmp_path)
    return "pkg/mod.py"


def test_every_operator_finds_its_spots_and_nothing_else(sample):
    found = {(m.line, m.operator, m.detail) for m in mutants.list_mutants(sample)}
    assert found == {
        (4, "constant", "3->4"),
        (6, "sign", "USub->drop"),
        (6, "sign", "Mult->Div"),
        (6, "constant", "2.5->5.0"),
        (8, "verdict", "holds->fails"),
        (8, "verdict", "fails->holds"),
        (8, "compare", "0:GtE->Gt"),
        (8, "constant", "0->1"),
        (8, "compare", "0:Lt->LtE"),
        (8, "constant", "0->1#2"),  # the second 0 of the line: keys stay unique
        (8, "logic", "And->Or"),
        (10, "compare", "0:Eq->NotEq"),
        (10, "logic", "Not->drop"),
        (10, "return", "True"),
    }


def test_a_mutant_changes_exactly_its_spot(sample):
    original = ast.unparse(ast.parse(SAMPLE))
    for m in mutants.list_mutants(sample):
        new = mutants.mutated_source(m)
        changed = [(a, b) for a, b in zip(original.splitlines(), new.splitlines(), strict=True) if a != b]
        assert len(changed) == 1, (m.key, changed)
    baseline = mutants.Mutant(sample, -1, 0, "none", "unchanged")
    assert mutants.mutated_source(baseline) == original


def test_dropped_calls_and_verdicts(tmp_path, monkeypatch):
    (tmp_path / "m.py").write_text('e = sp.simplify(a - b).doit()\nv = "holds-if"\n', encoding="utf-8")
    monkeypatch.setattr(mutants, "ROOT", tmp_path)
    got = {m.detail: mutants.mutated_source(m) for m in mutants.list_mutants("m.py")}
    assert got["simplify"].splitlines()[0] == "e = (a - b).doit()"
    assert got["doit"].splitlines()[0] == "e = sp.simplify(a - b)"
    assert got["holds-if->holds"].splitlines()[1] == "v = 'holds'"


def test_equivalent_list_is_read_with_reasons(tmp_path, monkeypatch):
    f = tmp_path / "eq.txt"
    f.write_text("# comment\nropemath/x.py:3:sign:Add->Sub  # a + 0 either way\n\n", encoding="utf-8")
    monkeypatch.setattr(mutants, "EQUIVALENT", f)
    assert mutants.read_equivalent() == {"ropemath/x.py:3:sign:Add->Sub": "a + 0 either way"}


def test_the_real_packages_have_mutants():
    assert len(mutants.list_mutants("ropemath/claims/_verdict.py")) > 10


def test_wilson_interval_of_a_sampled_kill_rate():
    low, high = mutants.wilson(90, 100)
    assert 0.82 < low < 0.83 and 0.94 < high < 0.95
    assert mutants.wilson(0, 0) == (0.0, 1.0)
    low, high = mutants.wilson(100, 100)
    assert high > 1 - 1e-12 and low > 0.96


def test_keys_are_unique_when_one_line_has_two_alike_mutants(tmp_path, monkeypatch):
    (tmp_path / "m.py").write_text("def f():\n    return (False, False)\n", encoding="utf-8")
    monkeypatch.setattr(mutants, "ROOT", tmp_path)
    keys = [m.key for m in mutants.list_mutants("m.py")]
    assert len(keys) == len(set(keys)) and "m.py:2:constant:False->True#2" in keys


def test_a_packages_init_is_served_as_the_package(tmp_path):
    init = tmp_path / "pkg_mut" / "__init__.py"
    init.parent.mkdir()
    init.write_text("VALUE = 1\n", encoding="utf-8")
    (init.parent / "sub.py").write_text("X = 2\n", encoding="utf-8")
    finder = mutants._Finder("pkg_mut.__init__", init, "VALUE = 2\n")
    sys.path.insert(0, str(tmp_path))
    sys.meta_path.insert(0, finder)
    try:
        pkg = importlib.import_module("pkg_mut")
        assert pkg.VALUE == 2  # the mutant, not the file on disk
        assert importlib.import_module("pkg_mut.sub").X == 2  # and it is still a package
    finally:
        sys.meta_path.remove(finder)
        sys.path.remove(str(tmp_path))
        for name in ("pkg_mut", "pkg_mut.sub"):
            sys.modules.pop(name, None)


def test_equivalents_file_keys_may_end_in_a_number(tmp_path, monkeypatch):
    listed = tmp_path / "eq.txt"
    listed.write_text("# header\na.py:3:sign:Add->Sub#2  # the second Add of the line\nb.py:1:constant:0->1  # r\n")
    monkeypatch.setattr(mutants, "EQUIVALENT", listed)
    expected = {"a.py:3:sign:Add->Sub#2": "the second Add of the line", "b.py:1:constant:0->1": "r"}
    assert mutants.read_equivalent() == expected


SELECTION_SAMPLE = '''import functools


@functools.cache
def f(x, *, scale=2.0):
    total = (x
             + scale)
    if (x > 0
            and total < 10):
        return total
    return -total
'''


def test_a_mutants_line_maps_to_the_statement_coverage_records(tmp_path, monkeypatch):
    (tmp_path / "s.py").write_text(SELECTION_SAMPLE, encoding="utf-8")
    monkeypatch.setattr(mutants, "ROOT", tmp_path)
    first = mutants._statement_lines("s.py")
    assert first[7] == 6  # a continuation line belongs to the assignment that starts on line 6
    assert first[9] == 8  # the second line of an if's test belongs to the if
    assert first[10] == 10 and first[11] == 11
    assert first[8] != 6  # and not to the statement before it (negative control)


def test_a_default_or_decorator_argument_selects_the_tests_of_the_body(tmp_path, monkeypatch):
    (tmp_path / "s.py").write_text(SELECTION_SAMPLE, encoding="utf-8")
    monkeypatch.setattr(mutants, "ROOT", tmp_path)
    header = mutants._header_bodies("s.py")
    assert header[5] == list(range(6, 12))  # `scale=2.0` matters where lines 6-11 run
    assert header[4] == header[5]  # the decorator's line too
    assert 6 not in header and 1 not in header  # body and module lines are not headers


def test_test_files_expand_globs_once_and_in_order(tmp_path, monkeypatch):
    (tmp_path / "tests").mkdir()
    for name in ("test_a.py", "test_claims_mutants_x.py", "test_claims_mutants_y.py"):
        (tmp_path / "tests" / name).write_text("", encoding="utf-8")
    monkeypatch.setattr(mutants, "ROOT", tmp_path)
    monkeypatch.setitem(mutants.TESTS, "pkg", ["tests/test_a.py", "tests/test_claims_mutants_*.py",
                                               "tests/test_claims_mutants_x.py", "tests/missing.py"])
    assert mutants.test_files("pkg") == [
        "tests/test_a.py", "tests/test_claims_mutants_x.py", "tests/test_claims_mutants_y.py"]


def test_tests_that_failed_in_the_coverage_run_are_run_for_every_mutant(tmp_path, monkeypatch):
    """A test that fails with the caches off (it asserts that a cached call returns the same object)
    cannot be mapped to the lines it covers with caches on: every mutant runs it, also one on a line
    no other test executes; without it in the map, a mutant runs only the tests of its line."""
    import hashlib
    import json

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "s.py").write_text(SELECTION_SAMPLE, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_s.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(mutants, "ROOT", tmp_path)
    monkeypatch.setitem(mutants.TESTS, "pkg", ["tests/test_s.py"])
    digest = hashlib.sha256()
    for path in (tmp_path / "pkg" / "s.py", tmp_path / "tests" / "test_s.py"):
        digest.update(str(path).encode() + path.read_bytes())
    found = {m.line: m for m in mutants.list_mutants("pkg/s.py")}
    covered, uncovered = found[min(k for k in found if k >= 10)], found[6]

    def selection(failed):
        info = {"missing": [6], "lines": {"10": ["t::a"], "11": ["t::a"], "12": ["t::a"], "13": ["t::a"]}}
        cov_map = {"pkg/s.py": info, **({mutants.FAILED_KEY: failed} if failed is not None else {})}
        (tmp_path / ".mutants-map-pkg.json").write_text(
            json.dumps({"digest": digest.hexdigest(), "map": cov_map}), encoding="utf-8")
        return mutants.select_tests("pkg", [covered, uncovered])

    with_failed = selection(["t::identity"])
    assert with_failed[covered.key] == ["t::a", "t::identity"]
    assert with_failed[uncovered.key] == ["t::identity"]
    without = selection(None)  # negative control: nothing failed, nothing added
    assert without[covered.key] == ["t::a"] and without[uncovered.key] == []
