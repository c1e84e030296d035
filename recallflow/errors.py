"""The typed errors recallflow raises.

Every error a caller can act on is a subclass of :class:`RecallflowError`::

    RecallflowError
     ├── ConfigurationError          the store or its settings cannot be used as asked
     │    ├── MissingExtensionError  a required PostgreSQL extension is absent
     │    ├── ConnectionOptionError  the connection string has an option libpq refuses
     │    ├── ReplicaMismatchError   ``read_dsn`` is not a replica of the store: another
     │    │                          cluster or database, or a primary apart from it
     │    ├── HomeError              the embedded server's home cannot be made or used
     │    ├── MigrationError         a migration failed and was rolled back; the store is
     │    │    │                     left at the last one applied, and a retry resumes there
     │    │    ├── StoreTooNewError  the store was migrated by a later recallflow
     │    │    └── EarlierReleaseOpenError  processes of an earlier recallflow still have
     │    │                          the store open; stop them, then migrate
     │    ├── EmbedderMismatchError  the embedder differs from the one the store was built with
     │    ├── EmbedderUnavailableError  (also ImportError) the embedder's extra or package is
     │    │                          not installed (``recallflow.adapters.embedders``)
     │    └── UnsupportedEmbedderError  no store can use the embedder (too many dimensions,
     │                               vectors that are not unit length, at open or a write)
     ├── InvalidInputError           (also ValueError) bad input; names the field and the item
     │    ├── ConstraintViolation    the database refused a row; names the constraint's field
     │    ├── ConflictError          an id already stored with other content, or a write that
     │    │    │                     contradicts the belief's recorded history
     │    │    └── SupersessionCycleError  a supersession that would close a loop
     │    └── NotRenderedError       feedback naming a belief its trace did not render
     ├── NotFoundError               (also KeyError) an id that is not in the store
     ├── OperatorOnlyError           (also PermissionError) an operator view without the capability
     └── StoreUnavailableError       the store cannot be reached now; retry, nothing to reopen
          ├── StorageFullError       the server's disk is full; free space, then retry
          ├── ReplicaBehind          a replica connection had not replayed this handle's
          │                          writes in time; caught inside, the primary serves
          │                          (``recallflow.adapters.postgres.replicas``)
          └── WriteCancelledError    the server cancelled a write before it committed; retry
               └── ErasedMeanwhileError  an erasure finished while the call read; retry

Bad input never leaves the store half-written: every write that raises
:class:`InvalidInputError` has rolled back, so a caller can fix the input and retry.
"""

from __future__ import annotations

import re
from typing import TypeVar

#: pydantic's words for an identifier that does not match ``recallflow.models.fields.Key``'s
#: pattern (``KEY_PATTERN`` there), which shows the regular expression itself.
KEY_MISMATCH = "String should match pattern '^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$'"

#: The same rule in words, as every entry point says it in place of the expression.
NOT_AN_IDENTIFIER = (
    "is not an identifier: ASCII letters (a-z, A-Z), digits and . _ : @ / - only, starting"
    " with a letter or digit (no spaces, no accented letters), at most 200 characters"
)


def validator_words(message: str) -> str:
    """A pydantic validation message as its validator wrote it, without the "Value error, "
    pydantic puts in front: the message every entry point shows (an error's text, a tool's
    error detail, a CLI line). An identifier's pattern is said in words: a model or a
    person told only the expression had to read a regular expression to learn that a
    space is what was wrong."""
    if message == KEY_MISMATCH:
        return NOT_AN_IDENTIFIER
    return message.removeprefix("Value error, ")


class RecallflowError(Exception):
    """The root of every error recallflow raises on purpose."""


class ConfigurationError(RecallflowError):
    """The store, a server, or a setting cannot be used as asked."""


class ReplicaMismatchError(ConfigurationError):
    """The server at ``read_dsn`` is not a streaming replica of the store at ``dsn``:
    another cluster (its system identifier differs), another database of the primary's
    cluster, or a server of the store that is not in recovery and is not the primary
    itself (a replica promoted apart from it). Its recalls would read another store's
    data, or miss the primary's writes."""


class ConnectionOptionError(ConfigurationError):
    """A connection string parses, but libpq refuses the value of one of its options
    (``sslmode=bogus``); libpq says so only when asked to connect. ``source`` is where the
    string came from, ``detail`` what libpq refused."""

    def __init__(self, source: str, detail: str) -> None:
        self.source = source
        self.detail = detail
        super().__init__(f"{source}: {detail}")


