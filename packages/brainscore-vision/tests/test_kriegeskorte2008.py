"""Kriegeskorte 2008 data plugin and the RSA benchmarks, checked against scipy on the same arrays."""

import numpy as np
import pandas as pd
import pytest
from direct_reference import pixel_features, placed_image, rdm, spearman_upper
from packaging_checks import check_packaging

import brainscore_vision
from brainio.assemblies import NeuroidAssembly
from brainscore_vision.benchmark_helpers.test_helper import run_test


@pytest.fixture(scope="module")
def rdms(kriegeskorte_raw):
    with np.load(kriegeskorte_raw / "rdms.npz") as arrays:
        return {key: arrays[key] for key in arrays.files}


@pytest.fixture(scope="module")
def stimuli(kriegeskorte_raw):
    return pd.read_csv(kriegeskorte_raw / "stimuli.csv")


def test_stimulus_set(stimuli, kriegeskorte_raw):
    stimulus_set = brainscore_vision.load_stimulus_set("Kriegeskorte2008")
    assert stimulus_set.identifier == "Kriegeskorte2008"
    assert list(stimulus_set["stimulus_id"]) == list(stimuli["stimulus_id"])
    assert list(stimulus_set["category"]) == list(stimuli["category"])
    assert {"human", "face", "animal", "natural", "cat_animate", "subset_rand24"} <= set(stimulus_set.columns)
    # the packaged copy holds the same pixels as the raw PNG
    packaged = np.asarray(placed_image(stimulus_set.get_stimulus("k92_017"), 1, 1))
    raw = np.asarray(placed_image(kriegeskorte_raw / "images" / "k92_017.png", 1, 1))
    np.testing.assert_array_equal(packaged, raw)


def test_rdm_assemblies_hold_the_raw_arrays(rdms):
    human = brainscore_vision.load_dataset("Kriegeskorte2008.hIT")
    assert human.dims == ("subject", "session", "stimulus_row", "stimulus_column")
    assert list(human["subject"].values) == ["BE", "KO", "SN", "TI"]
    assert list(human["stimulus_id_row"].values) == list(rdms["stimulus_ids"])
    np.testing.assert_array_equal(human.values, rdms["human_it_rdms"])
    monkey = brainscore_vision.load_dataset("Kiani2007.mIT")
    assert monkey.shape == (1, 1, 92, 92)
    np.testing.assert_array_equal(monkey.values[0, 0], rdms["monkey_it_rdm"])


@pytest.fixture(scope="module")
def pixel_assembly(stimuli, kriegeskorte_raw):
    """Pixels of the 92 images as an 8-degree model sees them (2.9 degrees padded with gray), by PIL + numpy."""
    images = [placed_image(kriegeskorte_raw / name, source_degrees=2.9) for name in stimuli["filename"]]
    features = pixel_features(images)
    return NeuroidAssembly(features, coords={"stimulus_id": ("presentation", stimuli["stimulus_id"].to_numpy()),
                                             "neuroid_id": ("neuroid", np.arange(features.shape[1]))},
                           dims=["presentation", "neuroid"])


def test_human_it_rsa_matches_scipy(pixel_assembly, rdms):
    score = run_test(brainscore_vision.load_benchmark("Kriegeskorte2008.hIT-rdm"), features=pixel_assembly)
    # expected: model RDM (1 - Pearson r) against each subject's session-averaged RDM, Spearman over the
    # upper triangle, mean over the 4 subjects; ceiling = mean over subjects of Spearman(subject, mean of all)
    model = rdm(pixel_assembly.values)
    subjects = rdms["human_it_rdms"].astype(np.float64).mean(axis=1)
    raw = np.mean([spearman_upper(model, subject) for subject in subjects])
    ceiling = np.mean([spearman_upper(subject, subjects.mean(0)) for subject in subjects])
    assert float(score.attrs["raw"]) == pytest.approx(raw, abs=1e-4)
    assert float(score.attrs["ceiling"]) == pytest.approx(ceiling, abs=1e-4)
    assert float(score) == pytest.approx(raw / ceiling, abs=2e-4)
    assert score.attrs["rdm_subjects"] == ["BE", "KO", "SN", "TI"]
    assert np.asarray(score.attrs["model_rdm"]).shape == (92, 92)
    assert np.asarray(score.attrs["subject_rdms"]).shape == (4, 92, 92)
    # data size from the raw arrays: (subject, session, 92, 92)
    assert (score.attrs["n_stimuli"], score.attrs["n_subjects"]) == (subjects.shape[1], subjects.shape[0])
    assert "Kriegeskorte" in score.attrs["bibtex"]
    print(f"pixels Kriegeskorte2008.hIT-rdm: raw {raw:.4f} ceiling {ceiling:.4f} score {raw / ceiling:.4f}")


