"""Which store, which machine, which session: read from the environment and state folder.

* ``PATCHWRIGHT_HISTORY_URL``: a ``postgresql://`` URL selects the shared PostgreSQL
  history; unset (or empty), each workspace keeps its SQLite history.
* ``PATCHWRIGHT_HISTORY_TIMEOUT``: seconds to wait for the shared history (default 10).
* ``PATCHWRIGHT_MACHINE``: this machine's name in the history. Unset, the name is the
  host name and a random suffix drawn once and kept in the state folder
  (``<state>/machine``): the state folder is what holds a workspace's journal and locks,
  so two state folders are two machines even on one host, and undo is offered only
  where the workspace's state is.
* ``PATCHWRIGHT_SESSION``: the session recorded with each batch; unset, each process is
  one session (``s-`` and eight hex digits), as one MCP server process is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from contextlib import suppress

from patchwright.model.errors import ErrorCode, PatchwrightError

URL_VARIABLE = "PATCHWRIGHT_HISTORY_URL"


# this process's session, drawn again in a forked child (a session of its own)
def _token() -> str:
    """Eight random hex digits (``os.urandom``, as ``secrets`` uses, without its imports)."""
    return os.urandom(4).hex()


def _host_name() -> str:
    """This machine's network name; ``socket`` only where ``os.uname`` is missing (Windows)."""
    uname = getattr(os, "uname", None)
    if uname is not None:
        return str(uname().nodename)
    import socket  # start-up time counts: only on systems without uname

    return socket.gethostname()


_SESSION = {"pid": os.getpid(), "name": f"s-{_token()}"}


def history_url(environ: Mapping[str, str] | None = None) -> str | None:
    """The shared history's URL, ``None`` for the SQLite history.

    Raises:
        PatchwrightError: ``invalid_request`` naming the variable when it is set to
            something other than a PostgreSQL URL.
    """
    env = os.environ if environ is None else environ
    url = env.get(URL_VARIABLE, "").strip()
    if not url:
        return None
    if not re.match(r"postgres(ql)?://", url):
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"{URL_VARIABLE} must be a PostgreSQL URL (postgresql://user@host/database), "
            f"got {url.split('://')[0] + '://...' if '://' in url else url!r}.",
            f"Set {URL_VARIABLE}=postgresql://..., or unset it to keep the history in SQLite.",
            field=URL_VARIABLE,
        )
    return url


def history_timeout(environ: Mapping[str, str] | None = None) -> float:
    """Seconds to wait for the shared history (``PATCHWRIGHT_HISTORY_TIMEOUT``, default 10)."""
    env = os.environ if environ is None else environ
    raw = env.get("PATCHWRIGHT_HISTORY_TIMEOUT", "").strip()
    try:
        value = float(raw) if raw else 10.0
    except ValueError:
        value = -1.0
    if value <= 0:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"PATCHWRIGHT_HISTORY_TIMEOUT must be a positive number of seconds, got {raw!r}.",
            "Set it to a number such as 10, or unset it.",
            field="PATCHWRIGHT_HISTORY_TIMEOUT",
        )
    return value


def machine_name(
    state_base: str | os.PathLike[str], environ: Mapping[str, str] | None = None
) -> str:
    """This machine's name (see module docstring); created in ``state_base`` on first use."""
    env = os.environ if environ is None else environ
    if env.get("PATCHWRIGHT_MACHINE", "").strip():
        return env["PATCHWRIGHT_MACHINE"].strip()
    base = os.fspath(state_base)
    marker = os.path.join(base, "machine")
    try:
        return _read(marker)
    except FileNotFoundError:
        pass

    host = re.sub(r"[^A-Za-z0-9._-]+", "-", _host_name())[:40] or "host"
    name = f"{host}-{_token()}"
    temp = os.path.join(base, f".machine.{_token()}.tmp")
    try:
        os.makedirs(base, exist_ok=True)
        with open(temp, "w", encoding="utf-8") as out:
            out.write(name + "\n")
        # the first writer's name wins: link fails when another process got there first
        os.link(temp, marker)
    except FileExistsError:
        pass
    except OSError:
        if not os.path.exists(marker):  # no hard links on this file system: rename instead
            os.replace(temp, marker)
    finally:
        with suppress(FileNotFoundError):
            os.unlink(temp)
    return _read(marker)


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as marker:
        return marker.read().strip()


def session_name(environ: Mapping[str, str] | None = None) -> str:
    """This process's session (see module docstring)."""
    env = os.environ if environ is None else environ
    if env.get("PATCHWRIGHT_SESSION", "").strip():
        return env["PATCHWRIGHT_SESSION"].strip()
    if _SESSION["pid"] != os.getpid():
        _SESSION.update(pid=os.getpid(), name=f"s-{_token()}")
    return str(_SESSION["name"])
