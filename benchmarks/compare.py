"""Regression check between two saved pytest-benchmark runs (``make bench-compare``).

By default the two newest JSON files under ``.benchmarks/`` (``--benchmark-autosave``
writes them as ``.benchmarks/<machine>/NNNN_*.json``) are compared, ordered by the run's
own ``datetime``. A benchmark *regresses* when its median grew by more than the threshold
(default :data:`DEFAULT_THRESHOLD` = 20 %) and by more than ``min_delta_us`` (default 0)
in absolute terms. Exit status: 0 no regression, 1 at least one (each named), 2 fewer
than two runs to compare.

Usage: ``python -m benchmarks.compare [--threshold 20] [--dir .benchmarks] [BASE HEAD]``,
or ``recallflow bench compare`` with the same options.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_THRESHOLD = 20.0
DEFAULT_DIR = Path(".benchmarks")


@dataclass(frozen=True)
class Change:
    """One benchmark present in both runs."""

    name: str
    base_median: float
    head_median: float

    @property
    def change_pct(self) -> float:
        """Median change in percent (positive: slower)."""
        if self.base_median <= 0:
            return 0.0
        return (self.head_median / self.base_median - 1.0) * 100.0


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing two runs."""

    base: str
    head: str
    threshold_pct: float
    changes: tuple[Change, ...]
    regressions: tuple[Change, ...]
    only_in_base: tuple[str, ...]
    only_in_head: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.regressions


def load_run(path: Path) -> dict[str, Any]:
    """A saved pytest-benchmark JSON file."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if "benchmarks" not in data:
        raise ValueError(f"{path} is not a pytest-benchmark JSON file (no 'benchmarks')")
    return data


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


def medians(run: dict[str, Any]) -> dict[str, float]:
    """Median seconds per benchmark ``fullname``."""
    return {
        str(b["fullname"]): float(b["stats"]["median"])
        for b in run["benchmarks"]
        if b.get("stats") and b["stats"].get("median") is not None
    }


def compare(
    base: dict[str, Any],
    head: dict[str, Any],
    *,
    threshold_pct: float = DEFAULT_THRESHOLD,
    min_delta_us: float = 0.0,
    base_name: str = "base",
    head_name: str = "head",
) -> Comparison:
    """Compare the medians of ``head`` against ``base``."""
    before, after = medians(base), medians(head)
    changes = tuple(
        Change(name, before[name], after[name]) for name in sorted(before.keys() & after.keys())
    )
    regressions = tuple(
        c
        for c in changes
        if c.change_pct > threshold_pct and (c.head_median - c.base_median) * 1e6 > min_delta_us
    )
    return Comparison(
        base=base_name,
        head=head_name,
        threshold_pct=threshold_pct,
        changes=changes,
        regressions=regressions,
        only_in_base=tuple(sorted(before.keys() - after.keys())),
        only_in_head=tuple(sorted(after.keys() - before.keys())),
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}"


def format_comparison(result: Comparison) -> str:
    """A plain-text table of every change, regressions marked."""
    lines = [
        f"base: {result.base}",
        f"head: {result.head}",
        f"threshold: median +{result.threshold_pct:g} %",
        "",
        f"{'benchmark':<70} {'base ms':>10} {'head ms':>10} {'change':>8}",
    ]
    flagged = {c.name for c in result.regressions}
    for c in result.changes:
        mark = "  REGRESSION" if c.name in flagged else ""
        lines.append(
            f"{c.name[-70:]:<70} {_ms(c.base_median):>10} {_ms(c.head_median):>10}"
            f" {c.change_pct:>+7.1f}%{mark}"
        )
    for name in result.only_in_base:
        lines.append(f"{name[-70:]:<70} (only in base)")
    for name in result.only_in_head:
        lines.append(f"{name[-70:]:<70} (only in head)")
    lines.append("")
    if result.regressions:
        names = ", ".join(f"{c.name} ({c.change_pct:+.1f} %)" for c in result.regressions)
        lines.append(
            f"FAIL: {len(result.regressions)} median regression(s) beyond threshold: {names}"
        )
    else:
        lines.append(f"OK: no median regression beyond {result.threshold_pct:g} %")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``compare`` (shared with ``recallflow bench compare``)."""
    parser.add_argument(
        "runs", nargs="*", type=Path, help="BASE HEAD json files (default: last two)"
    )
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="saved runs (.benchmarks)")
    parser.add_argument(
        "--threshold",
        type=float,
        default=DEFAULT_THRESHOLD,
        help=f"fail when a median grows by more than this many percent ({DEFAULT_THRESHOLD:g})",
    )
    parser.add_argument(
        "--min-delta-us",
        type=float,
        default=0.0,
        help="ignore growth smaller than this many microseconds (default 0)",
    )


def run(args: argparse.Namespace) -> int:
    """Compare the runs ``args`` names; print the table; return the exit status."""
    paths: list[Path] = list(args.runs)
    if not paths:
        paths = saved_runs(args.dir)[-2:]
    if len(paths) != 2:
        print(
            f"need two saved runs to compare, found {len(paths)} under {args.dir}"
            " (run `make bench` twice, or pass BASE HEAD)",
            file=sys.stderr,
        )
        return 2
    base, head = paths
    result = compare(
        load_run(base),
        load_run(head),
        threshold_pct=args.threshold,
        min_delta_us=args.min_delta_us,
        base_name=str(base),
        head_name=str(head),
    )
    print(format_comparison(result))
    return 0 if result.ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.compare``."""
    parser = argparse.ArgumentParser(prog="benchmarks.compare", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
