"""Start-up times of the embedded store: what ``open_memory()`` costs a fresh process.

* **cold** — a fresh home: ``initdb``, server start, database, extensions, migrations,
  embedding space (HNSW index on the empty table);
* **warm** — an existing home whose server is stopped: server start and the no-op checks;
* **reuse** — a second open while another process holds the server: connect and checks.

Each run is a fresh Python process (the wheel caches server handles per process) that
reports the time ``open_memory()`` took and the time ``close()`` took (for cold and warm,
close stops the server); the process's whole wall time, interpreter and imports
included, is reported beside it. The hashing embedder is used so the model's load time
does not hide the store's; ``--model-load`` times the default embedder's load alone.
Medians of ``--runs`` runs.

Usage: ``python -m benchmarks.startup [--runs 5] [--model-load] [--json OUT]``
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

#: The child: open a store with the hashing embedder, print the timings as JSON.
_OPEN = """
import json, sys, time
from recallflow import open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
t0 = time.perf_counter()
memory = open_memory(home=sys.argv[1], embedder=HashingEmbedder())
t1 = time.perf_counter()
memory.close()
t2 = time.perf_counter()
print(json.dumps({"open_s": t1 - t0, "close_s": t2 - t1}))
"""
#: A holder: keeps the server of a home open until its stdin closes.
_HOLD = """
import sys
from recallflow import open_memory
from recallflow.adapters.embedders.hashing import HashingEmbedder
with open_memory(home=sys.argv[1], embedder=HashingEmbedder()):
    print("ready", flush=True)
    sys.stdin.read()
"""
_MODEL = """
import json, time
t0 = time.perf_counter()
from recallflow.adapters.embedders.minilm import MiniLMEmbedder
e = MiniLMEmbedder()
t1 = time.perf_counter()
e.embed(["warm up the session"])
t2 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "first_embed_s": t2 - t1}))
"""


def _child(code: str, *args: str) -> dict[str, float]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_s"] = time.perf_counter() - started
    return result


def _summary(samples: list[dict[str, float]]) -> dict[str, float]:
    keys = samples[0].keys()
    return {k: round(statistics.median(s[k] for s in samples), 3) for k in keys}


def measure(runs: int, root: Path) -> dict[str, dict[str, float]]:
    """Median cold, warm and reuse timings over ``runs`` runs each, homes under ``root``."""
    cold = []
    for i in range(runs):
        home = root / f"cold-{i}"
        cold.append(_child(_OPEN, str(home)))
        shutil.rmtree(home, ignore_errors=True)
    home = root / "warm"
    _child(_OPEN, str(home))
    warm = [_child(_OPEN, str(home)) for _ in range(runs)]
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(home)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        reuse = [_child(_OPEN, str(home)) for _ in range(runs)]
    finally:
        if holder.stdin is not None:
            holder.stdin.close()
        holder.wait(timeout=60)
    return {"cold": _summary(cold), "warm": _summary(warm), "reuse": _summary(reuse)}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.startup``."""
    parser = argparse.ArgumentParser(prog="benchmarks.startup", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per kind (median reported)")
    parser.add_argument("--model-load", action="store_true", help="also time loading MiniLM")
    parser.add_argument("--json", type=Path, default=None, help="also write the result here")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="recallflow-startup-"))
    try:
        result = measure(args.runs, root)
        if args.model_load:
            result["minilm"] = _summary([_child(_MODEL) for _ in range(args.runs)])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{'kind':<8} {'open s':>8} {'close s':>8} {'process s':>10}   (median of {args.runs})")
    for kind in ("cold", "warm", "reuse"):
        r = result[kind]
        print(f"{kind:<8} {r['open_s']:>8.3f} {r['close_s']:>8.3f} {r['process_s']:>10.3f}")
    if "minilm" in result:
        m = result["minilm"]
        print(f"MiniLM load {m['load_s']:.3f} s, first embed {m['first_embed_s']:.3f} s")
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
