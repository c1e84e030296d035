"""Recall statements compiled once, not on every execution.

A recall's statements are built from a query and the hard filter's predicates
(:func:`~recallflow.adapters.postgres.filters.hard_filter_sql`), whose text depends on the
filter only through the states it admits as history. Composing them and turning psycopg's
``%(name)s`` placeholders into PostgreSQL's ``$n`` cost 0.05–0.13 ms of Python per
statement (psycopg does not cache statements over 4 kB, which most of these are), paid by
every arm of every recall while holding the interpreter the other arms need.

:func:`filtered_statement` does that once per query and filter shape; the statement is
then sent as it is with a ``RawCursor``, the parameters bound by position
(:meth:`Statement.bind`). Prepared statements work as before: the statement's text is the
key of its prepared plan.
"""

from __future__ import annotations

import logging
import re
import threading
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import psycopg
from psycopg import sql

from recallflow.adapters.postgres.filters import hard_filter_sql, history_states
from recallflow.models.stages import HardFilter
from recallflow.models.store import LifecycleState

_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%|%s")


@dataclass(frozen=True)
class Statement:
    """A statement with PostgreSQL's own placeholders, and the parameter each stands for."""

    text: bytes
    names: tuple[str, ...]

    def bind(self, values: Mapping[str, Any]) -> list[Any]:
        """The values of the statement's parameters, in placeholder order (a list of
        strings as its array's text: :func:`text_array`)."""
        return [_sent(values[name]) for name in self.names]


def _sent(value: Any) -> Any:
    if type(value) is list and value and all(type(item) is str for item in value):
        return text_array(value)
    return value


def text_array(items: list[str]) -> str:
    """The text of the array of ``items``, every element quoted, sent as psycopg sends a
    list of strings: as text of no declared type, whose type the statement gives it (a
    cast, a column compared with it). The server reads the same array as from psycopg's
    own text, whose quotes are only where an element needs them; psycopg finds where by a
    regular expression per element and escapes in Python (37 µs for the 44 ids a recall's
    load sends, 56 µs for two query vectors' 4 kB texts, each sent twice a recall; this
    takes 1-3 µs)."""
    joined = "".join(items)
    if '"' in joined or "\\" in joined:
        items = [item.replace("\\", "\\\\").replace('"', '\\"') for item in items]
    return '{"' + '","'.join(items) + '"}'


def compile_statement(query: sql.Composable) -> Statement:
    """``query`` (named ``%(name)s`` placeholders only) with ``$n`` placeholders, one per
    distinct name in order of first use."""
    names: dict[str, int] = {}

    def placeholder(match: re.Match[str]) -> str:
        if match.group(0) == "%%":
            return "%"
        if match.group(1) is None:
            raise ValueError("a compiled statement takes named parameters only")
        return f"${names.setdefault(match.group(1), len(names) + 1)}"

    text = _PLACEHOLDER.sub(placeholder, query.as_string(None))
    return Statement(text.encode(), tuple(names))


_compiled: dict[tuple[int, tuple[LifecycleState, ...]], tuple[sql.SQL, Statement]] = {}
_compiled_lock = threading.Lock()


def filtered_statement(query: sql.SQL, f: HardFilter) -> Statement:
    """``query`` with the hard filter of ``f`` in place of ``{filter}`` (and the current-view
    filter in place of ``{current}``), compiled once per query and filter shape."""
    shape = history_states(f)
    key = (id(query), shape)
    with _compiled_lock:
        hit = _compiled.get(key)
    if hit is not None and hit[0] is query:
        return hit[1]
    predicate, _ = hard_filter_sql(f)
    current, _ = hard_filter_sql(f, history=False)
    statement = compile_statement(query.format(filter=predicate, current=current))
    with _compiled_lock:
        _compiled[key] = (query, statement)  # the query is held, so its id is not reused
    return statement


