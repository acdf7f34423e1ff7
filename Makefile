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

# The compiled searches (numba) compile on their first run and are cached after it: warm the
# cache once after installing (or after a kernel's source changes) by asking each game's shipped
# hint, so that later commands answer at once.  The Meeple Party turn kernel (about 75 s of CPU)
# is compiled explicitly: its hint never compiles it and answers interpreted until it is; so is
# the Tea Party search (the shipped example is answered by the interpreted search).
# Their notices show on stderr; the hints do not.
KERNELS := $(shell grep -rl --include='*.py' 'cache=True' partysolver)
GAMES := $(filter-out __pycache__,$(patsubst partysolver/puzzles/%/,%,$(wildcard partysolver/puzzles/*/)))

$(VENV)/.warm: $(VENV)/.installed $(KERNELS)
	@echo "warming the compiled searches (once: their first run compiles them)" >&2
	@$(BIN)/python -m partysolver.solvers.meeple_party
	@$(BIN)/python -c 'import sys; from partysolver.solvers.tea_party import exact; exact.load_compiled(lambda text: print(text, file=sys.stderr))'
	@for game in $(GAMES); do $(BIN)/partysolver hint $$game:default > /dev/null || exit 1; done
	@touch $@

run: $(VENV)/.warm
	$(BIN)/partysolver hint $(EXAMPLE)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check partysolver tests benchmarks
	$(BIN)/mypy

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
