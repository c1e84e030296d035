-- The GIN indexes the lexical and trigram arms probe lead with principal_id alone. In a GIN
-- index every column is its own set of keys, ANDed at scan time: the tenant's key, whose
-- posting tree holds every belief (or key) of the tenant, was walked by every probe as well
-- as the principal's and the term's. At 100k beliefs a lexical probe read 76 index pages
-- (48 without the tenant) and a trigram key probe 95 (22); the arms' statements ran in
-- 0.53x (lexical) and 0.63x (trigram) of their time, with the same rows. The principal
-- still keeps one principal's entries apart inside the index; the tenant is checked on the
-- row, which every query pins (see "Storage" in docs/architecture.md).
DROP INDEX principal_terms_key_trgm_idx;
CREATE INDEX principal_terms_key_trgm_idx ON principal_terms
    USING gin (principal_id, term gin_trgm_ops) WHERE kind = 'k';
DROP INDEX beliefs_document_idx;
CREATE INDEX beliefs_document_idx ON beliefs USING gin (principal_id, search_document);
DROP INDEX beliefs_entities_idx;
CREATE INDEX beliefs_entities_idx ON beliefs USING gin (principal_id, entities);
