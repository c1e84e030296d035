"""The benchmark report: Markdown tables from one saved pytest-benchmark run.

Tables: the targets, measured; recallflow against the floor (``floor`` group: the four
statements one recall needs, issued directly) at every tier; p50/p95 per group and tier
with the growth from the smallest to the largest tier; the time share per node and arm;
the orchestration overhead (``overhead`` group, on replayed search answers: node
functions called directly vs the Hamilton driver, with the lineage adapter, with the arm
thread pool) as a share of ``moment:in_turn``; ingestion rates; the fair peer table (every
peer and recallflow both with the structured keys withheld and with them, recall@10 and
rows returned beside latency); per-principal latency in stores of growing total size,
and of the tier's principal in a store of its own; and each store's dataset (size,
embedder, load rate, index build times, disk size).

Group conventions the suites follow: ``group`` names the thing measured (``node:<name>``,
``arm:<name>``, ``moment:<moment>``, ``embedding:query``, ``overhead``, ``peer:<peer>``);
``extra_info["tier"]`` the tier; ``extra_info["variant"]`` the variant inside ``overhead``.
p95 comes from ``stats.p95`` (added by ``benchmarks/conftest.py``) or, when the run saved
its data, from ``stats.data``.

Usage: ``python -m benchmarks.report [RUN.json] [--dir .benchmarks] [--out FILE] [--html
[FILE]]``, or ``recallflow bench report``; ``--html`` also writes the report with charts
(``benchmarks/report_html.py``), by default next to the run's JSON. Regressions between
runs are pytest-benchmark's own ``--benchmark-compare --benchmark-compare-fail=median:20%``
(``make bench-compare``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_DIR = Path(".benchmarks")

TIER_ORDER = ("tiny", "1k", "10k", "100k", "1m")
#: The latency targets the report checks (measured, never asserted in a test), in
#: milliseconds / ratios: a recall must cost little next to the model call it precedes.
#: (tier, p50 ms, p95 ms) of ``moment:in_turn``, query embedding excluded, trace persisted.
TARGET_IN_TURN_MS: tuple[tuple[str, float, float], ...] = (("10k", 5.0, 8.0), ("100k", 8.0, 15.0))
#: ``moment:in_turn_minilm`` p50 at 10k: the in-turn recall paying MiniLM's query embedding.
TARGET_END_TO_END_10K_MS = 12.0
#: recallflow's p50 as a multiple of the floor's, at every tier.
TARGET_FLOOR_RATIO = 2.5
TARGET_OVERHEAD = 0.10
#: p50 of the largest tier over the smallest (1k → 100k).
TARGET_GROWTH = 2.0
#: ``Memory.open_session`` with no opening goal (the snapshot core alone, its trace and the
#: session row written), p50 at 10k, query embedding excluded.
TARGET_SNAPSHOT_10K_MS = 10.0
SNAPSHOT = "moment:session_snapshot"
#: The snapshot variants of ``benchmarks/test_sessions.py``, as (variant, opening).
SNAPSHOT_VARIANTS = (
    ("open_session", "no_goal"),
    ("open_session", "goal"),
    ("snapshot_dag", "goal"),
)
#: Bulk ingestion with MiniLM as a share of MiniLM's own batched throughput.
TARGET_INGEST_SHARE = 0.80
#: Bulk ingestion with precomputed vectors, beliefs per second.
TARGET_INGEST_PRECOMPUTED = 3000.0
IN_TURN = "moment:in_turn"
IN_TURN_TEXT = "moment:in_turn_text"
FLOOR = "floor"
MINILM_QUERY = "embedding:query_minilm"
IN_TURN_MINILM = "moment:in_turn_minilm"
PRINCIPAL = "moment:in_turn_principal"
ALONE = "moment:in_turn_alone"


@dataclass(frozen=True)
class Row:
    """One benchmark's summary."""

    group: str
    tier: str
    name: str
    p50_ms: float
    p95_ms: float
    extra: dict[str, Any]


