"""`recallflow bench report` on synthetic pytest-benchmark JSON: the figures a reader
acts on (the floor ratio, the targets, the fair peer table) come out of the saved run,
through the same entry point as the CLI."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks import report
from recallflow.cli.bench import add_bench_parser


def _bench(group: str, tier: str, median_ms: float, **extra: Any) -> dict[str, Any]:
    name = group.replace(":", "_")
    return {
        "group": group,
        "name": f"test_{name}[{tier}]",
        "fullname": f"benchmarks/test_x.py::test_{name}[{tier}]",
        "params": {"tier": tier},
        "extra_info": {"tier": tier, **extra},
        "stats": {"median": median_ms / 1e3, "p95": median_ms * 1.5 / 1e3},
    }


def _run(*benchmarks: dict[str, Any]) -> dict[str, Any]:
    return {
        "datetime": "2026-01-01T00:00:00",
        "machine_info": {},
        "commit_info": {"id": "0" * 40},
        "benchmarks": list(benchmarks),
    }


RUN = _run(
    _bench("floor", "10k", 2.0),
    _bench("moment:in_turn", "10k", 4.4, recall_at_10=0.61, mean_returned=8.0),
    _bench("moment:in_turn_text", "10k", 4.0, recall_at_10=0.52, mean_returned=8.0),
    _bench("floor", "100k", 3.0),
    _bench("moment:in_turn", "100k", 9.0, recall_at_10=0.55, mean_returned=8.0),
    _bench("moment:in_turn", "1k", 4.0),
    _bench("peer:bm25s:text", "10k", 1.5, recall_at_10=0.5, mean_returned=10.0),
    _bench("peer:bm25s:keys", "10k", 1.6, recall_at_10=0.54, mean_returned=10.0),
    _bench("embedding:query_minilm", "10k", 6.0),
    _bench("ingest:precomputed", "10k", 500.0, items=2000),
    _bench("ingest:minilm", "10k", 1250.0, items=400),
    _bench("embedding:batch_minilm", "10k", 1000.0, items=400),
)


def _target(text: str, label: str) -> str:
    line = next(line for line in text.splitlines() if label in line)
    return line


def test_the_floor_ratio_is_recall_over_floor_per_tier() -> None:
    items = report.rows(RUN)
    assert report.floor_ratio(items, "10k") == pytest.approx(2.2)
    assert report.floor_ratio(items, "100k") == pytest.approx(3.0)
    text = report.render(RUN, "synthetic")
    assert "| 10k | 2.000 / 3.000 | 4.400 / 6.600 | 2.20× | 2.20× | — |" in text
    # The worst tier decides the target.
    assert "3.00 ×" in _target(text, "recall / floor")
    assert "**missed**" in _target(text, "recall / floor")


def test_the_target_uses_the_interleaved_ratio_when_the_floor_recorded_it() -> None:
    paired = _run(
        _bench("floor", "10k", 2.0, interleaved_ratio=1.8),
        _bench("moment:in_turn", "10k", 9.0),
    )
    text = report.render(paired, "synthetic")
    assert "1.80 ×" in _target(text, "recall / floor")
    assert "met" in _target(text, "recall / floor")
    assert "| 10k | 2.000 / 3.000 | 9.000 / 13.500 | 4.50× | 4.50× | 1.80× |" in text


def test_the_orchestration_share_reads_the_interleaved_pairs_when_the_run_timed_them() -> None:
    def overhead(**paired: float) -> dict[str, Any]:
        return _run(
            _bench("moment:in_turn", "10k", 10.0),
            _bench("overhead", "10k", 3.0, variant="direct"),
            _bench("overhead", "10k", 5.0, variant="hamilton_lineage_arm_pool", **paired),
        )

    # Two medians a minute apart: 2 ms of a 10 ms recall.
    assert "20.00 %" in _target(report.render(overhead(), "synthetic"), "Hamilton + lineage")
    # The same driver timed in pairs with the direct calls: 0.4 ms.
    text = report.render(overhead(interleaved_overhead_ms=0.4), "synthetic")
    assert "4.00 %" in _target(text, "Hamilton + lineage")
    assert "met" in _target(text, "Hamilton + lineage")
    assert "+400 µs" in text


def test_targets_are_checked_against_their_limits() -> None:
    text = report.render(RUN, "synthetic")
    assert "met" in _target(text, "in-turn p50 at 10k ≤ 5 ms")
    assert "**missed**" in _target(text, "in-turn p50 at 100k ≤ 8 ms")  # 9 ms
    assert "met" in _target(text, "in-turn p95 at 100k ≤ 15 ms")  # 13.5 ms
    assert "10.40 ms" in _target(text, "end to end")  # 4.4 + 6.0: no moment:in_turn_minilm
    assert "**missed**" in _target(text, "in-turn p50 100k / 1k")  # 9 / 4 = 2.25
    assert "not measured" in _target(text, "Hamilton + lineage")
    # 2,000 beliefs in 0.5 s = 4,000/s; MiniLM ingestion 320/s of 400/s = 80 %.
    assert "4000.00 beliefs/s" in _target(text, "precomputed")
    assert "80.00 %" in _target(text, "with MiniLM")


def test_end_to_end_is_the_recall_that_paid_for_its_query_embedding_when_measured() -> None:
    # The embedding overlaps the key arms' database work, so the measured recall (5.1 ms)
    # is less than the recall without it plus the embedding alone (4.4 + 6.0).
    run = _run(*RUN["benchmarks"], _bench("moment:in_turn_minilm", "10k", 5.1))
    assert "5.10 ms" in _target(report.render(run, "synthetic"), "end to end")


def test_the_snapshot_target_reads_the_session_opened_without_a_goal() -> None:
    run = _run(
        _bench("moment:session_snapshot", "10k", 30.0, variant="open_session", opening="goal"),
        _bench("moment:session_snapshot", "10k", 8.0, variant="open_session", opening="no_goal"),
        _bench("moment:session_snapshot", "10k", 25.0, variant="snapshot_dag", opening="goal"),
    )
    text = report.render(run, "synthetic")
    assert "8.00 ms" in _target(text, "session snapshot")
    assert "met" in _target(text, "session snapshot")
    assert "| `open_session` (goal) | 30.000 / 45.000 |" in text
    assert "not measured" in _target(report.render(RUN, "synthetic"), "session snapshot")


def test_a_principal_alone_is_read_beside_its_tier_against_the_tiers_floor() -> None:
    # A store of the 10k tier's principal alone, 2.4x the tier's floor and 2.1x the same
    # requests in the tier's store when timed in pairs: the row that shows a plan reading
    # the principal whole. The principal among others at 10k is the row before it.
    alone = [
        _bench(
            "moment:in_turn_alone",
            tier,
            ms,
            principal_beliefs=beliefs,
            rows_in_table=beliefs,
            recall_at_10=0.58,
            interleaved_ratio=ratio,
        )
        for tier, ms, beliefs, ratio in (("10k", 4.8, 10_000, 2.1), ("1k", 4.2, 1_000, 1.05))
    ]
    among = _bench(
        "moment:in_turn_principal", "10k", 2.2, principal_beliefs=10_000, rows_in_table=40_000
    )
    run = _run(*RUN["benchmarks"], *alone, among)
    text = report.render(run, "synthetic")
    table = text.split("## One principal in stores of growing size\n", 1)[1].split("\n\n")[0]
    body = table.splitlines()[2:]
    assert [line.split(" | ")[0] for line in body] == ["| 1k (alone)", "| 10k", "| 10k (alone)"]
    assert body[2] == "| 10k (alone) | 10,000 | 10,000 | 4.800 | 7.200 | 0.580 | 2.40× | 2.10× |"
    assert body[1].endswith("| 1.10× | — |")  # 2.2 ms over the 2.0 ms floor; no pairs
    assert body[0].endswith("| — | 1.05× |")  # no floor at 1k in this run
    # The targets read the tiers' own groups only.
    targets = text.split("## Targets", 1)[1].split("## ", 1)[0]
    assert targets == report.render(RUN, "synthetic").split("## Targets", 1)[1].split("## ", 1)[0]


def test_the_peer_table_pairs_each_peer_with_recallflow_in_the_same_mode() -> None:
    table = "\n".join(report.peer_table(report.rows(RUN)))
    text_row = next(line for line in table.splitlines() if "`bm25s`" in line and "| text |" in line)
    keys_row = next(line for line in table.splitlines() if "`bm25s`" in line and "| keys |" in line)
    assert "| 0.500 | 10.0 | 0.38× |" in text_row  # 1.5 ms over recallflow's 4.0 (text)
    assert "| 0.540 | 10.0 | 0.36× |" in keys_row  # 1.6 ms over 4.4 (keys)
    assert "| 10k | text | **recallflow** | 4.000 |" in table


def test_report_cli_prints_the_newest_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = _run(_bench("floor", "10k", 9.0))
    older["datetime"] = "2025-01-01T00:00:00"
    for name, run in (("0001_old.json", older), ("0002_new.json", RUN)):
        path = tmp_path / "Linux-CPython-3.11-64bit" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(run), encoding="utf-8")
    parser = argparse.ArgumentParser(prog="recallflow")
    add_bench_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bench", "report", "--dir", str(tmp_path)])
    assert args.func(args) == 0
    assert "| 10k | 2.000 / 3.000 |" in capsys.readouterr().out


def _one_bench(fields: str, stats: str = "") -> str:
    """A run of one benchmark with ``fields`` and a median, and ``stats`` beside it."""
    more = f", {stats}" if stats else ""
    return f'{{"benchmarks": [{{{fields}, "stats": {{"median": 0.1{more}}}}}]}}'


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("{not json", "is not JSON"),
        (b'{"benchmarks": "caf\xe9"}', "is not JSON (not UTF-8: byte 0xe9 at 19)"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),  # valid, past the parser
        ("[1, 2]", "no 'benchmarks' list"),
        ('{"benchmarks": [{"name": "x"}]}', "benchmark 0 has no 'name' or 'stats'"),
        ('{"benchmarks": [{"name": "x", "stats": {}}]}', "benchmark 0 (x) has no median"),
        # Parts a report reads, of another JSON kind: each was a traceback.
        ('{"benchmarks": [], "machine_info": 5}', "'machine_info' is not an object"),
        ('{"benchmarks": [], "commit_info": "abc"}', "'commit_info' is not an object"),
        (_one_bench('"name": 5'), "benchmark 0 has no 'name' or 'stats'"),
        (_one_bench('"name": "x", "extra_info": [1]'), "benchmark 0 (x): 'extra_info' is not"),
        (_one_bench('"name": "x", "params": "tier"'), "benchmark 0 (x): 'params' is not"),
        (_one_bench('"name": "x"', '"p95": "slow"'), "benchmark 0 (x): 'p95' is not a number"),
        (_one_bench('"name": "x"', '"data": [0.1, "a"]'), "benchmark 0 (x): 'data' is not"),
        (None, "cannot be read (No such file or directory)"),
        ("a directory", "cannot be read (Is a directory)"),
    ],
)
def test_a_file_that_is_not_a_run_is_one_line_naming_it(
    tmp_path: Path, content: str | bytes | None, said: str
) -> None:
    """``recallflow bench report FILE`` on a file it cannot read exits 2 with one line
    naming the file and what is wrong (not the JSON decoder's or a KeyError traceback,
    nor the errno of a file that is missing or a directory, as a runtime failure)."""
    path = tmp_path / "run.json"
    if content == "a directory":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "recallflow.cli.main", "bench", "report", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert str(path) in done.stderr and said in done.stderr


@pytest.mark.parametrize("flag", ["--out", "--html"])
@pytest.mark.parametrize("where", ["missing directory", "a directory"])
def test_a_report_file_that_cannot_be_written_is_refused_before_anything_is_written(
    tmp_path: Path, flag: str, where: str
) -> None:
    """``--out`` or ``--html`` in a directory that does not exist, or naming a directory,
    is a usage error naming the flag, and no report is written (it was the write's
    errno, exit 1, after the HTML report had been written)."""
    run = tmp_path / "runs" / "Linux-CPython-3.11-64bit" / "0001_run.json"
    run.parent.mkdir(parents=True)
    run.write_text(json.dumps(RUN), encoding="utf-8")
    target = tmp_path / "absent" / "report.md" if where == "missing directory" else tmp_path
    other = ["--html", str(tmp_path / "r.html")] if flag == "--out" else []
    command = ["bench", "report", str(run), flag, str(target), *other]
    done = subprocess.run(
        [sys.executable, "-m", "recallflow.cli.main", *command],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith(f"recallflow bench report: error: argument {flag}: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "r.html").exists() and not run.with_suffix(".html").exists()


def test_no_saved_run_is_the_commands_one_line_error(tmp_path: Path) -> None:
    """Without a saved run the report is a usage error in the command's own form."""
    done = subprocess.run(
        [sys.executable, "-m", "recallflow.cli.main", "bench", "report", "--dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        f"recallflow bench report: error: no saved runs under {tmp_path} (run `make bench` first)\n"
    )
