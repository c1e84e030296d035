-- The snapshot core's pre-rank stops early: its index is ordered by the pre-rank key within
-- each (belief type, source authority) group, confidence first, so the search reads at most
-- the limit's worth of passing beliefs from each group instead of every durable belief of
-- the principal (see "Sessions" in docs/architecture.md). The hard filter's columns stay
-- included, so the scan is still index-only.
DROP INDEX beliefs_durable_idx;
CREATE INDEX beliefs_durable_idx
    ON beliefs (tenant_id, principal_id, belief_type, source_authority, confidence DESC, id)
    INCLUDE (state, sensitivity, valid_from, valid_to, recorded_at, retracted_at, superseded_by,
             scope, origin_project, corroborating_projects);
