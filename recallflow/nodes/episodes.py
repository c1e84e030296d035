"""Stages of archival episode search, the agent-invoked query over the event log (see
"Moments" in docs/architecture.md): wiring, the query vector, the episode filter, fusion,
the floor, loading what cleared it, the trust boundary, the budget, rendering and the
trace. The arms are in :mod:`recallflow.nodes.episodes_arms`.

The stages mirror recall's and reuse its pure logic (reciprocal rank fusion, the token
budget's rules, the byte-stable renderer's style, the injection scanner), but the graph is
its own: no recall moment's DAG contains these nodes or holds the
:class:`~recallflow.ports.EpisodeSearch` port.
"""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt
from hamilton.function_modifiers import tag

from recallflow.core.blocked import blocked_counts
from recallflow.core.calibration import Calibration, null_similarity, uncalibrated
from recallflow.core.episodes import (
    clears_floor,
    episode_standing,
    query_terms,
    trusted_episode,
)
from recallflow.core.fusion import fuse_ranks
from recallflow.core.redaction import (
    NO_MARKED_NAMES,
    NameRedaction,
    ProjectNames,
    Redactor,
    asked_text,
    names_marked,
)
from recallflow.core.render import (
    EPISODES_CLOSE_TAG,
    EPISODES_OPEN_TAG,
    episode_line,
    render_episode_block,
)
from recallflow.models.request import EpisodeSearchRequest
from recallflow.models.result import (
    EpisodeArm,
    EpisodeArmResult,
    EpisodeSearchResult,
    EpisodeTrace,
    FusedEpisode,
    RecalledEpisode,
)
from recallflow.models.stages import (
    EpisodeBudgetOutcome,
    EpisodeCandidate,
    EpisodeFilter,
    EpisodeFloorOutcome,
    EpisodeTrustOutcome,
    RenderedEpisodes,
)
from recallflow.policy import SURFACE_CEILINGS, EpisodePolicy
from recallflow.ports import (
    Embedder,
    EntitySensitivity,
    EpisodeSearch,
    EpisodeSearchPorts,
    InjectionScanner,
    TokenCounter,
    query_embedding,
)

# --- wiring -----------------------------------------------------------------------------


@tag(stage="wiring")
def episode_search(episode_ports: EpisodeSearchPorts) -> EpisodeSearch:
    """The hard-filtered episode search both arms query."""
    return episode_ports.episode_search


@tag(stage="wiring")
def embedder(episode_ports: EpisodeSearchPorts) -> Embedder:
    """The embedder of the query vector (the store's own)."""
    return episode_ports.embedder


@tag(stage="wiring")
def calibration(episode_ports: EpisodeSearchPorts, embedder: Embedder) -> Calibration:
    """The embedder's calibration against unrelated text, which the floor reads (the
    conservative default when the store has none: similarity alone keeps nothing)."""
    return episode_ports.calibration or uncalibrated(embedder.name)


@tag(stage="wiring")
def token_counter(episode_ports: EpisodeSearchPorts) -> TokenCounter:
    """The token counter of the budget."""
    return episode_ports.token_counter


@tag(stage="wiring")
def injection_scanner(episode_ports: EpisodeSearchPorts) -> InjectionScanner:
    """The injection scanner of the trust boundary."""
    return episode_ports.injection_scanner


@tag(stage="wiring")
def entity_sensitivity(episode_ports: EpisodeSearchPorts) -> EntitySensitivity | None:
    """The principal's marked entities, or None when the store keeps no marks."""
    return episode_ports.entity_sensitivity


# --- query and filter -------------------------------------------------------------------


