# The two commands of the README's quickstart; each sets itself up (a virtual environment, the install).
# `make tournament` installs only the runtime (`pip install -e .`); `make test` adds the test extra
# (pytest, Playwright, grpcio-tools, Ray). Each install has a stamp file of its own, so that changing
# pyproject.toml reinstalls, and `make test` after `make tournament` installs only the extra. The install
# builds the compiled fast path (arena/fast/_play.c and its headers, setup.py) where a C compiler is, and goes on
# without it where none is; a change to its source reinstalls too (docs/fastpath.md).
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: tournament test install install-test system-packages clean

RESULTS ?= results
FAST_SOURCES := arena/fast/_play.c arena/fast/_solve.h arena/fast/_hand.h

tournament: install  ## the main job: a tournament of the bundled bots, then its results board
	mkdir -p $(RESULTS)
	$(BIN)/arena run tournaments/five_hundred.toml --html $(RESULTS)/five_hundred.html

test: install-test system-packages  ## the whole test suite
	$(BIN)/pytest

install: $(VENV)/.installed

system-packages:  ## chromium and bubblewrap, for the browser and sandbox tests (scripts/system-packages)
	@scripts/system-packages

install-test: $(VENV)/.installed-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml setup.py $(FAST_SOURCES) | $(BIN)/python
	$(PIP) -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py $(FAST_SOURCES) | $(BIN)/python
	$(PIP) -e '.[test]'
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache
