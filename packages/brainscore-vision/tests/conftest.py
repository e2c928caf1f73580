"""Shared fixtures: temporary homes (one per test session, so real data is packaged once), real-data location,
registered models."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from brainio.skipping import require_path, skip

REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_RAW_DATA = REPO_ROOT.parent / "shared" / "data"


HOME_VARIABLES = ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME")
_HOMES_PATCH = pytest.MonkeyPatch()
_HOMES_KEY = pytest.StashKey[Path]()


def pytest_configure(config):
    """Point the homes at a temporary folder before any test module is imported: collecting the tests imports the
    registries, which read and write the plugin index under ``$BRAINSCORE_HOME`` (never the user's own)."""
    homes = Path(tempfile.mkdtemp(prefix="brainscore-vision-tests-"))
    config.stash[_HOMES_KEY] = homes
    for name in HOME_VARIABLES:
        _HOMES_PATCH.setenv(name, str(homes / name.lower()))


def pytest_unconfigure(config):
    _HOMES_PATCH.undo()
    homes = config.stash.get(_HOMES_KEY, None)
    if homes is not None:
        shutil.rmtree(homes, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _isolated_homes(pytestconfig):
    """Caches, packaged data, ceilings and results go to one temporary folder per test session (set up before
    collection by :func:`pytest_configure`, removed at the end)."""
    homes = pytestconfig.stash[_HOMES_KEY]
    with pytest.MonkeyPatch.context() as patch:
        for name in ("BRAINSCORE_RESULTS_URL", "BRAINSCORE_DATA_STORE", "BRAINSCORE_VISION_DATA_SOURCE",
                     "RESULTCACHING_DISABLE"):
            patch.delenv(name, raising=False)
        raw = Path(os.environ.get("BRAINSCORE_RAW_DATA", DEFAULT_RAW_DATA))
        patch.setenv("BRAINSCORE_RAW_DATA", str(raw))
        yield homes


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server on 127.0.0.1, a child of this test process
    (:func:`brainscore_core.local_postgres.postgres_server`); yields its base URL. Skips without the server binaries
    or psycopg (kind 'service'), or fails when ``BRAINSCORE_REQUIRE_DATA=1`` (CI has both)."""
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


@pytest.fixture(scope="session")
def local_slurm():
    """A one-node Slurm cluster started for this test session (:func:`brainscore_core.local_slurm.local_slurm`), its
    ``SLURM_CONF`` exported to this process and every job it submits; stopped (every job cancelled) in teardown.

    Slurm tests run in the ``slurm`` nox session (``BRAINSCORE_SLURM_TESTS=1``, which installs Slurm first): other
    sessions skip them (kind 'opt-in'). Without Slurm here they skip with the reason (kind 'service'), or fail when
    ``BRAINSCORE_REQUIRE_SLURM=1`` or ``BRAINSCORE_REQUIRE_DATA=1``.
    Node: 2 CPUs, 4 GB (a shared machine: the tests' jobs stay small)."""
    if os.environ.get("BRAINSCORE_SLURM_TESTS") != "1":
        skip("opt-in", "Slurm tests run in `nox -s slurm` (BRAINSCORE_SLURM_TESTS=1), which starts a one-node Slurm")
    from brainscore_core.local_slurm import local_slurm as start
    from brainscore_core.local_slurm import slurm_missing

    missing = slurm_missing()
    if missing:
        if os.environ.get("BRAINSCORE_REQUIRE_SLURM") == "1":
            pytest.fail(missing)
        skip("service", missing)
    with start(cpus=2, memory_mb=4096) as cluster, pytest.MonkeyPatch.context() as patch:
        for name, value in cluster.environment().items():
            patch.setenv(name, value)
        yield cluster


@pytest.fixture(scope="session")
def raw_data_dir(_isolated_homes) -> Path:
    """The raw recordings (``$BRAINSCORE_RAW_DATA``, default ``<repo>/../shared/data``)."""
    return require_path(Path(os.environ["BRAINSCORE_RAW_DATA"]), "raw data")


def _raw_folder(folder: str, what: str):
    """A session fixture: ``raw_data_dir / folder``, required (:func:`brainio.skipping.require_path`)."""

    @pytest.fixture(scope="session")
    def fixture(raw_data_dir) -> Path:
        return require_path(raw_data_dir / folder, what)

    return fixture


cowley_raw = _raw_folder("cowley2023_v4", "Cowley 2023 raw data")
kriegeskorte_raw = _raw_folder("kriegeskorte2008", "Kriegeskorte 2008 raw data")
coggan_raw = _raw_folder("coggan2024_fmri", "Coggan 2024 fMRI raw data")
geirhos_raw = _raw_folder("geirhos2021", "Geirhos 2021 raw data")


def registered_model(identifier: str):
    """``load_model(identifier)``, or skip when no plugin registers a model of that name."""
    import brainscore_vision

    if identifier not in brainscore_vision.model_registry:
        skip("extra", f"no model named {identifier!r} is registered in entry-point group 'brainscore_vision' "
                      "(model-tools, installed by this package's test session, registers it)")
    return brainscore_vision.load_model(identifier)


@pytest.fixture(scope="session")
def reference_brainio_files() -> Path:
    """Files Brain-Score's own test suite wrote (``../shared/reference/brainio-files``)."""
    return require_path(REPO_ROOT.parent / "shared" / "reference" / "brainio-files", "reference brainio files")