def load_run(path: Path) -> dict[str, Any]:
    """A saved pytest-benchmark JSON file.

    :raises ValueError: the file cannot be read, is not JSON, or is not a run this report
        reads (every benchmark with a name and a median), naming the file and what is
        wrong.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON ({exc})") from None
    except UnicodeDecodeError as exc:  # said without naming the file, which was the point
        raise ValueError(
            f"{path} is not JSON (not UTF-8: byte 0x{exc.object[exc.start]:02x} at {exc.start})"
        ) from None
    except RecursionError:  # valid JSON nested deeper than the parser recurses: no run
        raise ValueError(f"{path} is not a run this report reads (nested too deeply)") from None
    except OSError as exc:  # missing, a directory, unreadable: the file named is wrong
        raise ValueError(f"{path} cannot be read ({exc.strerror or exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise ValueError(f"{path} is not a pytest-benchmark JSON file (no 'benchmarks' list)")
    for key in ("machine_info", "commit_info"):
        if data.get(key) is not None and not isinstance(data[key], dict):
            raise ValueError(f"{path}: {key!r} is not an object")
    for index, bench in enumerate(data["benchmarks"]):
        stats = bench.get("stats") if isinstance(bench, dict) else None
        named = isinstance(bench, dict) and isinstance(bench.get("name"), str)
        if not isinstance(bench, dict) or not named or not isinstance(stats, dict):
            raise ValueError(f"{path}: benchmark {index} has no 'name' or 'stats'")
        which = f"{path}: benchmark {index} ({bench['name']})"
        if not _number(stats.get("median")):
            raise ValueError(f"{which} has no median")
        for key in ("extra_info", "params"):
            if bench.get(key) is not None and not isinstance(bench[key], dict):
                raise ValueError(f"{which}: {key!r} is not an object")
        if stats.get("p95") is not None and not _number(stats["p95"]):
            raise ValueError(f"{which}: 'p95' is not a number")
        samples = stats.get("data")
        if samples is not None and not (
            isinstance(samples, list) and all(_number(x) for x in samples)
        ):
            raise ValueError(f"{which}: 'data' is not a list of numbers")
    return data


def _number(value: object) -> bool:
    """A JSON number (not a boolean, which Python counts as one)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def saved_runs(root: Path = DEFAULT_DIR) -> list[Path]:
    """Every saved run under ``root``, oldest first (by the run's ``datetime``, then name)."""
    runs: list[tuple[str, str, Path]] = []
    for path in root.rglob("*.json"):
        try:
            data = load_run(path)
        except (ValueError, OSError):
            continue
        runs.append((str(data.get("datetime", "")), path.name, path))
    return [path for _, _, path in sorted(runs)]


def previous_run(path: Path, root: Path = DEFAULT_DIR) -> dict[str, Any] | None:
    """The saved run before ``path`` (by the runs' dates), if there is one."""
    runs = [p.resolve() for p in saved_runs(root)]
    here = path.resolve()
    earlier = runs[: runs.index(here)] if here in runs else runs
    return load_run(earlier[-1]) if earlier else None


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


def _snapshot(items: Sequence[Row], tier: str, variant: str, opening: str) -> Row | None:
    for r in items:
        if (
            r.group == SNAPSHOT
            and r.tier == tier
            and r.extra.get("variant") == variant
            and r.extra.get("opening") == opening
        ):
            return r
    return None


def snapshot_table(items: Sequence[Row]) -> list[str]:
    """p50/p95 (ms) of each snapshot variant per tier."""
    tiers = _tiers([r for r in items if r.group == SNAPSHOT])
    if not tiers:
        return ["(no `moment:session_snapshot` benchmarks in this run)"]
    body = []
    for variant, opening in SNAPSHOT_VARIANTS:
        cells = [f"`{variant}` ({opening.replace('_', ' ')})"]
        for t in tiers:
            r = _snapshot(items, t, variant, opening)
            cells.append(f"{_fmt(r.p50_ms)} / {_fmt(r.p95_ms)}" if r else "—")
        body.append(cells)
    return _table(["snapshot", *(f"{t} p50 / p95 ms" for t in tiers)], body)


