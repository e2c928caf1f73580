"""Shared fixtures: isolated cache homes, the real-data folder, tiny models and images."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from brainio.skipping import require_path

REPO_ROOT = Path(__file__).resolve().parents[3]


def raw_data_path() -> Path:
    """``$BRAINSCORE_RAW_DATA``, default ``<repo root>/../shared/data``."""
    return Path(os.environ.get("BRAINSCORE_RAW_DATA", REPO_ROOT / ".." / "shared" / "data")).resolve()


def require_data(*relative: str) -> Path:
    """The raw-data folder if it holds ``relative`` paths; skip (kind 'data'; a failure under
    BRAINSCORE_REQUIRE_DATA=1)."""
    root = require_path(raw_data_path(), "real data")
    for path in relative:
        require_path(root / path, f"real data {path!r}")
    return root


@pytest.fixture
def raw_data_dir() -> Path:
    return require_data()


@pytest.fixture(autouse=True)
def isolated_homes(tmp_path, monkeypatch):
    """Every cache under the test's tmp dir; caching on (as users get it)."""
    for name in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.delenv("RESULTCACHING_DISABLE", raising=False)
    return tmp_path


def make_stimulus_set(frame: pd.DataFrame, paths: dict[str, str], identifier: str):
    from brainio.stimuli import StimulusSet

    stimulus_set = StimulusSet(frame.reset_index(drop=True))
    stimulus_set.stimulus_paths = dict(paths)
    stimulus_set.identifier = identifier
    return stimulus_set


def stimulus_set_from_csv(folder: str, csv_name: str, identifier: str):
    """A StimulusSet of a real-data folder's CSV, whose ``filename`` column is relative to that folder."""
    root = require_data(f"{folder}/{csv_name}") / folder
    frame = pd.read_csv(root / csv_name)
    paths = {row.stimulus_id: str(root / row.filename) for row in frame.itertuples()}
    return make_stimulus_set(frame, paths, identifier)


@pytest.fixture
def kriegeskorte_stimuli():
    return stimulus_set_from_csv("kriegeskorte2008", "stimuli.csv", "Kriegeskorte2008")


@pytest.fixture
def cowley_stimuli():
    return stimulus_set_from_csv("cowley2023_v4", "stimuli_210325.csv", "Cowley2023.210325")


@pytest.fixture
def image_files(tmp_path):
    """Ten random 20 x 16 RGB PNGs (seed 0) and their paths."""
    from PIL import Image

    rng = np.random.default_rng(0)
    folder = tmp_path / "images"
    folder.mkdir()
    paths = []
    for index in range(10):
        path = folder / f"n{index}.png"
        Image.fromarray(rng.integers(0, 256, (16, 20, 3), dtype=np.uint8)).save(path)
        paths.append(str(path))
    return paths


@pytest.fixture
def small_stimulus_set(image_files):
    ids = [f"s{index}" for index in range(len(image_files))]
    frame = pd.DataFrame({"stimulus_id": ids, "label": ["a", "b"] * 5, "object_name": list("xyzxyzxyzx")})
    return make_stimulus_set(frame, dict(zip(ids, image_files, strict=True)), "tiny-set")


def build_tiny_net(seed: int = 0):
    """conv(3->4, 3x3) ReLU conv(4->2, 3x3 stride 2) flatten linear(-> 5), for 8 x 8 inputs."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    return nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 2, 3, stride=2, padding=1),
                         nn.Flatten(), nn.Linear(2 * 4 * 4, 5)).eval()


@pytest.fixture
def tiny_net():
    return build_tiny_net()
