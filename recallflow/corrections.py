"""The write path back into memory: "how do I correct it?" and "how do I delete it?"
(see "Feedback and corrections" and "Lifecycle and history" in docs/architecture.md).

Every operation is a typed, durable, append-only event whose effect on beliefs is applied
in the same transaction; bad input raises a typed error and writes nothing. An id the
principal does not have — whether another principal has it or nobody does — is refused
with the same :class:`~recallflow.errors.NotFoundError`, so errors never reveal what
another principal holds.

* lifecycle: :meth:`Corrections.retract` (system time), :meth:`~Corrections.retire`,
  :meth:`~Corrections.expire` (world time); supersession is
  :meth:`recallflow.ingestion.Beliefs.supersede`.
* usage feedback: :meth:`~Corrections.cite` resets decay and adds utility, never confidence.
* typed rejections from a trace: :meth:`~Corrections.reject` (not true → retired; changed
  → superseded or expired; not here → excluded in that project; unspecified → flagged);
  a flag is cleared by :meth:`~Corrections.unflag`.
* evidence: :meth:`~Corrections.corroborate`; two distinct projects promote to user scope.
* re-derivation: :meth:`~Corrections.rederive` replays every correction onto re-ingested
  drafts, so a rejected belief does not come back.
* erasure: :meth:`~Corrections.forget` (a principal), :meth:`~Corrections.forget_belief`,
  :meth:`~Corrections.forget_episode`, and by scope :meth:`~Corrections.forget_project`,
  :meth:`~Corrections.forget_session`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from datetime import UTC, datetime
from typing import Any, Literal

from recallflow.core.lifecycle import CONTENT_FIELDS, not_found
from recallflow.errors import (
    ConflictError,
    ConstraintViolation,
    InvalidInputError,
    NotFoundError,
    of_one_item,
)
from recallflow.ingestion import Beliefs, aware_instant, member_of, new_id, validated_items
from recallflow.ingestion import key_of as _key
from recallflow.models.corrections import (
    EXPECTED_MAX_LENGTH,
    NOTE_MAX_LENGTH,
    Citation,
    Erasure,
    MissHint,
    MissReport,
    Rederivation,
    Rejection,
    RejectionKind,
    Unflagging,
)
from recallflow.models.fields import storable, visible
from recallflow.models.store import (
    Belief,
    BeliefDraft,
    BeliefType,
    LifecycleState,
    Portability,
    Scope,
    Sensitivity,
    SourceAuthority,
)
from recallflow.policy import DEFAULT_POLICY, RetrievalPolicy
from recallflow.ports import CorrectionStore, MissHintQueue


def _text(
    value: object, field: str, *, required: bool, max_length: int | None = None
) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError("must be a non-empty string", field=field)
    if max_length is not None and len(value.strip()) > max_length:
        raise InvalidInputError(
            f"is {len(value.strip())} characters; at most {max_length} are kept", field=field
        )
    try:
        # Only invisible characters (a zero-width space) is no text either: kept, it read
        # as a note of nothing, where a replacement of them is refused.
        return visible(storable(value.strip()))
    except ValueError as exc:
        raise InvalidInputError(str(exc), field=field) from None


def successor_draft(
    rejected: Belief,
    statement: str,
    source_authority: SourceAuthority = SourceAuthority.INFERRED,
) -> dict[str, Any]:
    """The draft of what holds now in place of ``rejected``, from the new statement alone:
    it keeps what the correction did not touch — subject, entities, type, scope, origin
    project, portability and sensitivity — and says who vouches for it; the rest is any
    draft's default."""
    return {
        "tenant_id": rejected.tenant_id,
        "principal_id": rejected.principal_id,
        "statement": statement,
        **{field: getattr(rejected, field) for field in CARRIED},
        "source_authority": source_authority,
        "supersedes": rejected.id,
    }


