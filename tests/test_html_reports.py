"""The HTML reports `make bench` and `make eval` write beside their JSON, built from small
fabricated runs (the real suites are not run here): one self-contained page, a chart per
tier, the targets, the baselines, and the previous run beside this one."""

from __future__ import annotations

import argparse
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygal")

from benchmarks import report
from recallflow.evaluation.report_html import previous_report, render_eval_html

TIERS = ("1k", "10k", "100k")


def _bench(group: str, tier: str, median_ms: float) -> dict[str, Any]:
    return {
        "group": group,
        "name": f"test_{group.replace(':', '_')}[{tier}]",
        "params": {"tier": tier},
        "extra_info": {"tier": tier},
        "stats": {"median": median_ms / 1e3, "p95": median_ms * 1.5 / 1e3},
    }


def _run(when: str, scale: float) -> dict[str, Any]:
    benchmarks = []
    for n, tier in enumerate(TIERS, start=1):
        benchmarks += [
            _bench("moment:in_turn", tier, 4.0 * n * scale),
            _bench("floor", tier, 2.0 * n * scale),
            _bench("node:candidate_beliefs", tier, 0.7 * n * scale),
            _bench("arm:lexical_hits", tier, 1.1 * n * scale),
            _bench("arm:semantic_hits", tier, 0.9 * n * scale),
        ]
    return {"datetime": when, "machine_info": {}, "commit_info": {}, "benchmarks": benchmarks}


def _titles(page: str) -> list[str]:
    """The title of every chart (an inline SVG) on the page."""
    return [
        html.unescape(t)
        for svg in re.findall(r"<svg.*?</svg>", page, flags=re.S)
        for t in re.findall(r"<title>([^<]+)</title>", svg)[:1]
    ]


def _self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r'<(script|link|img)[^>]+(src|href)="https?:', page)


def test_make_bench_writes_an_html_report_beside_the_run(tmp_path: Path) -> None:
    older, newer = tmp_path / "0001_run.json", tmp_path / "0002_run.json"
    older.write_text(json.dumps(_run("2026-01-01T00:00:00", 1.5)))
    newer.write_text(json.dumps(_run("2026-01-02T00:00:00", 1.0)))
    parser = argparse.ArgumentParser()
    report.add_arguments(parser)
    assert report.run(parser.parse_args(["--dir", str(tmp_path), "--html"])) == 0

    page = (tmp_path / "0002_run.html").read_text()
    _self_contained(page)
    titles = _titles(page)
    for tier in TIERS:  # a chart of the nodes and arms per tier
        assert f"time per node and arm at {tier} (p50 ms)" in titles
    assert "in-turn recall against the targets (ms)" in titles
    assert "p50 growth with the store (ms)" in titles
    assert "this run against the previous one (p50 ms)" in titles
    assert page.count("<svg") >= len(TIERS) + 3
    assert "arm:semantic_hits" in page and "target p95" in page


def test_the_first_bench_run_says_there_is_nothing_to_compare(tmp_path: Path) -> None:
    only = tmp_path / "0001_run.json"
    only.write_text(json.dumps(_run("2026-01-01T00:00:00", 1.0)))
    parser = argparse.ArgumentParser()
    report.add_arguments(parser)
    out = tmp_path / "elsewhere.html"
    args = parser.parse_args([str(only), "--dir", str(tmp_path), "--html", str(out)])
    assert report.run(args) == 0
    page = out.read_text()
    assert "no previous saved run" in page and len(_titles(page)) >= len(TIERS)


def _row(r10: float) -> dict[str, Any]:
    return {
        "n": 10,
        "r5": r10 / 2,
        "r10": r10,
        "ndcg10": r10,
        "mrr": r10,
        "p50_ms": 3.0,
        "p95_ms": 6.0,
        "mean_returned": 8.0,
    }


def _eval(r10: float) -> dict[str, Any]:
    labels = ("single-hop", "multi-hop", "1–2")
    systems = [
        {
            "system": name,
            "rows": {split: {lb: _row(r10 * k) for lb in labels} for split in ("dev", "test")},
        }
        for name, k in (("recallflow", 1.0), ("BM25", 0.8), ("dense", 0.7))
    ]
    return {
        "created_at": "2026-01-02T00:00:00Z",
        "embedder": "hashing",
        "retrieval_policy_versions": ["default-abc"],
        "datasets": [
            {"name": "LoCoMo", "status": "ran", "systems": systems, "aggregates": {"1–2": [1, 2]}},
            {"name": "Other", "status": "skipped", "message": "file missing"},
        ],
        "gates": [{"name": "isolation leaks = 0", "status": "pass", "detail": "0 leaks"}],
    }


def test_the_eval_report_charts_every_split_against_every_baseline() -> None:
    page = render_eval_html(_eval(0.6), _eval(0.5), "# markdown")
    _self_contained(page)
    titles = _titles(page)
    for split in ("dev", "test"):
        assert f"LoCoMo, split {split}: recall@10 per category" in titles
    assert "recall@10: the previous run against this one" in titles
    assert all(name in page for name in ("recallflow", "BM25", "dense", "single-hop"))
    assert "not measured: file missing" in page and "isolation leaks = 0" in page
    first = render_eval_html(_eval(0.6), None)
    assert "no previous eval-report.json" in first


def test_an_earlier_eval_report_that_cannot_be_read_is_no_comparison(tmp_path: Path) -> None:
    """The report a run replaces is read at its very end, to compare with: one that is not
    a report — not JSON, or JSON nested deeper than the parser recurses — leaves the run
    without a comparison, never fails it after everything was measured."""
    path = tmp_path / "eval-report.json"
    for text in ("{not json", "[" * 100_000 + "]" * 100_000, "[1]", "9" * 5_000):
        path.write_text(text, encoding="utf-8")
        assert previous_report(path) is None
    path.write_text('{"created_at": "then"}', encoding="utf-8")
    assert previous_report(path) == {"created_at": "then"}
