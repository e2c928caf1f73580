"""Shared fixtures: temporary homes, real-data and reference-file locations, a local S3 (moto) server."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from brainio.skipping import import_or_skip, require_path

REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _isolated_homes(tmp_path_factory, monkeypatch):
    """Caches and packaging defaults go to temporary folders, never to the user's home."""
    homes = tmp_path_factory.mktemp("homes")
    for name in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME"):
        monkeypatch.setenv(name, str(homes / name.lower()))
    monkeypatch.setenv("HOME", str(homes / "home"))
    yield


@pytest.fixture
def brainio_home() -> Path:
    return Path(os.environ["BRAINIO_HOME"])


@pytest.fixture(scope="session")
def raw_data_dir() -> Path:
    return require_path(Path(os.environ.get("BRAINSCORE_RAW_DATA", REPO_ROOT.parent / "shared" / "data")), "real data")


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    return require_path(REPO_ROOT.parent / "shared" / "reference" / "brainio-files", "reference brainio files")


@pytest.fixture
def image_dir(tmp_path) -> Path:
    """Four small PNG files with different pixels."""
    from PIL import Image

    folder = tmp_path / "images"
    folder.mkdir()
    for i in range(4):
        Image.fromarray(np.full((8, 8, 3), 40 * i, dtype=np.uint8)).save(folder / f"im{i}.png")
    return folder


@pytest.fixture
def stimulus_set(image_dir):
    from brainio import StimulusSet

    s = StimulusSet([{"stimulus_id": f"s{i}", "category": "face" if i < 2 else "car", "size": float(i)}
                     for i in range(4)])
    s.stimulus_paths = {f"s{i}": image_dir / f"im{i}.png" for i in range(4)}
    s.identifier = "Test.stimuli"
    return s


@pytest.fixture
def neuroid_assembly():
    """8 presentations (4 stimuli x 2 repetitions) x 3 neuroids x 1 time bin; values = arange."""
    from brainio import NeuroidAssembly

    return NeuroidAssembly(
        np.arange(24, dtype=float).reshape(8, 3, 1),
        coords={"stimulus_id": ("presentation", [f"s{i % 4}" for i in range(8)]),
                "repetition": ("presentation", [i // 4 for i in range(8)]),
                "neuroid_id": ("neuroid", ["n0", "n1", "n2"]),
                "region": ("neuroid", ["IT", "V4", "IT"]),
                "time_bin_start": ("time_bin", [0]), "time_bin_end": ("time_bin", [100])},
        dims=["presentation", "neuroid", "time_bin"], attrs={"note": "test"})


@pytest.fixture(scope="session")
def s3_server():
    """A moto S3 server on 127.0.0.1, on a free port; yields its endpoint URL."""
    import_or_skip("boto3", extra="brainio[test]")
    import_or_skip("moto.server", extra="brainio[test]")
    from brainio.testing import local_s3_server

    with local_s3_server() as endpoint:
        yield endpoint


@pytest.fixture
def s3_env(s3_server, monkeypatch, tmp_path):
    """Fake credentials and the endpoint through the standard AWS environment variables."""
    from brainio.testing import s3_test_environment

    for name, value in s3_test_environment(s3_server, tmp_path).items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    return s3_server


@pytest.fixture
def versioned_bucket(s3_env, request):
    import boto3

    name = "bucket-" + request.node.name.lower().replace("_", "-")[:40].strip("-")
    client = boto3.client("s3")
    client.create_bucket(Bucket=name)
    client.put_bucket_versioning(Bucket=name, VersioningConfiguration={"Status": "Enabled"})
    return name
