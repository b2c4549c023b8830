"""No process history in ropemath/: no issue numbers, no "used to live", no files outside the repository."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "ropemath"

#: what the package's code, docstrings and comments must not say
HISTORY = re.compile(r"\bissue\s*#\s*\d+|\(#\d+\)|\bused to live\b|shared/REFERENCES\.md|shared/seeds", re.IGNORECASE)


def history(text: str) -> list[str]:
    """The process-history phrases in ``text``."""
    return [m.group(0) for m in HISTORY.finditer(text)]


def test_no_process_history_in_the_package():
    files = sorted(ROOT.rglob("*.py"))
    assert len(files) > 20  # the walk found the package
    found = {str(p.relative_to(ROOT)): history(p.read_text(encoding="utf-8")) for p in files}
    assert {k: v for k, v in found.items() if v} == {}


@pytest.mark.parametrize(
    "text",
    ["# Issue #15, item 6", "a faster kernel (#13)", "helpers that used to live in notebook 07",
     "see ``shared/REFERENCES.md``", "ISSUE 7"],
)
def test_the_scan_says_no(text):
    """Negative controls: each phrase the scan exists for is found (except a bare "ISSUE 7", no number sign)."""
    assert bool(history(text)) == (text != "ISSUE 7")


def test_the_scan_lets_ordinary_words_pass():
    assert history("is used to locate where the bound rises; colour #1f77b4; 3 issues") == []
