-- What a session's turns showed the agent of each belief beyond its prefix, so a later
-- change to it is corrected in the session's next turn as a prefix belief's is: its
-- status, its successor, its conflict set, its flag and a sha256 of its statement (never
-- its words), as the turn showed it or as the last correction about it told it. A turn
-- that shows the belief again, or corrects it, overwrites it. An erasure of the belief
-- empties it with the mark it sets (forgotten_at), so nothing of the erased statement
-- stays here, not even its digest. A row shown before this column existed has none: its
-- belief is corrected from the first turn that shows it again.
--
-- Each turn reads, with its lock of the session, only the rows whose belief may have
-- changed since; the two columns made from the fingerprint are what that test reads of
-- it, so it parses no JSON: the statement's digest when the belief was shown live, with
-- no successor and in no conflict (else NULL, and the turn reads the belief), and its
-- flag.
ALTER TABLE session_shown
    ADD COLUMN fingerprint jsonb,
    ADD COLUMN plain_sha256 bytea GENERATED ALWAYS AS (
        CASE WHEN fingerprint ->> 'status' = 'live' AND fingerprint ->> 'superseded_by' IS NULL
                  AND fingerprint ->> 'conflict_set_id' IS NULL
             THEN decode(fingerprint ->> 'statement_sha256', 'hex') END
    ) STORED,
    ADD COLUMN plain_flagged boolean GENERATED ALWAYS AS ((fingerprint ->> 'flagged')::boolean) STORED;
