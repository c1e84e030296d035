-- One episode can be forgotten (erasure.forget_episode): its erasure record says so by its
-- own scope and keeps a digest of the tenant, principal and episode ids — never the ids or
-- the episode's text — as a belief's record keeps one of the belief's.
ALTER TABLE erasures DROP CONSTRAINT erasures_scope_check;
ALTER TABLE erasures ADD CONSTRAINT erasures_scope_check
    CHECK (scope IN ('principal', 'belief', 'episode'));
ALTER TABLE erasures
    ADD COLUMN episode_sha256 text CHECK (episode_sha256 ~ '^[0-9a-f]{64}$');
ALTER TABLE erasures ADD CONSTRAINT erasures_episode_scope
    CHECK ((scope = 'episode') = (episode_sha256 IS NOT NULL));
