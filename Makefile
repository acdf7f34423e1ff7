# partysolver: `make run` installs and shows a real hint; `make test` runs the whole suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXAMPLE := partysolver/puzzles/tea-party/examples/default.toml

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "partysolver needs Python 3.11 or newer (set PYTHON=...)"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test,cluster]'
	touch $@

run: $(VENV)/.installed
	$(BIN)/partysolver hint $(EXAMPLE)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check partysolver tests benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed-test
	for script in benchmarks/*.py; do $(BIN)/python $$script || exit 1; done
	$(BIN)/python -m pytest -q tests/test_invariants.py --random-games 100000

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
