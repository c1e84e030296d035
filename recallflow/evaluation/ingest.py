"""Load a dataset :class:`~recallflow.evaluation.datasets.Group` into recallflow through
the public ingestion surface, as any formation process would.

One group = one principal under the run's tenant. Episodes = the group's episodes
(sessions), each with its world time; beliefs = documents: statement = the document
text, world time (``valid_from``) and system time (``recorded_at``) = the episode time,
source episode = its episode, subject and entities from :class:`KeyDeriver`, embedding
from the shared :class:`VectorCache`. Edges stay O(documents): ``follows`` between
adjacent documents of one episode, and ``same_episode`` from each document to its
episode's first document.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from recallflow.evaluation.datasets import Document, Group
from recallflow.evaluation.keys import KeyDeriver
from recallflow.evaluation.vectors import VectorCache
from recallflow.memory import Memory
from recallflow.models.store import (
    BeliefDraft,
    BeliefEdge,
    BeliefType,
    EdgeRelation,
    EpisodeDraft,
    EpisodeKind,
    Scope,
    SourceAuthority,
)

#: Weight of a ``same_episode`` edge (``follows`` edges weigh 1.0).
SAME_EPISODE_WEIGHT = 0.5
_MAX_EPISODE_CHARS = 100_000


def belief_id(group: Group, document: Document) -> str:
    """The belief id of ``document``: ``<group key>/<document id>``."""
    return f"{group.key}/{document.id}"


def principal_id(group: Group) -> str:
    """The principal a group is stored under."""
    return f"p-{group.key}"


def episode_id(group: Group, document: Document) -> str:
    return f"{group.key}/{document.episode_id}"


def as_of_after(group: Group) -> datetime:
    """A world time after every episode of the group (the last one plus a day): the
    ``as_of`` its questions are asked at, so every document is already known then."""
    return max(d.episode_time for d in group.documents) + timedelta(days=1)


def episodes(tenant: str, group: Group) -> list[EpisodeDraft]:
    """One episode per distinct ``episode_id``, content = its documents joined."""
    texts: dict[str, list[str]] = {}
    first: dict[str, Document] = {}
    for doc in group.documents:
        texts.setdefault(doc.episode_id, []).append(doc.text)
        first.setdefault(doc.episode_id, doc)
    return [
        EpisodeDraft(
            id=episode_id(group, doc),
            tenant_id=tenant,
            principal_id=principal_id(group),
            session_id=episode_id(group, doc),
            occurred_at=doc.episode_time,
            kind=EpisodeKind.MESSAGE,
            content="\n".join(texts[key])[:_MAX_EPISODE_CHARS],
        )
        for key, doc in first.items()
    ]


def beliefs(tenant: str, group: Group, vectors: VectorCache) -> list[BeliefDraft]:
    """One belief per document, with its precomputed embedding."""
    deriver = KeyDeriver(d.text for d in group.documents)
    matrix = vectors.matrix([d.text for d in group.documents])
    drafts: list[BeliefDraft] = []
    for doc, vector in zip(group.documents, matrix, strict=True):
        subject, entities = deriver.derive(doc.text, doc.speaker)
        drafts.append(
            BeliefDraft(
                id=belief_id(group, doc),
                tenant_id=tenant,
                principal_id=principal_id(group),
                statement=doc.text[:4000],
                subject=subject,
                entities=entities,
                belief_type=BeliefType.FACT,
                scope=Scope.USER,
                valid_from=doc.episode_time,
                recorded_at=doc.episode_time,
                source_authority=SourceAuthority.USER_STATED,
                source_episode_id=episode_id(group, doc),
                embedding=tuple(float(x) for x in vector),
            )
        )
    return drafts


def edges(tenant: str, group: Group) -> list[BeliefEdge]:
    """``follows`` (adjacent, same episode) and ``same_episode`` (to the episode's first)."""
    out: list[BeliefEdge] = []
    head: dict[str, Document] = {}
    previous: Document | None = None
    principal = principal_id(group)
    for doc in sorted(group.documents, key=lambda d: d.position):
        first = head.setdefault(doc.episode_id, doc)
        if previous is not None and previous.episode_id == doc.episode_id:
            out.append(
                BeliefEdge(
                    tenant_id=tenant,
                    principal_id=principal,
                    src_id=belief_id(group, previous),
                    dst_id=belief_id(group, doc),
                    relation=EdgeRelation.FOLLOWS,
                )
            )
        if first is not doc:
            out.append(
                BeliefEdge(
                    tenant_id=tenant,
                    principal_id=principal,
                    src_id=belief_id(group, first),
                    dst_id=belief_id(group, doc),
                    relation=EdgeRelation.SAME_EPISODE,
                    weight=SAME_EPISODE_WEIGHT,
                )
            )
        previous = doc
    return out


def ingest_group(
    memory: Memory, tenant: str, group: Group, vectors: VectorCache
) -> Mapping[str, int]:
    """Write a group's episodes, beliefs and edges; returns the counts written."""
    eps = memory.episodes.add_many(episodes(tenant, group))
    drafts = beliefs(tenant, group, vectors)
    links = edges(tenant, group)
    memory.beliefs.add_many(drafts)
    memory.edges.add_many(links)
    return {"episodes": len(eps), "beliefs": len(drafts), "edges": len(links)}
