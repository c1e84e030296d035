# Every target creates .venv and installs what it needs; nothing is installed by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench-tiny bench bench-compare eval graph clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,embed,e5,viz,eval,mcp,langchain,otel]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/recallflow demo

# The type check and the benchmarks' tiny run share the machine with the suite, which waits
# on PostgreSQL and on subprocesses for much of its time. Each job's output is printed whole
# when it ends; `make unit` alone shows the suite's progress as it goes.
# The suite runs in TEST_WORKERS processes (pytest-xdist; a test file stays in one process,
# each process has its own embedded server and temporary directories); TEST_WORKERS=0 runs
# it in this one. Tests whose subject depends on what else is in the store (the HNSW index's
# graph) or on the process's Ctrl-C disposition set that up themselves, so the order the
# workers take the files in does not decide them.
TEST_WORKERS ?= 2

test: $(STAMP)
	$(BIN)/ruff check recallflow tests benchmarks
	$(MAKE) --no-print-directory -j3 --output-sync=target typecheck unit bench-tiny

lint: $(STAMP)
	$(BIN)/ruff check recallflow tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy recallflow tests benchmarks

unit: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

bench-tiny: $(STAMP)
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
