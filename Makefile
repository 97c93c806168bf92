# Every target bootstraps .venv from requirements.lock (no conda, nothing global) with a supported CPython:
# $(PYTHON) if given (make test PYTHON=python3.12), else the first of python3, python3.13, python3.12,
# python3.11 that is 3.11, 3.12 or 3.13. .venv is reused while requirements.lock and pyproject.toml are
# unchanged, and rebuilt when it is broken or was made with another interpreter.
SUPPORTED := 3.11 3.12 3.13
CANDIDATES := $(or $(PYTHON),python3 python3.13 python3.12 python3.11)
# the first candidate that runs and is supported, as "executable version"
INTERPRETER := $(shell for p in $(CANDIDATES); do $$p -c 'import sys; v = "%d.%d" % sys.version_info[:2]; \
	sys.exit(v not in "$(SUPPORTED)".split() or print(sys.executable, v))' 2>/dev/null && exit 0; done)
INTERPRETER_PATH := $(word 1,$(INTERPRETER))
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip --disable-pip-version-check
# --compile-bytecode: as pip does; without .pyc files (and with PYTHONDONTWRITEBYTECODE set) every
# kernel would compile the stack anew, three times slower to import
UV_INSTALL := $(BIN)/uv pip install --compile-bytecode --python $(BIN)/python
# Python writes the bytecode of lib/ and tests/ (git ignores __pycache__/) even where the environment
# sets PYTHONDONTWRITEBYTECODE: otherwise every kernel compiles the package anew and every test
# worker rewrites every test module's assertions anew, on every run
unexport PYTHONDONTWRITEBYTECODE
# parallel test workers: one per core
JOBS ?= auto
UV_VERSION := 0.13.9
JUPYTERLAB_VERSION := 4.6.6
PRE_COMMIT_VERSION := 4.7.0

# a .venv that no longer runs, or that another interpreter made, is not reused
ifneq ($(INTERPRETER),$(shell cat $(VENV)/.interpreter 2>/dev/null))
$(shell rm -f $(STAMP))
endif
ifneq ($(shell $(BIN)/python -c 'print(1)' 2>/dev/null),1)
$(shell rm -f $(STAMP))
endif

.PHONY: help venv reproduce authors-code test test-cases test-fast test-explore test-spark test-site site assignments lint bench lab lock hooks clean

help:  ## this list: every target and what it does
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  make %-13s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): requirements.lock pyproject.toml
	@test -n "$(INTERPRETER)" || { echo "make: needs CPython 3.11, 3.12 or 3.13; none of [$(CANDIDATES)] is one: set PYTHON=/path/to/python3.12" >&2; exit 2; }
	@if [ "$$(cat $(VENV)/.interpreter 2>/dev/null)" != "$(INTERPRETER)" ] || ! $(BIN)/python -c '' 2>/dev/null; then \
		echo "make: creating $(VENV) with $(INTERPRETER)"; rm -rf $(VENV) && $(INTERPRETER_PATH) -m venv $(VENV) && \
		echo "$(INTERPRETER)" > $(VENV)/.interpreter; fi
	@# uv installs the lock in seconds from its cache; where it cannot be had, pip does the same, slower
	@if $(PIP) install -q uv==$(UV_VERSION) 2>/dev/null; then \
		$(UV_INSTALL) -q -r requirements.lock && $(UV_INSTALL) -q --no-deps -e .; \
	else echo "make: uv $(UV_VERSION) could not be installed; installing requirements.lock with pip (slower)"; \
		$(PIP) install -q -r requirements.lock && $(PIP) install -q --no-deps -e .; fi
	@touch $(STAMP)

venv: $(STAMP)  ## only set up .venv from requirements.lock (every other target does it first), for the docs' .venv/bin/python commands
	@echo "make: $(VENV) is ready: $(BIN)/python"

reproduce: $(STAMP)  ## recompute the stored DP-SGD calibrations, run every notebook in place with the papers' parameters; figures/ and README status
	$(BIN)/python -m choosing_epsilon.papers.kulynych_2024.precompute
	$(BIN)/python -m choosing_epsilon.harness.reproduce

