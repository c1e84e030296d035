"""The ``recallflow`` command, one module per command group (see ``recallflow --help``)."""