def latency_table(items: Sequence[Row]) -> list[str]:
    """p50/p95 (ms) per group and tier, and the p50 growth from the first to the last tier
    (groups without a tier, such as ingestion, have their own table)."""
    items = [r for r in items if r.tier != "-"]
    tiers = _tiers(items)
    groups = sorted({r.group for r in items if r.group != "overhead"})
    header = ["group", *(f"{t} p50 / p95 ms" for t in tiers)]
    if len(tiers) > 1:
        header.append(f"p50 growth {tiers[0]}→{tiers[-1]}")
    body = []

    def find(group: str, tier: str) -> Row | None:
        # The snapshot's row is the session opened with no goal (the target's variant).
        if group == SNAPSHOT:
            return _snapshot(items, tier, "open_session", "no_goal")
        return _lookup(items, group, tier)

    for group in groups:
        cells = [f"`{group}`"]
        for t in tiers:
            r = find(group, t)
            cells.append(f"{_fmt(r.p50_ms)} / {_fmt(r.p95_ms)}" if r else "—")
        if len(tiers) > 1:
            first, last = find(group, tiers[0]), find(group, tiers[-1])
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


def paired_overhead_ms(items: Sequence[Row], tier: str) -> float | None:
    """The median of the interleaved (direct calls, driver as ``Memory.recall`` runs it)
    pairs' differences at ``tier``, when the run recorded them."""
    full = _lookup(items, "overhead", tier, "hamilton_lineage_arm_pool")
    value = full.extra.get("interleaved_overhead_ms") if full else None
    return float(value) if value is not None else None


def overhead_share(items: Sequence[Row], tier: str) -> float | None:
    """(driver as Memory.recall runs it − direct calls) / ``moment:in_turn`` p50, at ``tier``:
    the difference from the interleaved pairs when the run timed them (a drifting machine
    load cannot skew it the way it skews two medians taken a minute apart), else the
    difference of the two medians."""
    recall = _lookup(items, IN_TURN, tier)
    if not (recall and recall.p50_ms):
        return None
    paired = paired_overhead_ms(items, tier)
    if paired is not None:
        return paired / recall.p50_ms
    direct = _lookup(items, "overhead", tier, "direct")
    full = _lookup(items, "overhead", tier, "hamilton_lineage_arm_pool") or _lookup(
        items, "overhead", tier, "hamilton_lineage"
    )
    if not (direct and full):
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
        paired = paired_overhead_ms(items, t)
        cells.append(f"+{paired * 1e3:.0f} µs" if paired is not None else "—")
        cells.append(_fmt(recall.p50_ms if recall else None))
        cells.append(f"{_fmt(share * 100 if share is not None else None, 1)} %")
        body.append(cells)
    header = [
        "tier",
        "direct calls p50 ms",
        "Hamilton",
        "+ lineage",
        "+ lineage + arm pool (as recall runs)",
        "interleaved pairs (median difference)",
        "`moment:in_turn` p50 ms",
        "orchestration + lineage share of recall",
    ]
    return _table(header, body)


def paired_floor_ratio(items: Sequence[Row], tier: str) -> float | None:
    """The median of the interleaved (recall, floor) pairs' ratios at ``tier``, when the
    floor recorded them: the figure the target is checked on, since a drifting machine
    load cannot skew it the way it skews two medians taken minutes apart."""
    floor = _lookup(items, FLOOR, tier)
    value = floor.extra.get("interleaved_ratio") if floor else None
    return float(value) if value is not None else None


