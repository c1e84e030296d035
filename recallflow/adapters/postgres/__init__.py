"""PostgreSQL adapters: embedded server, migrations, pool, and the store ports.

All SQL of recallflow lives here and in ``migrations/``, always parameterised.
"""
