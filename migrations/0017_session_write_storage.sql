-- A session's open writes its row and its snapshot trace in one durable commit, and every
-- recall writes its trace: the session's snapshot fingerprints (about 20 KB of JSON), its
-- prefix (about 5 KB) and a trace's user view (about 15 KB for a snapshot) were compressed
-- with pglz before being stored out of line. That compression was 0.5 ms of the server's
-- 2.8 ms for an open's write at 10k beliefs; stored out of line uncompressed, as the
-- operator view already is (migration 0010), they cost disk instead (about 3x for these
-- columns). A recall's user view (about 0.3 KB) is below the size at which a value is
-- stored out of line, so only snapshot traces change; a session's user views go when it
-- ends (see "The trace" in docs/architecture.md). Existing rows keep their compression.
ALTER TABLE recall_traces ALTER COLUMN user_view SET STORAGE EXTERNAL;
ALTER TABLE sessions ALTER COLUMN snapshot_beliefs SET STORAGE EXTERNAL;
ALTER TABLE sessions ALTER COLUMN prefix SET STORAGE EXTERNAL;
