"""The data markers of ``brainscore list benchmarks`` (brainscore_vision.benchmark_data), from each plugin's
declaration of the data it needs (issue 44, part 5)."""

from __future__ import annotations

import json
from pathlib import Path

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


BEFORE = json.loads((Path(__file__).parent / "data_needs_before_issue44.json").read_text())
LOCAL_VARIABLES = ("BRAINSCORE_THINGS_IMAGES", "BRAINSCORE_NSD_DIR", "BRAINSCORE_LAION_FMRI_DIR", "BRAINSCORE_IMAGENET_DIR",
                   "BRAINSCORE_IMAGENET_C_DIR", "BRAINSCORE_OBJECTNET_DIR")


@pytest.fixture
def no_local_folders(monkeypatch):
    for variable in LOCAL_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


def test_every_benchmark_keeps_the_marker_the_old_table_gave_it(no_local_folders):
    # the markers of every registered benchmark, as the regex table RULES gave them before the plugins declared their
    # needs (recorded at the commit in the file's provenance, every local folder unset), and as the declarations give
    # them now: the same text for each, and the same benchmarks
    assert BEFORE["provenance"]["commit"] == "915590cc29d91d7e203f829828eaa0eca8b04e60"
    now = {info.identifier: data_marker(info.identifier) for info in brainscore_vision.list_plugins("benchmark")}
    before = {identifier: recorded["marker"] for identifier, recorded in BEFORE["benchmarks"].items()}
    assert len(now) == len(before) == 277
    assert {identifier: (before.get(identifier), marker) for identifier, marker in now.items()
            if before.get(identifier) != marker} == {}
    assert {identifier: list(data_need(identifier)) for identifier in now} == {
        identifier: recorded["need"] for identifier, recorded in BEFORE["benchmarks"].items()}


def test_data_and_stimulus_sets_keep_their_needs_but_the_assemblies_the_table_misread(no_local_folders):
    # the old module table looked a by-reference assembly up in the catalogue files under kind 'data' while they list
    # it as 'assembly', so every such assembly fell to 'public' (network) whatever its entry's access; the field each
    # factory now carries reads its own entry: those whose access is not public change, and nothing else does
    from brainscore_vision.benchmark_data import plugin_data_need
    from brainscore_vision.data_helpers.public_catalogue import ACCESS_NEEDS

    now = {f"{kind}:{info.identifier}": list(plugin_data_need(kind, info.identifier, info.module))
           for kind in ("data", "stimulus_set") for info in brainscore_vision.list_plugins(kind)}
    assert set(now) == set(BEFORE["plugins"]) and len(now) == 282
    changed = {key: (BEFORE["plugins"][key][0], need[0]) for key, need in now.items() if need != BEFORE["plugins"][key]}
    registry = brainscore_vision.data_registry
    for key, (old, new) in changed.items():
        kind, identifier = key.split(":", 1)
        factory = registry[identifier]
        assert kind == "data" and old == "network" and new != "network", key
        assert new == ACCESS_NEEDS[factory.args[1]["access"] if factory.args[1] else "public"], key
    # by hand from the catalogue files: 14 Ferguson2024 + 10 Malania2007 + 2 Li2026 ('unknown': credentials) and 12
    # private assemblies (Bracci2019, FreemanZiemba2013, Igustibagus2024, Kar2019, MajajHong2015, Rajalingham2018,
    # Rajalingham2020, 2 of Rust2012, 3 of Sanghavi2020)
    assert sorted(new for _, new in changed.values()).count("credentials") == 26 and len(changed) == 38
