-- Archival search's full-text probes read the episodes' GIN index through its tenant key
-- as well as the principal's and the term's; the tenant's posting tree holds every episode
-- of the tenant, so the probe's cost grew with the tenant, not with the principal searched.
-- Led by principal_id alone, as the beliefs' lexical index already is: over 100,000
-- episodes of 20 principals in one tenant, a three-word probe read 58 buffers instead of
-- 213, and a probe that also holds two words every episode carries 886 instead of 1,050.
-- The tenant is still checked on the row, which every query pins (see "Storage" in
-- docs/architecture.md).
DROP INDEX episodes_document_idx;
CREATE INDEX episodes_document_idx ON episodes USING gin (principal_id, search_document);