class HomeError(ConfigurationError):
    """The embedded server's home cannot be made or used (a directory this user may not
    write, one the server's service user cannot reach). ``source`` is where the home came
    from (``home``, ``RECALLFLOW_HOME``, a command's ``--home``), ``detail`` what is wrong."""

    def __init__(self, source: str, detail: str) -> None:
        self.source = source
        self.detail = detail
        super().__init__(f"{source}: {detail}")


class MigrationError(ConfigurationError):
    """A migration failed: its transaction rolled back, so the store stands at the last
    migration applied (``store_version``), whole, and opening it again retries from there."""

    def __init__(self, message: str, *, store_version: int, code_version: int) -> None:
        self.store_version = store_version
        self.code_version = code_version
        super().__init__(message)


class StoreTooNewError(MigrationError):
    """The store records migrations this release does not have: a later recallflow wrote
    it, and this one would read its rows without knowing what they mean. Nothing is
    written; open it with that release or a later one."""

    def __init__(self, *, store_version: int, code_version: int, unknown: list[str]) -> None:
        super().__init__(
            f"this store is at schema version {store_version} ({', '.join(unknown)} not known"
            f" here), but this recallflow knows versions up to {code_version}: a later"
            " release migrated it. Open it with that release or a later one; nothing was"
            " written.",
            store_version=store_version,
            code_version=code_version,
        )
        self.unknown = unknown


class EarlierReleaseOpenError(MigrationError):
    """The store has migrations to apply, but processes of an earlier recallflow have
    connections open on it: migrated under them, they would go on running statements
    written for the old schema (failing, or writing what the new one reads otherwise).
    Nothing is applied; stop those processes, then open the store again.

    ``connections`` counts the open connections by the schema version their code knows
    (what their ``application_name``, ``recallflow/<N>``, says)."""

    def __init__(
        self, connections: dict[int, int], *, store_version: int, code_version: int
    ) -> None:
        self.connections = dict(sorted(connections.items()))
        total = sum(self.connections.values())
        which = ", ".join(
            f"{count} of schema version {version}" for version, count in self.connections.items()
        )
        super().__init__(
            f"{total} connection{'s' if total != 1 else ''} of an earlier recallflow"
            f" ({which}) {'are' if total != 1 else 'is'} open on this store, which is at"
            f" schema version {store_version} and would be migrated to {code_version}:"
            " stop those processes first (their application_name in pg_stat_activity is"
            " recallflow/<version>), then open the store again; nothing was applied.",
            store_version=store_version,
            code_version=code_version,
        )


class MissingExtensionError(ConfigurationError):
    """A PostgreSQL extension recallflow needs is not installed and cannot be created."""

    def __init__(self, extension: str, detail: str) -> None:
        self.extension = extension
        self.detail = detail
        super().__init__(
            f"PostgreSQL extension {extension!r} is required but not available: {detail}. "
            f"Install it on the server and run `CREATE EXTENSION {extension};` as a superuser, "
            "or open the embedded server instead (no dsn, --dsn or RECALLFLOW_DSN), which"
            " ships it."
        )


class EmbedderMismatchError(ConfigurationError):
    """The embedder differs from the one whose vectors the store already holds."""

    def __init__(
        self,
        *,
        stored_name: str,
        stored_dimension: int,
        name: str,
        dimension: int,
        cosine: float | None = None,
        stored_setting: str | None = None,
    ):
        self.stored_name = stored_name
        self.stored_dimension = stored_dimension
        self.cosine = cosine
        if cosine is not None:  # the same name, another model
            super().__init__(
                f"this store holds embeddings from {stored_name!r}, but {name!r} now embeds"
                " the store's calibration sentences differently (cosine"
                f" {cosine:.3f} with the vectors it made then): the model changed and its"
                " name did not, and vectors from two models cannot be compared. Give the new"
                " model a name of its own and a new RECALLFLOW_HOME / database, or open this"
                " store with the model that made it."
            )
            return
        same = (
            f"RECALLFLOW_EMBEDDER={stored_setting}, which made it,"
            if stored_setting
            else "the same embedder (RECALLFLOW_EMBEDDER)"
        )
        super().__init__(
            f"this store holds embeddings from {stored_name!r} ({stored_dimension} dimensions) "
            f"but was opened with {name!r} ({dimension} dimensions); vectors from two models "
            f"cannot be compared. Open it with {same} or use a new RECALLFLOW_HOME / database."
        )


class UnsupportedEmbedderError(ConfigurationError):
    """No store can use the embedder as it is: more dimensions than the vector index
    takes, or vectors that break the Embedder port's contract (rows of the wrong shape,
    not finite, not unit length)."""

    def __init__(self, name: str, problem: str) -> None:
        self.name = name
        self.problem = problem
        super().__init__(f"embedder {name!r} cannot be used: {problem}")


