"""A PostgreSQL server of its own, for tests of the results store (and trials) on 127.0.0.1.

:func:`postgres_server` runs ``initdb`` in a temporary folder and the server in the foreground as a child of this
process, bound to it through :mod:`brainscore_core.children` (as root, the child becomes user ``postgres`` first and binds
itself again, since a change of user clears the parent-death signal): the server stops with the test run, even
after ``kill -9`` of pytest, and its folder is removed. :func:`new_database` creates an empty database on it.

Needs the PostgreSQL server binaries (``/usr/lib/postgresql/<version>/bin``) and ``psycopg`` (the ``postgres`` extra).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from brainscore_core.errors import PostgresUnavailableError

__all__ = ["PostgresUnavailableError", "new_database", "postgres_bin", "postgres_server", "postgres_server_or_skip"]

_START_TIMEOUT_S = 60

# Run by brainio's child script (already bound to the caller as root): become user postgres, bind again (the change
# of user cleared the parent-death signal), then replace this process by the server.
_BECOME_POSTGRES = """
import ctypes, os, pwd, signal, sys
parent, binary, arguments = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
if os.geteuid() == 0:
    user = pwd.getpwnam("postgres")
    os.setgroups([])
    os.setgid(user.pw_gid)
    os.setuid(user.pw_uid)
    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(125)
os.execv(binary, [binary, *arguments])
"""


def postgres_bin() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding ``initdb`` and ``postgres``, or None."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: [
        int(part) if part.isdigit() else 0 for part in path.parent.name.split(".")])
    for candidate in reversed(candidates):
        if (candidate / "initdb").exists() and (candidate / "postgres").exists():
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _authentication(folder: Path, password: str | None, as_root: bool) -> list[str]:
    """initdb's arguments for trusted connections (no password), or for a password the server requires."""
    if password is None:
        return ["-A", "trust"]
    secret = folder / "password"  # read by initdb only; removed right after
    secret.write_text(password + "\n", encoding="utf-8")
    secret.chmod(0o600)
    if as_root:
        shutil.chown(secret, "postgres", "postgres")
    return ["-A", "scram-sha-256", f"--pwfile={secret}"]


def _wait_until_ready(url: str, process: subprocess.Popen, log: Path) -> None:
    import psycopg

    deadline = time.monotonic() + _START_TIMEOUT_S
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the PostgreSQL server ended with status {process.returncode}: "
                               f"{log.read_text(errors='replace')[-1500:]}")
        try:
            with psycopg.connect(url.replace("postgresql+psycopg", "postgresql") + "/postgres", connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the PostgreSQL server did not accept connections within {_START_TIMEOUT_S} s: "
                                   f"{log.read_text(errors='replace')[-1500:]}") from None
            time.sleep(0.1)


@contextlib.contextmanager
def postgres_server(*, password: str | None = None) -> Iterator[str]:
    """Start a PostgreSQL server on 127.0.0.1 and a free port; yield its base URL
    ``postgresql+psycopg://postgres@127.0.0.1:PORT``; stop it and remove its folder on exit.

    Parameters
    ----------
    password : str or None, default=None
        None: every connection is trusted (no password asked). A string: role ``postgres`` has this password and the
        server requires it (``scram-sha-256`` for every connection); the URL then carries it,
        ``postgresql+psycopg://postgres:PASSWORD@127.0.0.1:PORT`` (percent-encoded).

    Raises
    ------
    PostgresUnavailableError
        No PostgreSQL server binaries (``apt-get install postgresql``), or ``psycopg`` is not installed; the message
        says which and how to get it. A test's ``conftest.py`` turns it into a skip.
    RuntimeError
        The server did not start (with the end of its log).
    """
    try:
        import psycopg  # noqa: F401  (fail before starting anything)
    except ImportError:
        raise PostgresUnavailableError("psycopg is not installed: pip install -c constraints.txt "
                                       "'./packages/brainscore-core[postgres]'") from None

    from brainscore_core.children import start_child

    binaries = postgres_bin()
    if binaries is None:
        raise PostgresUnavailableError("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin "
                                       "(apt-get install postgresql)")
    as_root = os.geteuid() == 0
    folder = Path(tempfile.mkdtemp(prefix="brainscore-pg-"))
    process = None
    try:
        if as_root:
            shutil.chown(folder, "postgres", "postgres")
        data, log, port = folder / "data", folder / "server.log", _free_port()
        initdb = [str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--no-sync", "-E", "UTF8",
                  "--locale=C.UTF-8", *_authentication(folder, password, as_root)]
        subprocess.run(["runuser", "-u", "postgres", "--", *initdb] if as_root else initdb, check=True,
                       capture_output=True, cwd=folder, timeout=120)
        (folder / "password").unlink(missing_ok=True)
        server = ["-D", str(data), "-p", str(port), "-k", str(folder), "-c", "listen_addresses=127.0.0.1",
                  "-c", "fsync=off"]
        with open(log, "wb") as output:
            process = start_child(["-c", _BECOME_POSTGRES, str(os.getpid()), str(binaries / "postgres"), *server],
                                  cpu_seconds=3600, cwd=folder, stdout=output, stderr=subprocess.STDOUT)
        user = "postgres" if password is None else f"postgres:{quote(password, safe='')}"
        url = f"postgresql+psycopg://{user}@127.0.0.1:{port}"
        _wait_until_ready(url, process, log)
        yield url
    finally:
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def postgres_server_or_skip(*, password: str | None = None) -> Iterator[str]:
    """:func:`postgres_server` for a test fixture: where none can start, the test is skipped (kind ``service``), or
    fails under ``BRAINSCORE_REQUIRE_DATA=1`` (:func:`brainio.skipping.skip`)."""
    from brainio.skipping import skip

    with contextlib.ExitStack() as stack:
        try:
            url = stack.enter_context(postgres_server(password=password))
        except PostgresUnavailableError as error:
            skip("service", f"no PostgreSQL server here: {error}")
        yield url


def new_database(base_url: str) -> str:
    """Create an empty database with a fresh name on the server at ``base_url``; returns its URL."""
    import sqlalchemy as sa

    name = f"test_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(f"{base_url}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return f"{base_url}/{name}"