#: What a successor stated from its statement alone keeps of the belief it replaces
#: (:func:`successor_draft`), and what :meth:`Corrections.restate` takes in its place when
#: given: the belief's content (:data:`~recallflow.core.lifecycle.CONTENT_FIELDS`) but the
#: statement and where it came from (who vouches for it, the episode it was learned from),
#: which a restatement gives anew.
CARRIED = tuple(
    field
    for field in CONTENT_FIELDS
    if field not in ("statement", "source_authority", "source_episode_id")
)


def _authority(value: object) -> SourceAuthority:
    return member_of(SourceAuthority, value, "source_authority", "source authority")


def _holds_now(successor: Belief, now: datetime) -> None:
    """Refuse a replacement no recall would show: it is what holds now, so one written
    retired, expired or past its validity would leave the rejected belief superseded by a
    belief nobody sees, and the corrected fact lost; and one under a conflict set id,
    which a recall would show disputing that set."""
    if successor.state not in (LifecycleState.ACTIVE, LifecycleState.PROVISIONAL):
        raise InvalidInputError(
            f"is {successor.state.value!r}: a replacement is what holds now (active or"
            " provisional)",
            field="replacement.state",
            item_id=successor.id,
        )
    if successor.conflict_set_id is not None:
        raise InvalidInputError(
            f"names conflict set {successor.conflict_set_id!r}: a replacement holds now"
            " undisputed (active or provisional), and under a set id a read would show it"
            " as a side of that conflict; write it without the id",
            field="replacement.conflict_set_id",
            item_id=successor.id,
        )
    if successor.valid_to is not None and successor.valid_to <= now:
        raise InvalidInputError(
            f"{successor.valid_to.isoformat()} has passed: a replacement is what holds now",
            field="replacement.valid_to",
            item_id=successor.id,
        )


def _policy(policy: object) -> None:
    """Refuse a policy that is not a :class:`RetrievalPolicy` by name (``memory.corrections``
    is reached directly too, past the checks of :class:`~recallflow.memory.Memory`'s
    methods): it failed on its first attribute as an AttributeError."""
    if not isinstance(policy, RetrievalPolicy):
        raise InvalidInputError(
            f"must be a RetrievalPolicy, got {type(policy).__name__}", field="policy"
        )


def _flag(value: object, field: str) -> bool:
    """``value`` when it is a bool: a string ("no") would read as true."""
    if not isinstance(value, bool):
        raise InvalidInputError(f"must be True or False, got {type(value).__name__}", field=field)
    return value


def _argument(field: str | None) -> str | None:
    """The argument of :meth:`Corrections.restate` that sets a successor's draft field."""
    return "successor_id" if field == "id" else field


def rejection_kind(kind: object) -> RejectionKind:
    """``kind`` as a :class:`RejectionKind`; an unknown kind names the four."""
    return member_of(RejectionKind, kind, "kind", "rejection kind")


