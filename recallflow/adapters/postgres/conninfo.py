"""Whether a connection string is one a connection could be opened with, judged without
connecting: it parses, each host it names is a host name (or an address, or a socket
directory), each port is a port number and its ``connect_timeout`` is a number.

The driver parses a string it cannot connect with (``postgresql://...``, a host with an
empty label or one longer than 63 characters, ``:abc`` as a port) and fails only when it
resolves the host, with an encoding error that is not one of its own; judged here, such a
string is refused where it is given (``--dsn``, ``RECALLFLOW_DSN``, ``open_memory``), as
bad input naming it, before any server is started or connected to.

An option whose value libpq refuses (``sslmode=bogus``) parses: libpq judges option values
only when asked to connect, and the driver has no way to ask it earlier. That refusal is
recognised in the failed connection's message (:func:`refused_option`), so it is told as
the string's fault, not as a server that cannot be reached. A string whose server need not
answer when it is opened (a read replica's) is judged by starting a connection and
dropping it before it waits on anything (:func:`refused_on_start`).
"""

from __future__ import annotations

import re

from psycopg import ProgrammingError, pq
from psycopg.conninfo import conninfo_to_dict, timeout_from_conninfo

from recallflow.errors import without_password

#: The highest TCP port number.
_MAX_PORT = 65535

#: The two forms in which libpq refuses the value of a connection option, which it judges
#: only when asked to connect: ``invalid sslmode value: "bogus"`` (the option's name quoted
#: or not) and ``invalid integer value "x" for connection option "keepalives"``.
_REFUSED_OPTION = re.compile(
    r'invalid "?(?P<option>\w+)"? value: "(?P<value>[^"]*)"'
    r'|invalid integer value "(?P<number>[^"]*)" for connection option "(?P<numeric>\w+)"'
)


def conninfo_problem(value: str) -> str | None:
    """What is wrong with ``value`` as a PostgreSQL connection string, or None (passwords
    in the answer are masked)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (a byte of another encoding in an argument or the environment,
        # as Python decodes it): the driver's encoding of the string raised, a traceback.
        return "it is not UTF-8 text"
    try:
        params = conninfo_to_dict(value)
    except ProgrammingError as exc:
        return without_password(" ".join(str(exc).split()))
    for host in str(params.get("host") or "").split(","):
        # Empty: the default; "/..." or "@...": a socket directory; "C:...": a Windows path.
        if not host or host.startswith(("/", "@")) or host[1:2] == ":":
            continue
        try:
            host.encode("idna")  # what resolving it does first
        except UnicodeError:
            return f"host {host[:60]!r} is not a host name"
    for port in str(params.get("port") or "").split(","):
        if port and not (port.isdigit() and 1 <= int(port) <= _MAX_PORT):
            return f"port {port[:20]!r} is not a port number (1 to {_MAX_PORT})"
    # The driver reads the timeout itself, before any connection, and raised its own
    # ProgrammingError out of open_memory for one that is no number (judged as it judges
    # it; only the string's own, not the environment's PGCONNECT_TIMEOUT).
    if params.get("connect_timeout") is not None:
        try:
            timeout_from_conninfo({"connect_timeout": params["connect_timeout"]})
        except ProgrammingError as exc:
            return str(exc)
    return None


def refused_option(value: str, error: str) -> str | None:
    """What libpq refused of ``value``'s own options when a connection with it failed with
    ``error`` (the driver's message), or None when the failure was anything else: a server
    that is down or a host that does not resolve is no fault of the string. The refusal
    counts only when the option it names is in ``value`` with the value it quotes (not one
    from a ``PG*`` environment variable)."""
    found = _REFUSED_OPTION.search(error)
    if found is None:
        return None
    option = found["option"] or found["numeric"]
    refused = found["value"] if found["option"] else found["number"]
    try:
        given = conninfo_to_dict(value).get(option)
    except ProgrammingError:
        return None
    if given is None or str(given) != refused:
        return None
    return f"option {option}={refused[:60]!r} is refused by libpq ({found[0][:200]})"


def refused_on_start(value: str) -> str | None:
    """What libpq refuses of ``value``'s own options (as :func:`refused_option`), asked by
    starting a connection with it and dropping it at once: libpq judges the options before
    it waits on any server, so a server that is down or slow costs nothing here and is no
    fault of the string (a host name is still resolved)."""
    pgconn = pq.PGconn.connect_start(value.encode())
    try:
        if pgconn.status != pq.ConnStatus.BAD:
            return None
        error = pgconn.get_error_message()
    finally:
        pgconn.finish()
    return refused_option(value, error)
