-- Sessions: the frozen snapshot in the cached prefix, its watermark, and the corrections
-- rendered against it (see "Sessions" in docs/architecture.md).
--
-- A session row is written once, at open, and never changed: the prefix bytes, their
-- sha256, the budgets and policy version it was composed under, the watermark (the system
-- time the snapshot was taken at) and, per frozen belief, the fingerprint of what the
-- prefix told the agent about it. Resuming a session in any process reads these bytes
-- back; nothing recomputes them. Corrections are appended to session_corrections, one row
-- per rendered correction, so "what the agent was last told" about a snapshot belief is
-- its latest correction, else its snapshot fingerprint.
--
-- Keys lead with (tenant_id, principal_id), like every table here.

CREATE TABLE sessions (
    tenant_id                text NOT NULL CHECK (tenant_id <> ''),
    principal_id             text NOT NULL CHECK (principal_id <> ''),
    id                       text NOT NULL CHECK (id <> ''),
    kind                     text NOT NULL CHECK (kind IN ('interactive', 'async', 'child')),
    parent_session_id        text,
    surface                  text NOT NULL CHECK (surface IN ('direct', 'team', 'public', 'vault')),
    requested_surface        text NOT NULL
                             CHECK (requested_surface IN ('direct', 'team', 'public', 'vault')),
    project                  text,
    model_window             integer NOT NULL CHECK (model_window > 0),
    max_items                integer NOT NULL CHECK (max_items >= 0),
    max_tokens               integer NOT NULL CHECK (max_tokens >= 0),
    retrieval_policy_version text NOT NULL,
    watermark                timestamptz NOT NULL,
    snapshot_trace_id        text NOT NULL,
    prefix                   bytea NOT NULL,
    prefix_sha256            text NOT NULL CHECK (prefix_sha256 ~ '^[0-9a-f]{64}$'),
    snapshot_beliefs         jsonb NOT NULL,
    created_at               timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, principal_id, id),
    CONSTRAINT sessions_prefix_sha CHECK (encode(sha256(prefix), 'hex') = prefix_sha256),
    CONSTRAINT sessions_only_children_have_parents CHECK (parent_session_id IS NULL OR kind = 'child'),
    CONSTRAINT sessions_parent_fk FOREIGN KEY (tenant_id, principal_id, parent_session_id)
        REFERENCES sessions (tenant_id, principal_id, id)
);
CREATE INDEX sessions_kind_idx ON sessions (tenant_id, principal_id, kind, created_at);
CREATE INDEX sessions_parent_idx ON sessions (tenant_id, principal_id, parent_session_id)
    WHERE parent_session_id IS NOT NULL;

-- The prefix is never rewritten: a session row cannot be updated (deleting a whole
-- session, e.g. by retention, stays possible).
CREATE FUNCTION recallflow_session_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'a session is never rewritten (session %)', OLD.id
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER sessions_immutable BEFORE UPDATE ON sessions
    FOR EACH ROW EXECUTE FUNCTION recallflow_session_immutable();

CREATE TABLE session_corrections (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    session_id   text NOT NULL,
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    belief_id    text NOT NULL,
    kind         text NOT NULL,
    fingerprint  jsonb NOT NULL,
    trace_id     text NOT NULL,
    rendered_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, principal_id, session_id, seq),
    CONSTRAINT session_corrections_session_fk FOREIGN KEY (tenant_id, principal_id, session_id)
        REFERENCES sessions (tenant_id, principal_id, id) ON DELETE CASCADE
);
CREATE INDEX session_corrections_belief_idx
    ON session_corrections (tenant_id, principal_id, session_id, belief_id, seq);
CREATE TRIGGER session_corrections_append_only BEFORE UPDATE ON session_corrections
    FOR EACH ROW EXECUTE FUNCTION recallflow_append_only();

-- The snapshot core's candidates: a principal's beliefs of the durable types, pre-ranked from
-- the index alone (an index-only scan: beliefs rows are wide, and reading ~3,000 of them
-- from the heap cost ~8 ms at 10k beliefs against ~3 ms from this index).
CREATE INDEX beliefs_durable_idx ON beliefs (tenant_id, principal_id, belief_type)
    INCLUDE (id, state, sensitivity, valid_from, valid_to, recorded_at, retracted_at,
             confidence, source_authority, scope, origin_project, corroborating_projects);