class Corrections:
    """Corrections, feedback, evidence, re-derivation and erasure on one store."""

    def __init__(
        self,
        store: CorrectionStore,
        beliefs: Beliefs,
        forget_texts: Callable[[], None] = lambda: None,
        *,
        forget_principal: Callable[[str, str], object] = lambda tenant, principal: None,
    ) -> None:
        self._store = store
        self._beliefs = beliefs
        #: Called after every erasure: the caches of the recall path that keep texts as
        #: keys (scan verdicts, token counts) drop them, so no forgotten statement stays
        #: in the process.
        self._forget_texts = forget_texts
        #: Called after every erasure with its tenant and principal: what the process
        #: keeps of the principal's own asking (its recalls' query texts) goes — a query
        #: may have been the forgotten text itself (an episode pasted, a statement).
        self._forget_principal = forget_principal

    def retract(self, tenant_id: str, principal_id: str, belief_id: str, reason: str) -> Belief:
        """Stop asserting a belief from now on (system time: ``retracted_at``); a recall
        that asks what was known before then still sees it. A repeat is a no-op."""
        return self._store.retract(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            _key(belief_id, "belief_id"),
            str(_text(reason, "reason", required=True, max_length=NOTE_MAX_LENGTH)),
            datetime.now(UTC),
        )

    def retire(
        self, tenant_id: str, principal_id: str, belief_id: str, reason: str | None = None
    ) -> Belief:
        """Retire a belief: it does not hold, and never reaches recall again."""
        return self._store.retire(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            _key(belief_id, "belief_id"),
            _text(reason, "reason", required=False, max_length=NOTE_MAX_LENGTH),
            datetime.now(UTC),
        )

    def expire(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        at: datetime | str | None = None,
        reason: str | None = None,
    ) -> Belief:
        """End a belief's validity at world time ``at`` (default now): recall at an earlier
        ``as_of`` still sees it."""
        return self._store.expire(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            _key(belief_id, "belief_id"),
            datetime.now(UTC) if at is None else aware_instant(at, "at"),
            _text(reason, "reason", required=False, max_length=NOTE_MAX_LENGTH),
        )

    def cite(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        belief_ids: Iterable[str],
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Citation:
        """Record that the model cited beliefs of a trace's block: each gains utility and its
        decay clock restarts; confidence is untouched. A repeat from the same trace counts
        once.

        A belief the trace showed is recorded as cited whatever became of it since (the
        model relied on what it was shown then), but one the store has ended since —
        superseded by a successor in force, retracted, retired or expired — gains no
        utility and is named in ``Citation.ended``. A belief the trace did not show, or
        one forgotten since (its erasure takes it out of the traces too), is refused with
        :class:`~recallflow.errors.NotRenderedError` (on ``belief_id``, naming it) and nothing is
        recorded."""
        _policy(policy)
        if isinstance(belief_ids, str | bytes) or not isinstance(belief_ids, Iterable):
            raise InvalidInputError("must be a list of belief ids", field="belief_ids")
        ids = tuple(_key(i, "belief_ids") for i in belief_ids)
        if not ids:
            raise InvalidInputError("names no belief", field="belief_ids")
        return self._store.cite(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            _key(trace_id, "trace_id"),
            ids,
            datetime.now(UTC),
            policy.feedback,
        )

    def reject(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        belief_id: str,
        kind: RejectionKind | str,
        *,
        replacement: BeliefDraft | Mapping[str, Any] | str | None = None,
        source_authority: SourceAuthority | str | None = None,
        project: str | None = None,
        note: str | None = None,
    ) -> Rejection:
        """Reject a belief the trace rendered, by the trace's own principal.

        ``kind``: ``not_true`` retires it; ``changed`` supersedes it by ``replacement`` (or,
        without one, ends its validity now); ``not_here`` stops recalling it in the trace's
        project, and only there; ``unspecified`` flags it (down-weighted, never retired).
        A repeat of the same rejection from the same trace is a no-op.

        ``replacement`` is a full belief draft, or only the new statement: its successor
        then keeps the rejected belief's subject, entities, type, scope, origin project,
        portability and sensitivity (:func:`successor_draft`), vouched for by
        ``source_authority`` (default ``inferred``, as for any draft that does not say; a
        full draft says it itself). The rejected belief is read only once the trace is
        found to have rendered it.
        """
        tenant = _key(tenant_id, "tenant_id")
        principal = _key(principal_id, "principal_id")
        typed = rejection_kind(kind)
        if project is not None and typed is not RejectionKind.NOT_HERE:
            # Said, not dropped: the caller meant the rejection to be about a project, and
            # only not_here is (as only changed takes a replacement).
            raise InvalidInputError(
                f"is only for a {RejectionKind.NOT_HERE.value!r} rejection", field="project"
            )
        if replacement is not None and typed is not RejectionKind.CHANGED:
            raise InvalidInputError(
                f"is only for a {RejectionKind.CHANGED.value!r} rejection", field="replacement"
            )
        if source_authority is not None and not isinstance(replacement, str):
            raise InvalidInputError(
                "is for a replacement given as a statement; a draft says its own",
                field="source_authority",
            )
        if isinstance(replacement, str):
            authority = SourceAuthority.INFERRED
            if source_authority is not None:
                authority = _authority(source_authority)
            # The trace's rendered ids are checked before the belief is read, so a belief
            # the trace did not show is refused alike whether it exists or not.
            rejected = self._store.rendered_belief(
                tenant, principal, _key(trace_id, "trace_id"), _key(belief_id, "belief_id")
            )
            replacement = successor_draft(rejected, replacement, authority)
            statement_only = True
        else:
            statement_only = False
        successor: Belief | None = None
        now = datetime.now(UTC)
        embedding = None
        if replacement is not None:
            try:
                beliefs, embeddings = self._beliefs.prepare([replacement])
            except InvalidInputError as exc:
                # Of a statement alone, only the statement can be wrong: it is the argument.
                field = None if statement_only and exc.field == "statement" else exc.field
                where = "replacement" + (f".{field}" if field else "")
                raise of_one_item(exc, where, exc.item_id) from exc
            successor = beliefs[0]
            if (successor.tenant_id, successor.principal_id) != (tenant, principal):
                raise InvalidInputError(
                    "belongs to another tenant or principal than the trace",
                    field="replacement."
                    + ("tenant_id" if successor.tenant_id != tenant else "principal_id"),
                    item_id=successor.id,
                )
            if successor.supersedes not in (None, belief_id):
                raise InvalidInputError(
                    f"supersedes {successor.supersedes!r}, not the rejected belief",
                    field="replacement.supersedes",
                    item_id=successor.id,
                )
            if successor.id == belief_id:
                raise InvalidInputError(
                    "is the rejected belief's own id: a replacement is a new belief",
                    field="replacement.id",
                    item_id=successor.id,
                )
            _holds_now(successor, now)
            successor = successor.model_copy(update={"supersedes": belief_id})
            embedding = embeddings[0]
        try:
            return self._store.reject(
                tenant,
                principal,
                _key(trace_id, "trace_id"),
                _key(belief_id, "belief_id"),
                typed,
                now,
                replacement=successor,
                embedding=embedding,
                project=None if project is None else _key(project, "project"),
                note=_text(note, "note", required=False, max_length=NOTE_MAX_LENGTH),
            )
        except ConstraintViolation as exc:
            # The database refused a field of the successor (its source episode, say): it
            # is the replacement's, as the checks above name theirs.
            if successor is None or exc.field not in BeliefDraft.model_fields:
                raise
            raise ConstraintViolation(
                exc.detail,
                constraint=exc.constraint,
                field=f"replacement.{exc.field}",
                item_id=successor.id,
            ) from exc
        except ConflictError as exc:
            # The successor's id is stored with other content: the replacement's field, not
            # a field of "item 0" of a batch the caller never wrote.
            if (
                successor is None
                or exc.item_id != successor.id
                or type(exc) is not ConflictError
                or exc.field not in BeliefDraft.model_fields
            ):
                raise
            raise ConflictError(
                exc.detail, field=f"replacement.{exc.field}", item_id=successor.id
            ) from exc

    def restate(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        statement: str,
        *,
        successor_id: str | None = None,
        valid_from: datetime | str | None = None,
        source_authority: SourceAuthority | str | None = None,
        source_episode_id: str | None = None,
        subject: str | None = None,
        entities: Sequence[str] | None = None,
        belief_type: BeliefType | str | None = None,
        scope: Scope | str | None = None,
        origin_project: str | None = None,
        portability: Portability | str | None = None,
        sensitivity: Sensitivity | str | None = None,
        confidence: float | None = None,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Belief:
        """Say what holds now in place of a belief, in words: a new belief with
        ``statement`` supersedes it (a change of content is never an edit), and keeps its
        subject, entities, type, scope, origin project, portability and sensitivity unless
        given here (:func:`successor_draft`, as a ``changed`` rejection's statement-only
        replacement). ``source_authority`` says who vouches for it (default ``inferred``;
        ``user_stated`` when the person typed it), ``source_episode_id`` the episode it
        was learned from, ``valid_from`` when it began to hold (default now),
        ``confidence`` its own (default a new belief's, as for a ``changed`` rejection's
        successor: the old belief's confidence was in what it said) and ``successor_id``
        its id (default a new one; given, a retry of the same
        restatement is stored once). Every rule of :meth:`Beliefs.supersede` holds, and
        the old belief's history (``beliefs.history``) names its successor.

        :raises NotFoundError: a belief the principal does not have (another principal's,
            or a forgotten one, alike), on ``belief_id``.
        :raises ConflictError: a belief already superseded by another (restate its
            successor) or retired, on ``belief_id``; a ``successor_id`` another belief
            has, on ``successor_id``.
        :raises InvalidInputError: naming the argument at fault, a statement that says
            what the belief says with nothing else changed among them; nothing is
            written.
        """
        _policy(policy)
        tenant = _key(tenant_id, "tenant_id")
        principal = _key(principal_id, "principal_id")
        old_id = _key(belief_id, "belief_id")
        new_id_ = None if successor_id is None else _key(successor_id, "successor_id")
        authority = (
            SourceAuthority.INFERRED if source_authority is None else _authority(source_authority)
        )
        if not isinstance(statement, str):
            raise InvalidInputError(
                f"must be text, got {type(statement).__name__}", field="statement"
            )
        try:
            old = self._beliefs.get(tenant, principal, old_id)
        except NotFoundError:
            raise not_found(tenant, principal, old_id, field="belief_id") from None
        if new_id_ == old.id:
            raise InvalidInputError(
                "is the id of the belief restated; a successor is a new belief, under an id"
                " of its own",
                field="successor_id",
                item_id=old.id,
            )
        # The supersession refuses both in its transaction; said here first in this call's
        # words (the belief, not a link the caller never wrote). A retry of the same
        # restatement under its successor's id goes on, and is stored once.
        if old.state is LifecycleState.RETIRED:
            raise ConflictError(
                "is retired (it never held): there is nothing to restate; add what holds"
                " as a new belief",
                field="belief_id",
                item_id=old.id,
            )
        if old.superseded_by is not None and old.superseded_by != new_id_:
            raise ConflictError(
                f"is already superseded by {old.superseded_by!r}; restate that belief instead",
                field="belief_id",
                item_id=old.id,
            )
        if new_id_ is not None and new_id_ != old.superseded_by:
            with suppress(NotFoundError):
                self._beliefs.get(tenant, principal, new_id_)
                raise ConflictError(
                    f"{new_id_!r} is already the id of another belief of"
                    f" {tenant}/{principal}; give a new id, or leave it out",
                    field="successor_id",
                )
        draft = successor_draft(old, statement, authority)
        del draft["supersedes"]  # the link is supersede's own argument
        given = {
            "subject": subject,
            "entities": entities,
            "belief_type": belief_type,
            "scope": scope,
            "origin_project": origin_project,
            "portability": portability,
            "sensitivity": sensitivity,
            "confidence": confidence,
            "source_episode_id": source_episode_id,
            "valid_from": valid_from,
            "id": new_id_,
        }
        draft |= {field: value for field, value in given.items() if value is not None}
        try:
            successor = validated_items(BeliefDraft, [draft])[0]
        except InvalidInputError as exc:
            raise of_one_item(exc, _argument(exc.field), old.id) from exc
        if all(getattr(successor, f) == getattr(old, f) for f in ("statement", *CARRIED)):
            raise InvalidInputError(
                f"says what {old.id!r} says, with the same {', '.join(CARRIED)}: there is"
                " nothing to restate (evidence that it holds is a corroboration)",
                field="statement",
                item_id=old.id,
            )
        try:
            return self._beliefs.supersede(old.id, successor, policy=policy)
        except NotFoundError as exc:
            if exc.field == "old_id":  # forgotten meanwhile
                raise not_found(tenant, principal, old.id, field="belief_id") from exc
            raise of_one_item(exc, _argument(exc.field), old.id) from exc
        except ConstraintViolation as exc:
            raise of_one_item(exc, _argument(exc.field), old.id) from exc
        except ConflictError as exc:
            if type(exc) is not ConflictError:
                raise
            if exc.field == "supersedes":
                # Superseded or retired meanwhile: the belief restated is at fault.
                raise ConflictError(exc.detail, field="belief_id", item_id=old.id) from exc
            # A retry under the successor's id that says something else.
            raise of_one_item(exc, _argument(exc.field), exc.item_id) from exc

    def unflag(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        *,
        trace_id: str | None = None,
        note: str | None = None,
    ) -> Unflagging:
        """Clear a belief's flag — set by an ``unspecified`` rejection — when the user
        flagged it by mistake, or checked it and found it right: it is recalled at its full
        weight again, and its line no longer says it is flagged. Recorded as an
        ``unflagged`` event with its effect, so re-derivation replays it, an export carries
        it and the belief's history shows it.

        ``trace_id``, when given, is the recall the clear is made from: the belief must be
        one it showed (:class:`~recallflow.errors.NotRenderedError` otherwise, as for a
        rejection). A belief that is not flagged is left as it is and nothing is recorded
        (``Unflagging.recorded`` is False): a repeat is a no-op."""
        return self._store.unflag(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            _key(belief_id, "belief_id"),
            trace_id=None if trace_id is None else _key(trace_id, "trace_id"),
            note=_text(note, "note", required=False, max_length=NOTE_MAX_LENGTH),
        )

    def excluded_projects(
        self, tenant_id: str, principal_id: str, belief_id: str
    ) -> tuple[str, ...]:
        """The projects a belief is no longer recalled in (not-here rejections)."""
        return self._store.exclusions(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            _key(belief_id, "belief_id"),
        )

    def corroborate(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        project: str,
        evidence: str,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Belief:
        """Record evidence from the world (the episode ``evidence``) that a belief holds in
        ``project``: confidence rises by the policy's gain, and a belief that holds in
        ``policy.feedback.promotion_projects`` distinct projects (its origin counts) is
        promoted to user scope, where it is recalled without attribution at full weight.
        The same evidence for the same project is recorded once."""
        _policy(policy)
        return self._store.corroborate(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            _key(belief_id, "belief_id"),
            _key(project, "project"),
            _key(evidence, "evidence"),
            datetime.now(UTC),
            policy.feedback,
        )

    def rederive(
        self,
        tenant_id: str,
        principal_id: str,
        drafts: Iterable[BeliefDraft | Mapping[str, Any]],
    ) -> Rederivation:
        """Re-ingest beliefs formation derived again from their sources, replaying every
        rejection and correction recorded against the earlier beliefs of the same source
        episode and statement (see :mod:`recallflow.core.replay`)."""
        tenant = _key(tenant_id, "tenant_id")
        principal = _key(principal_id, "principal_id")
        beliefs, embeddings = self._beliefs.prepare(drafts)
        for index, b in enumerate(beliefs):
            if (b.tenant_id, b.principal_id) != (tenant, principal):
                raise InvalidInputError(
                    f"belongs to {b.tenant_id}/{b.principal_id}, not {tenant}/{principal}",
                    field="tenant_id" if b.tenant_id != tenant else "principal_id",
                    item_index=index,
                    item_id=b.id,
                )
        return self._store.rederive(tenant, principal, beliefs, embeddings)

    def forget(
        self, tenant_id: str, principal_id: str, *, policy: RetrievalPolicy = DEFAULT_POLICY
    ) -> Erasure:
        """Erase everything of a principal, in every table, in one transaction.

        Once it holds the principal's write lock (every write of the principal then waits
        for it), an erasure waits for any lock at most ``policy.sessions.lock_timeout_ms``
        — a session row a turn holds, say, in this one and :meth:`forget_belief`.

        :raises WriteCancelledError: a lock stayed held past that bound (a turn stuck
            mid-transaction); nothing was erased, and the call can be retried as it is."""
        _policy(policy)
        tenant, principal = _key(tenant_id, "tenant_id"), _key(principal_id, "principal_id")
        erasure = self._store.forget(tenant, principal, policy.sessions.lock_timeout_ms)
        self._forget_texts()
        self._forget_principal(tenant, principal)
        return erasure

    def forget_belief(
        self,
        tenant_id: str,
        principal_id: str,
        belief_id: str,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Erasure:
        """Erase one belief with its feedback and events, and scrub it from stored traces
        and sessions (locks waited for as :meth:`forget` waits)."""
        _policy(policy)
        tenant, principal = _key(tenant_id, "tenant_id"), _key(principal_id, "principal_id")
        erasure = self._store.forget_belief(
            tenant, principal, _key(belief_id, "belief_id"), policy.sessions.lock_timeout_ms
        )
        self._forget_texts()
        self._forget_principal(tenant, principal)
        return erasure

    def forget_episode(
        self,
        tenant_id: str,
        principal_id: str,
        episode_id: str,
        *,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Erasure:
        """Erase one episode — archival search no longer finds it — and scrub its id and
        text from stored traces. The beliefs derived from it stay and lose the reference to
        it (forget them one by one with :meth:`forget_belief`); an id the principal does
        not have, or has forgotten already, is a ``NotFoundError``. Locks are waited for
        as :meth:`forget` waits for them."""
        _policy(policy)
        tenant, principal = _key(tenant_id, "tenant_id"), _key(principal_id, "principal_id")
        erasure = self._store.forget_episode(
            tenant, principal, _key(episode_id, "episode_id"), policy.sessions.lock_timeout_ms
        )
        self._forget_texts()
        self._forget_principal(tenant, principal)
        return erasure

    def forget_project(
        self,
        tenant_id: str,
        principal_id: str,
        project: str,
        *,
        dry_run: bool = False,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Erasure:
        """Erase everything of one project in one transaction: every project-scope belief
        whose origin project it is (a user-scope belief learned there stays), as
        :meth:`forget_belief` erases one, every episode logged in it, as
        :meth:`forget_episode` erases one, and the not-here rejections made in it. A
        project that holds none of them erases nothing and records nothing (every count
        0). Locks are waited for as :meth:`forget` waits for them. ``dry_run``: the same
        erasure rolled back — what it would erase, counted; nothing erased or recorded."""
        _policy(policy)
        tenant, principal = _key(tenant_id, "tenant_id"), _key(principal_id, "principal_id")
        return self._forget_scope(
            tenant, principal, "project", _key(project, "project"), False, dry_run, policy
        )

    def forget_session(
        self,
        tenant_id: str,
        principal_id: str,
        session_id: str,
        *,
        with_beliefs: bool = False,
        dry_run: bool = False,
        policy: RetrievalPolicy = DEFAULT_POLICY,
    ) -> Erasure:
        """Erase every episode logged under ``session_id`` in one transaction, each as
        :meth:`forget_episode` erases one: the beliefs derived from them stay and lose
        their reference, unless ``with_beliefs`` — then every belief whose source episode
        is one of them is erased too, as :meth:`forget_belief` erases one. A session id
        no episode has erases nothing and records nothing (every count 0). ``dry_run`` as
        for :meth:`forget_project`."""
        _policy(policy)
        tenant, principal = _key(tenant_id, "tenant_id"), _key(principal_id, "principal_id")
        return self._forget_scope(
            tenant,
            principal,
            "session",
            _key(session_id, "session_id"),
            _flag(with_beliefs, "with_beliefs"),
            dry_run,
            policy,
        )

    def _forget_scope(
        self,
        tenant: str,
        principal: str,
        scope: Literal["project", "session"],
        name: str,
        with_beliefs: bool,
        dry_run: bool,
        policy: RetrievalPolicy,
    ) -> Erasure:
        erasure = self._store.forget_scope(
            tenant,
            principal,
            scope,
            name,
            with_beliefs,
            policy.sessions.lock_timeout_ms,
            dry_run=_flag(dry_run, "dry_run"),
        )
        if erasure.total_deleted and not dry_run:
            self._forget_texts()
            self._forget_principal(tenant, principal)
        return erasure


class MissHints:
    """``Memory.miss_hints``: what recall missed, queued for formation. Inferred hints are
    subjects recalled repeatedly with nothing above the floor; reported ones are misses a
    user or an agent said (:meth:`report`): a recall that showed something, only not what
    it should have."""

    def __init__(self, store: MissHintQueue) -> None:
        self._store = store

    def pending(self, tenant_id: str, principal_id: str) -> list[MissHint]:
        """The hints formation has not acknowledged, inferred and reported (``kind`` tells
        them apart), oldest first."""
        return self._store.pending(_key(tenant_id, "tenant_id"), _key(principal_id, "principal_id"))

    def ack(self, tenant_id: str, principal_id: str, subject: str) -> MissHint:
        """Acknowledge a queued inferred hint (formation took it); a repeat is a no-op.
        Later misses of the subject start a new count. A reported one is acknowledged by
        its id (:meth:`ack_report`)."""
        return self._store.ack(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            str(_text(subject, "subject", required=True)),
            datetime.now(UTC),
        )

    def report(
        self,
        tenant_id: str,
        principal_id: str,
        trace_id: str,
        *,
        belief_id: str | None = None,
        expected: str | None = None,
        note: str | None = None,
    ) -> MissReport:
        """Report that the stored recall ``trace_id`` should have shown something it did
        not: the belief ``belief_id`` the principal holds, or ``expected``, what should have
        been remembered in words (at most 4,000 characters), or both; ``note``, the user's
        words (at most 1,000). Queued at once as a ``reported`` hint. The same report of
        the same recall is stored once (``recorded`` False the second time).

        :raises InvalidInputError: neither ``belief_id`` nor ``expected`` (named
            ``expected``), a malformed id or text, or a belief the recall showed (in its
            block, or its session's prefix): that one was not missed.
        :raises NotFoundError: a trace or a belief the principal does not hold (another
            principal's is not found, like a missing one); a trace whose user view the
            retention job has deleted.
        """
        tenant, principal = _key(tenant_id, "tenant_id"), _key(principal_id, "principal_id")
        trace = _key(trace_id, "trace_id")
        belief = None if belief_id is None else _key(belief_id, "belief_id")
        said = _text(expected, "expected", required=False, max_length=EXPECTED_MAX_LENGTH)
        if belief is None and said is None:
            raise InvalidInputError(
                "say what the recall should have shown: expected (in words), belief_id"
                " (a belief the principal holds), or both",
                field="expected",
            )
        words = _text(note, "note", required=False, max_length=NOTE_MAX_LENGTH)
        return self._store.report(
            tenant,
            principal,
            trace,
            belief_id=belief,
            expected=said,
            note=words,
            report_id=new_id("m"),
            at=datetime.now(UTC),
        )

    def ack_report(self, tenant_id: str, principal_id: str, report_id: str) -> MissHint:
        """Acknowledge a reported miss by its id (formation took it); a repeat is a
        no-op."""
        return self._store.ack_report(
            _key(tenant_id, "tenant_id"),
            _key(principal_id, "principal_id"),
            _key(report_id, "report_id"),
            datetime.now(UTC),
        )
