-- A forgotten belief stays forgotten when formation re-derives it from the episode it came
-- from: the erasure record of one belief also keeps a digest of its derivation key (the
-- tenant, the principal, the source episode and the statement as re-derivation folds it),
-- never the key itself, and re-derivation leaves out a draft whose key has one.
ALTER TABLE erasures
    ADD COLUMN derivation_sha256 text CHECK (derivation_sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE erasures ADD CONSTRAINT erasures_derivation_scope
    CHECK (derivation_sha256 IS NULL OR scope = 'belief');
CREATE INDEX erasures_derivation_idx ON erasures (tenant_id, principal_sha256)
    WHERE derivation_sha256 IS NOT NULL;
