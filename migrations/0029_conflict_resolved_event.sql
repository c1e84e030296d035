-- A conflict set left with a single live member (the others retired, retracted,
-- superseded, expired or forgotten) is no longer a conflict: its survivor returns to the
-- state it would have without the conflict, and its history says so with a 'resolved'
-- event and a reason (see "Lifecycle writes" in docs/corrections.md).
ALTER TABLE belief_events DROP CONSTRAINT belief_events_kind_check;
ALTER TABLE belief_events ADD CONSTRAINT belief_events_kind_check
    CHECK (kind IN ('superseded', 'retracted', 'retired', 'expired', 'corroborated', 'promoted',
                    'resolved'));
