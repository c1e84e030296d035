"""The hard filter as SQL: the isolation boundary every arm's query carries.

:func:`hard_filter_sql` is the one function that turns a :class:`HardFilter` into SQL
predicates; every arm's query in :mod:`recallflow.adapters.postgres.search` embeds it.
Tenant, principal, admissible lifecycle states, bi-temporal validity at ``as_of`` (world
time: ``valid_from <= as_of < valid_to``; system time: recorded by ``known_as_of`` and
not retracted by then) and the surface's sensitivity ceiling. Project scope is never a
predicate.
"""

from __future__ import annotations

from typing import Any

from psycopg import sql

from recallflow.models.stages import HardFilter


def hard_filter_sql(f: HardFilter, alias: str = "b") -> tuple[sql.Composed, dict[str, Any]]:
    """The predicates of ``f`` on the beliefs table aliased ``alias``, and their parameters.

    Parameters are named ``hf_*`` so they never collide with a query's own.
    """
    b = sql.Identifier(alias)
    predicate = sql.SQL(
        "{b}.tenant_id = %(hf_tenant)s AND {b}.principal_id = %(hf_principal)s"
        " AND {b}.state = ANY(%(hf_states)s)"
        " AND {b}.valid_from <= %(hf_as_of)s AND {b}.valid_to > %(hf_as_of)s"
        " AND {b}.recorded_at <= %(hf_known)s"
        " AND ({b}.retracted_at IS NULL OR {b}.retracted_at > %(hf_known)s)"
        " AND {b}.sensitivity <= %(hf_ceiling)s"
    ).format(b=b)
    params: dict[str, Any] = {
        "hf_tenant": f.tenant_id,
        "hf_principal": f.principal_id,
        "hf_states": [s.value for s in f.states],
        "hf_as_of": f.as_of,
        "hf_known": f.known_as_of,
        "hf_ceiling": int(f.sensitivity_ceiling),
    }
    return predicate, params
