"""Files and folders written atomically get the permissions the process umask gives ordinary files (lab-shared
stores: group-readable under umask 022, group-writable under 002), not mkstemp's 0600 / mkdtemp's 0700."""

import os
import stat

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from brainio.files import apply_umask, atomic_path, atomic_write
from brainio.packaging import package_stimulus_set_locally
from brainio.stimuli import StimulusSet


@pytest.fixture(params=[0o022, 0o002, 0o077])
def umask(request):
    previous = os.umask(request.param)
    yield request.param
    os.umask(previous)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_atomic_writes_honour_the_umask(umask, tmp_path):
    with atomic_path(tmp_path / "a.txt") as temporary:
        temporary.write_text("x")
    atomic_write(tmp_path / "b.txt", lambda temporary: temporary.write_text("y"), durable=True)
    assert mode(tmp_path / "a.txt") == mode(tmp_path / "b.txt") == 0o666 & ~umask
    folder = tmp_path / "d"
    folder.mkdir(mode=0o700)
    apply_umask(folder, directory=True)
    assert mode(folder) == 0o777 & ~umask


def test_packaged_files_honour_the_umask(umask, tmp_path):
    Image.fromarray(np.zeros((4, 4, 3), dtype=np.uint8)).save(tmp_path / "a.png")
    stimuli = StimulusSet(pd.DataFrame({"stimulus_id": ["a"]}))
    stimuli.stimulus_paths = {"a": str(tmp_path / "a.png")}
    packaged = package_stimulus_set_locally(stimuli, "Lab2026", downloads_path=tmp_path / "store")
    assert mode(packaged["csv_path"]) == mode(packaged["zip_path"]) == 0o666 & ~umask
