-- What a session's turns showed the agent of each belief beyond its prefix, so a later
-- change to it is corrected in the session's next turn as a prefix belief's is: its
-- status, its successor, its conflict set, its flag and a sha256 of its statement (never
-- its words), as the turn showed it or as the last correction about it told it. A turn
-- that shows the belief again, or corrects it, overwrites it. An erasure of the belief
-- empties it with the mark it sets (forgotten_at), so nothing of the erased statement
-- stays here, not even its digest. A row shown before this column existed has none: its
-- belief is corrected from the first turn that shows it again.
ALTER TABLE session_shown ADD COLUMN fingerprint jsonb;
