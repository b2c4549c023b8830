"""Open every page of the built book in headless Chromium and report what a reader would see broken.

Scope: the browser half of `make book` / tests/test_book.py. `serve` puts a built book on 127.0.0.1,
`audit_site` opens each HTML page with Playwright driving the system Chromium (`/usr/bin/chromium`; Playwright's
own browser download is not used) and records console errors, failed or external requests, MathJax output,
images, links, anchors and the "next" link; `problems` turns one page's record into a list of findings (empty =
clean). Checking is split from recording so that tests can feed deliberately broken pages through the same code.
Command line: `python tools/book_browser.py BUILD_DIR [--screenshots DIR]` prints one verdict line per check and
exits 1 on any finding; with `--screenshots` it also saves the landing page and the decay notebook (book/tooling.md).

References: Playwright for Python, https://playwright.dev/python/docs/api/class-page ;
MathJax 3 startup promise, https://docs.mathjax.org/en/latest/web/typeset.html ;
Sphinx HTML builder, https://www.sphinx-doc.org/en/master/usage/builders/index.html .
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import shutil
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

CHROMIUM = "/usr/bin/chromium"
ATTEMPTS = 3  # opens of a page before a missed "network idle" counts as a failure
IDLE_TIMEOUT_MS = 40_000
SKIP_DIRS = ("_static", "_sources", "_downloads", "_images")
# TeX that MathJax should have replaced: \( \) \[ \] $$, $…$ with no space after the opening $, \begin{, \frac.
RAW_TEX = re.compile(r"\\[()\[\]]|\$\$|\$[^\s$][^$]*\$|\\begin\{|\\frac\b")
SCREENSHOTS = {"book-landing.png": "book/index.html", "book-decay.png": "notebooks/05_watch_the_long_term_decay.html"}

# Runs in the page once it has loaded: waits for MathJax's first typeset and the fonts, then records.
_RECORD_JS = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  await document.fonts.ready;
  const imgs = [...document.images];
  await Promise.all(imgs.map(i => i.complete ? null : new Promise(r => {
    i.loading = 'eager'; i.addEventListener('load', r); i.addEventListener('error', r); setTimeout(r, 5000); })));
  const skip = 'pre, code, script, style, mjx-container, mjx-assistive-mml, textarea, .highlight';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {acceptNode: n =>
    n.parentElement && n.parentElement.closest(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  const texts = []; let n; while ((n = walker.nextNode())) { if (n.textContent.trim()) texts.push(n.textContent); }
  const maths = [...document.querySelectorAll('.math')];
  const next = document.querySelector('link[rel="next"]');
  return {
    math: maths.length,
    untypeset: maths.filter(e => !e.querySelector('mjx-container')).map(e => e.textContent.slice(0, 80)),
    merror: [...document.querySelectorAll('mjx-merror')].map(e => e.textContent.slice(0, 80)),
    texts: texts,
    images: imgs.length,
    broken_images: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.currentSrc || i.src),
    links: [...document.querySelectorAll('a[href]')].map(a => a.href),
    ids: [...document.querySelectorAll('[id]')].map(e => e.id)
         .concat([...document.querySelectorAll('a[name]')].map(e => e.name)),
    next: next ? next.href : null,
  };
}"""


def pages(build: Path) -> list[str]:
    """Every HTML page of a built book, as paths relative to `build` (theme templates under _static excluded).

    >>> import tempfile; d = Path(tempfile.mkdtemp()); (d / "_static").mkdir(); (d / "a").mkdir()
    >>> for p in ("index.html", "a/b.html", "_static/t.html", "a/c.png"): _ = (d / p).write_text("")
    >>> pages(d)
    ['a/b.html', 'index.html']
    """
    found = (p.relative_to(build).as_posix() for p in build.rglob("*.html"))
    return sorted(p for p in found if not p.startswith(SKIP_DIRS))


def raw_tex(texts: list[str]) -> list[str]:
    """The visible text snippets that still contain TeX delimiters or commands (MathJax did not run on them).

    >>> raw_tex(["costs 5 $", "where $x^2$ grows", r"see \\(a\\)", "plain"])
    ['where $x^2$ grows', 'see \\\\(a\\\\)']
    """
    return [t.strip()[:80] for t in texts if RAW_TEX.search(t)]


@contextmanager
def serve(build: Path) -> Iterator[str]:
    """Serve `build` on 127.0.0.1 (a free port) in a thread; yields the base URL, ending in '/'."""
    handler = functools.partial(_QuietHandler, directory=str(build))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


