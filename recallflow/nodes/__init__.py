"""Hamilton node modules, one module per stage of the read path (DESIGN.md §3)."""
