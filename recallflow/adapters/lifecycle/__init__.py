"""Hamilton lifecycle adapters: lineage and timing of every node run."""
