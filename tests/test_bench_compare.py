"""`make bench-compare` catches a slowdown: ``benchmarks.compare`` on
synthetic pytest-benchmark JSON files, through the same entry point as the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from benchmarks import compare, report
from recallflow.cli.bench import add_bench_parser


def _run(when: str, medians: dict[str, float]) -> dict[str, Any]:
    return {
        "datetime": when,
        "machine_info": {},
        "commit_info": {"id": "0" * 40},
        "benchmarks": [
            {
                "group": f"arm:{name}",
                "name": f"test_{name}[10k]",
                "fullname": f"benchmarks/test_arms.py::test_{name}[10k]",
                "params": {"tier": "10k"},
                "extra_info": {"tier": "10k"},
                "stats": {"median": median, "p95": median * 1.5},
            }
            for name, median in medians.items()
        ],
    }


def _save(root: Path, name: str, run: dict[str, Any]) -> Path:
    path = root / "Linux-CPython-3.11-64bit" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(run), encoding="utf-8")
    return path


BASE = {"lexical_hits": 0.0010, "semantic_hits": 0.0020, "trigram_hits": 0.0004}


def _cli(*argv: str) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="recallflow")
    add_bench_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bench", *argv])
    return int(args.func(args))


def test_injected_slowdown_fails_and_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _save(tmp_path, "0001_a.json", _run("2026-01-01T00:00:00", BASE))
    _save(tmp_path, "0002_b.json", _run("2026-01-02T00:00:00", {**BASE, "semantic_hits": 0.0026}))
    assert _cli("compare", "--dir", str(tmp_path)) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out
    assert "test_semantic_hits[10k]" in out.split("FAIL", 1)[1]
    assert "test_lexical_hits[10k]" not in out.split("FAIL", 1)[1]


def test_unchanged_pair_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _save(tmp_path, "0001_a.json", _run("2026-01-01T00:00:00", BASE))
    _save(tmp_path, "0002_b.json", _run("2026-01-02T00:00:00", BASE))
    assert _cli("compare", "--dir", str(tmp_path)) == 0
    assert "OK: no median regression" in capsys.readouterr().out


def test_threshold_and_ordering(tmp_path: Path) -> None:
    # 15 % slower: fine at the default 20 %, a regression at 10 %.
    slower = {k: v * 1.15 for k, v in BASE.items()}
    new = _save(tmp_path, "0001_new.json", _run("2026-01-02T00:00:00", slower))
    old = _save(tmp_path, "0002_old.json", _run("2026-01-01T00:00:00", BASE))
    os.utime(old, (0, 0))
    assert compare.saved_runs(tmp_path) == [old, new]  # by the run's datetime, not by name
    base, head = compare.load_run(old), compare.load_run(new)
    assert compare.compare(base, head).ok
    assert len(compare.compare(base, head, threshold_pct=10).regressions) == 3
    assert compare.compare(base, head, threshold_pct=10, min_delta_us=1_000).ok
    # A speed-up is never a regression.
    assert compare.compare(head, base, threshold_pct=0).ok


def test_fewer_than_two_runs(tmp_path: Path) -> None:
    _save(tmp_path, "0001_a.json", _run("2026-01-01T00:00:00", BASE))
    assert _cli("compare", "--dir", str(tmp_path)) == 2


def test_report_renders_groups_and_tiers(tmp_path: Path) -> None:
    run = _run("2026-01-01T00:00:00", BASE)
    text = report.render(run, "synthetic")
    assert "| `arm:semantic_hits` | 2.000 / 3.000 |" in text
    assert "## Targets" in text
