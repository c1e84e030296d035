-- Only the principals the semantic arm searches through the HNSW index pay for its upkeep
-- (see "Storage" in docs/architecture.md). A principal is *graduated* (principal_sizes.ann_indexed)
-- once it nears the size above which it is searched through the index; its beliefs then
-- carry ann_indexed and are the only rows of the partial index beliefs_embedding_ann_idx.
-- The store-wide index is dropped here; the partial one is built when the store is next
-- opened, after the principals already large enough are graduated (the threshold comes
-- from the retrieval policy, which SQL cannot read), so it is built in bulk.
ALTER TABLE beliefs ADD COLUMN ann_indexed boolean NOT NULL DEFAULT false;
ALTER TABLE principal_sizes ADD COLUMN ann_indexed boolean NOT NULL DEFAULT false;
DROP INDEX IF EXISTS beliefs_embedding_hnsw_idx;
