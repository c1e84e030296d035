"""Ingestion: the surface a formation process uses to put memory in.

``Memory.beliefs``, ``Memory.episodes`` and ``Memory.edges`` validate every item before
anything is written, name the item and field of the first bad one, compute missing
embeddings with the store's :class:`~recallflow.ports.Embedder`, and hand whole batches
to the store ports, which write all or nothing: a half-written batch would leave beliefs
whose supersession or conflict peers are missing.
"""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import Any, Literal, NoReturn, Protocol, TypeVar

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, TypeAdapter, ValidationError

from recallflow.adapters.progress import shows_progress, tqdm_bar
from recallflow.core.calibration import off_unit, row_lengths, shape_problem, vector_problem
from recallflow.core.episodes import window_start
from recallflow.core.lifecycle import edge_key
from recallflow.errors import (
    InvalidInputError,
    NotFoundError,
    UnsupportedEmbedderError,
    of_one_item,
    validator_words,
)
from recallflow.models.fields import utc_instant
from recallflow.models.history import BeliefHistory
from recallflow.models.request import Moment, Surface
from recallflow.models.stages import EpisodeFilter, HardFilter
from recallflow.models.store import (
    Belief,
    BeliefDraft,
    BeliefEdge,
    BeliefType,
    EdgeRelation,
    Episode,
    EpisodeDraft,
    EpisodeKind,
    Key,
    normalise_subject,
)
from recallflow.policy import DEFAULT_POLICY, SURFACE_CEILINGS, RetrievalPolicy
from recallflow.ports import BeliefStore, Embedder, EpisodeStore, answer

_log = logging.getLogger(__name__)

#: How many statements are embedded per call to the embedder.
EMBED_BATCH = 256
#: A batch at least this large shows a progress bar (on a terminal, outside
#: :func:`recallflow.adapters.progress.quiet`), of beliefs or episodes alike.
PROGRESS_MIN = 2_000

M = TypeVar("M", bound=BaseModel)


def new_id(prefix: str) -> str:
    """A fresh citable id such as ``b-3f9a0c1d2e4b5a6c``."""
    return f"{prefix}-{secrets.token_hex(_ID_BYTES)}"


_ID_BYTES = 8
_GENERATED = re.compile(rf"[a-z]+-[0-9a-f]{{{2 * _ID_BYTES}}}")


def generated_ids(prefix: str) -> re.Pattern[str]:
    """The ids :func:`new_id` makes with ``prefix``, wherever they stand in a text."""
    return re.compile(rf"(?<![\w-]){re.escape(prefix)}-[0-9a-f]{{{2 * _ID_BYTES}}}(?![\w-])")


def may_be_generated(prefix: str, value: str) -> bool:
    """Whether ``value`` has the shape of an id :func:`new_id` makes with ``prefix`` (an id
    of another shape was never generated with it)."""
    return value.startswith(f"{prefix}-") and _GENERATED.fullmatch(value) is not None


def validated_items(
    model: type[M],
    items: Iterable[M | Mapping[str, Any]],
    *,
    checked_later: bool = False,
    field: str = "drafts",
) -> list[M]:
    """``items`` as ``model``'s, or an :class:`InvalidInputError` naming the first bad item
    and its field; ``items`` that are no list at all are refused naming ``field``, the
    argument they were given as. An instance of ``model`` is checked as its dict is, unless
    the caller validates every item again (``checked_later``): pydantic's
    ``model_copy(update=...)`` and ``model_construct`` check nothing, and an episode edited
    with them reached the store's writer as pydantic's own error or a ``TypeError``."""
    if isinstance(items, str | bytes | Mapping | BaseModel) or not isinstance(items, Iterable):
        raise InvalidInputError(
            f"must be a list of {model.__name__} items or mappings, got {type(items).__name__}",
            field=field,
        )
    out: list[M] = []
    for index, item in enumerate(items):
        if isinstance(item, model):
            if checked_later:
                out.append(item)
                continue
            item = item.model_dump(warnings=False)
        elif not isinstance(item, Mapping):
            # pydantic's refusal of the whole item has no field to name ("Input should be a
            # valid dictionary"): the item is named as an entry of the argument.
            article = "an" if model.__name__[0] in "AEIOU" else "a"
            raise InvalidInputError(
                f"must be {article} {model.__name__} or a mapping of its fields, got"
                f" {type(item).__name__}",
                field=field,
                item_index=index,
            )
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            named = ".".join(str(part) for part in first["loc"]) or named_field(model, first["msg"])
            item_id = item.get("id") if isinstance(item, Mapping) else None
            raise InvalidInputError(
                first["msg"],
                field=named,
                item_index=index,
                item_id=item_id if isinstance(item_id, str) else None,
            ) from exc
    return out


@contextlib.contextmanager
def _one_draft(argument: str, *, batch: str = "drafts") -> Iterator[None]:
    """A call that takes one draft and writes it as a batch of one: an item that is no
    draft at all is refused naming the call's own argument (``draft``), not the batch's."""
    try:
        yield
    except InvalidInputError as exc:
        if exc.field != batch or exc.item_index != 0:
            raise
        raise of_one_item(exc, argument, None) from exc


def named_field(model: type[BaseModel], message: str) -> str | None:
    """The first field of ``model`` a whole-model check's message names (such a check,
    e.g. valid_from before valid_to, has no single location of its own)."""
    words = re.findall(r"[a-z_]+", message)
    return next((w for w in words if w in model.model_fields), None)


_KEY = TypeAdapter(Key)


_E = TypeVar("_E", bound=Enum)