authors-code: $(STAMP)  ## Kazan & Reiter's find_eps.R (needs R) on the notebook's profiles, and values read off their figures (AUTHORS_CHECKOUT=path of their repository)
	@$(BIN)/python tools/authors_code.py "$(AUTHORS_CHECKOUT)"
	@$(BIN)/python tools/read_kazan_reiter_figures.py "$(AUTHORS_CHECKOUT)"

test: $(STAMP)  ## unit, property, claims and style tests, and every notebook at its defaults once (nbval on another CPU's code paths; its files and notebook as committed), in parallel
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --no-loadscope-reorder -m "not cases and not site and not spark"

test-cases: $(STAMP)  ## the notebooks at the other parameters a reader would try (papermill), in parallel; CI runs it after make test
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile -m cases

test-fast: $(STAMP)  ## the quick unit, property and claims tests (no notebook runs, no test marked slow: tests/slow.py): the edit-test loop
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile -m "not notebook and not cases and not site and not spark and not slow" tests

test-spark: $(STAMP)  ## PySpark in local mode (2 cores) counts a Parquet column and gets DuckDB's ε (installs requirements-spark.lock; needs Java 17+)
	@command -v java >/dev/null 2>&1 || { echo "make test-spark: no java on PATH: install Java 17 or later (Debian: openjdk-17-jre-headless; .ci/run does)"; exit 1; }
	$(UV_INSTALL) -q -r requirements-spark.lock
	$(BIN)/python -m pytest -p no:xdist -m spark tests/test_spark.py

test-explore: $(STAMP)  ## property tests drawing new random examples, 2,000 per test that sets no count and the explore count of tests/examples.py where one is set (never in CI; a failure found becomes an @example)
	CHOOSING_EPSILON_HYPOTHESIS=explore $(BIN)/python -m pytest -n $(JOBS) --dist loadfile -m "not notebook and not cases and not site and not spark" tests

site: $(STAMP)  ## the static site, from the committed notebooks (no kernel): site/_build/html/index.html
	$(BIN)/python site/build.py

test-site: site  ## the built site in headless Chromium: every page loads, figures shown, math typeset, claims tables, scrubbers
	$(BIN)/python -m pytest -n 0 -m site tests/test_site.py

assignments: $(STAMP)  ## student and instructor copies of every notebook's exercises (nbgrader): assignments/
	$(BIN)/python tools/assignments.py write

lint: $(STAMP)  ## ruff (lint and format) on lib/, tests/, tools/ and the notebooks; mypy on lib/
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)  ## performance measurements (pytest-benchmark); never part of `make test`
	$(BIN)/python -m pytest tests/benchmarks/bench_scaling.py tests/benchmarks/bench_counts.py tests/benchmarks/bench_calibration.py --benchmark-disable-gc -o addopts="-p no:cacheprovider"

lab: $(STAMP)  ## JupyterLab in the project environment, opened at the project root (also as root)
	$(PIP) install -q jupyterlab==$(JUPYTERLAB_VERSION)
	$(BIN)/jupyter lab --ServerApp.root_dir=. $(if $(filter 0,$(shell id -u)),--allow-root)

lock: $(STAMP)  ## recompile requirements.lock (one lock for CPython 3.11-3.13) and copy the pins to environment.yml
	$(PIP) install -q uv==$(UV_VERSION)
	$(BIN)/uv pip compile pyproject.toml --extra test --extra lint --extra site --extra teach --universal --fork-strategy fewest --python-version 3.11 \
		--no-header --no-annotate -o requirements.lock
	{ sed -n '1,2p' requirements-spark.lock; $(BIN)/uv pip compile pyproject.toml --extra spark --universal \
		--fork-strategy fewest --python-version 3.11 -c requirements.lock --no-header --no-annotate | \
		grep -E '^(pyspark|py4j)=='; } > requirements-spark.lock.new && mv requirements-spark.lock.new requirements-spark.lock
	$(BIN)/python tools/environment.py $(JUPYTERLAB_VERSION)

hooks: $(STAMP)  ## install the pre-commit hooks (.pre-commit-config.yaml): make lint's checks before each commit
	$(PIP) install -q pre-commit==$(PRE_COMMIT_VERSION)
	$(BIN)/pre-commit install

clean:  ## remove the virtual environment and caches (figures and notebooks are committed results)
	rm -rf $(VENV) .pytest_cache .hypothesis .benchmarks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
