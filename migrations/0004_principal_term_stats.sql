-- Per-principal term statistics for the rarity weights of the lexical and structured arms
-- (BM25 idf). Counting a common word's matches at query time costs
-- seconds at 100k beliefs; kept here by statement-level triggers with transition tables,
-- the counts cost one lookup per query word, and stay right whoever writes the beliefs.
-- Counts cover every belief of the principal, whatever its state: idf is a corpus
-- statistic, and the lifecycle moves too often to be worth tracking in it.

CREATE TABLE principal_terms (
    tenant_id    text NOT NULL,
    principal_id text NOT NULL,
    kind         "char" NOT NULL CHECK (kind IN ('l', 'k')),  -- l: stemmed lexeme; k: subject/entity key
    term         text NOT NULL,
    df           integer NOT NULL CHECK (df >= 0),
    PRIMARY KEY (tenant_id, principal_id, kind, term)
);

CREATE TABLE principal_sizes (
    tenant_id    text NOT NULL,
    principal_id text NOT NULL,
    beliefs      integer NOT NULL CHECK (beliefs >= 0),
    PRIMARY KEY (tenant_id, principal_id)
);

CREATE FUNCTION recallflow_count_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE principal_terms AS t SET df = t.df - d.n
        FROM (SELECT o.tenant_id, o.principal_id, x.kind, x.term, count(*)::int AS n
              FROM old_rows o,
                   LATERAL (SELECT 'l'::"char" AS kind, lx AS term
                              FROM unnest(tsvector_to_array(o.search_document)) AS lx
                            UNION
                            SELECT 'k'::"char", k FROM unnest(array_append(o.entities, o.subject)) AS k) x
              GROUP BY 1, 2, 3, 4) d
        WHERE (t.tenant_id, t.principal_id, t.kind, t.term) = (d.tenant_id, d.principal_id, d.kind, d.term);
        UPDATE principal_sizes AS s SET beliefs = s.beliefs - d.n
        FROM (SELECT tenant_id, principal_id, count(*)::int AS n FROM old_rows GROUP BY 1, 2) d
        WHERE (s.tenant_id, s.principal_id) = (d.tenant_id, d.principal_id);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO principal_terms AS t (tenant_id, principal_id, kind, term, df)
        SELECT n.tenant_id, n.principal_id, x.kind, x.term, count(*)
        FROM new_rows n,
             LATERAL (SELECT 'l'::"char" AS kind, lx AS term
                        FROM unnest(tsvector_to_array(n.search_document)) AS lx
                      UNION
                      SELECT 'k'::"char", k FROM unnest(array_append(n.entities, n.subject)) AS k) x
        GROUP BY 1, 2, 3, 4
        ON CONFLICT (tenant_id, principal_id, kind, term) DO UPDATE SET df = t.df + EXCLUDED.df;
        INSERT INTO principal_sizes AS s (tenant_id, principal_id, beliefs)
        SELECT tenant_id, principal_id, count(*) FROM new_rows GROUP BY 1, 2
        ON CONFLICT (tenant_id, principal_id) DO UPDATE SET beliefs = s.beliefs + EXCLUDED.beliefs;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER beliefs_terms_insert AFTER INSERT ON beliefs
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION recallflow_count_terms();
CREATE TRIGGER beliefs_terms_update AFTER UPDATE ON beliefs
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION recallflow_count_terms();
CREATE TRIGGER beliefs_terms_delete AFTER DELETE ON beliefs
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION recallflow_count_terms();

-- Backfill what is already stored.
INSERT INTO principal_terms (tenant_id, principal_id, kind, term, df)
SELECT b.tenant_id, b.principal_id, x.kind, x.term, count(*)
FROM beliefs b,
     LATERAL (SELECT 'l'::"char" AS kind, lx AS term FROM unnest(tsvector_to_array(b.search_document)) AS lx
              UNION
              SELECT 'k'::"char", k FROM unnest(array_append(b.entities, b.subject)) AS k) x
GROUP BY 1, 2, 3, 4;
INSERT INTO principal_sizes (tenant_id, principal_id, beliefs)
SELECT tenant_id, principal_id, count(*) FROM beliefs GROUP BY 1, 2;
