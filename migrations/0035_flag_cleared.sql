-- A flag can be cleared: the user flagged a belief by mistake, or checked it and found it
-- right. The clear is an 'unflagged' feedback event, written in the same transaction that
-- sets the belief's flag back, so re-derivation replays it, an export carries it and a
-- belief's history shows it, as it does the flag (see "Clearing a flag" in
-- docs/corrections.md).
ALTER TABLE feedback_events DROP CONSTRAINT feedback_events_kind_check;
ALTER TABLE feedback_events ADD CONSTRAINT feedback_events_kind_check
    CHECK (kind IN ('cited', 'rejected_not_true', 'rejected_changed', 'rejected_not_here',
                    'rejected_unspecified', 'unflagged'));

-- A flag and its clear may alternate: flagged from a recall, cleared, flagged again from
-- the same recall. So a flag from one trace is recorded once while it stands, judged by the
-- write against the belief's latest clear, and a clear once per flag; the index keeps the
-- other kinds recorded once per trace.
DROP INDEX feedback_events_once;
CREATE UNIQUE INDEX feedback_events_once
    ON feedback_events (tenant_id, principal_id, trace_id, belief_id, kind)
    WHERE trace_id IS NOT NULL AND kind NOT IN ('rejected_unspecified', 'unflagged');
