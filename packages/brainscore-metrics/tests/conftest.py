"""Shared fixtures: isolated cache homes, the real-data directory, optional torch."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from brainio.skipping import import_or_skip, require_path

REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _isolated_homes(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("homes")
    for name in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME"):
        monkeypatch.setenv(name, str(home / name.lower()))


@pytest.fixture(scope="session")
def raw_data_dir() -> Path:
    """The real-data directory (env BRAINSCORE_RAW_DATA, default <repo>/../shared/data).

    Skips when absent (kind 'data'), or fails when BRAINSCORE_REQUIRE_DATA=1.
    """
    return require_path(Path(os.environ.get("BRAINSCORE_RAW_DATA", REPO_ROOT.parent / "shared" / "data")), "real data")


@pytest.fixture(scope="session")
def kriegeskorte(raw_data_dir) -> dict:
    """The Kriegeskorte 2008 RDM archive (``kriegeskorte2008/rdms.npz`` in the real-data directory)."""
    return dict(np.load(require_path(raw_data_dir / "kriegeskorte2008" / "rdms.npz", "Kriegeskorte 2008 RDMs")))


def torch_or_skip():
    """Import torch or skip (kind 'extra': fails when BRAINSCORE_REQUIRE_DATA=1, as CI provides torch)."""
    return import_or_skip("torch", extra="brainscore-metrics[torch]")


BACKENDS = ["numpy", "torch"]


@pytest.fixture(params=BACKENDS)
def backend_name(request):
    if request.param == "torch":
        torch_or_skip()
    return request.param


@pytest.fixture
def rng():
    return np.random.default_rng(0)
