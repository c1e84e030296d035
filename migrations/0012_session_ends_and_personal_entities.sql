-- Two things the trust boundary needs of the store (see "Trust boundary", "The trace" and
-- "Sessions" in docs/architecture.md).
--
-- 1. A session ends. A session row is never rewritten (migration 0007), so its end is a
--    row of its own: written once, by an explicit end or by the retention job when the
--    session has been idle past the policy's window. The retention job then deletes the
--    user-safe fields of the session's traces (user_view, which therefore becomes
--    nullable) and, once none of them keeps its operator fields, the session row itself
--    (its prefix, snapshot fingerprints and corrections, by cascade).
--
-- 2. An entity key can be marked with a sensitivity of its own for a principal (e.g. a
--    relative's name: personal). Where a surface's ceiling does not admit that level, the
--    entity's name is rendered as a marker in statements and episode excerpts, and the
--    user-safe trace view applies the same rule. Keys are normalised like belief
--    entities and subjects.
--
-- Keys lead with (tenant_id, principal_id), like every table here.

CREATE TABLE session_ends (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    session_id   text NOT NULL,
    ended_at     timestamptz NOT NULL,
    reason       text NOT NULL CHECK (reason IN ('ended', 'idle', 'parent_ended')),
    PRIMARY KEY (tenant_id, principal_id, session_id),
    CONSTRAINT session_ends_session_fk FOREIGN KEY (tenant_id, principal_id, session_id)
        REFERENCES sessions (tenant_id, principal_id, id) ON DELETE CASCADE
);
CREATE TRIGGER session_ends_append_only BEFORE UPDATE ON session_ends
    FOR EACH ROW EXECUTE FUNCTION recallflow_append_only();

-- A trace's user view dies with its session (the row stays: feedback events reference it).
ALTER TABLE recall_traces ALTER COLUMN user_view DROP NOT NULL;

CREATE TABLE entity_sensitivity (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    entity       text NOT NULL CHECK (entity ~ '^[a-z0-9][a-z0-9._:/-]{0,199}$'),
    sensitivity  smallint NOT NULL CHECK (sensitivity BETWEEN 0 AND 3),
    marked_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, principal_id, entity)
);
