# Every target creates .venv and installs what it needs; nothing is installed by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench bench-compare eval graph clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,embed,e5,viz,eval,mcp,langchain,otel]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/recallflow demo

test: $(STAMP)
	$(BIN)/ruff check recallflow tests benchmarks
	$(BIN)/mypy recallflow tests benchmarks
	$(BIN)/python -m pytest -q
	RECALLFLOW_BENCH_TIERS=tiny $(BIN)/python -m pytest benchmarks -q --benchmark-disable

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-only --benchmark-autosave -q
	$(BIN)/recallflow bench report --html

# Runs the suites again and fails when a median grew more than 20 % over the newest saved run.
bench-compare: $(STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-only -q \
		--benchmark-compare --benchmark-compare-fail=median:20%

eval: $(STAMP)
	$(BIN)/recallflow eval

graph: $(STAMP)
	$(BIN)/recallflow graph in_turn --out stages.svg

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
