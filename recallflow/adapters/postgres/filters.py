"""The hard filter as SQL: the isolation boundary every arm's query carries.

:func:`hard_filter_sql` is the one function that turns a :class:`HardFilter` into SQL
predicates; every arm's query in :mod:`recallflow.adapters.postgres.search`, and the
loading of candidates, embeds it. Tenant, principal, lifecycle state *at* ``as_of``,
bi-temporal validity (world time: ``valid_from <= as_of < valid_to``; system time:
recorded by ``known_as_of`` and not retracted by then) and the surface's sensitivity
ceiling. Project scope is never a predicate.

Lifecycle state is judged at ``as_of``, so history reads correctly (see "History:
lifecycle state at `as_of`" in docs/recall.md). The ``state`` column is what a belief is
*now*; two states are ends in time rather than verdicts, and where the filter admits
active beliefs it also admits a belief in one of them at an ``as_of`` before that end:

- ``superseded``: live until its successor (``superseded_by``) took over, that is until
  the successor's ``valid_from`` in world time, once the store knew the successor (it was
  recorded by ``known_as_of`` and not retracted by then). A successor without
  ``valid_from`` is a correction: it was always true, so the old belief never was.
- ``expired``: live until its ``valid_to`` (already a predicate); an expired belief
  without a ``valid_to`` has no known end and is never live.

``retired`` beliefs stay out at every ``as_of``: retirement says the belief is not worth
recalling, not when it stopped being true.
"""

from __future__ import annotations

from typing import Any

from psycopg import sql

from recallflow.models.stages import HardFilter
from recallflow.models.store import LifecycleState

#: The states that end a belief in time: an active belief until then.
_ENDED = (LifecycleState.SUPERSEDED, LifecycleState.EXPIRED)

_BASE = (
    "{b}.tenant_id = %(hf_tenant)s AND {b}.principal_id = %(hf_principal)s"
    " AND {b}.state = ANY(%(hf_states)s)"
    " AND {b}.valid_from <= %(hf_as_of)s AND {b}.valid_to > %(hf_as_of)s"
    " AND {b}.recorded_at <= %(hf_known)s"
    " AND ({b}.retracted_at IS NULL OR {b}.retracted_at > %(hf_known)s)"
    " AND {b}.sensitivity <= %(hf_ceiling)s"
)
_EXPIRED_BEFORE_AS_OF = " AND ({b}.state <> 'expired' OR {b}.valid_to < 'infinity'::timestamptz)"
# A scalar subquery, not NOT EXISTS: inside an OR the planner turns NOT EXISTS into a
# hashed subplan that reads every belief of every principal; this is one primary-key
# lookup, made only for a superseded row.
_SUPERSEDED_BEFORE_AS_OF = (
    " AND ({b}.state <> 'superseded' OR (SELECT hf_successor.valid_from > %(hf_as_of)s"
    "   OR hf_successor.recorded_at > %(hf_known)s"
    "   OR coalesce(hf_successor.retracted_at <= %(hf_known)s, false)"
    "   FROM beliefs hf_successor WHERE hf_successor.tenant_id = {b}.tenant_id"
    "   AND hf_successor.principal_id = {b}.principal_id"
    "   AND hf_successor.id = {b}.superseded_by))"
)


def history_states(f: HardFilter) -> tuple[LifecycleState, ...]:
    """The states ``f`` admits only before the end they record: a belief in one of them
    passes the filter as the active belief it was at ``as_of``."""
    if LifecycleState.ACTIVE not in f.states:
        return ()
    return tuple(s for s in _ENDED if s not in f.states)


def state_at_as_of(f: HardFilter, state: LifecycleState) -> LifecycleState:
    """The lifecycle state a belief that passed ``f`` had at ``f.as_of``."""
    if state not in _ENDED:  # most candidates (the load at 10k: 0.059 -> 0.009 ms a recall)
        return state
    return LifecycleState.ACTIVE if state in history_states(f) else state


def hard_filter_sql(
    f: HardFilter, alias: str = "b", *, history: bool = True
) -> tuple[sql.Composed, dict[str, Any]]:
    """The predicates of ``f`` on the beliefs table aliased ``alias``, and their parameters.

    Parameters are named ``hf_*`` so they never collide with a query's own. With
    ``history=False`` the predicates pass only the beliefs in one of ``f.states`` now, not
    those admitted as history: a subset of the filter's beliefs, judged without a lookup
    (for counting the caller's view, see "Rarity: counted in the caller's view" in
    docs/recall.md). Their states parameter is then ``hf_view_states``, so both
    predicates can share one statement.

    The predicates' text depends on ``f`` only through :func:`history_states`, so a
    statement built on them can be compiled once per value of it; the values are
    :func:`hard_filter_params`.
    """
    b = sql.Identifier(alias)
    history_admitted = history_states(f) if history else ()
    text = _BASE
    if LifecycleState.EXPIRED in history_admitted:
        text += _EXPIRED_BEFORE_AS_OF
    if LifecycleState.SUPERSEDED in history_admitted:
        text += _SUPERSEDED_BEFORE_AS_OF
    states = "hf_states" if history else "hf_view_states"
    predicate = sql.SQL(text.replace("%(hf_states)s", f"%({states})s")).format(b=b)
    return predicate, hard_filter_params(f, history=history)


def hard_filter_params(f: HardFilter, *, history: bool = True) -> dict[str, Any]:
    """The parameters of :func:`hard_filter_sql`'s predicates for ``f``."""
    history_admitted = history_states(f) if history else ()
    states = "hf_states" if history else "hf_view_states"
    return {
        "hf_tenant": f.tenant_id,
        "hf_principal": f.principal_id,
        states: [s.value for s in (*f.states, *history_admitted)],
        "hf_as_of": f.as_of,
        "hf_known": f.known_as_of,
        "hf_ceiling": int(f.sensitivity_ceiling),
    }
