"""The book (`make book`): built from the stored outputs with no warning, then every page opened in Chromium.

The browser part serves a fresh build on 127.0.0.1 and opens each page headless (tools/book_browser.py,
Playwright driving /usr/bin/chromium): no console error, no failed or external request (so no CDN: MathJax and
the fonts come from the build), every equation typeset, every image loaded, every internal link and anchor
resolves, the 'next' links walk the reading order, and search answers offline. Each check is run beside a
deliberately broken copy of a page and must report it. Without Chromium these tests skip, except under CI=true
(.ci/run installs Chromium), where a missing browser or book package is a failure.

References: tools/book_browser.py; book/conf.py.
"""

import doctest
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

tomllib = pytest.importorskip("tomllib") if sys.version_info >= (3, 11) else pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("book_browser", ROOT / "tools" / "book_browser.py")
book_browser = importlib.util.module_from_spec(spec)
spec.loader.exec_module(book_browser)

NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
conf_spec = importlib.util.spec_from_file_location("book_conf", ROOT / "book" / "conf.py")
book_conf = importlib.util.module_from_spec(conf_spec)
conf_spec.loader.exec_module(book_conf)
READING = book_conf.reading_order((ROOT / "README.md").read_text(encoding="utf-8"))  # ["notebooks/00_…", …]
PAGES = ["checking", "input-contract", "performance", "mutation-testing", "conventions", "tooling"]  # book/*.md
IN_CI = os.environ.get("CI", "").lower() == "true"


def need(ok, reason):
    """Skip when a prerequisite is absent; under CI, where .ci/run installs it, fail instead."""
    if not ok:
        if IN_CI:
            pytest.fail(f"{reason}: .ci/run and `make test` install it", pytrace=False)
        pytest.skip(reason)


def test_missing_prerequisite_skips_locally_and_fails_in_ci(monkeypatch):
    need(True, "present")  # no-op
    monkeypatch.setattr(sys.modules[__name__], "IN_CI", False)
    with pytest.raises(pytest.skip.Exception):
        need(False, "absent")
    monkeypatch.setattr(sys.modules[__name__], "IN_CI", True)
    with pytest.raises(pytest.fail.Exception):
        need(False, "absent")


def lock_pins(text):
    return {canonicalize_name(n): v for n, v in (ln.split("#")[0].strip().split("==") for ln in text.splitlines()
                                                   if ln.split("#")[0].strip())}


def lock_problems(extra, book_lock, main_lock):
    """Book extra requirements not pinned within range, and pins that would change a main-lock version."""
    pins, main = lock_pins(book_lock), lock_pins(main_lock)
    out = []
    for req in map(Requirement, extra):
        name = canonicalize_name(req.name)
        if name not in pins or Version(pins[name]) not in req.specifier:
            out.append(f"{name}=={pins.get(name)} outside {req.specifier}")
    out += [f"{n}: {v} vs lock {main[n]}" for n, v in pins.items() if n in main and main[n] != v]
    return out


def test_book_lock_pins_the_book_extra_and_changes_no_locked_version():
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["book"]
    book, main = (ROOT / "requirements-book.txt").read_text(), (ROOT / "requirements-lock.txt").read_text()
    assert lock_problems(extra, book, main) == []
    wrong = book.replace("\nmyst-nb==", "\nmyst-nb==0.1\n# ") + "numpy==1.0\n"  # out of range; clashes with lock
    assert len(lock_problems(extra, wrong, main)) == 2


