-- A principal's recall should cost what the principal holds, not what the store around it
-- holds (see "Storage" in docs/architecture.md and "The 1M run" in docs/scaling.md).
--
-- 1. The semantic arm searches a principal below semantic_exact_factor x sqrt(rows)
-- exactly: every one of its vectors is compared. Read through the heap, that is one heap
-- page per belief (a principal's beliefs share their pages with every principal written
-- at the same time) and, since a 384-dimension vector is stored out of line, three to
-- four more pages per belief for its TOAST index and chunk. This index holds the vectors
-- with every column of the hard filter, in principal order, so the exact search is an
-- index-only scan of the principal's own entries and reads neither the heap nor TOAST
-- (once vacuum has marked the pages all-visible; before that, one heap visibility check
-- per belief and still no TOAST). A 10k-belief principal in a 1.1M-belief store: 5,723
-- buffers instead of 42,385, 12 ms instead of 24 ms. It leads with tenant_id and
-- principal_id like every key of the table. Building it takes a SHARE lock on beliefs
-- (writes wait, recalls do not): 17-32 s at 1.1M beliefs. On a large store, build it
-- beforehand without the lock (CREATE INDEX CONCURRENTLY with this definition, outside a
-- transaction); this migration then finds it and leaves it.
CREATE INDEX IF NOT EXISTS beliefs_vectors_idx ON beliefs (tenant_id, principal_id, state, sensitivity)
    INCLUDE (valid_from, valid_to, recorded_at, retracted_at, superseded_by, id, embedding);
-- 2. The GIN indexes the lexical, structured and trigram arms probe keep new entries in a
-- pending list (fastupdate), which every probe reads whole, whichever principal it is
-- for, until vacuum or the list's size limit merges it into the index: by default up to
-- 4 MB of every principal's recent writes. In the 1.1M-belief store the key trigram index
-- held 161 pending pages, and a trigram arm's statement read 400 buffers in 6.4 ms instead
-- of 78 in 0.45 ms once they were merged. At the smallest limit (64 kB) a probe reads at
-- most 8 pending pages, and a write still batches its entries: 0.16 ms of server CPU per
-- belief written against 0.15 (0.23 with the list turned off).
ALTER INDEX principal_terms_key_trgm_idx SET (gin_pending_list_limit = 64);
ALTER INDEX beliefs_document_idx SET (gin_pending_list_limit = 64);
ALTER INDEX beliefs_entities_idx SET (gin_pending_list_limit = 64);
SELECT gin_clean_pending_list(i::regclass)
    FROM unnest(ARRAY['principal_terms_key_trgm_idx', 'beliefs_document_idx',
        'beliefs_entities_idx']) AS i;
