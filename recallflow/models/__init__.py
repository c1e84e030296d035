"""recallflow's pydantic models, grouped by audience.

- :mod:`.store`: what goes into the store and comes out (beliefs, episodes, edges);
- :mod:`.request`: the public request of a recall;
- :mod:`.result`: the public result of a recall and its RecallTrace;
- :mod:`.stages`: values passed between the stages of the DAG (internal).

Everything a user needs is importable from :mod:`recallflow` itself.
"""
