-- What a session's turns showed the agent beyond its prefix: a belief a turn's block
-- rendered, or whose statement a correction line told in full (a replacement, a disputing
-- belief). The agent's context keeps those lines for the rest of the session, so when such
-- a belief is forgotten the session must still name the line to drop: the erasure marks
-- the row (forgotten_at), and the session's next turn tells "- [id] forgotten" and deletes
-- it. A row holds the belief's id only, never its words; the prefix's own beliefs are
-- tracked by the session row (see "Forgetting" in docs/corrections.md).
CREATE TABLE session_shown (
    tenant_id    text NOT NULL CHECK (tenant_id <> ''),
    principal_id text NOT NULL CHECK (principal_id <> ''),
    session_id   text NOT NULL,
    belief_id    text NOT NULL,
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    forgotten_at timestamptz,
    PRIMARY KEY (tenant_id, principal_id, session_id, belief_id),
    CONSTRAINT session_shown_session_fk FOREIGN KEY (tenant_id, principal_id, session_id)
        REFERENCES sessions (tenant_id, principal_id, id) ON DELETE CASCADE
);
-- The erasure finds the sessions that showed a belief by its id.
CREATE INDEX session_shown_belief_idx ON session_shown (tenant_id, principal_id, belief_id);
