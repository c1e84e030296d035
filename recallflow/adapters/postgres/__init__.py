"""PostgreSQL adapters: embedded server, migrations, pool, and the store ports (DESIGN.md §6).

All SQL of recallflow lives here and in ``migrations/``, always parameterised.
"""