def test_monkey_it_rsa_matches_scipy(stimuli, kriegeskorte_raw, rdms):
    images = [placed_image(kriegeskorte_raw / name, source_degrees=7) for name in stimuli["filename"]]
    features = pixel_features(images)
    assembly = NeuroidAssembly(features, coords={"stimulus_id": ("presentation", stimuli["stimulus_id"].to_numpy()),
                                                 "neuroid_id": ("neuroid", np.arange(features.shape[1]))},
                               dims=["presentation", "neuroid"])
    score = run_test(brainscore_vision.load_benchmark("Kiani2007.mIT-rdm"), features=assembly)
    expected = spearman_upper(rdm(features), rdms["monkey_it_rdm"])
    assert float(score.attrs["ceiling"]) == 1  # a single RDM: no inter-subject ceiling
    assert float(score) == pytest.approx(expected, abs=1e-6)
    # what the report draws: the model RDM and the single population RDM, as stored in rdms.npz
    np.testing.assert_allclose(score.attrs["model_rdm"], rdm(features), atol=1e-6)
    np.testing.assert_allclose(score.attrs["subject_rdms"], rdms["monkey_it_rdm"][None], atol=1e-6)
    assert len(score.attrs["rdm_subjects"]) == 1
    assert (score.attrs["n_stimuli"], score.attrs["n_subjects"]) == (len(stimuli), 1)
    assert "Kiani" in score.attrs["bibtex"] and "Kriegeskorte" in score.attrs["bibtex"]
    print(f"pixels Kiani2007.mIT-rdm: {expected:.4f}")


def test_packaging_matches_recorded_sha1s_and_raw_content(kriegeskorte_raw, rdms, tmp_path, monkeypatch):
    from brainscore_vision.data.kriegeskorte2008 import PACKAGED_SHA1, packaged
    from brainscore_vision.data.kriegeskorte2008.data_packaging.packaging import build_rdm_assembly

    # the RDM assemblies rebuilt in memory straight from the arrays of rdms.npz
    ids = [str(s) for s in rdms["stimulus_ids"]]
    expected = {
        "Kriegeskorte2008.hIT": build_rdm_assembly(rdms["human_it_rdms"], ids, rdms["human_it_subjects"],
                                                   rdms["human_it_sessions"]),
        "Kiani2007.mIT": build_rdm_assembly(rdms["monkey_it_rdm"][None, None], ids, ["kiani2007_population"], [1]),
    }
    check_packaging(packaged, PACKAGED_SHA1, expected, tmp_path, monkeypatch)


def _fresh_store(tmp_path, monkeypatch):
    from brainscore_vision.data.kriegeskorte2008 import packaged

    monkeypatch.setenv("BRAINSCORE_DATA_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("BRAINIO_HOME", str(tmp_path / "cache"))  # nothing cached: loading fetches from the store
    packaged.manifest()
    return packaged


@pytest.mark.parametrize("damage", ["changed bytes", "missing file"])
def test_damaged_packaged_file_is_packaged_again_from_raw_data(kriegeskorte_raw, rdms, tmp_path, monkeypatch, damage):
    """Every load checks the sha1 the store recorded; a damaged or missing packaged file heals from the raw data
    (issue 22, item 8). Expected values: the monkey RDM straight from rdms.npz."""
    from brainio.fetch import assembly_file_name
    from brainscore_vision.data_helpers import DataRepairWarning

    packaged = _fresh_store(tmp_path, monkeypatch)
    path = packaged.directory / assembly_file_name("Kiani2007.mIT")
    good = path.read_bytes()
    if damage == "changed bytes":
        path.write_bytes(good + b"\0")
    else:
        path.unlink()
    with pytest.warns(DataRepairWarning, match="Kiani2007"):
        loaded = brainscore_vision.load_dataset("Kiani2007.mIT")
    np.testing.assert_array_equal(np.squeeze(loaded.values), rdms["monkey_it_rdm"])
    assert path.is_file()


def test_damaged_manifest_is_packaged_again(kriegeskorte_raw, tmp_path, monkeypatch):
    from brainscore_vision.data_helpers import DataRepairWarning

    packaged = _fresh_store(tmp_path, monkeypatch)
    (packaged.directory / "manifest.json").write_text('{"stimulus_sets": ')
    with pytest.warns(DataRepairWarning, match="manifest.json is damaged"):
        stimuli = brainscore_vision.load_stimulus_set("Kriegeskorte2008")
    assert len(stimuli) == 92
