-- Everything of one project, or every episode of one conversation, can be forgotten at
-- once (erasure.forget_scope). Each belief and episode it takes keeps the record
-- forget_belief or forget_episode would write for it (scope 'belief' or 'episode'), so
-- whatever holds back one forgotten item holds back these too; the scoped erasure adds
-- one record of its own, with the counts of the whole (the scrub of the stored traces,
-- made once for all the items, is counted there) and a digest of the tenant,
-- principal and project name or session id — never the name, nor any text. It is the
-- record of what goes that no item record names: the not-here rejections made in the
-- project, of beliefs of other projects.
ALTER TABLE erasures DROP CONSTRAINT erasures_scope_check;
ALTER TABLE erasures ADD CONSTRAINT erasures_scope_check
    CHECK (scope IN ('principal', 'belief', 'episode', 'project', 'session'));
ALTER TABLE erasures
    ADD COLUMN scope_sha256 text CHECK (scope_sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE erasures ADD CONSTRAINT erasures_named_scope
    CHECK ((scope IN ('project', 'session')) = (scope_sha256 IS NOT NULL));
