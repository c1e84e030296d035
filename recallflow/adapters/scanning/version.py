"""The version of the scanner's rules, apart from the rules themselves.

A trace records it beside every verdict, so that a blocked item can be replayed against
the rules that blocked it. It lives in a module of its own so that reading it does not
compile the rules (see :mod:`~recallflow.adapters.scanning.deferred`)."""

from __future__ import annotations

#: Identifies the rule set in traces; bump it whenever a rule changes.
RULES_VERSION = "layered-v94"
