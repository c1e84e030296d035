-- The write path back into memory: lifecycle events, typed rejections replayed by
-- re-derivation, per-project exclusions, acknowledged miss hints, and erasure (see
-- "Feedback and corrections" and "Lifecycle and history" in docs/architecture.md).
--
-- A belief is never edited in place: its content is fixed at insert, and every change of
-- its lifecycle (superseded, retracted, retired, expired, corroborated, promoted) is an
-- append-only event written in the same transaction as its effect on the belief row.
-- Usage feedback and typed rejections stay in feedback_events (migration 0001).

CREATE TABLE belief_events (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    id           bigint GENERATED ALWAYS AS IDENTITY,
    belief_id    text NOT NULL,
    kind         text NOT NULL
                 CHECK (kind IN ('superseded', 'retracted', 'retired', 'expired', 'corroborated', 'promoted')),
    related_id   text,          -- superseded: the successor
    project      text,          -- corroborated: the project the evidence comes from
    evidence_id  text,          -- corroborated: the episode that is the evidence
    reason       text,
    effective_at timestamptz NOT NULL,  -- world time (superseded, expired) or system time
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, principal_id, id),
    CONSTRAINT belief_events_successor_named CHECK (kind <> 'superseded' OR related_id IS NOT NULL),
    CONSTRAINT belief_events_corroboration_named
        CHECK (kind <> 'corroborated' OR (project IS NOT NULL AND evidence_id IS NOT NULL)),
    CONSTRAINT belief_events_belief_fk FOREIGN KEY (tenant_id, principal_id, belief_id)
        REFERENCES beliefs (tenant_id, principal_id, id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT belief_events_related_fk FOREIGN KEY (tenant_id, principal_id, related_id)
        REFERENCES beliefs (tenant_id, principal_id, id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT belief_events_evidence_fk FOREIGN KEY (tenant_id, principal_id, evidence_id)
        REFERENCES episodes (tenant_id, principal_id, id) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX belief_events_belief_idx ON belief_events (tenant_id, principal_id, belief_id, id);
CREATE INDEX belief_events_related_idx ON belief_events (tenant_id, principal_id, related_id)
    WHERE related_id IS NOT NULL;
-- The same evidence corroborates a belief in a project once (corroborate is idempotent).
CREATE UNIQUE INDEX belief_events_corroboration_once
    ON belief_events (tenant_id, principal_id, belief_id, project, evidence_id)
    WHERE kind = 'corroborated';

-- A belief is stored once per derivation (source episode and statement): re-ingesting it
-- under another id finds the stored one through this index (adapters/postgres/lifecycle.py),
-- and re-derivation finds the earlier beliefs whose corrections it replays.
CREATE INDEX beliefs_source_idx ON beliefs (tenant_id, principal_id, source_episode_id)
    WHERE source_episode_id IS NOT NULL;

-- The same feedback on the same belief from the same trace counts once (idempotent writes).
CREATE UNIQUE INDEX feedback_events_once ON feedback_events (tenant_id, principal_id, trace_id, belief_id, kind)
    WHERE trace_id IS NOT NULL;
CREATE INDEX feedback_events_trace_idx ON feedback_events (tenant_id, principal_id, trace_id)
    WHERE trace_id IS NOT NULL;

-- "True elsewhere but not here": a belief is not recalled in a project it was rejected in.
-- Project is relevance, not a hard filter, so this list is joined where candidates are
-- loaded (adapters/postgres/search.py), not in the hard filter.
CREATE TABLE belief_exclusions (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    belief_id    text NOT NULL,
    project      text NOT NULL CHECK (project <> ''),
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, principal_id, belief_id, project),
    CONSTRAINT belief_exclusions_belief_fk FOREIGN KEY (tenant_id, principal_id, belief_id)
        REFERENCES beliefs (tenant_id, principal_id, id) DEFERRABLE INITIALLY DEFERRED
);

-- A queued miss hint is pending until formation acknowledges it.
ALTER TABLE miss_hints ADD COLUMN acknowledged_at timestamptz;
ALTER TABLE miss_hints ADD CONSTRAINT miss_hints_ack_after_queue
    CHECK (acknowledged_at IS NULL OR (queued_at IS NOT NULL AND acknowledged_at >= queued_at));

-- Erasure is the one audited exception to append-only: what was erased (a digest of the
-- principal and belief ids, never the ids or any content), how many rows, and when.
CREATE TABLE erasures (
    tenant_id        text NOT NULL CHECK (tenant_id <> ''),
    id               bigint GENERATED ALWAYS AS IDENTITY,
    scope            text NOT NULL CHECK (scope IN ('principal', 'belief')),
    principal_sha256 text NOT NULL CHECK (principal_sha256 ~ '^[0-9a-f]{64}$'),
    belief_sha256    text CHECK (belief_sha256 ~ '^[0-9a-f]{64}$'),
    counts           jsonb NOT NULL,
    erased_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, id),
    CONSTRAINT erasures_belief_scope CHECK ((scope = 'belief') = (belief_sha256 IS NOT NULL))
);

-- Append-only tables refuse UPDATE always, and DELETE unless the transaction is an
-- erasure (adapters/postgres/erasure.py sets recallflow.erasure locally and writes the
-- erasure record in the same transaction).
CREATE OR REPLACE FUNCTION recallflow_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('recallflow.erasure', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER belief_events_append_only BEFORE UPDATE OR DELETE ON belief_events
    FOR EACH ROW EXECUTE FUNCTION recallflow_append_only();

CREATE FUNCTION recallflow_erasures_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'erasures is append-only' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER erasures_append_only BEFORE UPDATE OR DELETE ON erasures
    FOR EACH ROW EXECUTE FUNCTION recallflow_erasures_immutable();