def test_tool_doctests():
    result = doctest.testmod(book_browser, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 4 and result.failed == 0
    result = doctest.testmod(book_conf)
    assert result.attempted >= 1 and result.failed == 0


def test_book_reads_the_notebooks_in_the_readme_order():
    assert sorted(READING) == [f"notebooks/{nb}" for nb in NOTEBOOKS]
    index = (ROOT / "book" / "index.md").read_text(encoding="utf-8")
    assert book_conf.READING_MARK in index
    assert [p for p in PAGES if f"\n{p}\n" in index] == PAGES


def test_readme_links_every_book_page_and_stays_short():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    for page in PAGES:
        assert f"](book/{page}.md)" in readme, page
        assert (ROOT / "book" / f"{page}.md").is_file(), page


def stored_run_rows(page):
    """The rows (variant, layout, ratio) of the performance page's table of one stored run."""
    return [(v.strip(), lay.strip(), float(r)) for v, lay, r in
            re.findall(r"^\| ([^|]+) \| (interleaved|half|-) \| (\d+\.\d\d) \|$", page, flags=re.MULTILINE)]


def ratio_mismatches(page, run):
    ratios = {(t["variant"], t["layout"]): t["ratio"] for t in run["table"] if t["dtype"] == "float32"}
    return [row for row in stored_run_rows(page) if round(ratios.get(row[:2], -1.0), 2) != row[2]]


def test_performance_page_quotes_its_stored_run():
    """The performance page's ratios are those of the JSON it names, and it names the run's machine."""
    page = (ROOT / "book" / "performance.md").read_text(encoding="utf-8")
    run = json.loads((ROOT / re.search(r"figures/bench_[a-z0-9_]+\.json", page).group()).read_text(encoding="utf-8"))
    assert f"one run on {run['machine']['name']}" in page
    assert len(stored_run_rows(page)) >= 8 and ratio_mismatches(page, run) == []
    ratio = stored_run_rows(page)[1][2]
    typo = page.replace(f"| {ratio:.2f} |", f"| {ratio + 0.11:.2f} |", 1)
    assert len(ratio_mismatches(typo, run)) == 1  # a mistyped ratio is seen
    assert not re.search(r"load average|\d ms\b", page), "the page says how to measure; times belong in the JSON"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A clean build of the book (the command of `make book`) in a temporary folder."""
    for module in ("sphinx", "myst_nb", "sphinx_book_theme"):
        need(importlib.util.find_spec(module) is not None, f"{module} not installed (make book installs it)")
    out = tmp_path_factory.mktemp("book") / "html"
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-E", "-W", "--keep-going", "-c", "book", ".",
                          str(out)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and "WARNING" not in run.stderr, run.stderr[-3000:]
    assert time.monotonic() - start < 120, "the book must build in under 2 minutes"
    return out


def test_build_has_every_page_and_no_remote_asset(built):
    pages = book_browser.pages(built)
    for page in ["index.html", "book/index.html", "README.html", "search.html"] + [f"book/{p}.html" for p in PAGES]:
        assert page in pages
    assert {f"notebooks/{nb}.html" for nb in NOTEBOOKS} <= set(pages)
    assert (built / "_static" / "mathjax" / "tex-chtml.js").is_file()
    for page in pages:  # static complement of the browser's request check: no script or stylesheet from http(s)
        html = (built / page).read_text(encoding="utf-8")
        assert 'src="http' not in html and 'rel="stylesheet" href="http' not in html, page


@pytest.fixture(scope="module")
def browser_ready():
    need(importlib.util.find_spec("playwright") is not None, "playwright not installed (make book installs it)")
    need(shutil.which("chromium") or Path(book_browser.CHROMIUM).exists(), "chromium not installed")


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return tmp_path_factory.mktemp("shots")


@pytest.fixture(scope="module")
def records(built, browser_ready, shots):
    return book_browser.audit_site(built, screenshots=shots)


@pytest.fixture(scope="module")
def broken(built, browser_ready, tmp_path_factory):
    """Two deliberately broken copies of notebook 05: injected faults, and the page without MathJax."""
    site = tmp_path_factory.mktemp("broken") / "html"
    shutil.copytree(built, site)
    page = site / "notebooks" / "05_watch_the_long_term_decay.html"
    html = page.read_text(encoding="utf-8")
    faults = ('<p>deliberately raw: $x^2$ and \\(y\\)</p><img src="missing.png" alt="">'
              '<img src="https://cdn.example.invalid/x.png" alt=""><a href="no_such_page.html">x</a>'
              '<a href="06_use_rope_in_attention.html#no-such-anchor">y</a>'
              '<script>console.error("deliberate")</script></body>')
    html_bad = re.sub(r'(<link rel="next"[^>]*href=")06_[^"]*', r"\g<1>09_check_the_notes.html", html)
    assert html_bad != html
    page.write_text(html_bad.replace("</body>", faults), encoding="utf-8")
    nomj = page.with_name("05_no_mathjax.html")
    nomj.write_text(html.replace("_static/mathjax/tex-chtml.js", "_static/mathjax/missing.js"), encoding="utf-8")
    only = [page.relative_to(site).as_posix(), nomj.relative_to(site).as_posix()]
    return site, book_browser.audit_site(site, only=only)


def findings(records, built, check):
    return {rel: f[check] for rel in records if (f := book_browser.problems(rel, records[rel], records, built))[check]}


def test_every_page_was_opened(records, built):
    assert sorted(records) == book_browser.pages(built)


@pytest.mark.parametrize("check", ["console", "requests", "math", "images", "links"])
def test_every_page_is_clean_and_a_broken_page_is_not(records, built, broken, check):
    assert findings(records, built, check) == {}
    site, bad = broken
    assert "notebooks/05_watch_the_long_term_decay.html" in findings({**records, **bad}, site, check)


def test_broken_page_faults_are_each_reported(records, broken):
    site, bad = broken
    found = book_browser.problems("notebooks/05_watch_the_long_term_decay.html",
                                  bad["notebooks/05_watch_the_long_term_decay.html"], {**records, **bad}, site)
    text = {check: " ".join(items) for check, items in found.items()}
    assert "deliberate" in text["console"]
    assert "missing.png (404)" in text["requests"] and "external: https://cdn.example.invalid" in text["requests"]
    assert "raw TeX" in text["math"] and text["images"].count("not loaded") == 2
    assert "no_such_page.html: no such file" in text["links"] and "'no-such-anchor'" in text["links"]
    nomj = book_browser.problems("notebooks/05_no_mathjax.html", bad["notebooks/05_no_mathjax.html"], records, site)
    assert sum(m.startswith("untypeset") for m in nomj["math"]) == bad["notebooks/05_no_mathjax.html"]["math"] > 0
    assert "missing.js (404)" in " ".join(nomj["requests"])


def test_every_notebook_has_typeset_math_figures_and_cross_links(records):
    for nb in NOTEBOOKS:
        rec = records[f"notebooks/{nb}.html"]
        assert rec["math"] > 0 and not rec["untypeset"], nb
        assert any(book_browser.resolve(link, rec["base"]) and "/notebooks/" in link and nb not in link
                   for link in rec["links"]), f"{nb} links to no other notebook"
    decay = records["notebooks/05_watch_the_long_term_decay.html"]
    assert decay["images"] >= 3 and not decay["broken_images"]


def test_next_links_walk_the_reading_order(records, broken):
    expected = (["book/index.html", "README.html"] + [f"{nb}.html" for nb in READING]
                + [f"book/{page}.html" for page in PAGES])
    assert book_browser.reading_order(records) == expected
    _, bad = broken  # its 'next' link skips 06-08
    assert book_browser.reading_order({**records, **bad}) != expected


def test_search_works_offline(built, browser_ready):
    assert "notebooks/05_watch_the_long_term_decay.html" in book_browser.search(built, "Abel")
    assert book_browser.search(built, "zzqxnotaword") == []


def test_screenshots_taken_and_committed_for_the_tooling_page(records, shots):
    tooling = (ROOT / "book" / "tooling.md").read_text(encoding="utf-8")
    for name in book_browser.SCREENSHOTS:
        for png in (shots / name, ROOT / "book" / "screenshots" / name):
            head = png.read_bytes()[:24]
            assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (1280, 900), png
        assert f"](screenshots/{name})" in tooling
