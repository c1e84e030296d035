-- A correction told in its short form (see "Corrections within the turn's budget" in
-- docs/sessions.md) names the belief's ids and kind but none of its statements, so the
-- agent has not read what the belief now says. Each recorded correction now says whether
-- it was told so. A belief whose latest told correction that was shortened or shows its
-- own statement was shortened is not held by the prefix: a later turn may recall it in
-- its own block. Rows recorded before this column read as told whole (their turn's trace
-- marks those that were not).
ALTER TABLE session_corrections ADD COLUMN abridged boolean NOT NULL DEFAULT false;
