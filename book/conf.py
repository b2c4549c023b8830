"""Sphinx configuration of the ropemath book (`make book`): README + notebooks from their stored outputs.

Scope: builds a static HTML site from the repository root (README.md, notebooks/*.ipynb, book/*.md) with
myst-nb and never executes a notebook. The notebooks appear in the README's reading order (its links to
``notebooks/NN_name.ipynb``, first mention each), written into the toctree of book/index.md, so a notebook the
README does not list is a build warning (the stored outputs are the ones CI validates with nbval). MathJax is
served from the build itself (sphinx-mathjax-offline ships MathJax 3 in its wheel), so the book works with
no internet. Built by `sphinx-build -c book . book/_build/html` (the Makefile's `book` target).

References: Sphinx configuration, https://www.sphinx-doc.org/en/master/usage/configuration.html ;
myst-nb configuration, https://myst-nb.readthedocs.io/en/latest/configuration.html ;
sphinx-book-theme, https://sphinx-book-theme.readthedocs.io/ .
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

project = "ropemath"
author = "ropemath contributors"
copyright = "ropemath contributors, MIT licence"  # noqa: A001 (Sphinx's name)

extensions = ["myst_nb", "sphinx-mathjax-offline"]

# The source directory is the repository root; only these files are pages.
root_doc = "book/index"
include_patterns = ["README.md", "notebooks/*.ipynb", "book/*.md"]
exclude_patterns = [
    ".git",
    ".venv*",
    "**/.ipynb_checkpoints",
    "book/_build",
    "book/screenshots",
    "build",
    "tests",
    "ropemath",
    "tools",
    "figures",
    "mutants",
]

# Stored outputs only: no kernel is started.
nb_execution_mode = "off"
nb_merge_streams = True
nb_render_markdown_format = "myst"  # text/markdown outputs (notebook 09's verdicts) carry $…$ math
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]

html_theme = "sphinx_book_theme"
html_title = "ropemath: the mathematics of RoPE, machine-checked"
html_theme_options = {
    "show_navbar_depth": 1,
    "show_toc_level": 2,
    "home_page_in_toc": True,
    "use_download_button": False,
    "use_fullscreen_button": False,
}
html_context = {"default_mode": "light"}  # without it pydata-sphinx-theme logs a console error
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None

# The root document is book/index (the sources live at the repository root); index.html at the top of the
# site sends a browser there, so serving book/_build/html and opening / shows the book.
_REDIRECT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>ropemath</title>
<meta http-equiv="refresh" content="0; url=book/index.html"></head>
<body><p><a href="book/index.html">ropemath — the book</a></p></body></html>
"""


def reading_order(readme: str) -> list[str]:
    """The notebooks linked from the README, in the order of their first link.

    >>> reading_order("[a](notebooks/01_b.ipynb) [c](notebooks/00_d.ipynb) [e](notebooks/01_b.ipynb)")
    ['notebooks/01_b', 'notebooks/00_d']
    """
    return list(dict.fromkeys(re.findall(r"\]\((notebooks/\d\d_[a-z0-9_]+)\.ipynb\)", readme)))


READING_MARK = "<!-- reading order: book/conf.py writes the notebooks here, in the README's order -->"


def _write_reading_order(app, docname, source):
    if docname == "book/index":
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        source[0] = source[0].replace(READING_MARK, "\n".join("/" + nb for nb in reading_order(readme)))


def _write_redirect(app, exception):
    if exception is None and app.builder.format == "html":
        (Path(app.outdir) / "index.html").write_text(_REDIRECT, encoding="utf-8")


def setup(app):
    app.connect("source-read", _write_reading_order)
    app.connect("build-finished", _write_redirect)
