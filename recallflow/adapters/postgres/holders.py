"""Which processes hold an embedded server: one file per live process, pruned of the dead.

A *holder* is a process with the home open. Its file in ``<home>/holders`` is named
``<pid>-<start>``, ``start`` being the process's start time as the kernel reports it. A
process that dies without running its exit handlers (SIGKILL, ``os._exit``, the
out-of-memory killer) cannot remove its file, so every reader checks each file: the
pid must be alive, not a zombie, and started at the recorded time (a pid reused by a
newer process has another start time). Files that fail the check are deleted, so the
list of holders is the list of processes that can still release the server.

On Linux the start is the kernel's count of clock ticks from boot to the process's
creation (``t<ticks>``), which no change of the wall clock moves. Read as a wall-clock
time, a clock stepped while processes ran (synchronised after a suspend) made every live
holder look dead: the next close stopped the server under them. Elsewhere, and for files
written by earlier versions, the start is the wall-clock creation time.

Every change to the holders, and every start or stop of the server, happens under an
exclusive ``flock`` on ``<home>/server.lock``. The kernel releases that lock when the
process holding it dies, so a holder killed in the middle of a change never blocks the
next one.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil

LOCK_NAME = "server.lock"
#: Whether processes can be read from ``/proc`` (Linux), where start times are ticks.
_PROC = Path("/proc/self/stat").exists()
HOLDERS_DIR = "holders"


def process_start(pid: int) -> str | None:
    """The start time of live process ``pid`` as a stable token, or None if it is gone.

    A zombie (exited, not yet reaped by its parent) counts as gone: it can never
    release anything.
    """
    if not _PROC:
        return _wall_clock_start(pid)
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # gone
        return None
    # The fields after the command's closing parenthesis (the command may hold spaces or
    # parentheses itself), from the third: the state first, the start time the 22nd.
    fields = stat.rpartition(")")[2].split()
    if len(fields) < 20 or fields[0] == "Z":
        return None
    return f"t{fields[19]}"


def _wall_clock_start(pid: int) -> str | None:
    """The start token where there is no ``/proc``: the wall-clock creation time."""
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
        return f"{proc.create_time():.2f}"
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None


@contextmanager
def home_lock(home: Path) -> Iterator[None]:
    """Hold the home's inter-process lock for the duration of the block."""
    fd = os.open(home / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


class Holders:
    """The holder files of one home; call its methods under :func:`home_lock`."""

    def __init__(self, home: Path) -> None:
        self.directory = home / HOLDERS_DIR

    def _name(self, pid: int) -> str | None:
        start = process_start(pid)
        return None if start is None else f"{pid}-{start}"

    def add(self, pid: int) -> None:
        """Record live process ``pid`` as a holder."""
        name = self._name(pid)
        if name is None:
            return
        self.directory.mkdir(mode=0o700, exist_ok=True)
        (self.directory / name).touch()

    def remove(self, pid: int) -> None:
        """Forget ``pid`` (whatever start time it was recorded with)."""
        if not self.directory.is_dir():
            return
        for path in self.directory.glob(f"{pid}-*"):
            path.unlink(missing_ok=True)

    def live(self) -> list[int]:
        """The pids of the live holders, after deleting the files of dead ones."""
        if not self.directory.is_dir():
            return []
        alive: list[int] = []
        for path in self.directory.iterdir():
            pid_text, _, start = path.name.partition("-")
            if pid_text.isdigit() and _started_at(int(pid_text), start):
                alive.append(int(pid_text))
            else:
                path.unlink(missing_ok=True)
        return sorted(alive)


def _started_at(pid: int, start: str) -> bool:
    """Whether live process ``pid`` started at ``start`` (a token of either kind)."""
    if start.startswith("t"):
        return process_start(pid) == start
    return _wall_clock_start(pid) == start
