"""The benchmark report: Markdown tables from one saved pytest-benchmark run.

Tables: p50/p95 per group and tier with the growth from the smallest to the largest tier;
the time share per node and arm; the orchestration overhead (``overhead`` group, on
replayed search answers: node functions called directly vs the Hamilton driver, with the
lineage adapter, with the arm thread pool) as a share of ``moment:in_turn``; peers against
recallflow with recall@10; the latency targets checked; and each
tier's dataset (size, embedder, load rate, index build times).

Group conventions the suites follow: ``group`` names the thing measured (``node:<name>``,
``arm:<name>``, ``moment:<moment>``, ``embedding:query``, ``overhead``, ``peer:<peer>``);
``extra_info["tier"]`` the tier; ``extra_info["variant"]`` the variant inside ``overhead``.
p95 comes from ``stats.p95`` (added by ``benchmarks/conftest.py``) or, when the run saved
its data, from ``stats.data``.

Usage: ``python -m benchmarks.report [RUN.json] [--dir .benchmarks] [--out FILE]``, or
``recallflow bench report``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.compare import DEFAULT_DIR, load_run, saved_runs

TIER_ORDER = ("tiny", "1k", "10k", "100k", "1m")
#: The latency targets the report checks (measured, never asserted in a test), in
#: milliseconds / ratios: a recall must cost little next to the model call it precedes.
TARGET_P50_10K_MS = 5.0
TARGET_P95_10K_MS = 10.0
TARGET_P95_100K_MS = 30.0
TARGET_OVERHEAD = 0.10
TARGET_GROWTH = 3.0
IN_TURN = "moment:in_turn"
PEER_REPORTED = "peer:langgraph_iterative"


@dataclass(frozen=True)
class Row:
    """One benchmark's summary."""

    group: str
    tier: str
    name: str
    p50_ms: float
    p95_ms: float
    extra: dict[str, Any]


def _p95(stats: dict[str, Any]) -> float:
    if stats.get("p95") is not None:
        return float(stats["p95"])
    data = sorted(float(x) for x in stats.get("data") or [])
    if data:
        return data[min(len(data) - 1, round(0.95 * (len(data) - 1)))]
    return float("nan")


def rows(run: dict[str, Any]) -> list[Row]:
    """Every benchmark of ``run`` with a group, as a :class:`Row`."""
    out: list[Row] = []
    for b in run["benchmarks"]:
        extra = dict(b.get("extra_info") or {})
        params = b.get("params") or {}
        tier = str(extra.get("tier") or params.get("tier") or "-")
        stats = b["stats"]
        out.append(
            Row(
                group=str(b.get("group") or b["name"]),
                tier=tier,
                name=str(b["name"]),
                p50_ms=float(stats["median"]) * 1e3,
                p95_ms=_p95(stats) * 1e3,
                extra=extra,
            )
        )
    return out


def _tiers(items: Sequence[Row]) -> list[str]:
    present = {r.tier for r in items}
    known = [t for t in TIER_ORDER if t in present]
    return known + sorted(present - set(known))


def _fmt(value: float | None, digits: int = 3) -> str:
    if value is None or value != value:  # None or NaN
        return "—"
    return f"{value:.{digits}f}"


def _table(header: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in body)
    return lines


def _lookup(items: Sequence[Row], group: str, tier: str, variant: str | None = None) -> Row | None:
    for r in items:
        if (
            r.group == group
            and r.tier == tier
            and (variant is None or r.extra.get("variant") == variant)
        ):
            return r
    return None


def latency_table(items: Sequence[Row]) -> list[str]:
    """p50/p95 (ms) per group and tier, and the p50 growth from the first to the last tier."""
    tiers = _tiers(items)
    groups = sorted({r.group for r in items if r.group != "overhead"})
    header = ["group", *(f"{t} p50 / p95 ms" for t in tiers)]
    if len(tiers) > 1:
        header.append(f"p50 growth {tiers[0]}→{tiers[-1]}")
    body = []
    for group in groups:
        cells = [f"`{group}`"]
        for t in tiers:
            r = _lookup(items, group, t)
            cells.append(f"{_fmt(r.p50_ms)} / {_fmt(r.p95_ms)}" if r else "—")
        if len(tiers) > 1:
            first, last = _lookup(items, group, tiers[0]), _lookup(items, group, tiers[-1])
            growth = last.p50_ms / first.p50_ms if first and last and first.p50_ms else None
            cells.append(f"{_fmt(growth, 2)}×" if growth else "—")
        body.append(cells)
    return _table(header, body)


