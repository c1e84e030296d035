-- A set id comes only with the dispute it names (see "Lifecycle writes" in
-- docs/corrections.md): a belief written under a conflict set id in a state a read takes
-- as holding (active; superseded or expired, which held until their end) is refused, since
-- a read counts every member of a set that holds as a side and showed it in a conflict
-- nobody declared. Releases before that wrote such rows as they were given. This clears
-- their set id, so a store written then reads as one written now: the belief is a plain
-- belief, and the conflict it seemed to be a side of is gone, or is the one its declared
-- sides make.
--
-- A holding member of a set keeps its id when the store, not a write, put it there:
-- * a survivor the store settled out of its conflict (active, or expired when its own
--   validity had ended; superseded or expired since) has a 'resolved' event;
-- * a side that left its conflict by supersession or expiry (superseded, or expired) has
--   the 'superseded' or 'expired' event that ended it; it was a side until then, and a
--   read at an earlier instant shows the conflict as it stood.
-- An active member with no 'resolved' event was written so. A superseded or expired one
-- with neither event was written in that state. Conflicted members, and members that never
-- hold (retired, provisional), are not touched.
UPDATE beliefs b
SET conflict_set_id = NULL
WHERE b.conflict_set_id IS NOT NULL
  AND b.state IN ('active', 'superseded', 'expired')
  AND NOT EXISTS (
      SELECT 1
      FROM belief_events e
      WHERE e.tenant_id = b.tenant_id AND e.principal_id = b.principal_id
        AND e.belief_id = b.id
        AND (e.kind = 'resolved'
             OR (b.state <> 'active' AND e.kind IN ('superseded', 'expired')))
  );
