"""The arms of recall: independent searches, each hard-filtered, each returning a ranked
:class:`~recallflow.models.result.ArmResult`; :mod:`.runner` times them and turns a
failure into a degraded arm instead of a failed turn.
"""