def _where(field: str | None, item_index: int | None, item_id: str | None) -> str:
    """What an error is about, as its message leads with it: ``item 2, id 'b-1', field
    'supersedes'`` (empty when it names none)."""
    where = []
    if item_index is not None:
        where.append(f"item {item_index}")
    if item_id is not None:
        where.append(f"id {item_id!r}")
    if field is not None:
        where.append(f"field {field!r}")
    return ", ".join(where)


class InvalidInputError(RecallflowError, ValueError):
    """Input that cannot be stored or used; names the field and, in a batch, the item."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        item_index: int | None = None,
        item_id: str | None = None,
    ) -> None:
        self.field = field
        self.item_index = item_index
        self.item_id = item_id
        message = validator_words(message)
        #: What is wrong, without the item and field it is about.
        self.detail = message
        prefix = _where(field, item_index, item_id)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class ConstraintViolation(InvalidInputError):
    """The database refused a row: a check, uniqueness or reference constraint failed."""

    def __init__(
        self,
        message: str,
        *,
        constraint: str | None,
        field: str | None = None,
        item_index: int | None = None,
        item_id: str | None = None,
    ) -> None:
        self.constraint = constraint
        super().__init__(message, field=field, item_index=item_index, item_id=item_id)


class ConflictError(InvalidInputError):
    """A write that contradicts what is stored: the id exists with other content, or the
    belief's history forbids it (e.g. it is already superseded by another belief)."""


class SupersessionCycleError(ConflictError):
    """A supersession that would make a belief (indirectly) supersede itself."""

    def __init__(
        self,
        cycle: tuple[str, ...],
        *,
        field: str = "supersedes",
        item_index: int | None = None,
        item_id: str | None = None,
    ) -> None:
        self.cycle = cycle
        super().__init__(
            "supersession cycle " + " -> ".join(cycle),
            field=field,
            item_index=item_index,
            item_id=cycle[0] if item_id is None else item_id,
        )


class NotRenderedError(InvalidInputError):
    """Feedback (a citation or a rejection) naming a belief its trace did not render. The
    same whether the belief exists or not, so the refusal tells nothing of what else the
    principal holds. A session's turn never repeats its cached prefix, so a belief the
    model read there is named by the session's snapshot trace, which the message says. A
    belief forgotten since is out of every trace, so it is refused alike, and the message
    says that too: a model citing a prefix belief a later turn told it was forgotten was
    told only to use the snapshot trace, which it had."""

    def __init__(self, trace_id: str, belief_id: str) -> None:
        super().__init__(
            f"was not rendered in trace {trace_id!r}, or was forgotten since; feedback names"
            " what the model saw (a belief of a session's prefix is named by the session's"
            " snapshot_trace_id)",
            field="belief_id",
            item_id=belief_id,
        )


class NotFoundError(RecallflowError, KeyError):
    """An id that is not in the store for this tenant and principal. Named by an item of
    a batch (a supersession link to a belief the principal does not have), it names that
    item and field as :class:`InvalidInputError` does."""

    def __init__(
        self,
        *args: object,
        field: str | None = None,
        item_index: int | None = None,
        item_id: str | None = None,
    ) -> None:
        self.field = field
        self.item_index = item_index
        self.item_id = item_id
        #: What is missing, without the item and field that named it.
        self.detail = str(args[0]) if args else "not found"
        prefix = _where(field, item_index, item_id)
        if prefix and args:
            args = (f"{prefix}: {args[0]}", *args[1:])
        super().__init__(*args)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "not found"


_Item = TypeVar("_Item", InvalidInputError, NotFoundError)


def of_one_item(exc: _Item, field: str | None, item_id: str | None) -> _Item:
    """``exc``, raised for the one item of the batch a call that takes one item (a
    supersession's draft, a restatement, a replacement) wrote through, as that call's own
    error: the same class, attributes and detail, about ``field`` of ``item_id``, without
    the batch position ("item 0") the caller never wrote. Built without running the
    class's constructor, whose arguments differ by class (a cycle's, a constraint's)."""
    prefix = _where(field, None, item_id)
    one = type(exc).__new__(type(exc), f"{prefix}: {exc.detail}" if prefix else exc.detail)
    one.__dict__.update(exc.__dict__)
    one.field, one.item_index, one.item_id = field, None, item_id
    return one


