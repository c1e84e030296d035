-- A subject or entity key keeps the letters and digits of every script
-- (recallflow/models/key_reading.py), not only a-z and 0-9: "Москва" was refused and
-- "Project 東京" had the key of "Project 大阪". The checks on the stored keys (a belief's
-- subject, a marked entity) no longer spell the characters a key keeps (PostgreSQL's
-- character classes follow the database's locale, and in the C locale hold no letter
-- outside ASCII); they keep what every key is, whatever its script: 1 to 200 characters,
-- no upper-case ASCII letter, no white space or control character, not starting with a
-- separator. Every key the old checks admitted passes the new ones, so no row is
-- rewritten (each table is read once, to check them).
ALTER TABLE beliefs
    DROP CONSTRAINT beliefs_subject_check,
    ADD CONSTRAINT beliefs_subject_check CHECK (
        char_length(subject) BETWEEN 1 AND 200
        AND subject !~ '[A-Z[:space:][:cntrl:]]'
        AND subject !~ '^[._:/-]'
    );
ALTER TABLE entity_sensitivity
    DROP CONSTRAINT entity_sensitivity_entity_check,
    ADD CONSTRAINT entity_sensitivity_entity_check CHECK (
        char_length(entity) BETWEEN 1 AND 200
        AND entity !~ '[A-Z[:space:][:cntrl:]]'
        AND entity !~ '^[._:/-]'
    );
