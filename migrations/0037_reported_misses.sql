-- A miss the user or the agent reports: "it should have remembered this". An inferred miss
-- hint (miss_hints) is a subject recalled repeatedly with nothing above the floor; a recall
-- that showed something, only not the right thing, is a miss the store cannot see, so it
-- is said. Each row names the recall it refers to (its trace id, kept as text: retention
-- may delete the trace before formation reads the report) and what was missing: a belief
-- the principal holds (its id), or the words of what should have been remembered, or
-- both. It is pending until formation acknowledges it, as a queued hint is.
CREATE TABLE reported_misses (
    tenant_id       text NOT NULL CHECK (tenant_id <> ''),
    principal_id    text NOT NULL CHECK (principal_id <> ''),
    id              text NOT NULL CHECK (id <> ''),
    trace_id        text NOT NULL CHECK (trace_id <> ''),
    belief_id       text CHECK (belief_id <> ''),
    expected        text CHECK (expected <> ''),
    subject         text NOT NULL CHECK (subject <> ''),
    note            text CHECK (note <> ''),
    reported_at     timestamptz NOT NULL DEFAULT now(),
    acknowledged_at timestamptz,
    -- The text's digest, a column so the once-index below is on columns only (a unique
    -- index on an expression cannot hold the distribution column's rules).
    expected_md5    text NOT NULL GENERATED ALWAYS AS (md5(coalesce(expected, ''))) STORED,
    PRIMARY KEY (tenant_id, principal_id, id),
    CONSTRAINT reported_misses_say_what CHECK (belief_id IS NOT NULL OR expected IS NOT NULL),
    CONSTRAINT reported_misses_ack_after_report
        CHECK (acknowledged_at IS NULL OR acknowledged_at >= reported_at),
    CONSTRAINT reported_misses_belief_fk FOREIGN KEY (tenant_id, principal_id, belief_id)
        REFERENCES beliefs (tenant_id, principal_id, id) DEFERRABLE INITIALLY DEFERRED
);
-- The same report of the same recall is stored once (the text by its digest: a long one
-- would not fit an index entry).
CREATE UNIQUE INDEX reported_misses_once ON reported_misses
    (tenant_id, principal_id, trace_id, belief_id, expected_md5)
    NULLS NOT DISTINCT;
-- What formation reads: a principal's pending reports, oldest first.
CREATE INDEX reported_misses_pending_idx ON reported_misses (tenant_id, principal_id, reported_at)
    WHERE acknowledged_at IS NULL;
