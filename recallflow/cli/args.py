"""What the ``recallflow`` commands share: the store flags, argument types that refuse a bad
value at parse time (exit 2, one line), the request models built before any store is
opened, and the exit codes.

Only the standard library is imported here at module level, so ``recallflow --version``
and ``--help`` stay fast; a type that needs pydantic or psycopg imports it when it runs,
which is only when its flag is given.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

T = TypeVar("T")

if TYPE_CHECKING:
    from pydantic import BaseModel

    from recallflow.memory import Memory

    M = TypeVar("M", bound=BaseModel)


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is one ("1 episode", "0 edges")."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def terminal_line(text: str) -> str:
    """Stored free text (a statement, a note) as one line of a terminal shows it: each
    control or format character written as its escape (``\\x1b``, ``\\u202e``), every run
    of white space as one space. A statement is stored as it was given, and printed raw
    its escape sequences drove the terminal (clearing the screen, setting its title) and a
    bidi override reordered what the line seemed to say."""
    import unicodedata

    line = " ".join(text.split())
    if line.isprintable():
        return line
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs")
        else ch
        for ch in line
    )


#: Exit codes of every command (documented in docs/cli.md).
EXIT_OK = 0
EXIT_FAILURE = 1  # the store is unavailable, a migration failed, an id is not in the store
EXIT_USAGE = 2  # bad input: a flag's value, the command line, a request the models refuse
EXIT_UNMEASURED = 3  # ``eval``: something asked for could not be measured (a data file missing)
EXIT_NOT_CONFIRMED = 4  # ``forget``: the confirmation was declined; nothing was erased
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # the reader of stdout went away (``| head``), as for SIGPIPE

#: The values of :class:`recallflow.Surface`, for ``--surface`` choices: written out, since
#: the command line imports no pydantic model before a command needs one (a test checks
#: they are the enum's).
SURFACES = ("direct", "team", "public", "vault")

#: The values of :class:`recallflow.LifecycleState`, for ``belief list --state``, written
#: out for the same reason (a test checks they are the enum's).
STATES = ("active", "provisional", "superseded", "expired", "retired", "conflicted")

#: The values of :class:`recallflow.EpisodeKind`, for ``episodes --kind``, written out for
#: the same reason (a test checks they are the enum's).
EPISODE_KINDS = ("message", "tool_call", "observation", "summary", "correction")

#: The page a paged read (``episodes`` without a query, ``belief held``) returns when
#: ``--limit`` is left out, and the largest it takes: the Python API's own (a test checks
#: they are), judged here so a bad ``--limit`` is refused before a store is opened.
PAGE_DEFAULT = 100
PAGE_MAX = 1000

#: The store fields a command sets from ``--tenant`` and ``--principal``.
WHO_FLAGS = {"tenant_id": "--tenant", "principal_id": "--principal"}


class UsageError(Exception):
    """Bad input the argument parser could not see (an environment variable, a request
    the models refuse); exits with :data:`EXIT_USAGE`."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``<prog>: error: <message>``."""

    def error(self, message: str) -> NoReturn:
        for action in self._actions:
            # A group without its command was told the parser's own name for the slot
            # ("required: session_command"); say which commands there are.
            if (
                isinstance(action, argparse._SubParsersAction)
                and action.choices
                and (message == f"the following arguments are required: {action.dest}")
            ):
                message = "give a command: " + ", ".join(action.choices)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def key(value: str) -> str:
    """An identifier flag (``--tenant``, ``--principal``, ``--project``, ids)."""
    from pydantic import TypeAdapter, ValidationError

    from recallflow.errors import NOT_AN_IDENTIFIER
    from recallflow.models.store import Key

    try:
        return str(TypeAdapter(Key).validate_python(value))
    except ValidationError:
        raise argparse.ArgumentTypeError(f"{value[:60]!r} {NOT_AN_IDENTIFIER}") from None


