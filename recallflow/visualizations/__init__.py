"""Stage graphs of the dataflows (DESIGN.md §8)."""
