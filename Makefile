# stredisko — set-up and checks. `make test` and `make demo` work on a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The lock files (issue 15): exact versions with hashes, made from pyproject.toml by `make lock`.
# runtime.txt is what the image installs; test.txt adds the `test` extra at the same versions
# (used here and so by CI); build.txt is the build backend from [build-system].
LOCKS := requirements/runtime.txt requirements/test.txt requirements/build.txt
UV_VERSION := 0.13.9
# pip itself is left out (sqlite-utils asks for any pip): the installer is the environment's own.
COMPILE := $(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
	--no-emit-package pip --custom-compile-command "make lock" $(UPGRADE)

.PHONY: setup test lint demo bench lock clean

# Only pip is needed: the locks pin every package with its hashes, the project goes in on top
# with --no-deps, and `pip check` fails when pyproject.toml asks for more than the locks give.
$(STAMP): pyproject.toml $(LOCKS)
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes \
		-r requirements/test.txt -r requirements/build.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip check
	touch $(STAMP)

setup: $(STAMP)

# Refresh the locks after changing dependencies in pyproject.toml (needs PyPI; uv is pinned).
# Pins already in a lock are kept where they still fit; `make lock UPGRADE=--upgrade` moves all
# of them to the newest allowed. Not tied to the stamp: a stale lock must not block its refresh.
lock:
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(COMPILE) pyproject.toml -o requirements/runtime.txt
	$(COMPILE) pyproject.toml --extra test -c requirements/runtime.txt -o requirements/test.txt
	$(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))\
		['build-system']['requires'], sep='\n')" | $(COMPILE) - -o requirements/build.txt

lint: $(STAMP)
	$(BIN)/ruff check .

# Two workers (pytest-xdist) taking single tests, an idle one stealing half of the other's queue
# (the longest files go first: tests/conftest.py). Bytecode is written even where the shell says
# not to: every subprocess and the second worker then skip compiling (and pytest's assertion
# rewriting, ~7 s of CPU per worker).
test: $(STAMP)
	$(BIN)/ruff check .
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n 2 --dist worksteal

# a whole 24-player, 7-round online qualifier rehearsed offline (issue #7); page in build/demo
demo: $(STAMP)
	$(BIN)/stredisko rehearse examples/rehearsal/kt-online-24.toml --html build/demo

bench: $(STAMP)
	@for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