@tag(stage="query_forming")
def episode_query(
    request: EpisodeSearchRequest,
    episode_filter: EpisodeFilter,
    episode_marked_names: NameRedaction = NO_MARKED_NAMES,
) -> str:
    """The query as the surface may know it: each mention of a name it withholds is
    withheld as in the excerpts (standing as a name of its shape nobody has), so a right guess of
    the name searches, ranks and cuts excerpts as a name nobody has does (see "Trust
    boundary" in docs/architecture.md)."""
    names = episode_marked_names.pattern(episode_filter.sensitivity_ceiling)
    return request.query if names is None else asked_text(names, request.query)


@tag(stage="query_forming")
def episode_query_vector(episode_query: str, embedder: Embedder) -> npt.NDArray[np.float32]:
    """The query's unit vector (the only model call of a search), embedded as a search
    query when the model tells queries from passages (e5's prefixes), as a recall's is:
    embedded as a passage, an e5 question stood below unrelated text and was dropped."""
    vector: npt.NDArray[np.float32] = query_embedding(embedder)([episode_query])[0]
    return vector


@tag(stage="query_forming")
def episode_query_null(
    episode_query_vector: npt.NDArray[np.float32], calibration: Calibration
) -> float | None:
    """The query's highest cosine with the unrelated corpus: how similar unrelated text
    can look to this query under this model (None when uncalibrated)."""
    null = null_similarity(episode_query_vector[None, :], calibration)
    return null[0] if null else None


@tag(stage="hard_filter")
def episode_filter(request: EpisodeSearchRequest) -> EpisodeFilter:
    """The SQL-enforced isolation boundary of this search."""
    if request.as_of is None or request.known_as_of is None:
        raise ValueError("request.as_of and known_as_of must be resolved before the DAG runs")
    return EpisodeFilter(
        tenant_id=request.tenant_id,
        principal_id=request.principal_id,
        as_of=request.as_of,
        known_as_of=request.known_as_of,
        sensitivity_ceiling=SURFACE_CEILINGS[request.surface],
        since=request.since,
    )


# --- fusion, floor, load ----------------------------------------------------------------


@tag(stage="fusion")
def episode_arm_results(
    episode_text_hits: EpisodeArmResult, episode_vector_hits: EpisodeArmResult
) -> tuple[EpisodeArmResult, ...]:
    """Both arms' results (what the trace records)."""
    return (episode_text_hits, episode_vector_hits)


@tag(stage="fusion")
def fused_episodes(
    episode_arm_results: tuple[EpisodeArmResult, ...],
    episode_query_null: float | None,
    calibration: Calibration,
    episode_policy: EpisodePolicy,
) -> tuple[FusedEpisode, ...]:
    """Every episode either arm found, by RRF score (desc, then id), with each arm's rank
    and raw score and how far its similarity stands above unrelated text; a failed arm is
    fused as absent."""
    ok = [r for r in episode_arm_results if r.ok]
    raw = {(r.arm, h.episode_id): h.raw_score for r in ok for h in r.hits}
    rankings = ((r.arm, [(h.episode_id, h.rank) for h in r.hits]) for r in ok)
    fused = []
    for episode_id, score, ranks in fuse_ranks(rankings, episode_policy.rrf_k):
        similarity = raw.get((EpisodeArm.VECTOR, episode_id))
        standing = episode_standing(similarity, episode_query_null, calibration.ref)
        fused.append(
            FusedEpisode(
                episode_id=episode_id,
                rrf_score=score,
                arm_ranks=ranks,
                similarity=similarity,
                coverage=raw.get((EpisodeArm.FULL_TEXT, episode_id)),
                standing=None if standing is None else round(standing, 6),
            )
        )
    return tuple(fused)


@tag(stage="floor")
def episodes_above_floor(
    fused_episodes: tuple[FusedEpisode, ...], episode_policy: EpisodePolicy
) -> EpisodeFloorOutcome:
    """The fused episodes an arm's own evidence ties to the query, in rank order; the rest
    are dropped however much budget remains (a floor, not a quota), and never loaded."""
    floor = episode_policy.floor
    kept: list[FusedEpisode] = []
    dropped: list[str] = []
    for f in fused_episodes:
        if clears_floor(f.standing, f.coverage, floor):
            kept.append(f)
        else:
            dropped.append(f.episode_id)
    return EpisodeFloorOutcome(kept=tuple(kept), dropped_ids=tuple(dropped))


