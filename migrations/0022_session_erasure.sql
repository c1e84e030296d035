-- A session row is never rewritten, but for erasure: forgetting a belief that a session
-- froze into its prefix takes the statement out of the stored prefix and fingerprints
-- (adapters/postgres/erasure.py sets recallflow.erasure locally, as for the append-only
-- tables, and writes the erasure record in the same transaction). Without it a belief in
-- any stored session could not be forgotten until retention deleted the session.
CREATE OR REPLACE FUNCTION recallflow_session_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('recallflow.erasure', true) = 'on' THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'a session is never rewritten (session %)', OLD.id
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