def floor_ratio(items: Sequence[Row], tier: str, stat: str = "p50_ms") -> float | None:
    """``moment:in_turn`` over ``floor`` at ``tier`` (p50 by default)."""
    recall, floor = _lookup(items, IN_TURN, tier), _lookup(items, FLOOR, tier)
    if not (recall and floor and getattr(floor, stat)):
        return None
    return float(getattr(recall, stat) / getattr(floor, stat))


def floor_table(items: Sequence[Row]) -> list[str]:
    """recallflow's in-turn recall against the floor, per tier."""
    tiers = [t for t in _tiers(items) if _lookup(items, FLOOR, t)]
    if not tiers:
        return ["(no `floor` benchmarks in this run)"]
    body = []
    for t in tiers:
        floor, recall = _lookup(items, FLOOR, t), _lookup(items, IN_TURN, t)
        p50, p95 = floor_ratio(items, t), floor_ratio(items, t, "p95_ms")
        paired = paired_floor_ratio(items, t)
        body.append(
            [
                t,
                f"{_fmt(floor.p50_ms if floor else None)} / "
                f"{_fmt(floor.p95_ms if floor else None)}",
                f"{_fmt(recall.p50_ms if recall else None)} / "
                f"{_fmt(recall.p95_ms if recall else None)}",
                f"{_fmt(p50, 2)}×" if p50 else "—",
                f"{_fmt(p95, 2)}×" if p95 else "—",
                f"{_fmt(paired, 2)}×" if paired else "—",
            ]
        )
    header = [
        "tier",
        "floor p50 / p95 ms",
        "`moment:in_turn` p50 / p95 ms",
        "p50 ratio",
        "p95 ratio",
        "interleaved ratio (median of pairs)",
    ]
    return _table(header, body)


def _mode(group: str) -> str:
    return "text" if group.endswith(":text") or group == IN_TURN_TEXT else "keys"


def _ours(items: Sequence[Row], mode: str, tier: str) -> Row | None:
    return _lookup(items, IN_TURN_TEXT if mode == "text" else IN_TURN, tier)


def end_to_end_ms(items: Sequence[Row], tier: str) -> float | None:
    """The in-turn p50 with MiniLM's query embedding paid where the recall pays it
    (``moment:in_turn_minilm``); for a run without that group, ``moment:in_turn`` plus
    ``embedding:query_minilm``, which counts the embedding as if it overlapped nothing."""
    measured = _lookup(items, IN_TURN_MINILM, tier)
    if measured is not None:
        return measured.p50_ms
    recall, query = _lookup(items, IN_TURN, tier), _lookup(items, MINILM_QUERY, tier)
    return recall.p50_ms + query.p50_ms if recall and query else None


def peer_table(items: Sequence[Row]) -> list[str]:
    """Every peer and recallflow, both with the structured keys withheld (``text``: the
    query text alone) and with them (``keys``: recallflow's request carries them as
    entities; a peer gets them appended to its query text), with recall@10 and rows
    returned beside latency."""
    peers = [r for r in items if r.group.startswith("peer:") or r.group in (IN_TURN, IN_TURN_TEXT)]
    if not any(r.group.startswith("peer:") for r in peers):
        return ["(no `peer:*` benchmarks in this run)"]

    def order(r: Row) -> tuple[int, str, int]:
        tier = TIER_ORDER.index(r.tier) if r.tier in TIER_ORDER else 99
        return (tier, _mode(r.group), 0 if r.group.startswith("moment:") else 1)

    body = []
    for r in sorted(peers, key=lambda r: (*order(r), r.group)):
        mode = _mode(r.group)
        ours = _ours(items, mode, r.tier)
        embed = _lookup(items, "embedding:query", r.tier)
        ours_ms = ours.p50_ms + (embed.p50_ms if embed else 0.0) if ours else None
        is_ours = r.group.startswith("moment:")
        ratio = r.p50_ms / ours_ms if ours_ms and not is_ours else None
        shown_ratio = f"{ratio:.2g}×" if ratio is not None and ratio < 0.1 else None
        name = "recallflow" if is_ours else r.group.removeprefix("peer:").rsplit(":", 1)[0]
        body.append(
            [
                r.tier,
                mode,
                f"**{name}**" if is_ours else f"`{name}`",
                _fmt(r.p50_ms),
                _fmt(r.p95_ms),
                _fmt(r.extra.get("recall_at_10"), 3),
                _fmt(r.extra.get("mean_returned"), 1),
                shown_ratio or (f"{_fmt(ratio, 2)}×" if ratio else "—"),
            ]
        )
    header = [
        "tier",
        "keys",
        "system",
        "p50 ms",
        "p95 ms",
        "recall@10",
        "rows returned (of 10)",
        "p50 / recallflow's (same keys, incl. query embedding)",
    ]
    return _table(header, body)


