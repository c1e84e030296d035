-- A trace's operator view (about 20 KB of JSON per recall) is stored without compression.
-- PostgreSQL compresses a value that large with pglz before writing it out of line, and
-- that compression was the largest single cost of writing a trace (1-2 ms of server CPU
-- per recall, more than the trace's parsing and insert together); out of line but
-- uncompressed it costs a fraction of that. The price is disk: about 3x more per trace
-- for the operator view, which a retention job nulls after the tuning window anyway
-- (see "The trace" in docs/architecture.md and docs/scaling.md).
ALTER TABLE recall_traces ALTER COLUMN operator_view SET STORAGE EXTERNAL;
