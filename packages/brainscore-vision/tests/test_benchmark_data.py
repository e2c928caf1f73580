"""The data markers of ``brainscore list benchmarks`` (brainscore_vision.benchmark_data)."""

from __future__ import annotations

import pytest

import brainscore_vision
from brainscore_vision.benchmark_data import data_marker, data_need
from brainscore_vision.cli import main


def test_every_built_in_benchmark_has_a_known_need():
    built_in = [info.identifier for info in brainscore_vision.list_plugins("benchmark")
                if (info.module or "").startswith("brainscore_vision.")]
    unknown = [identifier for identifier in built_in if data_need(identifier)[0] == "?"]
    assert built_in and not unknown


@pytest.mark.parametrize("identifier, need", [
    ("Cowley2023.V4-pls", "shipped"), ("Geirhos2021edge-top1", "shipped"), ("Geirhos2021colour-top1", "network"),
    ("Hermann2020cueconflict-shape_bias", "shipped"), ("MajajHong2015public.IT-reverse_pls", "network"),
    ("MajajHong2015public.V4-temporal-pls", "network"), ("Papale2025.V1-ridgecv", "network+local"),
    ("Allen2022_fmri_surface_4subj.IT-rdm", "local"), ("ImageNet-top1", "local"),
    ("Marques2020_FreemanZiemba2013-max_noise", "unavailable"), ("SomeLab2030.IT-pls", "?")])
def test_needs(identifier, need):
    assert data_need(identifier)[0] == need


def test_marker_says_whether_the_local_folder_is_set(monkeypatch, tmp_path):
    monkeypatch.delenv("BRAINSCORE_NSD_DIR", raising=False)
    assert data_marker("Allen2022_fmri.V1-ridge") == "[local: BRAINSCORE_NSD_DIR unset]"
    monkeypatch.setenv("BRAINSCORE_NSD_DIR", str(tmp_path))
    assert data_marker("Allen2022_fmri.V1-ridge") == "[local: BRAINSCORE_NSD_DIR set]"


def test_list_benchmarks_prints_the_markers(capsys, monkeypatch):
    monkeypatch.delenv("BRAINSCORE_THINGS_IMAGES", raising=False)
    assert main(["list", "benchmarks"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert lines["Cowley2023.V4-pls"].endswith("[shipped]")
    assert lines["Hebart2023_fmri.IT-ridgecv"].endswith("[network+local: BRAINSCORE_THINGS_IMAGES unset]")
