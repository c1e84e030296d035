"""What a tier's in-turn recalls hand over and store, one JSON line per fixed request, so
two versions of the code can be shown to produce the same bytes: run this in each and
compare the outputs (``cmp``, or ``diff`` to see where they part)::

    RECALLFLOW_BENCH_HOME=… python -m benchmarks.trace_digest --tier 1k --out before.jsonl

Each line holds the block's sha256, the items' JSON, the trace's JSON as returned and the
operator and user views as stored (read back from ``recall_traces``), every JSON text
parsed only to set aside what differs on every run or with any change of code: the trace
id, latencies, the lineage's order (the arms finish in any order; sorted by node here)
and the DAG and node versions (hashes of the code). Key order is kept. Each request is
recalled twice and the second recall is written, so caches are warm on both sides alike.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path
from typing import Any

from benchmarks.datagen import TIERS
from benchmarks.recall_harness import QueryCachingEmbedder, requests
from benchmarks.stores import bench_embedder_name, bench_home, open_tier
from recallflow.adapters.embedders import embedder_from_name
from recallflow.adapters.postgres.embedded import EmbeddedServer

_STORED = (
    "SELECT operator_view::text, user_view::text, rendered_sha256, moment, surface,"
    " as_of::text, retrieval_policy_version, degraded, session_id"
    " FROM recall_traces WHERE id = %s"
)


def steady(trace: dict[str, Any]) -> dict[str, Any]:
    """A trace's JSON without what differs on every run or with any change of code."""
    lineage = (dict(n, wall_ms=0, version="-") for n in trace.get("lineage", []))
    return {
        **trace,
        "id": "-",
        "dag_version": "-",
        "lineage": sorted(lineage, key=lambda n: str(n["node"])),
        "arms": [dict(a, latency_ms=0) for a in trace["arms"]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", default="1k", choices=sorted(TIERS))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    lines = []
    server = EmbeddedServer(bench_home())
    try:
        embedder = QueryCachingEmbedder(embedder_from_name(bench_embedder_name()))
        store = open_tier(server, TIERS[args.tier], embedder=embedder)
        memory = store.memory
        try:
            reqs = requests(store)
            for second in (False, True):
                for i, req in enumerate(reqs):
                    result = memory.recall(req)
                    if not second:
                        continue
                    with memory._pool.connection() as conn:
                        row = conn.execute(_STORED, (result.trace_id,)).fetchone()
                    assert row is not None, f"request {i}: its trace was not stored"
                    line = {
                        "request": i,
                        "block_sha256": hashlib.sha256(result.block.encode()).hexdigest(),
                        "items": [json.loads(item.model_dump_json()) for item in result.items],
                        "trace": steady(json.loads(result.trace.model_dump_json())),
                        "operator_view": steady(json.loads(row[0])),
                        "user_view": row[1],
                        "columns": [str(c) for c in row[2:]],
                    }
                    lines.append(json.dumps(line))
        finally:
            memory.close()
    finally:
        server.release()
    text = "\n".join(lines) + "\n"
    args.out.write_text(text)
    print(f"{args.out}: {len(lines)} recalls, sha256 {hashlib.sha256(text.encode()).hexdigest()}")


if __name__ == "__main__":
    main()
