"""Tally the hostile-input fuzz suite: inputs tried, typed errors, raw errors and partial
writes per entry point.

    python -m benchmarks.fuzz_tally [--examples N]

Runs ``tests/test_fuzz_inputs.py`` with ``N`` examples per property (default 300) and prints
a Markdown table. A raw error or a partial write also fails the run (the suite asserts
that neither happens), so the table of a green run shows zeros in those columns.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=300)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tally = Path(tmp) / "tally.json"
        env = {
            **os.environ,
            "RECALLFLOW_FUZZ_EXAMPLES": str(args.examples),
            "RECALLFLOW_FUZZ_TALLY": str(tally),
        }
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "tests/test_fuzz_inputs.py",
                "-q",
                "-p",
                "no:cacheprovider",
                f"--basetemp={tmp}/pt",
            ],
            cwd=ROOT,
            env=env,
            check=False,
        )
        rows: dict[str, dict[str, int]] = defaultdict(dict)
        if tally.exists():
            for entry, outcome, count in json.loads(tally.read_text()):
                rows[entry][outcome] = count
    print("| entry point | inputs | succeeded | typed errors | raw errors | partial writes |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    total: defaultdict[str, int] = defaultdict(int)
    for entry in sorted(rows):
        r = rows[entry]
        n = sum(r.values())
        cells = [n, r.get("ok", 0), r.get("typed", 0), r.get("raw", 0), r.get("partial", 0)]
        for key, value in zip(("n", "ok", "typed", "raw", "partial"), cells, strict=True):
            total[key] += value
        print(f"| {entry} | " + " | ".join(map(str, cells)) + " |")
    print(
        f"| **all** | {total['n']} | {total['ok']} | {total['typed']} | {total['raw']}"
        f" | {total['partial']} |"
    )
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
