-- An erasure of a whole principal holds back what an erasure of one belief or episode
-- holds back: a keyed retry of an erased episode's write, an import of an older export, a
-- re-derivation of an erased belief. Its record (one row of erasures) keeps a digest of
-- each belief and episode it took here, as the record of forget_belief or forget_episode
-- keeps one of its item: the digest of the tenant, principal and id, and of a belief's
-- derivation key — never an id or any text. Written in the erasure's transaction, and
-- append-only as its record is; like erasures, it holds no principal's id, so no erasure
-- deletes it and it is store-wide (a reference table when distributed).
CREATE TABLE erased_items (
    tenant_id         text NOT NULL CHECK (tenant_id <> ''),
    erasure_id        bigint NOT NULL,
    scope             text NOT NULL CHECK (scope IN ('belief', 'episode')),
    principal_sha256  text NOT NULL CHECK (principal_sha256 ~ '^[0-9a-f]{64}$'),
    item_sha256       text NOT NULL CHECK (item_sha256 ~ '^[0-9a-f]{64}$'),
    derivation_sha256 text CHECK (derivation_sha256 ~ '^[0-9a-f]{64}$'),
    PRIMARY KEY (tenant_id, erasure_id, scope, item_sha256),
    CONSTRAINT erased_items_erasure_fk FOREIGN KEY (tenant_id, erasure_id)
        REFERENCES erasures (tenant_id, id),
    CONSTRAINT erased_items_derivation_scope
        CHECK (derivation_sha256 IS NULL OR scope = 'belief')
);
-- Read by (tenant, principal digest, scope, item digest): a retry's or an import's ids.
CREATE INDEX erased_items_item_idx
    ON erased_items (tenant_id, principal_sha256, scope, item_sha256);
CREATE INDEX erased_items_derivation_idx ON erased_items (tenant_id, principal_sha256)
    WHERE derivation_sha256 IS NOT NULL;

CREATE FUNCTION recallflow_erased_items_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'erased_items is append-only' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER erased_items_append_only BEFORE UPDATE OR DELETE ON erased_items
    FOR EACH ROW EXECUTE FUNCTION recallflow_erased_items_immutable();