@cache
def set_configs(count: int, *, local: bool = False) -> bytes:
    """The one statement that sets ``count`` settings of the session (``local``: of the
    transaction only), for a raw cursor; its values are :func:`setting_values`. One
    statement, not one per setting: 0.13 ms less per extra setting."""
    scope = "true" if local else "false"
    calls = ", ".join(f"set_config(${2 * i + 1}, ${2 * i + 2}, {scope})" for i in range(count))
    return f"SELECT {calls}".encode()


def setting_values(settings: Mapping[str, str]) -> list[str]:
    """The parameters of :func:`set_configs` for ``settings``."""
    return [part for item in settings.items() for part in item]


def raw_cursor_class(conn: psycopg.Connection[Any]) -> type[psycopg.RawCursor[Any]]:
    """The connection's own cursor class when it is a ``RawCursor`` (one that records or
    traces what it runs), else ``RawCursor``: compiled statements carry ``$n``
    placeholders, which only a raw cursor sends as they are."""
    factory = conn.cursor_factory
    if isinstance(factory, type) and issubclass(factory, psycopg.RawCursor):
        return factory
    return psycopg.RawCursor


def set_local(conn: psycopg.Connection[Any], settings: Mapping[str, str]) -> None:
    """Set ``settings`` for the current transaction of ``conn`` (in a pipeline, queued)."""
    raw_cursor_class(conn)(conn).execute(
        set_configs(len(settings), local=True), setting_values(settings)
    )


@contextmanager
def pipeline(conn: psycopg.Connection[Any]) -> Iterator[None]:
    """``conn.pipeline()``, after which the connection's prepared statements are known
    even when the pipeline failed.

    psycopg prepares a statement once it has run often enough on a connection (at once on
    a recall connection, see ``open_pool``). When a pipeline fails, psycopg can keep a
    statement it sent there as prepared although the server never made it, and every
    later use of that statement on the connection then fails ("prepared statement ... does
    not exist"): a trace write that timed out once would lose every later trace written on
    that connection. A connection whose pipeline failed is therefore closed, and the pool
    replaces it (see ``forget_prepared``)."""
    try:
        with conn.pipeline():
            yield
    except psycopg.Error:
        forget_prepared(conn)
        raise


#: The connections :func:`forget_prepared` closed on purpose. psycopg_pool warns of a
#: connection handed back closed ("discarding closed connection"), as of one that broke
#: under it; for these the failure was already raised to the caller (or counted as a typed
#: unavailability), and the pool replacing the connection is the recovery, not a fault.
_closed_on_purpose: weakref.WeakSet[psycopg.Connection[Any]] = weakref.WeakSet()


class _ClosedOnPurpose(logging.Filter):
    """Drops the pool's warning about a connection :func:`forget_prepared` closed; every
    other record of the pool's logger, the warning about a connection the server or the
    network ended included, passes. (psycopg_pool has no public call that takes a closed
    connection back without that warning; its private ones could change in any release,
    while a reworded message only brings the warning back.)"""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        return not (
            record.msg == "discarding closed connection: %s"
            and isinstance(args, tuple)
            and len(args) == 1
            and args[0] in _closed_on_purpose
        )


logging.getLogger("psycopg.pool").addFilter(_ClosedOnPurpose())


def forget_prepared(conn: psycopg.Connection[Any]) -> None:
    """Close ``conn``, so that no statement psycopg believes prepared on it is used again;
    a pool replaces a connection it gets back closed.

    ``DEALLOCATE ALL`` is not enough: psycopg forgets its own record of the prepared
    statements on that command only while it has not counted the command's text before,
    so the second time a connection ran it the server dropped every statement and psycopg
    still named them all (and every later statement it had prepared then failed). A
    failed pipeline is rare (a timeout, a lock not granted); a new connection costs a few
    milliseconds once."""
    if not conn.closed:
        _closed_on_purpose.add(conn)
        conn.close()
