-- A trace's operator view is stored as json, the text as written, instead of jsonb.
-- Every recall writes one (about 40 KB at the benchmark's tiers) and nearly none is ever
-- read back whole; jsonb parses the text into its binary form on the way in, which cost
-- twice what checking it does (a 40 KB view: 0.76 against 0.38 ms per INSERT, the same
-- rows alternating on one connection), on the recall's critical path. The few reads
-- (a trace shown or replayed, a snapshot's frozen beliefs taken from the row just
-- inserted) parse it where they read it, and json has every operator they use. The
-- column is rewritten once here; changing its type resets its storage, so it is stored
-- out of line and uncompressed again (see migration 0010).
ALTER TABLE recall_traces ALTER COLUMN operator_view TYPE json USING operator_view::json;
ALTER TABLE recall_traces ALTER COLUMN operator_view SET STORAGE EXTERNAL;
