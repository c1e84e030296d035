"""Print the injection scanner's detection per family, its false-block rates and its cost.

Run from the repository root: ``python -m benchmarks.scanner_report``. Every attack and
ordinary set in ``tests/data/injection`` is run. The tune set is what the rules were
written against; the holdout set was written first and never used for tuning, so its
rate is the figure to quote; each blind probe's count before its rules is in the
architecture doc, and the attacks it still gets past (``still_missed``) and the ordinary
memories left blocked on purpose (``still_blocked``) are counted beside its figures.
LoCoMo turns (read in place, never copied) stand in for ordinary beliefs; set
``RECALLFLOW_LOCOMO`` to its locomo10.json.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

from recallflow.adapters.scanning import LayeredInjectionScanner

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "injection"


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _marked(name: str, mark: str) -> str:
    """How many rows of ``name`` carry ``mark``, as a note for the report, or nothing."""
    with (DATA / name).open(encoding="utf-8") as f:
        count = sum(json.loads(line).get(mark) is True for line in f if line.strip())
    return f" ({count} marked {mark})" if count else ""


def _detection(scanner: LayeredInjectionScanner, name: str) -> None:
    total: Counter[str] = Counter()
    hit: Counter[str] = Counter()
    same: Counter[str] = Counter()
    for row in _rows(name):
        found = scanner.scan(row["text"])
        total[row["family"]] += 1
        hit[row["family"]] += found is not None
        same[row["family"]] += found == row["family"]
    print(f"\n{name}: family detected/total (named as its own family)")
    for family in sorted(total):
        print(f"  {family:22s} {hit[family]:3d}/{total[family]:<3d} ({same[family]})")
    print(
        f"  {'all':22s} {sum(hit.values()):3d}/{sum(total.values())}{_marked(name, 'still_missed')}"
    )


def _locomo_turns() -> list[str]:
    path = Path(
        os.environ.get("RECALLFLOW_LOCOMO", ROOT.parent / "shared/datasets/locomo/locomo10.json")
    )
    if not path.is_file():
        return []
    samples = json.loads(path.read_text(encoding="utf-8"))
    return [
        turn["text"]
        for sample in samples
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]


def _flag_rate(
    scanner: LayeredInjectionScanner, label: str, texts: list[str], note: str = ""
) -> None:
    if not texts:
        print(f"\n{label}: not found")
        return
    flagged = sum(scanner.is_injection(t) for t in texts)
    print(f"\n{label}: {flagged}/{len(texts)} flagged ({flagged / len(texts):.2%}){note}")


def _mean_scan_us(scanner: LayeredInjectionScanner, texts: list[str]) -> float:
    best = float("inf")
    for _ in range(3):  # the best of three runs is the least disturbed by other load
        start = time.perf_counter()
        for text in texts:
            scanner.scan(text)
        best = min(best, time.perf_counter() - start)
    return best / len(texts) * 1e6


def main() -> None:
    scanner = LayeredInjectionScanner()
    print(f"scanner {scanner.version}")
    for attacks in sorted(DATA.glob("attacks*.jsonl")):
        _detection(scanner, attacks.name)
    for ordinary in sorted(DATA.glob("benign*.jsonl")):
        texts = [r["text"] for r in _rows(ordinary.name)]
        _flag_rate(scanner, ordinary.name, texts, _marked(ordinary.name, "still_blocked"))
    benign = [r["text"] for r in _rows("benign.jsonl")]
    turns = _locomo_turns()
    _flag_rate(scanner, "LoCoMo turns", turns)
    corpus = benign + [r["text"] for r in _rows("attacks.jsonl") + _rows("attacks_holdout.jsonl")]
    print(f"\nmean scan time, corpus: {_mean_scan_us(scanner, corpus):.0f} us per statement")
    if turns:
        print(f"mean scan time, LoCoMo: {_mean_scan_us(scanner, turns):.0f} us per turn")


if __name__ == "__main__":
    main()