def _rate(row: Row | None) -> float | None:
    if row is None or not row.p50_ms or not row.extra.get("items"):
        return None
    return float(row.extra["items"]) / (row.p50_ms / 1e3)


def ingest_rates(items: Sequence[Row]) -> dict[str, float | None]:
    """Beliefs (or texts) per second of the ``ingest:*`` and batched-embedding groups."""
    found: dict[str, float | None] = {}
    for group in (
        "ingest:precomputed",
        "ingest:precomputed_graduated",
        "ingest:minilm",
        "embedding:batch_minilm",
    ):
        rows_ = [r for r in items if r.group == group]
        found[group] = _rate(rows_[0]) if rows_ else None
    return found


def ingest_table(items: Sequence[Row]) -> list[str]:
    """Bulk ingestion: beliefs/s with precomputed vectors and with MiniLM, against MiniLM's
    own batched throughput."""
    rates = ingest_rates(items)
    if not any(rates.values()):
        return ["(no `ingest:*` benchmarks in this run)"]
    share = None
    if rates["ingest:minilm"] and rates["embedding:batch_minilm"]:
        share = rates["ingest:minilm"] / rates["embedding:batch_minilm"]
    body = []
    for group, rate in rates.items():
        row = next((r for r in items if r.group == group), None)
        body.append(
            [
                f"`{group}`",
                str(row.extra.get("items", "—")) if row else "—",
                _fmt(row.p50_ms if row else None, 1),
                _fmt(rate, 0),
            ]
        )
    body.append(["MiniLM ingestion / MiniLM batched embedding", "", "", f"{_fmt(share, 2)}"])
    return _table(["group", "items per call", "p50 ms", "per second"], body)


def _tier_rank(tier: str) -> int:
    return TIER_ORDER.index(tier) if tier in TIER_ORDER else len(TIER_ORDER)


def principal_table(items: Sequence[Row]) -> list[str]:
    """One principal's in-turn p50 in stores of growing total size
    (``moment:in_turn_principal``), and the tier's measured principal in a store of its
    own (``moment:in_turn_alone``, a row ``<tier> (alone)`` after the tier's), each against
    the floor of its tier's store; the store alone also against the tier's store, the
    median of their interleaved pairs' ratios (same request, alternating)."""
    found = [r for r in items if r.group in (PRINCIPAL, ALONE)]
    if not found:
        return [f"(no `{PRINCIPAL}` or `{ALONE}` benchmarks in this run)"]
    body = []
    ordered = sorted(found, key=lambda r: (_tier_rank(r.tier), r.tier, r.group == ALONE))
    for r in ordered:
        floor = _lookup(items, FLOOR, r.tier)
        body.append(
            [
                f"{r.tier} (alone)" if r.group == ALONE else r.tier,
                f"{int(r.extra.get('principal_beliefs', 0)):,}",
                f"{int(r.extra.get('rows_in_table', 0)):,}",
                _fmt(r.p50_ms),
                _fmt(r.p95_ms),
                _fmt(r.extra.get("recall_at_10"), 3),
                f"{_fmt(r.p50_ms / floor.p50_ms, 2)}×" if floor and floor.p50_ms else "—",
                f"{_fmt(paired, 2)}×" if (paired := r.extra.get("interleaved_ratio")) else "—",
            ]
        )
    header = [
        "tier (store)",
        "principal's beliefs",
        "rows in the store",
        "p50 ms",
        "p95 ms",
        "recall@10",
        "p50 / the tier's floor",
        "alone / in the tier's store (interleaved pairs)",
    ]
    return _table(header, body)


