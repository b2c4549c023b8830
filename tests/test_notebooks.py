"""The notebook collection: structure, clean stored outputs, README agreement, and proof that
strict nbval validation can fail."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SANITIZE = ROOT / "notebooks" / "nbval-sanitize.cfg"
IDS = [p.name for p in NOTEBOOKS]


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks found"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_opening_and_closing_sections(path):
    cells = load(path)["cells"]
    first, last = "".join(cells[0]["source"]), "".join(cells[-1]["source"])
    assert cells[0]["cell_type"] == "markdown" and first.startswith("# ")
    assert "## What you'll learn" in first and "## What you'll need" in first
    assert cells[-1]["cell_type"] == "markdown" and "## Summary" in last
    links = re.findall(r"\]\(([^)]+\.(?:ipynb|md))\)", last)
    assert links, "the last cell must link to the next notebook (or back to the README)"
    for link in links:
        assert (path.parent / link).exists(), f"{path.name} links to missing {link}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_stored_outputs_are_clean_and_complete(path):
    """Executed in order, no errors, no stderr, nothing volatile, no timing records."""
    code = [c for c in load(path)["cells"] if c["cell_type"] == "code"]
    assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1)), "not executed in order"
    volatile = re.compile(r"0x[0-9a-f]{8,}|/tmp/|/work/|/home/|\d{4}-\d\d-\d\dT\d\d:\d\d")
    for cell in code:
        assert "execution" not in cell["metadata"], "timing records must be off"
        src = "".join(cell["source"])
        assert not re.search(r";\s*$", src, flags=re.MULTILINE), "no trailing ';' tricks"
        for out in cell["outputs"]:
            assert out["output_type"] != "error"
            assert not (out["output_type"] == "stream" and out["name"] == "stderr"), f"stderr in {path.name}"
            text = "".join(out.get("text", "")) + "".join(
                "".join(v) for k, v in out.get("data", {}).items() if k.startswith("text/")
            )
            assert not volatile.search(text), f"volatile text in {path.name}: {volatile.search(text).group()}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_helpers_are_short(path):
    """Logic lives in ropemath/: a function defined in a notebook is at most 12 lines."""
    for cell in load(path)["cells"]:
        if cell["cell_type"] != "code":
            continue
        lines = "".join(cell["source"]).splitlines()
        for i, line in enumerate(lines):
            if line.startswith("def "):
                body = 1
                while i + body < len(lines) and (lines[i + body].startswith((" ", "\t")) or not lines[i + body]):
                    body += 1
                assert body <= 12, f"{path.name}: {line.strip()} is {body} lines long"


def reading_rank(name):
    """The README's reading order: the main path 00-08, then the trained model 12, then the appendices 09-11, 13."""
    number = int(name[:2])
    return (0 if number <= 8 else 1 if number == 12 else 2, number)


def test_readme_lists_every_notebook_in_order():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"\]\(notebooks/(\d\d_[a-z0-9_]+\.ipynb)\)", readme)
    order = [name for i, name in enumerate(listed) if name not in listed[:i]]
    assert order == sorted(IDS, key=reading_rank), "README's reading order must list exactly the notebooks, in order"
    shuffled = ["13_u.ipynb", "12_x.ipynb", "09_y.ipynb", "00_z.ipynb", "08_w.ipynb", "11_v.ipynb"]
    assert sorted(shuffled, key=reading_rank) == ["00_z.ipynb", "08_w.ipynb", "12_x.ipynb", "09_y.ipynb", "11_v.ipynb",
                                                  "13_u.ipynb"]


def test_sanitize_file_hides_nothing_unexplained():
    text = SANITIZE.read_text()
    rules = re.findall(r"^regex: (.*)$", text, flags=re.MULTILINE)
    assert rules == [], "add a rule only with a comment saying what is volatile and why, then update this test"


def run_nbval(path):
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval", "--nbval-current-env",
           "--nbval-sanitize-with", str(SANITIZE), str(path)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=path.parent, timeout=300)


def test_nbval_validation_can_fail(tmp_path):
    """Change one stored output of a copy: strict nbval must fail on it (and pass on an unchanged copy)."""
    source = ROOT / "notebooks" / "00_take_a_tour_of_rope.ipynb"
    nb = load(source)
    intact = tmp_path / "intact.ipynb"
    intact.write_text(json.dumps(nb), encoding="utf-8")
    for cell in nb["cells"]:
        streams = [o for o in cell.get("outputs", []) if o["output_type"] == "stream"]
        if streams:
            text = "".join(streams[0]["text"])
            changed = re.sub(r"\d", lambda d: str((int(d.group()) + 1) % 10), text, count=1)
            assert changed != text
            streams[0]["text"] = changed
            break
    tampered = tmp_path / "tampered.ipynb"
    tampered.write_text(json.dumps(nb), encoding="utf-8")
    ok = run_nbval(intact)
    assert ok.returncode == 0, ok.stdout[-2000:]
    bad = run_nbval(tampered)
    assert bad.returncode != 0
    assert "failed" in bad.stdout


def cited_tests():
    pattern = re.compile(r"tests/(test_\w+\.py)(?:::(test_\w+))?")
    for path in NOTEBOOKS:
        for cell in load(path)["cells"]:
            for file, name in pattern.findall("".join(cell["source"])):
                yield path.name, file, name


def test_notebooks_cite_tests():
    """Every appendix (09-11, 13, 14) names the tests that pin its equations; the main path cites none."""
    cited = {nb for nb, _, _ in cited_tests()}
    appendices = {name for name in IDS if "09" <= name[:2] <= "11" or name[:2] in ("13", "14")}
    assert appendices <= cited, f"appendices citing no test: {sorted(appendices - cited)}"
    main_path_citing = (set(IDS) - appendices) & cited
    assert not main_path_citing, f"main-path notebooks citing tests: {sorted(main_path_citing)}"


@pytest.mark.parametrize("notebook,file,name", sorted(set(cited_tests())))
def test_cited_test_exists(notebook, file, name):
    """A notebook that says 'pinned by tests/test_x.py::test_y' points at a real test."""
    path = ROOT / "tests" / file
    assert path.is_file(), f"{notebook} cites missing {file}"
    if name:
        assert re.search(rf"^\s*def {name}\(", path.read_text(encoding="utf-8"), flags=re.MULTILINE), (
            f"{notebook} cites {file}::{name}, which does not exist"
        )
