"""Adapters: the only place recallflow does I/O, so every stage can be tested with a fake port.

Each subpackage implements ports from :mod:`recallflow.ports`: ``postgres`` the stores and
the embedded server, ``embedders`` the Embedder, ``tokens`` the TokenCounter.
"""
