"""Stage graphs of the dataflows and readable summaries of traces."""