def targets_table(items: Sequence[Row]) -> list[str]:
    """The targets, measured (never asserted in tests)."""
    checks: list[tuple[str, str, bool | None]] = []

    def check(
        label: str, value: float | None, limit: float, unit: str, at_least: bool = False
    ) -> None:
        shown = f"{_fmt(value, 2)} {unit}" if value is not None else "not measured"
        ok = None if value is None else (value >= limit if at_least else value <= limit)
        checks.append((label, shown, ok))

    for tier, p50, p95 in TARGET_IN_TURN_MS:
        r = _lookup(items, IN_TURN, tier)
        check(f"in-turn p50 at {tier} ≤ {p50:g} ms", r.p50_ms if r else None, p50, "ms")
        check(f"in-turn p95 at {tier} ≤ {p95:g} ms", r.p95_ms if r else None, p95, "ms")
    snap = _snapshot(items, "10k", "open_session", "no_goal")
    check(
        f"session snapshot (open, no goal) p50 at 10k ≤ {TARGET_SNAPSHOT_10K_MS:g} ms",
        snap.p50_ms if snap else None,
        TARGET_SNAPSHOT_10K_MS,
        "ms",
    )
    check(
        f"end to end with the MiniLM query embedding, p50 at 10k ≤ {TARGET_END_TO_END_10K_MS:g} ms",
        end_to_end_ms(items, "10k"),
        TARGET_END_TO_END_10K_MS,
        "ms",
    )
    ratios = [
        x
        for x in (paired_floor_ratio(items, t) or floor_ratio(items, t) for t in _tiers(items))
        if x is not None
    ]
    check(
        f"recall / floor ≤ {TARGET_FLOOR_RATIO:g}× (worst tier; interleaved pairs if run)",
        max(ratios) if ratios else None,
        TARGET_FLOOR_RATIO,
        "×",
    )
    shares = [x for x in (overhead_share(items, t) for t in _tiers(items)) if x is not None]
    check(
        "Hamilton + lineage ≤ 10 % of recall (worst tier)",
        max(shares) * 100 if shares else None,
        TARGET_OVERHEAD * 100,
        "%",
    )
    r1, r100 = _lookup(items, IN_TURN, "1k"), _lookup(items, IN_TURN, "100k")
    growth = r100.p50_ms / r1.p50_ms if r100 and r1 and r1.p50_ms else None
    check(f"in-turn p50 100k / 1k ≤ {TARGET_GROWTH:g}×", growth, TARGET_GROWTH, "×")
    rates = ingest_rates(items)
    check(
        f"ingestion with precomputed vectors ≥ {TARGET_INGEST_PRECOMPUTED:,.0f} beliefs/s",
        rates["ingest:precomputed"],
        TARGET_INGEST_PRECOMPUTED,
        "beliefs/s",
        at_least=True,
    )
    share = None
    if rates["ingest:minilm"] and rates["embedding:batch_minilm"]:
        share = rates["ingest:minilm"] / rates["embedding:batch_minilm"]
    check(
        f"ingestion with MiniLM ≥ {TARGET_INGEST_SHARE:.0%} of MiniLM's batched throughput",
        share * 100 if share is not None else None,
        TARGET_INGEST_SHARE * 100,
        "%",
        at_least=True,
    )
    body = [
        [label, shown, "—" if ok is None else ("met" if ok else "**missed**")]
        for label, shown, ok in checks
    ]
    return _table(["target", "measured", "status"], body)