def belief_statement(value: str) -> str:
    """A belief statement (``reject --replacement``, ``supersede``'s, ``belief add``'s) by
    the rules every statement is held to, checked at parse time (the store refused it only
    after opening, naming a model field)."""
    from pydantic import TypeAdapter, ValidationError

    from recallflow.models.fields import storable, visible
    from recallflow.models.store import BeliefDraft

    rule: TypeAdapter[str] = TypeAdapter(Annotated[str, BeliefDraft.model_fields["statement"]])
    try:
        # Storable first, as a model checks its texts: a byte of the command line that is
        # not UTF-8 (a lone surrogate once decoded) was pydantic's "unable to parse raw
        # data as a unicode string", where every other text flag says what is wrong.
        return visible(rule.validate_python(storable(value)))
    except ValidationError as exc:
        raise argparse.ArgumentTypeError(exc.errors()[0]["msg"]) from None
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def user_note(value: str) -> str:
    """``--note``: the user's words, by the rule the store keeps them to (not empty, storable
    text, at most :data:`~recallflow.models.corrections.NOTE_MAX_LENGTH` characters),
    checked at parse time like ``--replacement``."""
    from recallflow.models.corrections import NOTE_MAX_LENGTH
    from recallflow.models.fields import storable, visible

    text = value.strip()
    if not text:
        raise argparse.ArgumentTypeError("is empty")
    if len(text) > NOTE_MAX_LENGTH:
        raise argparse.ArgumentTypeError(
            f"is {len(text)} characters; at most {NOTE_MAX_LENGTH} are kept"
        )
    try:
        return visible(storable(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def at_least_one(value: str) -> int:
    """A count flag (``--events``, ``--conversations``): a whole number of at least 1."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value[:60]!r} is not a whole number of at least 1")
    return number


def page_size(value: str) -> int:
    """``--limit``: how many items one page of a paged read holds, 1 to :data:`PAGE_MAX`."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if not 1 <= number <= PAGE_MAX:
        raise argparse.ArgumentTypeError(
            f"{value[:60]!r} is not a whole number from 1 to {PAGE_MAX:,}"
        )
    return number


def key_text(value: str) -> str:
    """A subject or entity a read filters by (``belief held --subject``, ``--entity``),
    read as the store reads one (``"Deploy Target"`` is ``deploy-target``): refused when
    it has no letter or digit a key keeps, which no belief could match."""
    from recallflow.models.fields import storable
    from recallflow.models.store import normalise_subject

    try:
        storable(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not normalise_subject(value):
        raise argparse.ArgumentTypeError(f"{value[:60]!r} has no letters or digits to match on")
    return value


def instant(value: str) -> datetime:
    """An ISO 8601 time flag with a timezone, within the range a stored time keeps to
    (``--as-of``, ``--known-as-of``, ``--now``, ``--at``)."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value[:60]!r} is not an ISO 8601 time, e.g. 2026-01-31T09:00:00Z"
        ) from None
    if parsed.tzinfo is None:
        raise argparse.ArgumentTypeError(
            f"{value[:60]!r} has no timezone; add one, e.g. 2026-01-31T09:00:00Z or +02:00"
        )
    from recallflow.models.fields import utc_instant

    try:  # the range every stored time keeps to, judged here so the flag is named
        utc_instant(parsed)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{value[:60]!r} {exc}") from None
    return parsed


def empty_block(
    budget_dropped: int, floor_dropped: int, what: str = "belief", *, in_prefix: int = 0
) -> str:
    """What a command prints for an empty block, naming why it is empty: what cleared the
    relevance floor did not fit the budget (a statement longer than the token cap is never
    rendered in that block), or what is relevant is in the session's cached prefix (a
    turn does not repeat it), or what was found fell below the floor, or nothing of
    ``what`` was found at all — a principal, tenant or time that holds nothing, say, which
    no floor setting changes."""
    if budget_dropped:
        fit = "it did" if budget_dropped == 1 else "none of them did"
        return (
            f"(empty: {budget_dropped} cleared the relevance floor, but {fit} not fit the"
            " block's budget)"
        )
    if in_prefix:
        held = (
            f"{in_prefix} relevant {what} is"
            if in_prefix == 1
            else f"{in_prefix} relevant {what}s are"
        )
        return f"(empty: nothing new; the {held} in the session's cached prefix)"
    if floor_dropped:
        found = f"{floor_dropped} {what}" + ("" if floor_dropped == 1 else "s")
        return f"(empty: {found} found, but none cleared the relevance floor)"
    return f"(empty: no {what} was found for this request)"


def past_instant(value: str) -> datetime:
    """:func:`instant`, not later than now (``retention run --now``: a run ahead of the
    clock ends live sessions and deletes what is not yet due)."""
    parsed = instant(value)
    if parsed > datetime.now(UTC):
        raise argparse.ArgumentTypeError(
            f"{value[:60]!r} is in the future; a retention run is as of now or earlier"
        )
    return parsed


def input_file(value: str) -> Path:
    """A file or directory a command reads (``import FILE``, ``eval --locomo``): a name a
    file can have. A NUL byte in it was the interpreter's ValueError, a traceback, where
    the file was opened; whether it exists is the command's to say when it reads it."""
    if "\x00" in value:
        raise argparse.ArgumentTypeError(f"{value[:60]!r} holds a NUL byte, which no file name can")
    return Path(value)


def output_file(value: str) -> Path:
    """A file a command writes (``--out``): a name a file can have (:func:`input_file`),
    in a directory that exists, and not a directory itself, checked before any store is
    opened (a missing directory was found only after the work was done, as the write's
    errno, naming a temporary file)."""
    path = input_file(value)
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(
            f"{value[:60]!r}: there is no directory {str(path.parent)[:60]!r} to write it in"
        )
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{value[:60]!r} is a directory; name a file")
    return path


def dsn(value: str) -> str:
    """A PostgreSQL connection string flag (``--dsn``); checked, never connected to here."""
    from recallflow.adapters.postgres.conninfo import conninfo_problem

    if not value.strip():
        # Read as no string, it opened the embedded default home (or RECALLFLOW_DSN's
        # server): `--dsn "$URL"` with URL unset wrote to another store than named.
        raise argparse.ArgumentTypeError("is empty: give a connection string, or leave it out")
    problem = conninfo_problem(value)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"not a PostgreSQL connection string ({problem})")
    return value


def env_dsn(variable: str = "RECALLFLOW_DSN") -> str | None:
    """``RECALLFLOW_DSN`` (or the connection string ``variable`` holds), checked like
    ``--dsn``; None when unset or empty."""
    value = os.environ.get(variable) or None
    if value is not None:
        try:
            dsn(value)
        except argparse.ArgumentTypeError as exc:
            raise UsageError(f"{variable}: {exc}") from None
    return value


#: The recall pool's size a command's store is opened with (``open_memory``'s
#: ``pool_size``), for a server that allows a command fewer connections than the default
#: needs, or many commands (``recallflow mcp`` servers, say) sharing one server.
POOL_SIZE_ENV = "RECALLFLOW_POOL_SIZE"
#: The largest ``RECALLFLOW_POOL_SIZE`` taken: past it, the value is a typo, not a size.
_POOL_SIZE_MAX = 1000


def env_pool_size() -> int | None:
    """``RECALLFLOW_POOL_SIZE``, a whole number of connections from 1 to 1,000; None when
    unset or empty. Anything else is a usage error naming the variable."""
    value = os.environ.get(POOL_SIZE_ENV, "").strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= _POOL_SIZE_MAX:
        raise UsageError(
            f"{POOL_SIZE_ENV}={value[:40]!r} is not a number of connections from 1 to"
            f" {_POOL_SIZE_MAX:,}"
        )
    return int(value)


def add_store_args(p: argparse.ArgumentParser) -> None:
    """``--dsn`` and ``--home``: which store a command opens."""
    p.add_argument(
        "--dsn",
        type=dsn,
        default=None,
        help="PostgreSQL URI (default: RECALLFLOW_DSN, else the embedded server)",
    )
    p.add_argument(
        "--read-dsn",
        type=dsn,
        default=None,
        help="a streaming replica of the store that recalls read (default: RECALLFLOW_READ_DSN)",
    )
    p.add_argument("--home", default=None, help="embedded server home (RECALLFLOW_HOME)")


#: What ``--surface`` says in every command's help.
SURFACE_HELP = (
    "where the result is shown, which sets the sensitivity ceiling: direct (default; up to"
    " personal), team, public or vault"
)


def add_who_args(p: argparse.ArgumentParser) -> None:
    """``--tenant`` and ``--principal``, both required: whose memory a command reads or
    writes (an identifier each)."""
    p.add_argument("--tenant", required=True, type=key, help="the tenant whose memory it is")
    p.add_argument(
        "--principal",
        required=True,
        type=key,
        help="the principal (user or agent) within the tenant whose memory it is",
    )


def add_request_args(p: argparse.ArgumentParser) -> None:
    """Whose memory a read is of (:func:`add_who_args`), on which surface and at what world
    and system time: the flags every read of a principal's memory takes alike."""
    add_who_args(p)
    p.add_argument("--surface", default="direct", choices=SURFACES, help=SURFACE_HELP)
    p.add_argument(
        "--as-of", type=instant, default=None, help="world time, ISO 8601 with a timezone"
    )
    p.add_argument(
        "--known-as-of",
        type=instant,
        default=None,
        help="system time, ISO 8601 with a timezone (default: --as-of)",
    )


def add_json_arg(p: argparse.ArgumentParser) -> None:
    """``--json``: print the result as one JSON document instead of text."""
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def json_text(value: BaseModel) -> str:
    """``value`` as ``--json`` prints it: its JSON, with each sensitivity by its name
    (``personal``), as the text lines, the agent tools and the docs write it, not by the
    number it is stored as."""
    from recallflow.models.store import SENSITIVITY_NAMED

    return value.model_dump_json(indent=2, context=SENSITIVITY_NAMED)


def json_value(value: BaseModel) -> Any:
    """``value`` as :func:`json_text` writes it, for a document of several."""
    from recallflow.models.store import SENSITIVITY_NAMED

    return value.model_dump(mode="json", context=SENSITIVITY_NAMED)


def open_store(
    args: argparse.Namespace, *, operator: bool = False, serving: bool = False
) -> Memory:
    """The store a command's ``--dsn``/``--home`` name (else ``RECALLFLOW_DSN``, checked
    like ``--dsn``), with the embedder ``RECALLFLOW_EMBEDDER`` asks for and, for the
    embedded server, the ``RECALLFLOW_SHARED_BUFFERS`` it starts with and the home
    (``--home`` or ``RECALLFLOW_HOME``) it is in: a bad value of any is a usage error, not
    a traceback. Every command that opens a store opens it
    here, so each one judges the environment the same way.

    A command runs once and ends, so the injection scanner's rules are compiled at its
    first scan (:mod:`~recallflow.adapters.scanning.deferred`): a command that never scans
    does not wait for them. A ``serving`` command (the MCP server) compiles them at open,
    so that its first recall is as quick as the next."""
    from recallflow.adapters.embedders import embedder_choice

    try:
        embedder_choice()  # judged with the other variables; the model is loaded after them
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    store = args.dsn or env_dsn()
    pool_size = env_pool_size()
    # The replica recalls read: --read-dsn, else RECALLFLOW_READ_DSN (judged here like
    # RECALLFLOW_DSN, then read by open_memory itself, which names it in its errors).
    replica = getattr(args, "read_dsn", None)
    if replica is None:
        env_dsn("RECALLFLOW_READ_DSN")
    if store is not None and args.home is not None:
        # The home is the embedded server's; with a connection string it would be
        # dropped without a word, and the command would read another store than named.
        named = "--dsn" if args.dsn else "RECALLFLOW_DSN"
        raise UsageError(
            f"--home: {named} names an external server, so there is no embedded home to use;"
            f" give one of them"
        )
    if store is None:  # the embedded server, sized by RECALLFLOW_SHARED_BUFFERS
        from recallflow.adapters.postgres.embedded import default_home, home_path, shared_buffers
        from recallflow.errors import ConfigurationError

        try:
            shared_buffers()
            # A home that names no directory (``~user`` of no user, a loop of symlinks).
            if args.home is not None:
                home_path(args.home, "--home")
            else:
                default_home()
        except ConfigurationError as exc:
            raise UsageError(str(exc)) from None
    # Imported, and the model loaded, once the environment is judged: the store's modules
    # take about a second of CPU to import, which a bad variable need not wait for.
    from recallflow.adapters.embedders import default_embedder
    from recallflow.adapters.scanning.deferred import DeferredInjectionScanner
    from recallflow.errors import (
        ConfigurationError,
        ConnectionOptionError,
        HomeError,
        ReplicaMismatchError,
    )
    from recallflow.memory import open_memory

    embedder = default_embedder()
    scanner = None if serving else DeferredInjectionScanner()
    # open_memory's own default unless the variable sizes the pool.
    opened = open_memory if pool_size is None else partial(open_memory, pool_size=pool_size)
    try:
        return opened(
            store,
            args.home,
            embedder=embedder,
            operator=operator,
            read_dsn=replica,
            injection_scanner=scanner,
        )
    except ConnectionOptionError as exc:  # an option libpq judges only when connecting
        source = {"read_dsn": "--read-dsn", "RECALLFLOW_READ_DSN": exc.source}.get(exc.source)
        raise UsageError(
            f"{source or ('--dsn' if args.dsn else 'RECALLFLOW_DSN')}: {exc.detail}"
        ) from None
    except ReplicaMismatchError as exc:  # a runtime failure (exit 1), named by the flag
        if replica is None or not str(exc).startswith("read_dsn "):
            raise
        raise ReplicaMismatchError("--read-dsn" + str(exc)[len("read_dsn") :]) from None
    except HomeError as exc:  # still a runtime failure (exit 1), named as the flag
        if args.home is None:
            raise
        raise HomeError("--home", exc.detail) from exc.__cause__
    except ConfigurationError as exc:  # after its subclasses above, which it would catch
        # The server allows fewer connections than the pools need: named by the variable
        # that sizes them, which a command's user can set (open_memory's message names
        # its own argument, pool_size, which no command takes).
        if not str(exc).startswith("pool_size "):
            raise
        if pool_size is None:
            raise UsageError(
                f"{exc}; set {POOL_SIZE_ENV} to fewer connections (each command opens up to"
                " that many for recalls and half as many, at least 2, for writes)"
            ) from None
        raise UsageError(f"{POOL_SIZE_ENV}: {exc}") from None


def read_flag_file(flag: str, path: Path, load: Callable[[Path], T]) -> T:
    """``load(path)``, or a usage error naming the flag and the file when the file is not
    what the flag needs (unreadable, not JSON, not the expected shape), before any store
    is opened or anything measured."""
    from pydantic import ValidationError

    try:
        return load(path)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        raise UsageError(f"{flag}: {path}: {where + ': ' if where else ''}{first['msg']}") from None
    except RecursionError:  # valid JSON, nested deeper than Python's parser recurses
        raise UsageError(f"{flag}: {path}: nested too deeply to read") from None
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        detail = f"{type(exc).__name__} {exc}" if isinstance(exc, KeyError) else str(exc)
        raise UsageError(f"{flag}: {path}: {detail}") from None


def taken_id(args: argparse.Namespace) -> UsageError:
    """The refusal of an ``--id`` another belief of the principal already has: the id typed
    is at fault, not the statement the store compared first (``belief add``,
    ``supersede``)."""
    return UsageError(
        f"--id: {args.id!r} is already the id of another belief of "
        f"{args.tenant}/{args.principal}; give a new id, or leave --id out"
    )


def validated(model: type[M], data: Mapping[str, Any], flags: Mapping[str, str]) -> M:
    """``model`` built from ``data``, or a :class:`UsageError` naming the flag (from
    ``flags``: model field path → flag) whose value the model refuses."""
    from pydantic import ValidationError

    from recallflow.errors import validator_words
    from recallflow.ingestion import named_field

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        parts = [str(part) for part in first["loc"]]
        path = ".".join(parts)
        words = validator_words(first["msg"])
        # An entry of a repeatable flag is named by the flag (its index is dropped); a rule
        # over several fields (no path) by the flag of the first field its words name.
        field = path or named_field(model, words)
        named = _flag_of(field, flags) if field else None
        raise UsageError(f"{named or field or 'error'}: {words}") from None


def _flag_of(path: str, flags: Mapping[str, str]) -> str | None:
    """The flag of a field path (``flags``: field path → flag), by its longest prefix: a
    part of a value (``replacement.statement``, an entry of a repeatable flag) is named by
    the flag that gave the value."""
    parts = path.split(".")
    prefixes = (".".join(parts[:n]) for n in range(len(parts), 0, -1))
    return next((flags[p] for p in prefixes if p in flags), None)


def flag_error(exc: BaseException, flags: Mapping[str, str]) -> str | None:
    """A store's refusal of a field the command took from a flag (``flags``: the command's
    field → flag), said of that flag as the user typed it (``--replacement: ...``), not of
    the Python field (``field 'replacement'``); None for any other error. A missing id a
    flag named (``--belief``) is said so too."""
    from recallflow.errors import InvalidInputError, NotFoundError

    if not isinstance(exc, InvalidInputError | NotFoundError) or exc.field is None:
        return None
    flag = _flag_of(exc.field, flags)
    if flag is None:
        return None
    where = [] if exc.item_index is None else [f"item {exc.item_index}"]
    if exc.item_id is not None:
        where.append(f"id {exc.item_id!r}")
    return f"{flag}: {', '.join(where) + ': ' if where else ''}{exc.detail}"
