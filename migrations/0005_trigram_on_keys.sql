-- The trigram arm matches query keys against the principal's distinct subject and entity
-- keys (principal_terms, kind 'k'), then reads the beliefs with a matched subject by the
-- subject index. A trigram scan over every belief's subject re-checked ~2,000 heap rows
-- per key at 100k beliefs (17 ms a key); distinct keys are far fewer than beliefs.
CREATE INDEX principal_terms_key_trgm_idx ON principal_terms
    USING gin (tenant_id, principal_id, term gin_trgm_ops) WHERE kind = 'k';
DROP INDEX IF EXISTS beliefs_subject_trgm_idx;