@tag(stage="candidates")
def candidate_episodes(
    episodes_above_floor: EpisodeFloorOutcome,
    episode_filter: EpisodeFilter,
    episode_search: EpisodeSearch,
) -> tuple[EpisodeCandidate, ...]:
    """The kept episodes, loaded (the filter applies again), in rank order."""
    kept = episodes_above_floor.kept
    loaded = {e.id: e for e in episode_search.load(episode_filter, [f.episode_id for f in kept])}
    return tuple(
        EpisodeCandidate(episode=loaded[f.episode_id], fused=f)
        for f in kept
        if f.episode_id in loaded
    )


# --- trust, budget, render --------------------------------------------------------------


@tag(stage="trust")
def episode_marked_names(
    episode_filter: EpisodeFilter, entity_sensitivity: EntitySensitivity | None = None
) -> NameRedaction:
    """The principal's entities marked above the surface's ceiling: their names are
    withheld from the excerpts (see "Trust boundary" in docs/architecture.md)."""
    return names_marked(
        entity_sensitivity,
        episode_filter.tenant_id,
        episode_filter.principal_id,
        episode_filter.sensitivity_ceiling,
    )


@tag(stage="trust")
def trusted_episodes(
    candidate_episodes: tuple[EpisodeCandidate, ...],
    episode_query: str,
    injection_scanner: InjectionScanner,
    episode_policy: EpisodePolicy,
    episode_filter: EpisodeFilter,
    project_names: ProjectNames,
    episode_marked_names: NameRedaction = NO_MARKED_NAMES,
) -> EpisodeTrustOutcome:
    """Each kept episode's excerpt as MEMORY data; an excerpt that reads like instructions,
    as shown or with the episode's line breaks kept, is replaced by [BLOCKED] (the id
    stays citable). A project name or a marked entity's
    name the surface's ceiling does not admit is redacted, as in recall."""
    terms = query_terms(episode_query, episode_policy.query_words, episode_policy.excerpt_min_term)
    redact = Redactor.of(episode_marked_names, episode_filter.sensitivity_ceiling)
    items: list[RecalledEpisode] = []
    families: dict[str, str] = {}
    for c in candidate_episodes:
        item, family = trusted_episode(
            c.episode, terms, episode_policy, injection_scanner, redact, project_names, c.score
        )
        if family is not None:
            families[c.episode_id] = family
        items.append(item)
    blocked_ids = tuple(i.episode_id for i in items if i.blocked)
    return EpisodeTrustOutcome(
        items=tuple(items),
        blocked_ids=blocked_ids,
        blocked_families=families,
        scanner_version=injection_scanner.version,
    )


@tag(stage="budget")
def budgeted_episodes(
    trusted_episodes: EpisodeTrustOutcome,
    token_counter: TokenCounter,
    request: EpisodeSearchRequest,
    episode_policy: EpisodePolicy,
) -> EpisodeBudgetOutcome:
    """The episodes that fit the item cap, then the token cap (bounded by a share of the
    window), in rank order; one that does not fit is skipped and the next still tried."""
    budget = episode_policy.budget
    ceiling = int(request.model_window * budget.window_share)
    max_items = request.max_items if request.max_items is not None else budget.max_items
    asked = request.max_tokens if request.max_tokens is not None else budget.max_tokens
    max_tokens = min(asked, ceiling)
    tokens = token_counter.count(f"{EPISODES_OPEN_TAG}\n{EPISODES_CLOSE_TAG}\n")
    kept: list[RecalledEpisode] = []
    dropped: list[str] = []
    for item in trusted_episodes.items:
        # Past the item cap nothing is kept, so nothing is counted (a count is a tokenizer
        # pass over the rendered line; most floored episodes come after the cap).
        if len(kept) >= max_items:
            dropped.append(item.episode_id)
            continue
        cost = token_counter.count(episode_line(item) + "\n")
        if tokens + cost > max_tokens:
            dropped.append(item.episode_id)
            continue
        kept.append(item)
        tokens += cost
    return EpisodeBudgetOutcome(
        items=tuple(kept),
        dropped_ids=tuple(dropped),
        max_items=max_items,
        max_tokens=max_tokens,
        tokens=tokens if kept else 0,
    )


