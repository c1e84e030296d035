-- Archival episode search (see "Moments" in docs/architecture.md): the agent-invoked query
-- over the event log, full text and vector, under its own hard filter.
--
-- recorded_at: the episode's system time, when the store learned of it. occurred_at is world
-- time (when it happened), and an imported history can be recorded years after it
-- occurred, so a search at known_as_of needs a column of its own. Rows stored before this
-- migration get the migration's time: the store cannot prove it knew them earlier, so a
-- search as known before the upgrade does not see them (the honest answer, not a guess).
ALTER TABLE episodes ADD COLUMN recorded_at timestamptz NOT NULL DEFAULT now();

-- The text an episode is searched by: its content, English stemming (as beliefs).
ALTER TABLE episodes ADD COLUMN search_document tsvector
    GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED;
CREATE INDEX episodes_document_idx ON episodes USING gin (tenant_id, principal_id, search_document);

-- The content's embedding, computed at ingest with the store's embedder. Rows stored before
-- this migration have none: the first archival search of a principal embeds that
-- principal's episodes (ingestion.py, Episodes.embed_missing), found by this partial index
-- (empty once they are done, so the check costs one index probe).
ALTER TABLE episodes ADD COLUMN embedding vector;
CREATE INDEX episodes_unembedded_idx ON episodes (tenant_id, principal_id) WHERE embedding IS NULL;

-- A store whose embedding dimension is already recorded types the column and builds its
-- HNSW index now; a new store does both when its dimension is first recorded
-- (adapters/postgres/settings.py), as for beliefs.
DO $$
DECLARE
    dimension integer;
BEGIN
    SELECT value::integer INTO dimension FROM store_settings WHERE key = 'embedding_dimension';
    IF dimension IS NOT NULL THEN
        EXECUTE format('ALTER TABLE episodes ALTER COLUMN embedding TYPE vector(%s)', dimension);
        CREATE INDEX IF NOT EXISTS episodes_embedding_hnsw_idx ON episodes
            USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64);
    END IF;
END;
$$;
