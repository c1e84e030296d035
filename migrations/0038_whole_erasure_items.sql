-- An erasure of a whole principal holds back what an erasure of one belief or episode
-- holds back: a keyed retry of an erased episode's write, an import of an older export, a
-- re-derivation of an erased belief. Its record (one row of erasures) keeps, here, a
-- digest of each belief and episode it took, as the record of forget_belief or
-- forget_episode keeps one of its item: the digest of the tenant, principal and id, and of
-- a belief's derivation key — never an id or any text. Written in the erasure's
-- transaction, one row per item, by the code that wrote the record (erasure_id is its
-- id; no foreign key checks each of the thousands of rows, nor a pattern each digest).
-- Append-only as the record is; like erasures, it holds no principal's id, so no erasure
-- deletes it and it is store-wide (a reference table when distributed).
CREATE TABLE erased_items (
    tenant_id         text NOT NULL,
    erasure_id        bigint NOT NULL,
    scope             text NOT NULL CHECK (scope IN ('belief', 'episode')),
    item_sha256       text NOT NULL,
    derivation_sha256 text,
    -- Read through the principal's erasure records (erasures_principal_idx): the items of
    -- each, by id digest, or all of them for their derivations.
    PRIMARY KEY (tenant_id, erasure_id, scope, item_sha256),
    CONSTRAINT erased_items_derivation_scope
        CHECK (derivation_sha256 IS NULL OR scope = 'belief')
);

CREATE FUNCTION recallflow_erased_items_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'erased_items is append-only' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER erased_items_append_only BEFORE UPDATE OR DELETE ON erased_items
    FOR EACH ROW EXECUTE FUNCTION recallflow_erased_items_immutable();