def audit_site(build: Path, only: list[str] | None = None, screenshots: Path | None = None) -> dict[str, dict]:
    """Open each page of `build` (or just `only`) in headless Chromium; return {page: record}.

    A record holds what the page showed (see _RECORD_JS) plus `console` (console errors and uncaught
    exceptions), `failed` (requests that failed or got HTTP >= 400) and `external` (requests that left
    127.0.0.1; they are blocked, as they would fail offline). With `screenshots`, saves SCREENSHOTS there.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import sync_playwright

    records: dict[str, dict] = {}
    with serve(build) as base, sync_playwright() as pw:
        flags = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
        browser = pw.chromium.launch(executable_path=shutil.which("chromium") or CHROMIUM, args=flags)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(120_000)  # a loaded 2-core machine renders MathJax slowly; waiting loses nothing
        for rel in only or pages(build):
            for attempt in range(1, ATTEMPTS + 1):
                try:
                    page, rec = _open(context, base, rel)
                    break
                except PlaywrightTimeoutError:  # Chromium rarely misses "network idle" after an aborted request
                    if attempt == ATTEMPTS:
                        raise
            for name, target in SCREENSHOTS.items():
                if screenshots is not None and rel == target:
                    page.screenshot(path=str(screenshots / name))
            page.close()
            rec["base"] = base
            records[rel] = rec
        browser.close()
    return records


def search(build: Path, query: str) -> list[str]:
    """The pages that the book's own search (search.html, offline) lists for `query`, in its order."""
    from playwright.sync_api import sync_playwright

    with serve(build) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium") or CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(f"{base}search.html?q={query}", wait_until="load")
        page.wait_for_selector("#search-results .search-summary", state="attached", timeout=20_000)
        hrefs = page.eval_on_selector_all("#search-results ul.search li a", "as => as.map(a => a.href)")
        browser.close()
    return [resolve(h, base)[0] for h in hrefs if resolve(h, base)]


def _open(context, base: str, rel: str):
    """Open one page and wait until the network is idle; return (page, record)."""
    rec: dict = {"console": [], "failed": [], "external": []}
    page = context.new_page()
    page.route("**/*", functools.partial(_route, base, rec))
    page.on("console", lambda m: m.type == "error" and rec["console"].append(m.text[:200]))
    page.on("pageerror", lambda e: rec["console"].append(str(e)[:200]))
    page.on("requestfailed", lambda r: rec["failed"].append(f"{r.url} ({r.failure})"))
    page.on("response", lambda r: r.status >= 400 and rec["failed"].append(f"{r.url} ({r.status})"))
    try:
        page.goto(base + rel, wait_until="load")
        page.wait_for_load_state("networkidle", timeout=IDLE_TIMEOUT_MS)  # lets the top index.html redirect finish
        rec.update(page.evaluate(_RECORD_JS))
        page.wait_for_load_state("networkidle", timeout=IDLE_TIMEOUT_MS)  # fonts and images the typesetting requested
    except Exception:
        page.close()
        raise
    return page, rec


def _route(base: str, rec: dict, route, request) -> None:
    if request.url.startswith((base, "data:", "blob:")):
        route.continue_()
    else:
        rec["external"].append(request.url)
        route.abort()


def resolve(link: str, base: str) -> tuple[str, str] | None:
    """(page path, fragment) of an internal link, or None for a link that leaves the book.

    >>> resolve("http://127.0.0.1:8000/notebooks/a.html#eq-1", "http://127.0.0.1:8000/")
    ('notebooks/a.html', 'eq-1')
    >>> resolve("http://127.0.0.1:8000/", "http://127.0.0.1:8000/"), resolve("https://arxiv.org/", "http://x/")
    (('index.html', ''), None)
    """
    if not link.startswith(base):
        return None
    url, fragment = urldefrag(link)
    path = unquote(urlsplit(url).path)[len(urlsplit(base).path) :]
    return (path + "index.html" if path.endswith("/") or not path else path), unquote(fragment)


def problems(rel: str, rec: dict, records: dict[str, dict], build: Path) -> dict[str, list[str]]:
    """One page's findings by check (console, requests, math, images, links); every list empty = clean page."""
    links = []
    for link in rec["links"]:
        target = resolve(link, rec["base"])
        if target is None:
            continue
        path, fragment = target
        if not (build / path).is_file():
            links.append(f"{link}: no such file")
        elif fragment and path in records and fragment not in records[path]["ids"]:
            links.append(f"{link}: no element with id {fragment!r}")
    return {
        "console": rec["console"],
        "requests": rec["failed"] + [f"external: {u}" for u in rec["external"]],
        "math": [f"untypeset: {t}" for t in rec["untypeset"]] + [f"MathJax error: {t}" for t in rec["merror"]]
        + [f"raw TeX: {t}" for t in raw_tex(rec["texts"])],
        "images": [f"not loaded: {u}" for u in rec["broken_images"]],
        "links": links,
    }


def reading_order(records: dict[str, dict], start: str = "book/index.html") -> list[str]:
    """The pages met by following the 'next' link from `start` (the per-page navigation), in order."""
    order, rel = [start], start
    while records[rel]["next"]:
        rel = resolve(records[rel]["next"], records[rel]["base"])[0]
        if rel in order:
            break
        order.append(rel)
    return order


def main(argv: list[str] | None = None) -> int:
    """Command line: audit a built book, print one verdict per check, optionally save the tooling page's screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path, help="the built book (book/_build/html)")
    parser.add_argument("--screenshots", type=Path, help="save book-landing.png and book-decay.png here")
    args = parser.parse_args(argv)
    records = audit_site(args.build, screenshots=args.screenshots)
    found = {rel: problems(rel, rec, records, args.build) for rel, rec in records.items()}
    failed = 0
    for check in ("console", "requests", "math", "images", "links"):
        bad = {rel: f[check] for rel, f in found.items() if f[check]}
        failed += bool(bad)
        print(f"{check:9s} {'FAIL' if bad else 'ok'} on {len(records)} pages", *(f"  {r}: {b}" for r, b in bad.items()))
    order = reading_order(records)
    print(f"typeset   {sum(r['math'] for r in records.values())} equations; 'next' links walk {len(order)} pages")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
