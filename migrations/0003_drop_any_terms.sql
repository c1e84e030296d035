-- The lexical arm now scores BM25 per lexeme in SQL (adapters/postgres/search.py) and no
-- longer ORs websearch queries together, so the helper of 0002 is unused.
DROP FUNCTION IF EXISTS recallflow_any_terms(text[]);
