"""Pure, deterministic stage logic: no Hamilton, no I/O.

Each module is named like the node module in :mod:`recallflow.nodes` that wraps it
(``core/scoring.py`` serves ``nodes/scoring.py``), so a stage's logic and its node are
found under one name, and the logic can be tested with plain values.
"""
