"""``recallflow export`` and ``import``: a principal's memory out of a store as one JSON
document, and into a store from one (see docs/portability.md).

``export`` writes the document on stdout, or to ``--out``; ``import`` reads one from a
file (``-``: stdin) and writes it whole or not at all, as its principal or re-homed with
``--tenant`` and ``--principal``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from recallflow.cli.args import (
    WHO_FLAGS,
    UsageError,
    add_json_arg,
    add_store_args,
    add_who_args,
    input_file,
    key,
    open_store,
    output_file,
)


def _write_export(path: Path, text: str) -> None:
    """``text`` into ``path``, whole or not at all: written beside it, then renamed over
    it, so a failure midway leaves no half document where an export was asked for. The
    file is the user's personal data: only its owner may read it."""
    partial = path.with_name(f".{path.name}.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _cmd_export(args: argparse.Namespace) -> int:
    from recallflow.models.portability import SECTIONS

    with open_store(args) as memory:
        export = memory.export_principal(args.tenant, args.principal)
    text = export.model_dump_json(indent=2) + "\n"
    if args.out is None:
        sys.stdout.write(text)
        return 0
    _write_export(args.out, text)
    # Every section, so the line tells what the file holds: a user's entity marks, the
    # recalls their feedback names and their miss hints are in it too.
    counts = {name: len(getattr(export, name)) for name in SECTIONS}
    if args.json:
        print(json.dumps({"out": str(args.out), "format": export.format, "counts": counts}))
        return 0
    shown = ", ".join(f"{name} {n}" for name, n in counts.items())
    print(f"exported {args.tenant}/{args.principal} to {args.out} ({export.format}: {shown})")
    return 0


def _stdin_text() -> str:
    """What stdin holds, read as UTF-8 as a file is: read as text, the locale's decoder
    (surrogateescape under a C or POSIX locale) let a byte that is not UTF-8 through as a
    lone surrogate, refused deep inside the export naming a statement, where the same
    bytes from a file were refused as not UTF-8."""
    raw = getattr(sys.stdin, "buffer", None)
    return sys.stdin.read() if raw is None else raw.read().decode("utf-8")


def _cmd_import(args: argparse.Namespace) -> int:
    try:
        text = _stdin_text() if str(args.file) == "-" else args.file.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{args.file}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{args.file}: is not UTF-8 text (an export is JSON)") from None
    with open_store(args) as memory:
        done = memory.import_principal(text, tenant_id=args.tenant, principal_id=args.principal)
    if args.json:
        print(done.model_dump_json(indent=2))
        return 0
    shown = ", ".join(f"{table} {n}" for table, n in done.written.items() if n)
    print(
        f"imported into {done.tenant_id}/{done.principal_id}: {done.total_written} rows"
        f" ({shown or 'the export was empty'})"
    )
    return 0


def add_portability_parsers(subparsers: Any) -> None:
    """Register ``export`` and ``import`` on ``subparsers``."""
    p = subparsers.add_parser("export", help="write a principal's whole memory as JSON")
    add_who_args(p)
    p.add_argument(
        "--out",
        type=output_file,
        default=None,
        help="write the export to this file (default: stdout); it is personal data",
    )
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_export, field_flags=dict(WHO_FLAGS))

    p = subparsers.add_parser("import", help="write an export into the store, all or nothing")
    p.add_argument("file", type=input_file, help="the export (JSON; - for stdin)")
    p.add_argument(
        "--tenant", default=None, type=key, help="import under this tenant (default: the export's)"
    )
    p.add_argument(
        "--principal",
        default=None,
        type=key,
        help="import as this principal (default: the export's)",
    )
    add_store_args(p)
    add_json_arg(p)
    p.set_defaults(func=_cmd_import, field_flags=dict(WHO_FLAGS))