def dataset_table(run: dict[str, Any]) -> list[str]:
    """Each tier's store: sizes, embedder, load rate, index build times and disk size."""
    datasets: dict[str, dict[str, Any]] = (run.get("recallflow") or {}).get("datasets") or {}
    if not datasets:
        return ["(no dataset information in this run)"]
    body = []
    # A store of a tier's principal alone (``10k-alone``) right after the tier's store.
    for name in sorted(datasets, key=lambda t: (_tier_rank(t.removesuffix("-alone")), t)):
        d = datasets[name]
        builds = d.get("index_build_s") or {}
        hnsw = sum(v for k, v in builds.items() if "hnsw" in k)
        other = sum(v for k, v in builds.items() if "hnsw" not in k)
        rate = d["rows_in_table"] / d["embed_and_copy_s"] if d.get("embed_and_copy_s") else None
        build = d.get("build_s")
        size = d.get("database_bytes")
        body.append(
            [
                name,
                f"{d['beliefs']:,}",
                f"{d['rows_in_table']:,}",
                str(d.get("other_principals", "—")),
                f"{d.get('edges', 0):,}",
                str(d.get("embedder")),
                _fmt(rate, 0),
                _fmt(hnsw, 1),
                _fmt(other, 1),
                _fmt(build / 60 if build else None, 1),
                _fmt(size / 2**30 if size else None, 2),
                "reused" if d.get("reused") else "built",
            ]
        )
    header = [
        "tier",
        "beliefs (principal)",
        "rows in table",
        "other principals",
        "edges",
        "embedder",
        "load beliefs/s (embed + COPY)",
        "HNSW build s",
        "other indexes s",
        "whole build min",
        "database GiB",
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
        "## Against the floor",
        *floor_table(items),
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
        "## Session snapshot",
        *snapshot_table(items),
        "",
        "## Ingestion",
        *ingest_table(items),
        "",
        "## Peers",
        *peer_table(items),
        "",
        "## One principal in stores of growing size",
        *principal_table(items),
        "",
        "## Datasets",
        *dataset_table(run),
        "",
    ]
    return "\n".join(lines)


def report_file(value: str) -> Path:
    """A file ``--out`` or ``--html`` writes: in a directory that exists, and not itself a
    directory, checked when the command line is read, so a report that cannot be written
    is a usage error before any run is read (it was the write's errno, exit 1, after the
    other report had been written)."""
    path = Path(value)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{value[:60]!r} is a directory; name a file")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(
            f"{value[:60]!r}: there is no directory {str(path.parent)[:60]!r} to write it in"
        )
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``report`` (shared with ``recallflow bench report``)."""
    parser.add_argument("run", nargs="?", type=Path, help="a saved run (default: the newest)")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="saved runs (.benchmarks)")
    parser.add_argument("--out", type=report_file, default=None, help="write the Markdown here")
    parser.add_argument(
        "--html",
        nargs="?",
        type=report_file,
        const=Path(),
        default=None,
        help="also write the HTML report with charts (default: next to the run's JSON)",
    )


def run(args: argparse.Namespace) -> int:
    """Print (or write) the report of the run ``args`` names; return the exit status.

    :raises ValueError: no saved run, or a run file it cannot read (see :func:`load_run`).
    """
    path: Path | None = args.run
    if path is None:
        runs = saved_runs(args.dir)
        if not runs:
            raise ValueError(f"no saved runs under {args.dir} (run `make bench` first)")
        path = runs[-1]
    data = load_run(path)
    text = render(data, str(path))
    if args.html is not None:
        from benchmarks.report_html import render_html

        previous = previous_run(path, args.dir)
        html_path = path.with_suffix(".html") if args.html == Path() else args.html
        html_path.write_text(render_html(data, str(path), previous), encoding="utf-8")
        print(f"wrote {html_path}", file=sys.stderr)
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
    try:
        return run(parser.parse_args(argv))
    except ValueError as exc:
        print(f"benchmarks.report: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
