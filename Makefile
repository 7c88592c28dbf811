# The two commands of the README's quickstart; each sets itself up (a virtual environment, the install).
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin

.PHONY: tournament test install clean

tournament: install  ## the main job: a tournament of the bundled bots, then its results board
	$(BIN)/arena run tournaments/five_hundred.toml --html results/five_hundred.html

test: install  ## the whole test suite
	$(BIN)/pytest

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@

clean:
	rm -rf $(VENV) .pytest_cache
