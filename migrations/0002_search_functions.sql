-- Search helpers for the lexical arm.
--
-- recallflow_any_terms: parse each text with websearch_to_tsquery semantics (quoted
-- phrases, stemming, stop words), then accept a document that matches ANY term rather
-- than all of them, so a natural-language question still finds the turn that answers
-- it; ts_rank_cd then ranks documents that cover more terms, closer together, higher.
-- Callers strip negations ("-x") first: in an OR query they would match everything.
CREATE FUNCTION recallflow_any_terms(texts text[])
RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (
    SELECT coalesce(string_agg(replace(q::text, ' & ', ' | '), ' | ')::tsquery, ''::tsquery)
    FROM unnest(texts) AS t,
         LATERAL websearch_to_tsquery('english'::regconfig, t) AS q
    WHERE q::text <> ''
);