def member_of(kind: type[_E], value: object, field: str, what: str) -> _E:
    """``value`` as a member of ``kind``, or an :class:`InvalidInputError` naming
    ``field`` and every member (``what`` names the kind in the message)."""
    names = ", ".join(str(m.value) for m in kind)
    try:
        return kind(value)
    except ValueError:
        raise InvalidInputError(
            f"unknown {what} {value!r}; use one of {names}", field=field
        ) from None
    except Exception as exc:  # the caller's __hash__ or __eq__ raised
        raise InvalidInputError(
            f"a {type(value).__name__} whose look-up raised {type(exc).__name__} is no {what};"
            f" use one of {names}",
            field=field,
        ) from None


#: Reads a time given as text exactly as a draft's time field reads it.
_INSTANT_TEXT = TypeAdapter(datetime)


def aware_instant(value: object, field: str) -> datetime:
    """An aware datetime argument in UTC, or ISO 8601 text with a time zone read as a
    draft's time field reads it (``"2026-01-31T09:00:00Z"``: the form every draft and
    request takes, so a time written for one works here too); a naive one, or anything
    else, refused by name (a naive time would mean the database session's zone)."""
    if isinstance(value, str):
        try:
            value = _INSTANT_TEXT.validate_python(value.strip())
        except ValidationError as exc:
            raise InvalidInputError(
                f"{validator_words(exc.errors()[0]['msg'])}: give ISO 8601 with a time zone,"
                " e.g. 2026-01-31T09:00:00Z, or a timezone-aware datetime",
                field=field,
            ) from None
    if not isinstance(value, datetime):
        raise InvalidInputError(
            "must be a timezone-aware datetime or ISO 8601 text with a time zone"
            " (e.g. 2026-01-31T09:00:00Z)",
            field=field,
        )
    try:
        return utc_instant(value)
    except ValueError as exc:
        raise InvalidInputError(str(exc), field=field) from None


#: How many items one page of a paged read (``beliefs.held``, ``episodes.logged``,
#: ``edges.of``) holds when ``limit`` is not given, and the most it may hold.
PAGE_DEFAULT = 100
PAGE_MAX = 1000


