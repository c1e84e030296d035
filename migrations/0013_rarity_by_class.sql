-- Rarity (BM25's idf) is counted in the caller's view: the beliefs that pass the hard
-- filter (see "Rarity" in docs/recall.md). Counting a view at query time reads every
-- belief of it and every match of every query word, which at 100k beliefs costs tens of
-- milliseconds; bounding the count made a large principal's words look common and its
-- ranking fall apart. The view is instead split into what can be counted ahead and
-- what cannot:
--
-- * the *classes* of the view, (state, sensitivity): the hard filter admits whole
--   classes, so their sizes and each term's beliefs per class are kept here by
--   statement-level triggers (as principal_terms, migration 0004, is per principal);
-- * the beliefs of the admitted classes that the filter's *time* predicates leave out
--   (valid only later or no longer at as_of, recorded after or retracted by known_as_of):
--   found at query time through the four indexes below, usually none for a read of now.
--
-- A view's count is the admitted classes' count minus those beliefs' count: exact, from
-- the view's rows alone, at a cost that does not grow with the principal. When a read of
-- the past leaves out more than the policy's limits.rarity_exclusion_cap beliefs, the
-- query counts the view directly instead.

CREATE TABLE principal_term_classes (
    tenant_id    text NOT NULL,
    principal_id text NOT NULL,
    kind         "char" NOT NULL CHECK (kind IN ('l', 'k')),  -- as principal_terms
    term         text NOT NULL,
    state        text NOT NULL,
    sensitivity  smallint NOT NULL,
    df           integer NOT NULL CHECK (df >= 0),
    PRIMARY KEY (tenant_id, principal_id, kind, term, state, sensitivity)
);

CREATE TABLE principal_class_sizes (
    tenant_id    text NOT NULL,
    principal_id text NOT NULL,
    state        text NOT NULL,
    sensitivity  smallint NOT NULL,
    beliefs      integer NOT NULL CHECK (beliefs >= 0),
    PRIMARY KEY (tenant_id, principal_id, state, sensitivity)
);

-- An UPDATE counts only the rows whose class or terms changed: most updates (a belief's
-- utility, its corroboration) move nothing.
CREATE FUNCTION recallflow_count_term_classes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE principal_term_classes AS t SET df = t.df - d.n
        FROM (SELECT o.tenant_id, o.principal_id, x.kind, x.term, o.state, o.sensitivity,
                     count(*)::int AS n
              FROM old_rows o,
              LATERAL (SELECT 'l'::"char" AS kind, lx AS term
                 FROM unnest(tsvector_to_array(o.search_document)) AS lx
               UNION
               SELECT 'k'::"char", k FROM unnest(array_append(o.entities, o.subject)) AS k) x
              GROUP BY 1, 2, 3, 4, 5, 6) d
        WHERE (t.tenant_id, t.principal_id, t.kind, t.term, t.state, t.sensitivity)
            = (d.tenant_id, d.principal_id, d.kind, d.term, d.state, d.sensitivity);
        UPDATE principal_class_sizes AS s SET beliefs = s.beliefs - d.n
        FROM (SELECT o.tenant_id, o.principal_id, o.state, o.sensitivity, count(*)::int AS n
              FROM old_rows o
              GROUP BY 1, 2, 3, 4) d
        WHERE (s.tenant_id, s.principal_id, s.state, s.sensitivity)
            = (d.tenant_id, d.principal_id, d.state, d.sensitivity);
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE principal_term_classes AS t SET df = t.df - d.n
        FROM (SELECT o.tenant_id, o.principal_id, x.kind, x.term, o.state, o.sensitivity,
                     count(*)::int AS n
              FROM old_rows o,
              LATERAL (SELECT 'l'::"char" AS kind, lx AS term
                 FROM unnest(tsvector_to_array(o.search_document)) AS lx
               UNION
               SELECT 'k'::"char", k FROM unnest(array_append(o.entities, o.subject)) AS k) x
              WHERE NOT EXISTS (SELECT FROM new_rows n
                WHERE (n.tenant_id, n.principal_id, n.id) = (o.tenant_id, o.principal_id, o.id)
                AND (n.state, n.sensitivity, n.search_document, n.subject, n.entities) IS NOT DISTINCT FROM (o.state, o.sensitivity, o.search_document, o.subject, o.entities))
              GROUP BY 1, 2, 3, 4, 5, 6) d
        WHERE (t.tenant_id, t.principal_id, t.kind, t.term, t.state, t.sensitivity)
            = (d.tenant_id, d.principal_id, d.kind, d.term, d.state, d.sensitivity);
        UPDATE principal_class_sizes AS s SET beliefs = s.beliefs - d.n
        FROM (SELECT o.tenant_id, o.principal_id, o.state, o.sensitivity, count(*)::int AS n
              FROM old_rows o
              WHERE NOT EXISTS (SELECT FROM new_rows n
                WHERE (n.tenant_id, n.principal_id, n.id) = (o.tenant_id, o.principal_id, o.id)
                AND (n.state, n.sensitivity) IS NOT DISTINCT FROM (o.state, o.sensitivity))
              GROUP BY 1, 2, 3, 4) d
        WHERE (s.tenant_id, s.principal_id, s.state, s.sensitivity)
            = (d.tenant_id, d.principal_id, d.state, d.sensitivity);
        INSERT INTO principal_term_classes AS t
            (tenant_id, principal_id, kind, term, state, sensitivity, df)
        SELECT n.tenant_id, n.principal_id, x.kind, x.term, n.state, n.sensitivity, count(*)
        FROM new_rows n,
        LATERAL (SELECT 'l'::"char" AS kind, lx AS term
                 FROM unnest(tsvector_to_array(n.search_document)) AS lx
               UNION
               SELECT 'k'::"char", k FROM unnest(array_append(n.entities, n.subject)) AS k) x
        WHERE NOT EXISTS (SELECT FROM old_rows o
                WHERE (o.tenant_id, o.principal_id, o.id) = (n.tenant_id, n.principal_id, n.id)
                AND (o.state, o.sensitivity, o.search_document, o.subject, o.entities) IS NOT DISTINCT FROM (n.state, n.sensitivity, n.search_document, n.subject, n.entities))
        GROUP BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (tenant_id, principal_id, kind, term, state, sensitivity)
        DO UPDATE SET df = t.df + EXCLUDED.df;
        INSERT INTO principal_class_sizes AS s (tenant_id, principal_id, state, sensitivity, beliefs)
        SELECT n.tenant_id, n.principal_id, n.state, n.sensitivity, count(*) FROM new_rows n
        WHERE NOT EXISTS (SELECT FROM old_rows o
                WHERE (o.tenant_id, o.principal_id, o.id) = (n.tenant_id, n.principal_id, n.id)
                AND (o.state, o.sensitivity) IS NOT DISTINCT FROM (n.state, n.sensitivity))
        GROUP BY 1, 2, 3, 4
        ON CONFLICT (tenant_id, principal_id, state, sensitivity)
        DO UPDATE SET beliefs = s.beliefs + EXCLUDED.beliefs;
    ELSE
        INSERT INTO principal_term_classes AS t
            (tenant_id, principal_id, kind, term, state, sensitivity, df)
        SELECT n.tenant_id, n.principal_id, x.kind, x.term, n.state, n.sensitivity, count(*)
        FROM new_rows n,
        LATERAL (SELECT 'l'::"char" AS kind, lx AS term
                 FROM unnest(tsvector_to_array(n.search_document)) AS lx
               UNION
               SELECT 'k'::"char", k FROM unnest(array_append(n.entities, n.subject)) AS k) x
        GROUP BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (tenant_id, principal_id, kind, term, state, sensitivity)
        DO UPDATE SET df = t.df + EXCLUDED.df;
        INSERT INTO principal_class_sizes AS s (tenant_id, principal_id, state, sensitivity, beliefs)
        SELECT n.tenant_id, n.principal_id, n.state, n.sensitivity, count(*) FROM new_rows n
        GROUP BY 1, 2, 3, 4
        ON CONFLICT (tenant_id, principal_id, state, sensitivity)
        DO UPDATE SET beliefs = s.beliefs + EXCLUDED.beliefs;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER beliefs_term_classes_insert AFTER INSERT ON beliefs
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION recallflow_count_term_classes();
CREATE TRIGGER beliefs_term_classes_update AFTER UPDATE ON beliefs
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION recallflow_count_term_classes();
CREATE TRIGGER beliefs_term_classes_delete AFTER DELETE ON beliefs
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION recallflow_count_term_classes();

-- The beliefs the time predicates leave out, one index per predicate (a read of now
-- finds none of them in any); the state leads, so beliefs in states the filter does not
-- admit (expired, superseded: most of the beliefs with an end) are never read.
CREATE INDEX beliefs_valid_from_idx ON beliefs (tenant_id, principal_id, state, valid_from)
    WHERE valid_from > '-infinity';
CREATE INDEX beliefs_valid_to_idx ON beliefs (tenant_id, principal_id, state, valid_to)
    WHERE valid_to < 'infinity';
CREATE INDEX beliefs_recorded_idx ON beliefs (tenant_id, principal_id, state, recorded_at);
CREATE INDEX beliefs_retracted_idx ON beliefs (tenant_id, principal_id, state, retracted_at)
    WHERE retracted_at IS NOT NULL;

-- The snapshot core's candidates are pre-ranked from beliefs_durable_idx alone (migration
-- 0007), but the hard filter reads superseded_by to judge a superseded belief at as_of, and
-- without it in the index every candidate was read from the heap (an index scan, not an
-- index-only scan: 7 ms against 2 ms at 10k beliefs).
DROP INDEX beliefs_durable_idx;
CREATE INDEX beliefs_durable_idx ON beliefs (tenant_id, principal_id, belief_type)
    INCLUDE (id, state, sensitivity, valid_from, valid_to, recorded_at, retracted_at, superseded_by,
             confidence, source_authority, scope, origin_project, corroborating_projects);

-- Backfill what is already stored.
INSERT INTO principal_term_classes (tenant_id, principal_id, kind, term, state, sensitivity, df)
SELECT b.tenant_id, b.principal_id, x.kind, x.term, b.state, b.sensitivity, count(*)
FROM beliefs b,
     LATERAL (SELECT 'l'::"char" AS kind, lx AS term FROM unnest(tsvector_to_array(b.search_document)) AS lx
              UNION
              SELECT 'k'::"char", k FROM unnest(array_append(b.entities, b.subject)) AS k) x
GROUP BY 1, 2, 3, 4, 5, 6;
INSERT INTO principal_class_sizes (tenant_id, principal_id, state, sensitivity, beliefs)
SELECT tenant_id, principal_id, state, sensitivity, count(*) FROM beliefs GROUP BY 1, 2, 3, 4;
