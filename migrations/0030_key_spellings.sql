-- A name is written more than one way: "fly.io", "fly-io" and "Fly IO"; "e-mail" and
-- "email"; "stab_pred" and "stab-pred"; "Bjørn" and "Bjorn". Each is its own key (a key
-- keeps its separators, and "ø" is a letter of its own), so a request that names the
-- entity one way never matched a belief that stores it another. A key's *spelling* is the
-- key without its separators, with the letters a keyboard without them writes otherwise
-- written so ("ø" as "o", "æ" as "ae", "ł" as "l", "þ" as "th"). The structured arm and
-- the floor's named entities match a key through the principal's keys spelled like it
-- (see "Subject and entity keys" in docs/architecture.md); the keys themselves are
-- unchanged.
CREATE FUNCTION recallflow_key_spelling(key text)
RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN replace(replace(replace(translate(key, 'øđðłħıŧ._:/-', 'oddlhit'), 'æ', 'ae'), 'œ', 'oe'),
               'þ', 'th');

CREATE INDEX principal_terms_key_spelling_idx ON principal_terms
    (principal_id, recallflow_key_spelling(term)) WHERE kind = 'k';
