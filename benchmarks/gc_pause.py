"""The interpreter's full garbage collections during in-turn recalls, with and without the
objects that exist once the store is open moved out of the collector's reach
(``gc.freeze()``).

A full (generation 2) collection walks every object the interpreter tracks. Once a
Memory is open and has run a recall, that is some hundred thousand objects, nearly all
of them the imported libraries' and the built flows', which live as long as the process.
Every few hundred recalls one such collection falls inside a recall and stalls it for as
long as the walk takes. Frozen, those objects are skipped by every later collection::

    RECALLFLOW_BENCH_HOME=… python -m benchmarks.gc_pause --tier 100k --recalls 480 --blocks 4

Blocks of ``--recalls`` recalls alternate, frozen and not (``gc.unfreeze()`` between
them), in one process on the tier's store, so both modes share the box's load; for each
mode the script prints how many full collections ran, their mean and longest pause, and
the recalls' p50, p99 and longest wall time. The tier's store is built first when it is
not cached (``benchmarks/stores.py``); query embedding is excluded as in
``moment:in_turn`` and every trace is persisted.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks.datagen import TIERS
from benchmarks.recall_harness import warm_tier


@dataclass
class Pauses:
    """The full collections of one mode, and its recalls' wall times (ms)."""

    full_ms: list[float] = field(default_factory=list)
    recalls_ms: list[float] = field(default_factory=list)
    _started: float = 0.0

    def hook(self, phase: str, info: dict[str, Any]) -> None:
        """A ``gc.callbacks`` hook timing generation 2 collections."""
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.full_ms.append((time.perf_counter() - self._started) * 1e3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tier", default="100k", choices=sorted(TIERS))
    parser.add_argument("--recalls", type=int, default=480, help="recalls per block")
    parser.add_argument("--blocks", type=int, default=4, help="blocks per mode")
    args = parser.parse_args()
    if args.recalls < 1 or args.blocks < 1:
        parser.error("--recalls and --blocks must be at least 1")
    modes = {"not frozen": Pauses(), "frozen": Pauses()}
    with warm_tier(args.tier) as (_server, memory, reqs):
        tracked = len(gc.get_objects())
        for block in range(2 * args.blocks):
            frozen = block % 2 == 1
            mode = modes["frozen" if frozen else "not frozen"]
            if frozen:
                gc.freeze()
            gc.callbacks.append(mode.hook)
            try:
                for i in range(args.recalls):
                    started = time.perf_counter()
                    memory.recall(reqs[i % len(reqs)])
                    mode.recalls_ms.append((time.perf_counter() - started) * 1e3)
            finally:
                gc.callbacks.remove(mode.hook)
                gc.unfreeze()
    print(f"{args.tier}: {tracked} objects tracked after the warm-up")
    for name, mode in modes.items():
        walls = sorted(mode.recalls_ms)
        p99 = walls[min(len(walls) - 1, round(0.99 * (len(walls) - 1)))]
        pauses = mode.full_ms or [0.0]
        print(
            f"  {name:10s} {len(mode.full_ms)} full collections in {len(walls)} recalls,"
            f" mean {statistics.fmean(pauses):.2f} ms, longest {max(pauses):.2f} ms;"
            f" recalls p50 {statistics.median(walls):.2f} ms, p99 {p99:.2f} ms,"
            f" longest {walls[-1]:.2f} ms"
        )


if __name__ == "__main__":
    main()