def node_share_table(items: Sequence[Row]) -> list[str]:
    """Each node's (and arm's) median as a share of the sum of their medians, per tier."""
    nodes = [r for r in items if r.group.startswith(("node:", "arm:"))]
    if not nodes:
        return ["(no `node:*` or `arm:*` benchmarks in this run)"]
    tiers = _tiers(nodes)
    totals = {t: sum(r.p50_ms for r in nodes if r.tier == t) for t in tiers}
    body = []
    for group in sorted({r.group for r in nodes}):
        cells = [f"`{group}`"]
        for t in tiers:
            r = _lookup(nodes, group, t)
            share = r.p50_ms / totals[t] * 100 if r and totals[t] else None
            cells.append(f"{_fmt(r.p50_ms if r else None)} ({_fmt(share, 1)} %)")
        body.append(cells)
    return _table(["node", *(f"{t} p50 ms (share)" for t in tiers)], body)


def overhead_share(items: Sequence[Row], tier: str) -> float | None:
    """(driver as Memory.recall runs it − direct calls) / ``moment:in_turn`` p50, at ``tier``."""
    direct = _lookup(items, "overhead", tier, "direct")
    full = _lookup(items, "overhead", tier, "hamilton_lineage_arm_pool") or _lookup(
        items, "overhead", tier, "hamilton_lineage"
    )
    recall = _lookup(items, IN_TURN, tier)
    if not (direct and full and recall and recall.p50_ms):
        return None
    return (full.p50_ms - direct.p50_ms) / recall.p50_ms


def overhead_table(items: Sequence[Row]) -> list[str]:
    """Orchestration cost on replayed search answers, and its share of a real recall."""
    over = [r for r in items if r.group == "overhead"]
    if not over:
        return ["(no `overhead` benchmarks in this run)"]
    variants = ("direct", "hamilton", "hamilton_lineage", "hamilton_lineage_arm_pool")
    body = []
    for t in _tiers(over):
        found = {v: _lookup(over, "overhead", t, v) for v in variants}
        direct = found["direct"]
        cells = [t]
        for v in variants:
            r = found[v]
            extra = r.p50_ms - direct.p50_ms if r and direct and v != "direct" else None
            cells.append(
                _fmt(r.p50_ms if r else None) + (f" (+{extra * 1e3:.0f} µs)" if extra else "")
            )
        recall = _lookup(items, IN_TURN, t)
        share = overhead_share(items, t)
        cells.append(_fmt(recall.p50_ms if recall else None))
        cells.append(f"{_fmt(share * 100 if share is not None else None, 1)} %")
        body.append(cells)
    header = [
        "tier",
        "direct calls p50 ms",
        "Hamilton",
        "+ lineage",
        "+ lineage + arm pool (as recall runs)",
        "`moment:in_turn` p50 ms",
        "orchestration + lineage share of recall",
    ]
    return _table(header, body)


def peer_table(items: Sequence[Row]) -> list[str]:
    """Every peer against ``moment:in_turn`` (plus query embedding), with recall@10."""
    peers = [r for r in items if r.group.startswith("peer:") or r.group == IN_TURN]
    if not peers:
        return ["(no `peer:*` benchmarks in this run)"]
    body = []
    for r in sorted(
        peers, key=lambda r: (r.group, TIER_ORDER.index(r.tier) if r.tier in TIER_ORDER else 99)
    ):
        ours = _lookup(items, IN_TURN, r.tier)
        embed = _lookup(items, "embedding:query", r.tier)
        ours_ms = ours.p50_ms + (embed.p50_ms if embed else 0.0) if ours else None
        ratio = r.p50_ms / ours_ms if ours_ms else None
        body.append(
            [
                f"`{r.group}`",
                r.tier,
                _fmt(r.p50_ms),
                _fmt(r.p95_ms),
                _fmt(r.extra.get("recall_at_10"), 3),
                _fmt(r.extra.get("mean_returned"), 1),
                f"{_fmt(ratio, 2)}×" if ratio else "—",
            ]
        )
    header = [
        "peer",
        "tier",
        "p50 ms",
        "p95 ms",
        "recall@10",
        "rows returned (of 10)",
        "peer p50 / recallflow p50 (incl. embedding)",
    ]
    return _table(header, body)


