"""The habit that keeps stored notebook outputs portable: no rounding-level number is ever printed.

The last digits of a rounding error (4.4e-16, a residual of 1.2e-13) depend on the CPU's SIMD
kernels, the BLAS kernel and fused multiply-add, so a stored output that shows them passes strict
nbval on one machine and fails on the next.  Notebooks print a verdict against a bound stated
beforehand instead (``ropemath.verdict``: "max error ≤ 1e-12: yes"), assert it in the cell, and
draw the raw noise in a figure when it teaches something.

This test scans every stored text output (stdout, text/plain, text/markdown) for

* a nonzero number below 1e-8 in magnitude that is not a stated bound (a bound follows ``≤``,
  ``≥``, ``<``, ``>``, ``below``, ``above``, ``within``, ``tolerance`` or ``bound``), and
* a number with more than 12 significant digits (more than a float64 computation guarantees
  once a few operations have rounded),

and fails unless the number is on :data:`ALLOWED`, a short list of values that are determined
mathematically, each with its reason.  ``test_the_scan_says_no`` shows that a new cell printing
``f"{err:.1e}"`` fails it, on a temporary notebook.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

FLOAT = r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?"
NUMBER = re.compile(r"(?<![\w.^])" + FLOAT + r"(?![\w.])")
BOUND = re.compile(r"(?:≤|≥|<=|>=|<|>|below|above|within|tolerance|bound:?)\s*" + FLOAT)

# (notebook prefix, exact text of the number): why it may be printed.
ALLOWED = {
    # 2 + 2 cos 355 = 9.087e-10 to 4 digits: 355/113 approximates pi, so cos 355 is within 5e-10 of -1.
    # The value is fixed by mathematics; float64 cancellation leaves it accurate to ~1e-16 absolute,
    # i.e. 7 significant digits, and 4 are printed.
    ("14", "9.087e-10"),
}


def text_outputs(nb: dict) -> list[tuple[int, str]]:
    """(code-cell number from 1, text) for every stored text output of a notebook (JSON dict)."""
    found = []
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    for number, cell in enumerate(code, 1):
        for out in cell.get("outputs", []):
            parts = ["".join(out.get("text", ""))]
            for kind in ("text/plain", "text/markdown"):
                parts.append("".join(out.get("data", {}).get(kind, "")))
            found.extend((number, part) for part in parts if part)
    return found


def significant_digits(token: str) -> int:
    mantissa = re.sub(r"[eE].*", "", token).lstrip("+-").replace(".", "").lstrip("0")
    return len(mantissa)


def suspicious(prefix: str, nb: dict) -> list[str]:
    """Human-readable findings: rounding-level or over-precise numbers in the stored outputs."""
    findings = []
    for number, text in text_outputs(nb):
        for token in NUMBER.findall(BOUND.sub(" ", text)):
            value = float(token)
            if (prefix, token) in ALLOWED:
                continue
            if value != 0 and abs(value) < 1e-8:
                findings.append(f"{prefix} cell {number}: {token} is rounding-level (print a verdict instead)")
            elif significant_digits(token) > 12:
                findings.append(f"{prefix} cell {number}: {token} has {significant_digits(token)} significant digits")
    return findings


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_no_rounding_noise_in_stored_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert suspicious(path.name[:2], nb) == []


def test_every_allowed_value_is_still_printed():
    """An allow-list entry that no output uses any more is removed, so the list stays short and true."""
    stored = {}
    for p in NOTEBOOKS:
        stored[p.name[:2]] = " ".join(t for _, t in text_outputs(json.loads(p.read_text(encoding="utf-8"))))
    for prefix, token in ALLOWED:
        assert token in stored.get(prefix, ""), (prefix, token)


def _notebook_with(source: str, output: str) -> dict:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(source, execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=output)]
    nb.cells = [cell]
    return json.loads(nbformat.writes(nb))


def test_the_scan_says_no(tmp_path):
    # A new cell that prints err.max() the old way fails; the same check printed as a verdict passes.
    path = tmp_path / "99_print_noise.ipynb"
    bad = _notebook_with('err = np.abs(a - b)\nprint(f"max error {err.max():.1e}")', "max error 4.4e-16\n")
    path.write_text(json.dumps(bad), encoding="utf-8")
    findings = suspicious("99", json.loads(path.read_text(encoding="utf-8")))
    assert findings == ["99 cell 1: 4.4e-16 is rounding-level (print a verdict instead)"]
    overprecise = _notebook_with("print(score)", "score -3.1734448659321234\n")
    assert suspicious("99", overprecise) == ["99 cell 1: -3.1734448659321234 has 17 significant digits"]
    good = _notebook_with('print(ropemath.verdict("max error", err, 1e-12))', "max error ≤ 1e-12: yes\n")
    assert suspicious("99", good) == []
