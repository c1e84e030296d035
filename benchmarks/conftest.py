"""Fixtures of the benchmark suites: one embedded server, a cached store per tier.

``RECALLFLOW_BENCH_TIERS`` picks the tiers: a comma list of ``tiny`` (200 beliefs, for
`make test` with ``--benchmark-disable``), ``1k``, ``10k``, ``100k`` (the default three)
and ``1m`` (opt-in; ``all`` = the default three plus ``1m``). A test that takes a ``tier``
argument runs once per tier; :func:`bench_store` opens the tier's store (building it on
first use, see ``benchmarks/stores.py``) and keeps it open for the session, and
:func:`alone_store` the store of the tier's measured principal alone, likewise.

The saved JSON gets two additions from :func:`pytest_benchmark_update_json`: ``p95`` and
``p99`` in every benchmark's stats (pytest-benchmark records only quartiles), and a
``recallflow`` section with each store's load report (sizes, embedder, load and index
build times) that ``recallflow bench report`` prints.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.datagen import DEFAULT_TIERS, TIERS, TierSpec
from benchmarks.recall_harness import QueryCachingEmbedder
from benchmarks.stores import (
    BenchStore,
    LoadReport,
    alone,
    bench_embedder_name,
    bench_home,
    drop_stale,
    open_tier,
)
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.postgres.embedded import EmbeddedServer

TIERS_ENV = "RECALLFLOW_BENCH_TIERS"
_opened: dict[str, BenchStore] = {}
#: Load reports outlive the stores: the JSON is written after fixtures are torn down.
_reports: dict[str, LoadReport] = {}
_failed: dict[str, Exception] = {}


def selected_tiers() -> tuple[TierSpec, ...]:
    """The tiers ``RECALLFLOW_BENCH_TIERS`` names, smallest first."""
    raw = os.environ.get(TIERS_ENV, "").strip().lower()
    names = [*DEFAULT_TIERS, "1m"] if raw == "all" else [n.strip() for n in raw.split(",") if n]
    names = names or list(DEFAULT_TIERS)
    unknown = [n for n in names if n not in TIERS]
    if unknown:
        raise pytest.UsageError(f"{TIERS_ENV}: unknown tier(s) {unknown}; valid: {list(TIERS)}")
    return tuple(sorted((TIERS[n] for n in dict.fromkeys(names)), key=lambda t: t.beliefs))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run every test that takes ``tier`` once per selected tier."""
    if "tier" in metafunc.fixturenames:
        tiers = selected_tiers()
        metafunc.parametrize("tier", [t.name for t in tiers], ids=[t.name for t in tiers])


def _say(config: pytest.Config, message: str) -> None:
    capture = config.pluginmanager.getplugin("capturemanager")
    ctx = capture.global_and_fixture_disabled() if capture else contextlib.nullcontext()
    with ctx:
        sys.stderr.write(f"[bench] {message}\n")
        sys.stderr.flush()


@pytest.fixture(scope="session")
def bench_server(pytestconfig: pytest.Config) -> Iterator[EmbeddedServer]:
    """The embedded server under ``RECALLFLOW_BENCH_HOME``; stopped at the end."""
    server = EmbeddedServer(bench_home())
    try:
        stale = drop_stale(server)
        if stale:
            _say(pytestconfig, f"dropped stale stores {stale}")
        yield server
    finally:
        for store in _opened.values():
            store.memory.close()
        _opened.clear()
        server.release()


def _open(spec: TierSpec, server: EmbeddedServer, config: pytest.Config) -> BenchStore:
    """The loaded store of ``spec``, opened (built first when not cached) once per session."""
    if spec.name in _failed:
        pytest.fail(
            f"the {spec.name} store could not be built: {_failed[spec.name]!r}", pytrace=False
        )
    store = _opened.get(spec.name)
    if store is None:
        try:
            embedder = QueryCachingEmbedder(embedder_from_name(bench_embedder_name()))
            store = open_tier(server, spec, embedder=embedder, progress=lambda m: _say(config, m))
        except Exception as exc:
            _failed[spec.name] = exc  # build once; do not retry for every test of the store
            raise
        _opened[spec.name] = store
        _reports[spec.name] = store.report
    return store


@pytest.fixture
def bench_store(tier: str, bench_server: EmbeddedServer, pytestconfig: pytest.Config) -> BenchStore:
    """The loaded store of ``tier``, opened once per session."""
    return _open(TIERS[tier], bench_server, pytestconfig)


@pytest.fixture
def alone_store(tier: str, bench_server: EmbeddedServer, pytestconfig: pytest.Config) -> BenchStore:
    """The store of ``tier``'s measured principal alone (``benchmarks/stores.py``'s
    :func:`~benchmarks.stores.alone`), opened once per session."""
    return _open(alone(TIERS[tier]), bench_server, pytestconfig)


def _percentile(data: list[float], q: float) -> float:
    ordered = sorted(data)
    if not ordered:
        return float("nan")
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def pytest_benchmark_update_json(
    config: pytest.Config, benchmarks: list[Any], output_json: dict[str, Any]
) -> None:
    """Add p95/p99 to every benchmark and the tiers' load reports to the saved JSON."""
    data = {b.fullname: list(b.stats.data) for b in benchmarks if getattr(b, "stats", None)}
    for entry in output_json.get("benchmarks", []):
        timings = data.get(entry["fullname"], [])
        if timings:
            entry["stats"]["p95"] = _percentile(timings, 0.95)
            entry["stats"]["p99"] = _percentile(timings, 0.99)
    output_json["recallflow"] = {
        "embedder": bench_embedder_name(),
        "tiers": [t.name for t in selected_tiers()],
        "datasets": {
            name: {k: v for k, v in vars(report).items() if k != "queries"}
            for name, report in _reports.items()
        },
    }