class StoreUnavailableError(RecallflowError):
    """The store cannot be reached right now: the server is down, restarting, or refusing
    connections. Raised after a bounded wait (``connect_timeout`` of ``open_memory``).

    The open :class:`~recallflow.memory.Memory` stays usable: it reconnects by itself (and
    restarts a crashed embedded server), so the caller retries the same call later.
    A write that raised this may or may not have been committed only when the connection
    was lost during the commit itself; a write that failed to get a connection was not
    attempted.
    """

    def __init__(self, detail: str, *, hint: str | None = None) -> None:
        self.detail = detail
        super().__init__(
            f"the store is unavailable: {detail}. "
            + (
                hint
                or "Retry in a few seconds; this Memory reconnects by itself once the server "
                "is back (no need to reopen it)."
            )
        )


class StorageFullError(StoreUnavailableError):
    """The database server has no disk space left; nothing of the refused write is kept."""

    def __init__(self, detail: str, *, hint: str | None = None) -> None:
        super().__init__(
            detail,
            hint=hint
            or "Free disk space on the server's data volume, then retry; this Memory stays "
            "open and works again once there is space.",
        )


class WriteCancelledError(StoreUnavailableError):
    """The server cancelled a write before it committed: a statement or lock timeout set on
    the server, an operator's cancel, a deadlock or a serialization failure. The write's
    transaction rolled back, so nothing of it was written, and the same call can be retried
    as it is (a write is all or nothing, and a repeat of a stored write is a no-op)."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            detail,
            hint="The server cancelled the write before it committed, so nothing of it was "
            "written; retry the same call.",
        )


class ErasedMeanwhileError(WriteCancelledError):
    """An erasure of the principal finished while this call read the store: what it read
    may be what was erased, so nothing of it was stored (an erasure already committed
    would never remove it). Retry the same call: it reads the store as the erasure left it."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        RecallflowError.__init__(
            self,
            f"{detail}; an erasure of the principal finished while it read the store, so"
            " nothing of it was stored: retry the same call",
        )


#: The prefix of an archival search's trace id: that trace is returned, never stored.
EPISODE_TRACE_PREFIX = "te-"


def trace_not_found(trace_id: str, tenant_id: str, principal_id: str) -> NotFoundError:
    """The refusal of a trace id this principal has no stored trace of. An archival
    search's trace id says more: its trace is returned with the search and never stored, so
    no trace reader will ever find it (the id's shape tells nothing of what is stored).
    Named by ``trace_id``, the argument every trace reader and feedback call takes."""
    message = f"no trace {trace_id!r} for {tenant_id}/{principal_id}"
    if trace_id.startswith(EPISODE_TRACE_PREFIX):
        message += "; an archival search's trace is part of its result and is never stored"
    return NotFoundError(message, field="trace_id")


def session_not_found(
    session_id: str, tenant_id: str, principal_id: str, why: str = ""
) -> NotFoundError:
    """The refusal of a session id this principal has no stored session of (another
    principal's reads the same), named by ``session_id``, the argument every session call
    takes; ``why`` says more where the caller knows it."""
    return NotFoundError(
        f"no session {session_id!r} for {tenant_id}/{principal_id}{why}", field="session_id"
    )


def episode_not_found(
    episode_id: str, tenant_id: str, principal_id: str, *, field: str = "episode_id"
) -> NotFoundError:
    """The refusal of an episode id this principal has no episode of (another principal's
    reads the same), named by the argument that gave it (``episode_id``, or a
    corroboration's ``evidence``)."""
    return NotFoundError(f"no episode {episode_id!r} for {tenant_id}/{principal_id}", field=field)


class OperatorOnlyError(RecallflowError, PermissionError):
    """The operator view of a trace (scores, latencies, candidates, lineage) was asked of a
    handle opened without ``open_memory(..., operator=True)``; users get
    :meth:`~recallflow.memory.Memory.explain`."""


_URI_PASSWORD = re.compile(r"(postgres(?:ql)?://[^/@\s:]*):[^@\s]*@")
# ``sslpassword`` (the passphrase of the client's key) is as secret as ``password``.
_PARAM_PASSWORD = re.compile(r"([?&](?:ssl)?password=)[^&\s\"]*")
_KEYWORD_PASSWORD = re.compile(r"(?<![?&\w])((?:ssl)?password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s\"]+)")


def without_password(text: str) -> str:
    """``text`` (a connection string, or a message quoting one) with every password in it
    masked as ``***``, in the URI form (``postgresql://user:secret@host``, ``?password=``)
    and the keyword form (``password=secret``), the client key's ``sslpassword`` too: an
    error message ends up on a terminal, in a CI log or in a host's log, and must not carry
    the credentials it was given."""
    text = _URI_PASSWORD.sub(r"\1:***@", text)
    text = _PARAM_PASSWORD.sub(r"\1***", text)
    return _KEYWORD_PASSWORD.sub(r"\1***", text)