def targets_table(items: Sequence[Row]) -> list[str]:
    """The latency targets, measured (never asserted in tests)."""
    checks: list[tuple[str, str, bool | None]] = []

    def check(label: str, value: float | None, limit: float, unit: str) -> None:
        shown = f"{_fmt(value, 2)} {unit}" if value is not None else "not measured"
        checks.append((label, shown, None if value is None else value <= limit))

    r10 = _lookup(items, IN_TURN, "10k")
    r100 = _lookup(items, IN_TURN, "100k")
    r1 = _lookup(items, IN_TURN, "1k")
    check("in-turn p50 at 10k ≤ 5 ms", r10.p50_ms if r10 else None, TARGET_P50_10K_MS, "ms")
    check("in-turn p95 at 10k ≤ 10 ms", r10.p95_ms if r10 else None, TARGET_P95_10K_MS, "ms")
    check("in-turn p95 at 100k ≤ 30 ms", r100.p95_ms if r100 else None, TARGET_P95_100K_MS, "ms")
    growth = r100.p50_ms / r1.p50_ms if r100 and r1 and r1.p50_ms else None
    check("in-turn p50 100k / 1k ≤ 3×", growth, TARGET_GROWTH, "×")
    shares = [x for x in (overhead_share(items, t) for t in _tiers(items)) if x is not None]
    check(
        "Hamilton + lineage ≤ 10 % of recall (worst tier)",
        max(shares) * 100 if shares else None,
        TARGET_OVERHEAD * 100,
        "%",
    )
    body = [
        [label, shown, "—" if ok is None else ("met" if ok else "**missed**")]
        for label, shown, ok in checks
    ]
    return _table(["target", "measured", "status"], body)


def dataset_table(run: dict[str, Any]) -> list[str]:
    """Each tier's store: sizes, embedder, load rate and index build times."""
    datasets: dict[str, dict[str, Any]] = (run.get("recallflow") or {}).get("datasets") or {}
    if not datasets:
        return ["(no dataset information in this run)"]
    body = []
    for name in sorted(datasets, key=lambda t: TIER_ORDER.index(t) if t in TIER_ORDER else 99):
        d = datasets[name]
        builds = d.get("index_build_s") or {}
        hnsw = sum(v for k, v in builds.items() if "hnsw" in k)
        other = sum(v for k, v in builds.items() if "hnsw" not in k)
        rate = d["rows_in_table"] / d["embed_and_copy_s"] if d.get("embed_and_copy_s") else None
        body.append(
            [
                name,
                f"{d['beliefs']:,}",
                f"{d['rows_in_table']:,}",
                f"{d.get('edges', 0):,}",
                str(d.get("embedder")),
                _fmt(rate, 0),
                _fmt(hnsw, 1),
                _fmt(other, 1),
                "reused" if d.get("reused") else "built",
            ]
        )
    header = [
        "tier",
        "beliefs (principal)",
        "rows in table",
        "edges",
        "embedder",
        "load beliefs/s (embed + COPY)",
        "HNSW build s",
        "other indexes s",
        "this run",
    ]
    return _table(header, body)


def render(run: dict[str, Any], source: str = "") -> str:
    """The whole report as Markdown."""
    items = rows(run)
    machine = run.get("machine_info") or {}
    commit = (run.get("commit_info") or {}).get("id", "")
    lines = [
        "# recallflow benchmark report",
        "",
        f"Run: `{source}` · {run.get('datetime', '')} · commit `{str(commit)[:12]}` · "
        f"{machine.get('cpu', {}).get('brand_raw', machine.get('processor', ''))} · "
        f"Python {machine.get('python_version', '')}",
        "",
        "## Targets",
        *targets_table(items),
        "",
        "## Latency per group and tier (ms)",
        *latency_table(items),
        "",
        "## Time share per node (in-turn DAG)",
        *node_share_table(items),
        "",
        "## Orchestration overhead",
        *overhead_table(items),
        "",
        "## Peers",
        *peer_table(items),
        "",
        "## Datasets",
        *dataset_table(run),
        "",
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``report`` (shared with ``recallflow bench report``)."""
    parser.add_argument("run", nargs="?", type=Path, help="a saved run (default: the newest)")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="saved runs (.benchmarks)")
    parser.add_argument("--out", type=Path, default=None, help="write the Markdown here")


def run(args: argparse.Namespace) -> int:
    """Print (or write) the report of the run ``args`` names; return the exit status."""
    path: Path | None = args.run
    if path is None:
        runs = saved_runs(args.dir)
        if not runs:
            print(f"no saved runs under {args.dir} (run `make bench` first)", file=sys.stderr)
            return 2
        path = runs[-1]
    text = render(load_run(path), str(path))
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        print(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.report``."""
    parser = argparse.ArgumentParser(prog="benchmarks.report", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
