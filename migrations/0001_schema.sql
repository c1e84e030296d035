-- recallflow schema, version 1 (see "Storage" in docs/architecture.md).
--
-- Every primary key and every B-tree/GIN index leads with (tenant_id, principal_id), so the
-- schema can be distributed by principal (Citus) without change. GIN indexes
-- get the leading columns through btree_gin. Two exceptions, both store-wide reference
-- tables: schema_migrations and store_settings, policy_versions. The HNSW index on
-- beliefs.embedding is single-column by pgvector's design; it is created when the store's
-- embedding dimension is first recorded (adapters/postgres/settings.py).
--
-- Constraints make bad rows impossible: enum checks, confidence in [0, 1],
-- valid_from < valid_to, recorded_at < retracted_at, non-empty statements, tenant and
-- principal on every row, references that cannot cross a principal.

CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE TABLE store_settings (
    key        text PRIMARY KEY,
    value      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- The text a belief is searched by: subject, statement and entity keys, English stemming.
-- IMMUTABLE is true here: the configuration is named explicitly.
CREATE FUNCTION recallflow_belief_document(subject text, statement text, entities text[])
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN setweight(to_tsvector('english'::regconfig, replace(replace(subject, '-', ' '), '_', ' ')), 'A')
    || setweight(to_tsvector('english'::regconfig, statement), 'B')
    || setweight(to_tsvector('english'::regconfig,
                             replace(replace(coalesce(array_to_string(entities, ' '), ''), '-', ' '), '_', ' ')), 'A');

CREATE TABLE episodes (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    id           text NOT NULL CHECK (id <> ''),
    project      text,
    session_id   text,
    occurred_at  timestamptz NOT NULL,
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    kind         text NOT NULL
                 CHECK (kind IN ('message', 'tool_call', 'observation', 'summary', 'correction')),
    content      text NOT NULL CHECK (btrim(content) <> ''),
    sensitivity  smallint NOT NULL DEFAULT 1 CHECK (sensitivity BETWEEN 0 AND 3),
    PRIMARY KEY (tenant_id, principal_id, id)
);
CREATE INDEX episodes_session_idx ON episodes (tenant_id, principal_id, session_id, occurred_at, seq);
CREATE INDEX episodes_time_idx ON episodes (tenant_id, principal_id, occurred_at, seq);

CREATE TABLE beliefs (
    tenant_id              text NOT NULL CHECK (tenant_id <> ''),
    principal_id           text NOT NULL CHECK (principal_id <> ''),
    id                     text NOT NULL CHECK (id <> ''),
    statement              text NOT NULL CHECK (btrim(statement) <> ''),
    subject                text NOT NULL CHECK (subject ~ '^[a-z0-9][a-z0-9._:/-]{0,199}$'),
    entities               text[] NOT NULL DEFAULT '{}',
    belief_type            text NOT NULL
                           CHECK (belief_type IN ('preference', 'user_model', 'fact', 'procedure', 'environment')),
    scope                  text NOT NULL CHECK (scope IN ('user', 'project')),
    origin_project         text,
    portability            text NOT NULL CHECK (portability IN ('portable', 'contextual', 'local')),
    state                  text NOT NULL
                           CHECK (state IN ('active', 'provisional', 'superseded', 'expired', 'retired', 'conflicted')),
    confidence             double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    valid_from             timestamptz NOT NULL DEFAULT '-infinity',
    valid_to               timestamptz NOT NULL DEFAULT 'infinity',
    recorded_at            timestamptz NOT NULL DEFAULT now(),
    retracted_at           timestamptz,
    sensitivity            smallint NOT NULL DEFAULT 1 CHECK (sensitivity BETWEEN 0 AND 3),
    source_authority       text NOT NULL
                           CHECK (source_authority IN ('user_stated', 'user_confirmed', 'observed', 'inferred', 'external')),
    source_episode_id      text,
    corroboration_count    integer NOT NULL DEFAULT 1 CHECK (corroboration_count >= 0),
    corroborating_projects text[] NOT NULL DEFAULT '{}',
    last_corroborated_at   timestamptz,
    utility                double precision NOT NULL DEFAULT 0 CHECK (utility >= 0),
    last_reinforced_at     timestamptz,
    flagged                boolean NOT NULL DEFAULT false,
    supersedes             text,
    superseded_by          text,
    conflict_set_id        text,
    embedding              vector,
    search_document        tsvector GENERATED ALWAYS AS
                           (recallflow_belief_document(subject, statement, entities)) STORED,
    PRIMARY KEY (tenant_id, principal_id, id),
    CONSTRAINT beliefs_validity_order CHECK (valid_from < valid_to),
    CONSTRAINT beliefs_system_time_order CHECK (retracted_at IS NULL OR recorded_at < retracted_at),
    CONSTRAINT beliefs_project_scope_has_origin CHECK (scope = 'user' OR origin_project IS NOT NULL),
    CONSTRAINT beliefs_superseded_has_successor CHECK (state <> 'superseded' OR superseded_by IS NOT NULL),
    CONSTRAINT beliefs_conflicted_has_set CHECK (state <> 'conflicted' OR conflict_set_id IS NOT NULL),
    CONSTRAINT beliefs_no_self_supersession CHECK (supersedes IS DISTINCT FROM id AND superseded_by IS DISTINCT FROM id),
    CONSTRAINT beliefs_source_episode_fk FOREIGN KEY (tenant_id, principal_id, source_episode_id)
        REFERENCES episodes (tenant_id, principal_id, id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT beliefs_supersedes_fk FOREIGN KEY (tenant_id, principal_id, supersedes)
        REFERENCES beliefs (tenant_id, principal_id, id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT beliefs_superseded_by_fk FOREIGN KEY (tenant_id, principal_id, superseded_by)
        REFERENCES beliefs (tenant_id, principal_id, id) DEFERRABLE INITIALLY DEFERRED
);
-- The hard filter's leading predicates (exact vector search stays fast for small principals).
CREATE INDEX beliefs_filter_idx ON beliefs (tenant_id, principal_id, state, sensitivity);
-- Structured arm: subject keys and entity keys.
CREATE INDEX beliefs_subject_idx ON beliefs (tenant_id, principal_id, subject);
CREATE INDEX beliefs_entities_idx ON beliefs USING gin (tenant_id, principal_id, entities);
-- Lexical arm: full-text search.
CREATE INDEX beliefs_document_idx ON beliefs USING gin (tenant_id, principal_id, search_document);
-- Trigram arm: word_similarity on the short subject only.
CREATE INDEX beliefs_subject_trgm_idx ON beliefs USING gin (tenant_id, principal_id, subject gin_trgm_ops);
-- Resolution: members of a conflict set.
CREATE INDEX beliefs_conflict_idx ON beliefs (tenant_id, principal_id, conflict_set_id)
    WHERE conflict_set_id IS NOT NULL;

CREATE TABLE belief_edges (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    src_id       text NOT NULL,
    dst_id       text NOT NULL,
    relation     text NOT NULL
                 CHECK (relation IN ('related', 'same_episode', 'follows', 'refines', 'depends_on', 'contradicts')),
    weight       double precision NOT NULL DEFAULT 1 CHECK (weight > 0 AND weight <= 1),
    PRIMARY KEY (tenant_id, principal_id, src_id, dst_id, relation),
    CONSTRAINT belief_edges_no_loop CHECK (src_id <> dst_id),
    CONSTRAINT belief_edges_src_fk FOREIGN KEY (tenant_id, principal_id, src_id)
        REFERENCES beliefs (tenant_id, principal_id, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT belief_edges_dst_fk FOREIGN KEY (tenant_id, principal_id, dst_id)
        REFERENCES beliefs (tenant_id, principal_id, id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX belief_edges_dst_idx ON belief_edges (tenant_id, principal_id, dst_id);

-- RecallTrace: one record, two projections. Operator columns are nullable so a
-- retention job can null them after the tuning window; user-safe columns live with the session.
CREATE TABLE recall_traces (
    tenant_id                text NOT NULL CHECK (tenant_id <> ''),
    principal_id             text NOT NULL CHECK (principal_id <> ''),
    id                       text NOT NULL CHECK (id <> ''),
    session_id               text,
    moment                   text NOT NULL CHECK (moment IN ('session_snapshot', 'in_turn', 'child_run')),
    surface                  text NOT NULL,
    as_of                    timestamptz NOT NULL,
    created_at               timestamptz NOT NULL DEFAULT now(),
    rendered_sha256          text NOT NULL CHECK (rendered_sha256 ~ '^[0-9a-f]{64}$'),
    retrieval_policy_version text NOT NULL,
    degraded                 boolean NOT NULL DEFAULT false,
    user_view                jsonb NOT NULL,
    operator_view            jsonb,
    operator_expires_at      timestamptz,
    PRIMARY KEY (tenant_id, principal_id, id)
);
CREATE INDEX recall_traces_session_idx ON recall_traces (tenant_id, principal_id, session_id, created_at);
CREATE INDEX recall_traces_operator_expiry_idx ON recall_traces (tenant_id, principal_id, operator_expires_at)
    WHERE operator_view IS NOT NULL;

-- Usage feedback and typed rejections: append-only.
CREATE TABLE feedback_events (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    id           bigint GENERATED ALWAYS AS IDENTITY,
    trace_id     text,
    belief_id    text NOT NULL,
    kind         text NOT NULL
                 CHECK (kind IN ('cited', 'rejected_not_true', 'rejected_changed', 'rejected_not_here', 'rejected_unspecified')),
    project      text,
    note         text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, principal_id, id),
    CONSTRAINT feedback_events_belief_fk FOREIGN KEY (tenant_id, principal_id, belief_id)
        REFERENCES beliefs (tenant_id, principal_id, id),
    CONSTRAINT feedback_events_trace_fk FOREIGN KEY (tenant_id, principal_id, trace_id)
        REFERENCES recall_traces (tenant_id, principal_id, id)
);
CREATE INDEX feedback_events_belief_idx ON feedback_events (tenant_id, principal_id, belief_id, created_at);

CREATE FUNCTION recallflow_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER feedback_events_append_only BEFORE UPDATE OR DELETE ON feedback_events
    FOR EACH ROW EXECUTE FUNCTION recallflow_append_only();

-- Recall misses: a subject queried repeatedly with nothing above the floor.
CREATE TABLE miss_hints (
    tenant_id       text NOT NULL CHECK (tenant_id <> ''),
    principal_id    text NOT NULL CHECK (principal_id <> ''),
    subject         text NOT NULL CHECK (subject <> ''),
    miss_count      integer NOT NULL DEFAULT 1 CHECK (miss_count >= 1),
    first_missed_at timestamptz NOT NULL DEFAULT now(),
    last_missed_at  timestamptz NOT NULL DEFAULT now(),
    queued_at       timestamptz,
    PRIMARY KEY (tenant_id, principal_id, subject)
);

-- Every retrieval_policy_version a trace names, with the policy it stood for.
CREATE TABLE policy_versions (
    version    text PRIMARY KEY,
    policy     jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
