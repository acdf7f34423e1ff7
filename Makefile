# partysolver: `make run` installs and shows a real hint; `make test` runs the whole suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
EXAMPLE := partysolver/puzzles/tea-party/examples/default.toml

.PHONY: run test lint bench clean browser

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "partysolver needs Python 3.11 or newer (set PYTHON=...)"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test,cluster]'
	$(BIN)/python -m pip install --quiet -e examples/pig
	touch $@

# The compiled searches (numba) compile on their first run and are cached after it.  `make run`
# answers first (the example's hint needs no compiled kernel) and then leaves the compile of
# every kernel running in the background, at low priority (log: .venv/warm.log), so that later
# commands answer at once: the kernels under their locks (`python -m
# partysolver.solvers.compiled --all`: none compiled twice, even beside a hint that started
# one), then each game's shipped hint.  It goes on after make returns; `make .venv/.warm` waits
# for it instead.
KERNELS := $(shell grep -rl --include='*.py' 'cache=True' partysolver)
GAMES := $(filter-out __pycache__,$(patsubst partysolver/puzzles/%/,%,$(wildcard partysolver/puzzles/*/)))

$(VENV)/.warm: $(VENV)/.installed $(KERNELS)
	@nice -n 10 $(BIN)/python -m partysolver.solvers.compiled --all
	@for game in $(GAMES); do nice -n 10 $(BIN)/partysolver hint $$game:default > /dev/null || exit 1; done
	@touch $@

run: $(VENV)/.installed
	$(BIN)/partysolver hint $(EXAMPLE)
	@if ! $(MAKE) --no-print-directory --question $(VENV)/.warm; then \
	  echo "compiling the searches in the background (first run only; log: $(VENV)/warm.log)" >&2; \
	  nohup $(MAKE) --no-print-directory $(VENV)/.warm > $(VENV)/warm.log 2>&1 < /dev/null & \
	fi

lint: $(VENV)/.installed-test
	$(BIN)/ruff check partysolver tests benchmarks examples
	$(BIN)/mypy
	$(BIN)/mypy examples/pig/partysolver_pig

# The browser tests need Debian's chromium and chromium-driver: installed here when we are root
# with apt (quietly, once); elsewhere those tests skip and say why in one line.
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing chromium and chromium-driver for the browser tests"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  { apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && \
	      apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1; }; } || \
	  echo "could not install chromium: the browser tests will be skipped"; \
	else echo "no chromium, and no root with apt to install it: the browser tests will be skipped"; fi

# Two workers (pytest-xdist), a test file to a worker so that a file's server, browser or
# cluster starts once (issue 26: the whole suite within 8 minutes on two cores).
test: lint browser
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

bench: $(VENV)/.installed-test
	for script in benchmarks/*.py; do $(BIN)/python $$script || exit 1; done
	$(BIN)/python -m pytest -q tests/test_invariants.py --random-games 100000

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
