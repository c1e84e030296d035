"""A readable summary of a RecallTrace (and of an EpisodeTrace) for the terminal (the
operator view): queries, arms with hit counts and latency, floor and budget drops, the
rendered ids with their score breakdown (and, for one the floor kept only beside another
belief, which one and through which entity), the policy and DAG versions, and the slowest
nodes of the lineage."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from recallflow.models.result import (
    Arm,
    ArmResult,
    EpisodeArm,
    EpisodeArmResult,
    EpisodeTrace,
    NodeRun,
    RecallTrace,
)


def _arm_lines(arms: Sequence[ArmResult | EpisodeArmResult]) -> list[str]:
    """One line per arm: its hits, its latency, and whether it degraded (and why)."""
    return [
        f"    {arm.arm:<22} {len(arm.hits):>3} hits  {arm.latency_ms:7.2f} ms  "
        + ("ok" if arm.ok else f"DEGRADED ({arm.error})")
        for arm in arms
    ]


def _ranks(arm_ranks: Mapping[Arm, int] | Mapping[EpisodeArm, int]) -> str:
    """Where each arm ranked an item, as words (``lexical_hits 2, semantic_hits 1``): the
    summary printed the mapping's Python repr, quotes and braces, under the label
    ``arms``, which read as hit counts."""
    return ", ".join(f"{arm.value} {rank}" for arm, rank in sorted(arm_ranks.items())) or "none"


def _lineage_lines(lineage: Sequence[NodeRun], top_nodes: int) -> list[str]:
    """The node count, their total time and the slowest ``top_nodes`` (none if untimed)."""
    if not lineage:
        return []
    total = sum(n.wall_ms for n in lineage)
    slow = sorted(lineage, key=lambda n: -n.wall_ms)[:top_nodes]
    return [
        f"  lineage: {len(lineage)} nodes, {total:.2f} ms; slowest "
        + ", ".join(f"{n.node} {n.wall_ms:.2f}" for n in slow)
    ]


def trace_summary(trace: RecallTrace, *, top_nodes: int = 5) -> str:
    """A multi-line summary of ``trace``."""
    lines = [
        f"trace {trace.id}  policy {trace.retrieval_policy_version}  dag {trace.dag_version}",
        f"  {trace.tenant_id}/{trace.principal_id}  moment {trace.moment.value}  "
        f"surface {trace.surface.value}  project {trace.project or '-'}  "
        f"as_of {trace.as_of.isoformat()}",
        "  queries: " + "; ".join(f"{q.kind}[{q.source}] {q.text[:60]!r}" for q in trace.queries),
        "  arms:",
    ]
    lines.extend(_arm_lines(trace.arms))
    lines.append(
        f"  fused {len(trace.fused)}  scored {len(trace.scored)}  "
        f"below floor {trace.floor_dropped}  over budget {trace.budget_dropped}  "
        f"blocked {trace.blocked}  rendered {len(trace.rendered_ids)} "
        f"({trace.rendered_tokens} tokens)"
    )
    scored = {s.belief_id: s for s in trace.scored}
    bridged = {b.belief_id: b for b in trace.floor_bridged}
    profiled = frozenset(trace.floor_profiled)
    for belief_id in trace.rendered_ids:
        s = scored[belief_id]
        b = s.breakdown
        # Penalties to the terms' three decimals, so the line adds up to its score.
        pen = ", ".join(f"{k} {v:+.3f}" for k, v in b.penalties.items()) or "none"
        ranks = _ranks(s.arm_ranks)
        lines.append(
            f"    {belief_id:<20} {s.score:.3f} = match {b.match:.3f} + rel {b.relevance:.3f}"
            f" + conf {b.confidence_state:.3f}"
            f" + corr {b.corroboration:.3f} + auth {b.authority:.3f} + scope {b.scope_affinity:.3f}"
            f" + util {b.utility:.3f}; penalties {pen}; ranks by arm: {ranks}"
        )
        if (bridge := bridged.get(belief_id)) is not None:
            lines.append(
                f"      kept as the bridged neighbour of {bridge.lead}"
                f" through {bridge.entity!r} (under the floor by itself)"
            )
        if belief_id in profiled:
            lines.append("      kept as a belief about the user, whom the turn asked about")
    lines.append(f"  rendered_sha256 {trace.rendered_sha256}")
    lines.extend(_lineage_lines(trace.lineage, top_nodes))
    return "\n".join(lines)


def episode_trace_summary(trace: EpisodeTrace, *, top_nodes: int = 5) -> str:
    """A multi-line summary of an archival search's ``trace``: the arms, what the floor
    and the budget dropped, each rendered episode's ranks and raw scores."""
    lines = [
        f"trace {trace.id}  policy {trace.episode_policy_version}  dag {trace.dag_version}",
        f"  {trace.tenant_id}/{trace.principal_id}  surface {trace.surface.value}  "
        f"as_of {trace.as_of.isoformat()}  known_as_of {trace.known_as_of.isoformat()}",
        f"  query {trace.query[:60]!r}",
        "  arms:",
    ]
    lines.extend(_arm_lines(trace.arms))
    lines.append(
        f"  fused {len(trace.fused)}  below floor {len(trace.floor_dropped_ids)}  "
        f"over budget {len(trace.budget_dropped_ids)}  blocked {trace.blocked}  "
        f"rendered {len(trace.rendered_ids)} ({trace.rendered_tokens} tokens)"
    )
    fused = {f.episode_id: f for f in trace.fused}
    for episode_id in trace.rendered_ids:
        f = fused[episode_id]
        ranks = _ranks(f.arm_ranks)
        similarity = "-" if f.similarity is None else f"{f.similarity:.3f}"
        coverage = "-" if f.coverage is None else f"{f.coverage:.2f}"
        lines.append(
            f"    {episode_id:<20} rrf {f.rrf_score:.4f}  similarity {similarity}"
            f"  words {coverage}  ranks by arm: {ranks}"
        )
    lines.append(f"  rendered_sha256 {trace.rendered_sha256}")
    lines.extend(_lineage_lines(trace.lineage, top_nodes))
    return "\n".join(lines)
