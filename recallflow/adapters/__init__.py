"""Adapters: the only place recallflow does I/O (DESIGN.md §2).

Each subpackage implements ports from :mod:`recallflow.ports`: ``postgres`` the stores and
the embedded server, ``embedders`` the Embedder, ``tokens`` the TokenCounter.
"""
