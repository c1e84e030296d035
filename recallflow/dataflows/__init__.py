"""The DAG of each moment (DESIGN.md §3–4), built once per process."""
