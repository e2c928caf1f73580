"""A store from a third-party package, registered through brainio's ``brainio.stores`` entry points, serves vision's
packaged data (issue 32, item 4). Before, ``data_helpers/packaged.py`` accepted only ``local`` or ``s3``.

A throwaway distribution (built as a wheel, pip-installed into a separate virtual environment) registers the scheme
``throwaway`` for a store that reads a folder and logs each download. The real Kriegeskorte 2008 recordings are
packaged locally, their files put in such a folder, and ``Kiani2007.mIT`` (assembly, with its stimulus set) loaded with
``BRAINSCORE_VISION_DATA_SOURCE=throwaway``: it must come through the throwaway store, verified against the sha1s
the plugin records, and equal the locally packaged assembly.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from throwaway_distribution import install_in_new_venv, run

from brainio.skipping import import_or_skip

PYPROJECT = """\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "bs-throwaway-store"
version = "0.1.0"

[project.entry-points."brainio.stores"]
throwaway = "throwaway_store:FolderStore"

[tool.hatch.build.targets.wheel]
packages = ["throwaway_store"]
"""
STORE = '''\
"""A folder read file by file, each download logged (a stand-in for any remote store)."""
import os
import shutil
from pathlib import Path


class FolderStore:
    def __init__(self, location):
        self.folder = Path(location)

    def download(self, key, target, version_id=None):
        with open(os.environ["THROWAWAY_STORE_LOG"], "a") as log:
            log.write(key + "\\n")
        shutil.copyfile(self.folder / key, target)

    def upload(self, source, key):
        shutil.copyfile(source, self.folder / key)
'''
CHECK = '''\
import json, os, shutil, sys
from pathlib import Path

import numpy as np

import brainscore_vision
from brainscore_vision.data.kriegeskorte2008 import packaged
from brainscore_vision.data_helpers import data_source

local = brainscore_vision.load_dataset("Kiani2007.mIT")           # packaged from the raw data into a local store
manifest = packaged.manifest()
folder = Path(sys.argv[1])
for path in packaged.directory.iterdir():
    if path.is_file() and path.name != "manifest.json":
        shutil.copyfile(path, folder / path.name)
# the plugin records the S3 files' sha1s; the netCDF bytes of this machine's packaging differ (HDF5 version), so the
# test records what it put in the folder, as a plugin author would after uploading
packaged.packaged_sha1 = {section: manifest[section] for section in ("stimulus_sets", "assemblies")}
os.environ["BRAINSCORE_VISION_DATA_SOURCE"] = "throwaway"
os.environ["BRAINSCORE_VISION_S3_BUCKET"] = str(folder)
os.environ["BRAINIO_HOME"] = sys.argv[2]                            # an empty cache: every file is downloaded
remote = brainscore_vision.load_dataset("Kiani2007.mIT")
stimuli = remote.attrs["stimulus_set"]
print(json.dumps({"source": data_source(), "equal": bool(np.array_equal(local.values, remote.values)),
                  "coords": sorted(local.coords) == sorted(remote.coords) and all(
                      np.array_equal(local[name].values, remote[name].values) for name in local.coords),
                  "stimuli": len(stimuli), "first_image": str(stimuli.get_stimulus(stimuli["stimulus_id"].iloc[0])),
                  "downloads": open(os.environ["THROWAWAY_STORE_LOG"]).read().split()}))
'''


@pytest.fixture(scope="module")
def store_venv(tmp_path_factory):
    import_or_skip("hatchling", extra="brainscore-vision[test]")  # builds the store wheel
    return install_in_new_venv(tmp_path_factory.mktemp("throwaway_store"),
                               {"pyproject.toml": PYPROJECT, "throwaway_store/__init__.py": STORE})


def test_vision_data_load_through_a_third_party_store(store_venv, raw_data_dir, tmp_path):
    python = store_venv
    folder, cache, log = tmp_path / "remote", tmp_path / "brainio-cache", tmp_path / "downloads.log"
    folder.mkdir()
    log.write_text("")
    environment = {**os.environ, "THROWAWAY_STORE_LOG": str(log), "PYTHONPATH": ""}
    environment.pop("BRAINSCORE_VISION_DATA_SOURCE", None)
    completed = run(python, "-c", textwrap.dedent(CHECK), folder, cache, env=environment, cwd=tmp_path)
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["source"] == "throwaway"
    assert result["equal"] and result["coords"] and result["stimuli"] == 92  # Kriegeskorte's 92 images
    assert result["first_image"].startswith(str(cache))  # extracted from what the store served
    assert sorted(result["downloads"]) == ["assy_Kiani2007_mIT.nc", "stimulus_Kriegeskorte2008.csv",
                                           "stimulus_Kriegeskorte2008.zip"]
    # the scheme is unknown where the distribution is not installed: one error naming the schemes there are
    from brainscore_vision.data_helpers import DataSourceError, data_source

    os.environ["BRAINSCORE_VISION_DATA_SOURCE"] = "throwaway"
    try:
        with pytest.raises(DataSourceError, match=r"'brainio.stores' \(.*file.*s3.*\), got 'throwaway'"):
            data_source()
    finally:
        del os.environ["BRAINSCORE_VISION_DATA_SOURCE"]


def test_a_remote_source_needs_its_location(monkeypatch):
    from brainscore_vision.data_helpers import DataSourceError, remote_store

    monkeypatch.setenv("BRAINSCORE_VISION_DATA_SOURCE", "file")
    monkeypatch.delenv("BRAINSCORE_VISION_S3_BUCKET", raising=False)
    with pytest.raises(DataSourceError, match="BRAINSCORE_VISION_DATA_SOURCE=file needs BRAINSCORE_VISION_S3_BUCKET"):
        remote_store()
    monkeypatch.setenv("BRAINSCORE_VISION_S3_BUCKET", "/some/folder")
    from brainio.stores import LocalStore

    store = remote_store()
    assert isinstance(store, LocalStore) and store.directory == Path("/some/folder")
