"""A throwaway PostgreSQL server for tests of a results store (this repository's and a plugin's own).

:func:`temporary_postgres_server` runs the Debian package's ``initdb`` and ``pg_ctl`` (as user ``postgres`` when
run as root, which ``initdb`` refuses) on a random free port of 127.0.0.1 and yields the base URL
``postgresql+psycopg://postgres@127.0.0.1:PORT``; :func:`new_postgres_database` creates a fresh database on it.
Skipping a test when no server exists belongs in the caller's ``conftest.py``: these raise
:class:`PostgresUnavailableError` with the reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

from brainscore_core.errors import PostgresUnavailableError

__all__ = ["PostgresUnavailableError", "new_postgres_database", "postgres_binaries", "temporary_postgres_server"]


def postgres_binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding ``initdb``, or None."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: [
        int(part) if part.isdigit() else part for part in path.parent.name.split(".")])
    return candidates[-1] if candidates and (candidates[-1] / "initdb").exists() else None


@contextlib.contextmanager
def temporary_postgres_server() -> Iterator[str]:
    """Start a PostgreSQL server in a temporary folder; yields its base URL; stops it and removes the folder.

    Raises
    ------
    PostgresUnavailableError
        No server binaries under ``/usr/lib/postgresql/*/bin`` (``apt-get install postgresql``), or psycopg is
        not installed (``brainscore-core[postgres]``).
    """
    pg_bin = postgres_binaries()
    if pg_bin is None:
        raise PostgresUnavailableError("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin "
                                       "(apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise PostgresUnavailableError("psycopg is not installed: pip install -c constraints.txt "
                                       "'./packages/brainscore-core[postgres]'") from None
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    directory = Path(tempfile.mkdtemp(prefix="brainscore-pg-"))
    if as_postgres:
        shutil.chown(directory, "postgres", "postgres")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = directory / "data"
    try:
        subprocess.run([*as_postgres, str(pg_bin / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                        "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"], check=True, capture_output=True,
                       cwd=directory)
        subprocess.run([*as_postgres, str(pg_bin / "pg_ctl"), "-D", str(data), "-l", str(directory / "pg.log"),
                        "-w", "-o", f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=off",
                        "start"], check=True, capture_output=True, cwd=directory)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([*as_postgres, str(pg_bin / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                           capture_output=True, cwd=directory)
        shutil.rmtree(directory, ignore_errors=True)


def new_postgres_database(base_url: str) -> str:
    """Create an empty database with a random name on the server at ``base_url``; returns its URL."""
    import sqlalchemy as sa

    name = f"test_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(f"{base_url}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return f"{base_url}/{name}"
