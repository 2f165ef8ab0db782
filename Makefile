# Every target creates .venv when it is missing, so a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
OUT    := out

.PHONY: setup run test test-slow bench lint coverage clean-cache

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The package's bytecode, written even where PYTHONDONTWRITEBYTECODE is set (as on some CI and sandbox
# machines): without it every `balance` process compiles ~100 modules from source (about 0.4 s each run).
# compileall rewrites only what changed since, so this costs a fraction of a second when up to date.
setup: $(STAMP)
	$(BIN)/python -m compileall -q simcore rulesets reports balance

# the whole balance report of every game as a static site: $(OUT)/index.html (rewritten on each run)
run: setup
	$(BIN)/balance report --output $(OUT) --force

# the tests spread over every core (pytest-xdist); each worker keeps its compiled kernels (tests/conftest.py);
# Hypothesis derandomized (its "ci" profile: the same examples every run)
test: setup
	$(BIN)/python -m pytest -n auto --hypothesis-profile=ci

test-slow: setup
	$(BIN)/python -m pytest -m slow -n auto --hypothesis-profile=ci

bench: setup
	$(BIN)/python benchmarks/run.py

coverage: setup
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_coverage_kernels.py \
		--cov=simcore --cov=rulesets --cov-branch --cov-report=term-missing:skip-covered

lint: setup
	$(BIN)/ruff check simcore rulesets reports tests benchmarks

clean-cache:
	find simcore rulesets reports tests benchmarks -name __pycache__ -type d -prune -exec rm -rf {} +