def page_limit(limit: object) -> None:
    """Refuse a paged read's ``limit`` that is not a whole number from 1 to
    :data:`PAGE_MAX` (an :class:`InvalidInputError` on ``limit``)."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= PAGE_MAX:
        raise InvalidInputError(
            f"must be a whole number from 1 to {PAGE_MAX}, got {limit!r}", field="limit"
        )


def key_of(value: object, field: str) -> str:
    """``value`` as an id, or an :class:`InvalidInputError` naming ``field``."""
    try:
        return _KEY.validate_python(value)
    except ValidationError as exc:
        raise InvalidInputError(exc.errors()[0]["msg"], field=field) from exc


#: What each time a write checks against the clock says, and what it would do ahead of it.
_AHEAD_MEANS: dict[str, str] = {
    "recorded_at": "system time, when the store learned of the {kind}, and no read would"
    " see the {kind} until then; give it with its time zone, or leave it out (now)",
    "retracted_at": "system time, when the store stopped asserting the {kind}, and every"
    " read would still recall the {kind} until then; give it with its time zone, or"
    " retract the {kind} now (retract)",
    "occurred_at": "when the {kind} happened, which cannot be later than now, and no"
    " search would find the {kind} until then; give it with its time zone",
    "at": "when the {kind} ended: the first end stands, and one ahead would keep the"
    " {kind} open, and its user views, until then; end it when it ends",
}


def not_ahead(
    at: datetime | None,
    now: datetime,
    policy: RetrievalPolicy,
    *,
    field: str,
    kind: str,
    index: int | None = None,
    item_id: str | None = None,
) -> None:
    """Refuse a time that cannot lie ahead of the clock (when the store learned of an item
    or stopped asserting it, when an episode happened) later than ``now`` by more than the
    allowed clock skew: a wrong clock or time zone would otherwise hide an item from every
    read until then, or keep a retracted belief in every read until then, silently.
    ``now`` is this process's clock, the one a write's default ``recorded_at`` and a
    recall's default ``as_of`` read (an import holds its times to the store's instead)."""
    allowance = timedelta(seconds=policy.writes.clock_skew_seconds)
    if at is not None and at > now + allowance:
        raise InvalidInputError(
            f"{at.isoformat()} is later than this process's clock ({now.isoformat()}) by more"
            f" than writes.clock_skew_seconds ({policy.writes.clock_skew_seconds:g}): it is "
            + _AHEAD_MEANS[field].format(kind=kind),
            field=field,
            item_index=index,
            item_id=item_id,
        )


def _write_policy(policy: object) -> RetrievalPolicy:
    if not isinstance(policy, RetrievalPolicy):
        raise InvalidInputError(
            f"must be a RetrievalPolicy, got {type(policy).__name__}", field="policy"
        )
    return policy


class _Bar(Protocol):
    def update(self, n: int) -> None: ...


@contextlib.contextmanager
def _progress(total: int, unit: str) -> Iterator[_Bar | None]:
    """A progress bar of the ``unit`` (``belief``, ``episode``) rows embedded and written,
    for a large batch written from a terminal outside a quiet block."""
    stream = sys.stderr
    if total < PROGRESS_MIN or not shows_progress(stream):
        yield None
        return
    with tqdm_bar(total=total, unit=unit, desc=f"{unit}s", file=stream, leave=False) as bar:
        yield bar


def _unique_ids(keys: Sequence[tuple[str, str, str]], kind: str) -> None:
    """Refuse a batch naming one (tenant, principal, id) twice: the key a stored row has,
    so a batch is refused exactly when the same items added one by one would collide."""
    seen: dict[tuple[str, str, str], int] = {}
    for index, key in enumerate(keys):
        if key in seen:
            raise InvalidInputError(
                f"duplicate {kind} id in the batch for this tenant and principal"
                f" (also item {seen[key]})",
                field="id",
                item_index=index,
                item_id=key[2],
            )
        seen[key] = index


def embedded(
    embedder: Embedder, texts: list[str], row_name: Callable[[int], str], what: str
) -> npt.NDArray[np.float32]:
    """``embedder``'s vectors of ``texts`` (statements or episodes' contents, the text at
    index ``i`` being what ``row_name(i)`` names), checked against the Embedder port's
    contract before any is written: a row of length 0 stored would have no cosine with any
    query (every similarity read against it is not a number), and a row of another length
    would shift the floor's dot products. The store opened only after the calibration's
    rows passed the same check, but a model can still break it on one input.

    Raises:
        UnsupportedEmbedderError: a row is of the wrong shape, not finite or not unit
            length, naming the item whose text it embeds; or the model raised, naming
            ``what`` it was embedding (the batch's items).
    """
    vectors = answer(embedder, "embed()", embedder.embed, texts, what)
    problem = vector_problem(vectors, len(texts), embedder.dimension, row_name=row_name)
    if problem is not None:
        raise UnsupportedEmbedderError(embedder.name, problem)
    return np.asarray(vectors, dtype=np.float32)


def embedded_in_batches(
    embedder: Embedder,
    texts: Sequence[str],
    ids: Sequence[str],
    names: tuple[str, str],
    on_rows: Callable[[int], None] | None = None,
) -> npt.NDArray[np.float32]:
    """``texts``' vectors, each checked (:func:`embedded`), ``EMBED_BATCH`` at a time; a
    row is named by ``names[0]`` and its id, a batch by ``names[1]`` and its first and
    last ids. ``on_rows`` is told each batch's size once it is embedded (progress: the
    embedding is most of a large batch's time, the write one COPY)."""
    row, batch_of = names
    out = np.zeros((len(texts), embedder.dimension), dtype=np.float32)
    for start in range(0, len(texts), EMBED_BATCH):
        batch = ids[start : start + EMBED_BATCH]
        out[start : start + EMBED_BATCH] = embedded(
            embedder,
            list(texts[start : start + EMBED_BATCH]),
            _named(row, batch),
            _span(batch_of, [repr(i) for i in batch]),
        )
        if on_rows is not None:
            on_rows(len(batch))
    return out


def _named(what: str, ids: Sequence[str]) -> Callable[[int], str]:
    """Names row ``i`` of a batch as ``what`` of ``ids[i]``."""
    return lambda row: f"{what} {ids[row]!r}"


def _span(what: str, names: Sequence[object]) -> str:
    """A batch of rows named ``names`` (in order), as ``what`` of the first to the last."""
    if len(names) == 1:
        return f"{what} {names[0]}"
    return f"{what} {names[0]} to {names[-1]}"


class StreamedVectors:
    """The vectors of a batch, embedded while the batch is written: a bulk write used to
        embed every statement first and only then COPY the rows, so the model and the
        database took turns. The store reads one row's vector at a time; a chunk of statements
        is embedded when the writer first reaches it, and the next chunk ahead in a worker
        thread (the model releases the GIL), so the server indexes chunk *k* while the model
        embeds chunk *k + 1*. A row the writer never reaches (a belief already stored) is never
        embedded.

    Vectors of ``statements``: given ones as they are, the others embedded a chunk at a
        time on first access, one chunk ahead.

        :param given: shape ``(n, dimension)``; the rows in ``missing`` are filled in here.
        :param missing: indexes of the rows to embed, ascending.
        :param on_rows: called with the number of rows the writer has newly reached (progress).
    """

    def __init__(
        self,
        embedder: Embedder,
        statements: Sequence[str],
        given: npt.NDArray[np.float32],
        missing: Sequence[int],
        chunk: int,
        on_rows: Callable[[int], None] | None = None,
    ) -> None:
        self._embedder = embedder
        self._statements = statements
        self._out = given
        self._chunk = max(1, chunk)
        # Chunk c covers the missing rows missing[c * chunk : (c + 1) * chunk].
        self._chunks = [list(missing[i : i + self._chunk]) for i in range(0, len(missing), chunk)]
        self._chunk_of = {row: c for c, rows in enumerate(self._chunks) for row in rows}
        self._done: set[int] = set()
        self._ahead: dict[int, Future[npt.NDArray[np.float32]]] = {}
        self._worker: ThreadPoolExecutor | None = None
        self._on_rows = on_rows
        self._reached = 0

    def __len__(self) -> int:
        return len(self._out)

    def __getitem__(self, index: int, /) -> npt.NDArray[np.float32]:
        chunk = self._chunk_of.get(index)
        if chunk is not None and chunk not in self._done:
            self._fill(chunk)
        if self._on_rows is not None and index >= self._reached:
            self._on_rows(index + 1 - self._reached)
            self._reached = index + 1
        row: npt.NDArray[np.float32] = self._out[index]
        return row

    def _embed(self, chunk: int) -> npt.NDArray[np.float32]:
        items = self._chunks[chunk]
        return embedded(
            self._embedder,
            [self._statements[i] for i in items],
            lambda row: f"the statement of item {items[row]}",
            _span("the statements of items", items),
        )

    def _fill(self, chunk: int) -> None:
        pending = self._ahead.pop(chunk, None)
        vectors = pending.result() if pending is not None else self._embed(chunk)
        self._out[self._chunks[chunk]] = vectors
        self._done.add(chunk)
        following = chunk + 1
        if following < len(self._chunks) and following not in self._ahead:
            if self._worker is None:
                self._worker = ThreadPoolExecutor(1, thread_name_prefix="recallflow-embed")
            self._ahead[following] = self._worker.submit(self._embed, following)

    def close(self) -> None:
        """Stop the worker (an unused chunk embedded ahead is dropped)."""
        for pending in self._ahead.values():
            pending.cancel()
        self._ahead.clear()
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None

    def array(self) -> npt.NDArray[np.float32]:
        """Every row, embedding whatever was not reached yet."""
        for chunk in range(len(self._chunks)):
            if chunk not in self._done:
                self._fill(chunk)
        self.close()
        return self._out


class Beliefs:
    """``Memory.beliefs``: add beliefs (one or in bulk) and read them back by id."""

    def __init__(self, store: BeliefStore, embedder: Embedder) -> None:
        self._store = store
        self._embedder = embedder

    def add(
        self, draft: BeliefDraft | Mapping[str, Any], *, policy: RetrievalPolicy = DEFAULT_POLICY
    ) -> Belief:
        """Store one belief; returns it as stored (with its id and ``recorded_at``)."""
        with _one_draft("draft"):
            return self.add_many([draft], policy=policy)[0]

    def add_many(
        self,
        drafts: Iterable[BeliefDraft | Mapping[str, Any]],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> list[Belief]:
        """Store a batch in one transaction: all of it, or (on any bad item) none of it.

        A ``recorded_at`` or ``retracted_at`` (system time) later than this process's clock
        by more than ``policy.writes.clock_skew_seconds`` is refused with an
        :class:`~recallflow.errors.InvalidInputError` naming the item and field: no recall
        would see the belief until then, or every recall would still see a retracted one.
        A ``valid_from`` or ``valid_to`` ahead (world time) is kept.

        Idempotent: re-adding a stored id with the same content is a no-op that returns the
        stored belief; with other content it raises :class:`~recallflow.errors.ConflictError`.
        A belief that names ``supersedes`` makes its predecessor ``superseded`` in the same
        transaction (see "Lifecycle and history" in docs/architecture.md).
        """
        beliefs, valid = self._beliefs(drafts, policy)
        with _progress(len(beliefs), "belief") as bar:
            vectors = self._vectors(valid, on_rows=bar.update if bar is not None else None)
            try:
                return self._store.write_beliefs(beliefs, vectors)
            finally:
                vectors.close()

    def supersede(
        self,
        old_id: str,
        new_belief: BeliefDraft | Mapping[str, Any],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Belief:
        """Store ``new_belief`` as the successor of ``old_id`` (a change of content is never
        an edit): the old belief becomes ``superseded`` and is live until the new one's
        ``valid_from`` (its own ``valid_to``, the end of its truth, stays as it was; see
        "History: lifecycle state at `as_of`" in docs/recall.md). Raises
        :class:`~recallflow.errors.NotFoundError` for an unknown ``old_id`` and
        :class:`~recallflow.errors.ConflictError` when it is already superseded by another
        belief or the supersession would close a cycle.

        A refusal of the draft names its field (and id) without a batch position: the
        call takes one draft, not a batch with an "item 0"."""
        try:
            draft = validated_items(BeliefDraft, [new_belief], field="new_belief")[0]
            if draft.supersedes is not None and draft.supersedes != old_id:
                raise InvalidInputError(
                    f"names {draft.supersedes!r}, not {old_id!r}",
                    field="supersedes",
                    item_id=draft.id,
                )
            old = key_of(old_id, "old_id")
            if draft.id == old:
                # Named as the field the caller wrote: the belief's own check named none.
                raise InvalidInputError(
                    "is the id of the belief it supersedes; a successor is a new belief,"
                    " under an id of its own",
                    field="id",
                    item_id=draft.id,
                )
            return self.add(draft.model_copy(update={"supersedes": old}), policy=policy)
        except NotFoundError as exc:
            if exc.item_index is None:
                raise
            if exc.field == "supersedes":
                # The link is this call's own argument, not a field the caller wrote.
                raise of_one_item(exc, "old_id", None) from exc
            raise of_one_item(exc, exc.field, exc.item_id) from exc
        except InvalidInputError as exc:
            if exc.item_index is None:
                raise
            raise of_one_item(exc, exc.field, exc.item_id) from exc

    def prepare(
        self,
        drafts: Iterable[BeliefDraft | Mapping[str, Any]],
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> tuple[list[Belief], npt.NDArray[np.float32]]:
        """Validate ``drafts`` into beliefs (ids and ``recorded_at`` filled in) and their
        embeddings, without writing anything."""
        beliefs, valid = self._beliefs(drafts, policy)
        return beliefs, self._vectors(valid).array()

    def _beliefs(
        self, drafts: Iterable[BeliefDraft | Mapping[str, Any]], policy: RetrievalPolicy
    ) -> tuple[list[Belief], list[BeliefDraft]]:
        policy = _write_policy(policy)
        # Each draft is validated again as a belief below, an instance too (one edited
        # with model_copy, which checks nothing, included).
        valid = validated_items(BeliefDraft, drafts, checked_later=True)
        now = datetime.now(UTC)
        beliefs: list[Belief] = []
        for index, draft in enumerate(valid):
            # The draft's own values (what model_dump gives for its flat fields, without
            # serializing each), validated once more as a belief below.
            data = dict(draft.__dict__)
            del data["embedding"]
            data["id"] = draft.id or new_id("b")
            data["recorded_at"] = draft.recorded_at or now
            try:
                belief = Belief.model_validate(data)
            except ValidationError as exc:
                first = exc.errors()[0]
                raise InvalidInputError(
                    first["msg"],
                    # A whole-belief check (recorded_at before retracted_at) names its
                    # field in words, as the draft's own checks do.
                    field=".".join(map(str, first["loc"])) or named_field(Belief, first["msg"]),
                    item_index=index,
                    item_id=data["id"],
                ) from exc
            for field, at in (
                ("recorded_at", draft.recorded_at and belief.recorded_at),
                ("retracted_at", belief.retracted_at),
            ):
                not_ahead(
                    at, now, policy, field=field, kind="belief", index=index, item_id=draft.id
                )
            beliefs.append(belief)
        _unique_ids([(b.tenant_id, b.principal_id, b.id) for b in beliefs], "belief")
        return beliefs, valid

    def _vectors(
        self, drafts: Sequence[BeliefDraft], on_rows: Callable[[int], None] | None = None
    ) -> StreamedVectors:
        """The drafts' vectors: given ones checked now (before anything is written), the
        others embedded as the store reaches them."""
        dim = self._embedder.dimension
        out = np.zeros((len(drafts), dim), dtype=np.float32)
        missing: list[int] = []
        given: list[int] = []
        misshapen: int | None = None
        for index, draft in enumerate(drafts):
            if draft.embedding is None:
                missing.append(index)
            # A draft's vector is a sequence once validated; one set with model_copy,
            # which checks nothing, may be anything (drafts are not validated twice).
            elif not isinstance(draft.embedding, tuple | list) or len(draft.embedding) != dim:
                misshapen = index
                break
            else:
                given.append(index)
        if given:
            # The given rows checked as one array, not one row at a time: the per-row
            # conversion and norm were a fifth of the client's time per belief written.
            # The first bad item is named, whatever is wrong with it.
            # A finite float beyond float32's range (±3.4e38) becomes infinity here, and
            # is refused by its length below: not warned about on the caller's stderr.
            with np.errstate(over="ignore"):
                try:
                    rows = np.array([drafts[i].embedding for i in given], dtype=np.float32)
                except (TypeError, ValueError):
                    self._refuse_values(drafts, given)
            lengths = row_lengths(rows)
            bad = np.flatnonzero(off_unit(lengths))
            if len(bad):
                self._refuse_vector(drafts, given[int(bad[0])], float(lengths[bad[0]]))
            out[given] = rows
        if misshapen is not None:
            embedding = drafts[misshapen].embedding
            raise InvalidInputError(
                (
                    f"has {len(embedding)} dimensions"
                    if isinstance(embedding, tuple | list)
                    else f"is a {type(embedding).__name__}, not a list of numbers"
                )
                + f"; this store's embedder {self._embedder.name!r} has {dim}",
                field="embedding",
                item_index=misshapen,
                item_id=drafts[misshapen].id,
            )
        statements = [d.statement for d in drafts]
        return StreamedVectors(self._embedder, statements, out, missing, EMBED_BATCH, on_rows)

    def _refuse_values(self, drafts: Sequence[BeliefDraft], given: Sequence[int]) -> NoReturn:
        """Raise the :class:`InvalidInputError` naming the first of the ``given`` vectors
        that holds something other than numbers (set with model_copy, unchecked)."""

        def numbers(index: int) -> bool:
            try:
                return np.array(drafts[index].embedding, dtype=np.float32).ndim == 1
            except (TypeError, ValueError):
                return False

        index = next((i for i in given if not numbers(i)), given[0])
        raise InvalidInputError(
            "must hold numbers only", field="embedding", item_index=index, item_id=drafts[index].id
        )

    def _refuse_vector(self, drafts: Sequence[BeliefDraft], index: int, length: float) -> None:
        """Raise the :class:`InvalidInputError` naming the given vector of ``drafts[index]``
        that breaks the store's contract: not finite (``length`` NaN) or not unit length."""
        draft = drafts[index]
        if np.isnan(length):
            raise InvalidInputError(
                "contains NaN or infinity, or a number beyond a 32-bit float's range"
                " (±3.4e38), which the store's vectors are",
                field="embedding",
                item_index=index,
                item_id=draft.id,
            )
        raise InvalidInputError(
            f"has length {length:.3g}, not 1: this store holds unit vectors, as its"
            f" embedder {self._embedder.name!r} makes them"
            + (
                "; divide it by its length"
                if length > 0
                else ", and a zero vector has no direction to compare"
            ),
            field="embedding",
            item_index=index,
            item_id=draft.id,
        )

    def get(self, tenant_id: str, principal_id: str, belief_id: str) -> Belief:
        """The belief with that id; raises :class:`~recallflow.errors.NotFoundError`, or
        :class:`~recallflow.errors.InvalidInputError` naming a malformed id."""
        return self._store.get_belief(
            key_of(tenant_id, "tenant_id"),
            key_of(principal_id, "principal_id"),
            key_of(belief_id, "belief_id"),
        )

    def history(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        events: int | None = None,
    ) -> BeliefHistory:
        """How the belief came to stand as it does, read in one snapshot: the belief now,
        the beliefs it superseded and that superseded it (at most
        ``policy.feedback.history_links`` each way), and every recorded event about it —
        its creation, supersessions, retraction, retirement, expiry, corroborations and
        promotion, citations, typed rejections and "not here" exclusions — in the order
        the store recorded them (see "History of one belief" in docs/corrections.md).
        With ``events``, only the latest so many are read, and ``earlier_events`` says
        how many were left out (a belief cited on every turn has an event a turn).

        Raises :class:`~recallflow.errors.NotFoundError` as :meth:`get` does (another
        principal's belief, and a forgotten one, are not found exactly like a missing
        one), or :class:`~recallflow.errors.InvalidInputError` naming a malformed id, a
        policy that is not a :class:`~recallflow.policy.RetrievalPolicy` or an ``events``
        that is not a whole number of at least 1."""
        if not isinstance(policy, RetrievalPolicy):
            raise InvalidInputError(
                f"must be a RetrievalPolicy, got {type(policy).__name__}", field="policy"
            )
        if events is not None and (
            isinstance(events, bool) or not isinstance(events, int) or events < 1
        ):
            raise InvalidInputError(
                f"must be a whole number of at least 1 (None: every event), got {events!r}",
                field="events",
            )
        return self._store.belief_history(
            key_of(tenant_id, "tenant_id"),
            key_of(principal_id, "principal_id"),
            key_of(belief_id, "belief_id"),
            policy.feedback.history_links,
            events,
        )

    def held(
        self,
        tenant_id: str,
        principal_id: str,
        *,
        surface: Surface | str = Surface.DIRECT,
        as_of: datetime | None = None,
        known_as_of: datetime | None = None,
        project: str | None = None,
        subject: str | None = None,
        entity: str | None = None,
        belief_type: BeliefType | str | None = None,
        source_episode_id: str | None = None,
        after: str | None = None,
        limit: int = PAGE_DEFAULT,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> list[Belief]:
        """What memory holds of a principal as an in-turn recall on ``surface`` at
        ``as_of`` (default now), as known at ``known_as_of`` (default ``as_of``), may show
        it: the same hard filter — the states ``policy.admissible_states`` admits in turn,
        each judged at ``as_of``, valid then, recorded and not retracted by
        ``known_as_of``, at most the surface's sensitivity ceiling — with no query, floor
        or budget. In id order, at most ``limit`` (1 to 1,000), after the id ``after``
        (the last of the previous page); each belief in the state it had at ``as_of``.
        ``project`` keeps the beliefs learned in that project (``origin_project``);
        ``subject`` those whose subject key holds that text, read as a subject is
        (``"Deploy Target"`` finds ``billing-deploy-target``); ``entity`` those that name
        that entity, read as an entity is (``"Fly.io"`` finds the key ``fly.io``, not
        ``fly-io``); ``belief_type`` those of that type (``"preference"``);
        ``source_episode_id`` those formed from that episode (its derived beliefs, as
        Graphiti reads an episode's facts).

        For inspection: what the ``list_beliefs`` tool pages through. :meth:`list` is
        every belief whatever its state.

        :raises InvalidInputError: naming a malformed id, an unknown surface, a time
            without a time zone, a subject or entity with no letters or digits, an
            unknown belief type, a ``limit`` out of range or a policy that is not a
            :class:`~recallflow.policy.RetrievalPolicy`.
        """
        policy = _write_policy(policy)
        page_limit(limit)
        f = in_turn_view(tenant_id, principal_id, surface, as_of, known_as_of, policy)
        key = None if subject is None else _held_key(subject, "subject")
        entity_key = None if entity is None else _held_key(entity, "entity")
        return self._store.held_beliefs(
            f,
            project=None if project is None else key_of(project, "project"),
            subject=key,
            entity=entity_key,
            belief_type=None
            if belief_type is None
            else member_of(BeliefType, belief_type, "belief_type", "belief type").value,
            source_episode_id=None
            if source_episode_id is None
            else key_of(source_episode_id, "source_episode_id"),
            after=None if after is None else key_of(after, "after"),
            limit=limit,
        )

    def list(self, tenant_id: str, principal_id: str) -> list[Belief]:
        """Every belief of a principal in id order, whatever its state (for inspection)."""
        return self._store.list_beliefs(
            key_of(tenant_id, "tenant_id"), key_of(principal_id, "principal_id")
        )


def in_turn_view(
    tenant_id: object,
    principal_id: object,
    surface: object,
    as_of: object,
    known_as_of: object,
    policy: RetrievalPolicy,
) -> HardFilter:
    """The hard filter of an in-turn recall of the principal on ``surface`` at ``as_of``
    (default now) as known at ``known_as_of`` (default ``as_of``): what a read of what
    memory holds, and of its links, may show. Each argument is checked as a recall's,
    or an :class:`InvalidInputError` names it."""
    when = datetime.now(UTC) if as_of is None else aware_instant(as_of, "as_of")
    known = when if known_as_of is None else aware_instant(known_as_of, "known_as_of")
    return HardFilter(
        tenant_id=key_of(tenant_id, "tenant_id"),
        principal_id=key_of(principal_id, "principal_id"),
        states=policy.admissible_states[Moment.IN_TURN],
        as_of=when,
        known_as_of=known,
        sensitivity_ceiling=SURFACE_CEILINGS[member_of(Surface, surface, "surface", "surface")],
    )


def _held_key(value: object, field: str) -> str:
    """A ``held`` filter's subject or entity as the key it is matched on, or an
    :class:`InvalidInputError` naming ``field``."""
    if not isinstance(value, str):
        raise InvalidInputError(f"must be text, got {type(value).__name__}", field=field)
    key = normalise_subject(value)
    if not key:
        raise InvalidInputError(
            f"{value[:80]!r} has no letters or digits a {field} holds", field=field
        )
    return key


class Episodes:
    """``Memory.episodes``: append to the event log (each episode with its content's
    embedding, for archival search)."""

    def __init__(self, store: EpisodeStore, embedder: Embedder) -> None:
        self._store = store
        self._embedder = embedder

    def add(
        self,
        draft: EpisodeDraft | Mapping[str, Any],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        refuse_forgotten: bool = False,
    ) -> Episode:
        """Append one episode; returns it with its id and ``recorded_at``."""
        with _one_draft("draft"):
            return self.add_many([draft], policy=policy, refuse_forgotten=refuse_forgotten)[0]

    def add_many(
        self,
        drafts: Iterable[EpisodeDraft | Mapping[str, Any]],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
        refuse_forgotten: bool = False,
    ) -> list[Episode]:
        """Append a batch in one transaction: all of it or none of it; returns each episode
        as stored.

        A ``recorded_at`` (system time) or ``occurred_at`` (when it happened) later than
        this process's clock by more than ``policy.writes.clock_skew_seconds`` is refused with
        an :class:`~recallflow.errors.InvalidInputError` naming the item and field: an
        episode is a record of what has happened, and no search would find it until then.

        Idempotent: re-adding a stored id with the same content (``recorded_at`` aside,
        which is the store's) is a no-op that returns the stored episode, so a retried
        batch is never stored twice; with other content it raises
        :class:`~recallflow.errors.ConflictError` naming the item and field.

        ``refuse_forgotten``: for a writer whose ids say which event an episode is (a
        key of its own, as ``log_episode``'s), so that a retry of a write whose episode
        was forgotten since does not store the forgotten text again: an id the principal
        forgot (``forget_episode``) is a :class:`~recallflow.errors.ConflictError` on
        ``id`` naming the item, and nothing of the batch is written. Without it an id is
        written again, as a belief written again on purpose is."""
        if not isinstance(refuse_forgotten, bool):
            raise InvalidInputError("must be True or False", field="refuse_forgotten")
        policy = _write_policy(policy)
        valid = validated_items(EpisodeDraft, drafts)
        now = datetime.now(UTC)
        for index, d in enumerate(valid):
            for field, at in (("recorded_at", d.recorded_at), ("occurred_at", d.occurred_at)):
                not_ahead(at, now, policy, field=field, kind="episode", index=index, item_id=d.id)
        episodes = [
            Episode.model_validate(
                {**d.model_dump(), "id": d.id or new_id("e"), "recorded_at": d.recorded_at or now}
            )
            for d in valid
        ]
        _unique_ids([(e.tenant_id, e.principal_id, e.id) for e in episodes], "episode")
        with _progress(len(episodes), "episode") as bar:
            vectors = self._embed(
                [e.content for e in episodes],
                [e.id for e in episodes],
                on_rows=bar.update if bar is not None else None,
            )
            return self._store.write_episodes(episodes, vectors, refuse_forgotten=refuse_forgotten)

    def get(self, tenant_id: str, principal_id: str, episode_id: str) -> Episode:
        """The episode with that id; raises :class:`~recallflow.errors.NotFoundError`, or
        :class:`~recallflow.errors.InvalidInputError` naming a malformed id."""
        return self._store.get_episode(
            key_of(tenant_id, "tenant_id"),
            key_of(principal_id, "principal_id"),
            key_of(episode_id, "episode_id"),
        )

    def logged(
        self,
        tenant_id: str,
        principal_id: str,
        *,
        surface: Surface | str = Surface.DIRECT,
        since: datetime | None = None,
        as_of: datetime | None = None,
        known_as_of: datetime | None = None,
        session_id: str | None = None,
        project: str | None = None,
        kind: EpisodeKind | str | None = None,
        newest_first: bool = False,
        after: str | None = None,
        limit: int = PAGE_DEFAULT,
    ) -> list[Episode]:
        """The principal's event log read in order, with no query: the episodes that
        occurred from ``since`` (default: the first) to ``as_of`` (default now), as
        recorded by ``known_as_of`` (default ``as_of``), at most the sensitivity
        ``surface`` may show (archival search's own filter; ``"vault"`` reads every
        episode), in the order they happened (``occurred_at``; those of one instant in the
        order they were stored), the latest first with ``newest_first``. At most ``limit``
        (1 to 1,000) after the episode ``after`` in that order (the last of the previous
        page). ``session_id``, ``project`` and ``kind`` keep the episodes that name them.

        What a formation process reads to turn what happened into beliefs, and what a
        host shows of "what happened" (a session's transcript, the last ten events);
        :meth:`~recallflow.memory.Memory.search_episodes` is the ranked search.

        :raises InvalidInputError: naming a malformed id, an unknown surface or kind, a
            time without a time zone, a ``since`` later than ``as_of`` or a ``limit`` out
            of range.
        :raises NotFoundError: on ``after``, when the principal has no such episode (one
            forgotten since the page that listed it, too), or none ``surface`` may see:
            refused alike, so a cursor never tells that a hidden episode exists.
        """
        page_limit(limit)
        if not isinstance(newest_first, bool):
            raise InvalidInputError("must be True or False", field="newest_first")
        when = datetime.now(UTC) if as_of is None else aware_instant(as_of, "as_of")
        known = when if known_as_of is None else aware_instant(known_as_of, "known_as_of")
        start = window_start(None if since is None else aware_instant(since, "since"), when)
        f = EpisodeFilter(
            tenant_id=key_of(tenant_id, "tenant_id"),
            principal_id=key_of(principal_id, "principal_id"),
            as_of=when,
            known_as_of=known,
            sensitivity_ceiling=SURFACE_CEILINGS[member_of(Surface, surface, "surface", "surface")],
            since=start,
        )
        return self._store.logged_episodes(
            f,
            session_id=None if session_id is None else key_of(session_id, "session_id"),
            project=None if project is None else key_of(project, "project"),
            kind=None if kind is None else member_of(EpisodeKind, kind, "kind", "kind").value,
            after=None if after is None else key_of(after, "after"),
            newest_first=newest_first,
            limit=limit,
        )

    def embed_missing(self, tenant_id: str, principal_id: str) -> int:
        """Embed the principal's episodes stored without an embedding (those written before
        the store kept one); returns how many. Archival search calls it first, so a store
        upgraded in place is backfilled by its first search, principal by principal.

        An episode whose vector breaks the Embedder port (a model that returns zeros for
        its content) keeps none: it is named in a warning on this module's logger, found
        by its words alone, and tried again by the next search. Refused with its batch, as
        a write refuses one, it would have failed every archival search of the principal.
        An embedder whose answer has the wrong shape raises
        :class:`~recallflow.errors.UnsupportedEmbedderError`; a malformed id an
        :class:`~recallflow.errors.InvalidInputError` naming it."""
        tenant_id = key_of(tenant_id, "tenant_id")
        principal_id = key_of(principal_id, "principal_id")
        done, after = 0, ""
        while batch := self._store.unembedded_episodes(tenant_id, principal_id, EMBED_BATCH, after):
            ids = [episode_id for episode_id, _ in batch]
            texts = [content for _, content in batch]
            answered = answer(
                self._embedder,
                "embed()",
                self._embedder.embed,
                texts,
                _span("the contents of episodes", [repr(i) for i in ids]),
            )
            fault = shape_problem(answered, len(texts), self._embedder.dimension)
            if fault is not None:
                raise UnsupportedEmbedderError(self._embedder.name, fault)
            vectors = np.asarray(answered)
            kept = ~off_unit(row_lengths(vectors))
            if not kept.all():
                _log.warning(
                    "episodes %s of %s/%s keep no embedding (found by their words alone;"
                    " tried again at the next search): %s",
                    ", ".join(repr(i) for i, k in zip(ids, kept, strict=True) if not k),
                    tenant_id,
                    principal_id,
                    vector_problem(vectors, len(texts), self._embedder.dimension),
                )
            self._store.write_episode_embeddings(
                tenant_id,
                principal_id,
                [i for i, k in zip(ids, kept, strict=True) if k],
                vectors[kept].astype(np.float32),
            )
            done += int(kept.sum())
            after = ids[-1]
        return done

    def _embed(
        self,
        texts: Sequence[str],
        ids: Sequence[str],
        on_rows: Callable[[int], None] | None = None,
    ) -> npt.NDArray[np.float32]:
        """The contents' vectors (:func:`embedded_in_batches`)."""
        names = ("the content of episode", "the contents of episodes")
        return embedded_in_batches(self._embedder, texts, ids, names, on_rows)


class Edges:
    """``Memory.edges``: link beliefs for graph expansion, and read a belief's links."""

    def __init__(self, store: BeliefStore) -> None:
        self._store = store

    def add(self, edge: BeliefEdge | Mapping[str, Any]) -> BeliefEdge:
        """Store one edge."""
        with _one_draft("edge", batch="edges"):
            return self.add_many([edge])[0]

    def add_many(self, edges: Iterable[BeliefEdge | Mapping[str, Any]]) -> list[BeliefEdge]:
        """Store a batch of edges in one transaction: all of it or none of it.

        Idempotent: re-adding a stored edge (the same beliefs and relation) with the same
        weight is a no-op; with another weight it raises
        :class:`~recallflow.errors.ConflictError` naming the item and ``weight``. The same
        edge twice in one batch is an :class:`~recallflow.errors.InvalidInputError` naming
        the later item (and the earlier one), and nothing is written."""
        valid = validated_items(BeliefEdge, edges, field="edges")
        seen: dict[tuple[str, str, str, str, str], int] = {}
        for index, edge in enumerate(valid):
            key = edge_key(edge)
            if key in seen:
                # Refused as a batch naming one belief or episode id twice is, before
                # anything is written: the server refused the second only when both were
                # new (its unique-key message), and took both silently when stored.
                raise InvalidInputError(
                    "duplicate edge in the batch: the same src_id, dst_id and relation as"
                    f" item {seen[key]}",
                    field="src_id",
                    item_index=index,
                    item_id=edge.src_id,
                )
            seen[key] = index
        self._store.write_edges(valid)
        return valid

    def of(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        *,
        surface: Surface | str = Surface.DIRECT,
        as_of: datetime | None = None,
        known_as_of: datetime | None = None,
        relation: EdgeRelation | str | None = None,
        direction: Literal["out", "in", "both"] = "both",
        limit: int = PAGE_DEFAULT,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> list[BeliefEdge]:
        """The belief's links as an in-turn recall on ``surface`` at ``as_of`` (default
        now), as known at ``known_as_of`` (default ``as_of``), may follow them: the edges
        whose both ends pass that recall's hard filter, the one graph expansion's walk
        applies to every node it visits. An edge to a belief above the surface's ceiling,
        not valid at ``as_of``, retired, retracted or not yet recorded is left out, and
        so is its id; a belief that does not pass itself has no edges here. Those from
        the belief (``direction="out"``), to it (``"in"``) or both; of ``relation`` when
        given; the strongest first (then by ``src_id``, ``dst_id`` and relation), at most
        ``limit`` (1 to 1,000).

        What Graphiti reads as an entity node's edges: a host showing what a belief is
        linked to, a formation process checking a link before it adds one.

        :raises NotFoundError: on ``belief_id`` when the principal has no such belief
            (another principal's id and a forgotten one alike, as
            :meth:`Beliefs.get <recallflow.ingestion.Beliefs.get>` says).
        :raises InvalidInputError: naming a malformed id, an unknown surface, relation or
            direction, a time without a time zone, a ``limit`` out of range or a policy
            that is not a :class:`~recallflow.policy.RetrievalPolicy`.
        """
        policy = _write_policy(policy)
        page_limit(limit)
        if not isinstance(direction, str) or direction not in _DIRECTIONS:
            raise InvalidInputError(
                f"unknown direction {direction!r}; use one of {', '.join(_DIRECTIONS)}",
                field="direction",
            )
        f = in_turn_view(tenant_id, principal_id, surface, as_of, known_as_of, policy)
        return self._store.belief_edges(
            f,
            key_of(belief_id, "belief_id"),
            relation=None
            if relation is None
            else member_of(EdgeRelation, relation, "relation", "relation").value,
            outgoing=direction != "in",
            incoming=direction != "out",
            limit=limit,
        )


#: What :meth:`Edges.of` reads of a belief's links: from it, to it, or both.
_DIRECTIONS = ("out", "in", "both")
