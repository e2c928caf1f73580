"""Shared fixtures: temporary homes for every cache, the raw-data directory, a PostgreSQL server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from brainio.skipping import import_or_skip, skip


@pytest.fixture(autouse=True)
def _temporary_homes(tmp_path_factory, monkeypatch):
    """Every cache goes to a temporary directory; plugin env switches start unset."""
    home = tmp_path_factory.mktemp("homes")
    for variable in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME"):
        monkeypatch.setenv(variable, str(home / variable.lower()))
    for variable in ("BRAINSCORE_RESULTS_URL", "BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "BRAINSCORE_PLUGINS",
                     "RESULTCACHING_DISABLE"):
        monkeypatch.delenv(variable, raising=False)
    return home


@pytest.fixture(scope="session")
def raw_data_dir() -> Path:
    """``$BRAINSCORE_RAW_DATA`` (default ``<repo root>/../shared/data``)."""
    default = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
    path = Path(os.environ.get("BRAINSCORE_RAW_DATA") or default).resolve()
    if not path.is_dir():
        skip("data", f"raw data directory {path} is absent (set BRAINSCORE_RAW_DATA)")
    return path


@pytest.fixture
def world(tmp_path, monkeypatch):
    """A fresh plugin world: fake distributions + a Domain on a unique entry-point group."""
    from _fake_plugins import make_world

    return make_world(tmp_path, monkeypatch)


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server on a random free port, a child of this test process
    (:func:`brainscore_core.local_postgres.postgres_server`); yields its base URL
    ``postgresql+psycopg://postgres@127.0.0.1:PORT``; stopped in teardown."""
    from brainscore_core.local_postgres import postgres_server_or_skip

    with postgres_server_or_skip() as url:
        yield url


@pytest.fixture(scope="session")
def password_postgres():
    """A real PostgreSQL server that requires a password (``scram-sha-256``; a random one per session, so that finding
    it anywhere means it leaked); yields its base URL ``postgresql+psycopg://postgres:PASSWORD@127.0.0.1:PORT``."""
    from brainscore_core.local_postgres import postgres_server_or_skip

    with postgres_server_or_skip(password=f"pw-{os.urandom(12).hex()}") as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def results_url(request, tmp_path):
    """A fresh, empty database: a SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'results.sqlite'}"
    from brainscore_core.local_postgres import new_database

    return new_database(request.getfixturevalue("postgres_server"))


@pytest.fixture(scope="session")
def s3_server():
    """A moto S3 server on 127.0.0.1 (a free port); yields its endpoint URL."""
    import_or_skip("boto3", extra="brainscore-core[test]")
    import_or_skip("moto.server", extra="brainscore-core[test]")
    from brainio.testing import local_s3_server

    with local_s3_server() as endpoint:
        yield endpoint


@pytest.fixture
def s3_bucket(s3_server, monkeypatch, tmp_path, request):
    """A new versioned bucket on the moto server, boto3 pointed at it through the standard AWS variables."""
    import boto3

    from brainio.testing import s3_test_environment

    for name, value in s3_test_environment(s3_server, tmp_path).items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    name = "bucket-" + request.node.name.lower().replace("_", "-")[:40].strip("-")
    client = boto3.client("s3")
    client.create_bucket(Bucket=name)
    client.put_bucket_versioning(Bucket=name, VersioningConfiguration={"Status": "Enabled"})
    return name
