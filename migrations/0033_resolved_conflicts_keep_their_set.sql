-- A conflict's survivor keeps the id of the set it was a side of (see "Lifecycle writes" in
-- docs/corrections.md): a read at an instant when another member still held shows the
-- conflict as it stood then, and the id stays spent, so a new conflict cannot take it. A
-- store written by the release that first settled conflicts set the survivor's
-- conflict_set_id to NULL when it settled it; the 'resolved' event it wrote then names
-- the set in its reason ("conflict <set> has no other live member: the last was ..."),
-- so the id is read back from there. Only survivors whose id is NULL are touched: every
-- other belief, and every survivor settled since, is left as it is.
UPDATE beliefs b
SET conflict_set_id = r.set_id
FROM (
    SELECT DISTINCT ON (e.tenant_id, e.principal_id, e.belief_id)
           e.tenant_id, e.principal_id, e.belief_id,
           substring(e.reason FROM '^conflict (.+) has no other live member: the last was ')
               AS set_id
    FROM belief_events e
    WHERE e.kind = 'resolved'
    ORDER BY e.tenant_id, e.principal_id, e.belief_id, e.id DESC
) r
WHERE b.tenant_id = r.tenant_id AND b.principal_id = r.principal_id AND b.id = r.belief_id
  AND b.conflict_set_id IS NULL AND r.set_id IS NOT NULL;