@tag(stage="render")
def rendered_episodes(budgeted_episodes: EpisodeBudgetOutcome) -> RenderedEpisodes:
    """The block's exact bytes, their sha256 (taken here, once) and the items rendered."""
    text = render_episode_block(budgeted_episodes.items)
    return RenderedEpisodes(
        text=text,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        items=budgeted_episodes.items,
    )


# --- trace and result -------------------------------------------------------------------


@tag(stage="trace")
def episode_request_digest(request: EpisodeSearchRequest) -> str:
    """sha256 of the request's canonical JSON: what was asked, exactly."""
    return hashlib.sha256(request.model_dump_json().encode()).hexdigest()


@tag(stage="trace")
def episode_trace(
    trace_id: str,
    dag_version: str,
    request: EpisodeSearchRequest,
    episode_request_digest: str,
    episode_filter: EpisodeFilter,
    episode_arm_results: tuple[EpisodeArmResult, ...],
    fused_episodes: tuple[FusedEpisode, ...],
    episodes_above_floor: EpisodeFloorOutcome,
    trusted_episodes: EpisodeTrustOutcome,
    budgeted_episodes: EpisodeBudgetOutcome,
    rendered_episodes: RenderedEpisodes,
    episode_policy: EpisodePolicy,
    calibration: Calibration,
    episode_query_null: float | None,
) -> EpisodeTrace:
    """The record of this search, from the same objects the block was rendered from; the
    blocked episodes it counts are those rendered, one the budget dropped apart, as a
    recall's trace counts them."""
    families = trusted_episodes.blocked_families
    shown_blocked = {
        i.episode_id: families[i.episode_id] for i in rendered_episodes.items if i.blocked
    }
    return EpisodeTrace(
        id=trace_id,
        tenant_id=request.tenant_id,
        principal_id=request.principal_id,
        surface=request.surface,
        as_of=episode_filter.as_of,
        known_as_of=episode_filter.known_as_of,
        since=episode_filter.since,
        query=request.query,
        request_digest=episode_request_digest,
        episode_policy_version=episode_policy.version,
        dag_version=dag_version,
        calibration=calibration.ref.version,
        query_null=None if episode_query_null is None else round(episode_query_null, 6),
        arms=episode_arm_results,
        degraded_arms=tuple(a.arm for a in episode_arm_results if not a.ok),
        fused=fused_episodes,
        floor_dropped_ids=episodes_above_floor.dropped_ids,
        budget_dropped_ids=budgeted_episodes.dropped_ids,
        **blocked_counts(shown_blocked, trusted_episodes.blocked_ids),
        scanner_version=trusted_episodes.scanner_version,
        redacted=sum(bool(i.project_redacted or i.names_redacted) for i in rendered_episodes.items),
        rendered_ids=rendered_episodes.ids,
        rendered_tokens=budgeted_episodes.tokens,
        rendered_sha256=rendered_episodes.sha256,
    )


@tag(stage="result")
def episode_search_result(
    rendered_episodes: RenderedEpisodes, episode_trace: EpisodeTrace
) -> EpisodeSearchResult:
    """What the agent gets: the block, its hash, the episodes, and the trace."""
    return EpisodeSearchResult(
        block=rendered_episodes.text,
        rendered_sha256=rendered_episodes.sha256,
        items=rendered_episodes.items,
        trace=episode_trace,
    )
