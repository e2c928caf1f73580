"""Families whose data are not shipped, on small synthetic stand-ins with the coordinates of Brain-Score's files:
the THINGS data sets (Gifford2022, Hebart2023_fmri, Papale2025), Allen2022 (NSD), ImageNet, reverse predictivity and
temporal PLS on MajajHong2015-shaped trials. Expected scores are computed independently (scikit-learn, scipy, numpy)
from the same arrays; the ceilings are our metrics' own (tested against Brain-Score's code in brainscore-metrics)."""

from __future__ import annotations

import numpy as np
import pytest
from _synthetic_families import (
    feature_model,
    features_of,
    mean_over_repetitions,
    pearson_columns,
    recordings,
    things_ids,
    voxel_coords,
    write_images,
)
from sklearn.linear_model import Ridge, RidgeCV

import brainscore_vision
from brainscore_core.testing import check_benchmark
from brainscore_metrics.regression import ALPHA_LIST
from brainscore_vision.data.things import stimuli as things
from brainscore_vision.errors import LocalDataMissingError


def _slice_ceiling(benchmark, subject):
    raw = benchmark.ceiling.attrs["raw"]
    keep = np.asarray(raw["subject"].values) == subject
    return float(np.mean(np.median(np.asarray(raw.values)[:, keep], axis=1)))


def _expected_per_subject(benchmark, train, test, make_regression, subjects):
    """Mean over subjects of r^2 / ceiling, r the median over the subject's neuroids of the test Pearson r."""
    values = []
    for subject in subjects:
        keep = np.flatnonzero(np.asarray(train["subject"].values) == subject)
        train_ids = np.asarray(train["stimulus_id"].values).astype(str)
        test_ids, test_values = mean_over_repetitions(test.isel(neuroid=keep))
        prediction = make_regression().fit(features_of(train_ids), np.asarray(train.values)[:, keep]).predict(
            features_of(test_ids))
        raw = np.median(pearson_columns(prediction, test_values))
        values.append(raw ** 2 / _slice_ceiling(benchmark, subject))
    return float(np.mean(values))


# --------------------------------------------------------------------------------------------------- THINGS
@pytest.fixture
def things_data(tmp_path, monkeypatch):
    """Hebart2023_fmri-, Papale2025- and Gifford2022-shaped assemblies, served in place of Brain-Score's files,
    and a THINGS folder with their images."""
    train_ids, test_ids = things_ids(40), things_ids(10, offset=40)
    write_images(tmp_path / "things" / "object_images", train_ids + test_ids, folder_of=lambda s: s.rsplit("_", 1)[0])
    monkeypatch.setenv("BRAINSCORE_THINGS_IMAGES", str(tmp_path / "things"))
    fmri = voxel_coords(["sub-01", "sub-02"], ["V1", "IT"], 8, "nc_testset")
    spikes = voxel_coords(["monkeyF", "monkeyN"], ["V1", "V4", "IT"], 6, "reliability")
    eeg = {"neuroid_id": ("neuroid", [f"{s}-{c}" for s in ("sub-01", "sub-02") for c in ("Fz", "Cz", "Pz")]),
           "subject": ("neuroid", [s for s in ("sub-01", "sub-02") for _ in range(3)]),
           "channel": ("neuroid", ["Fz", "Cz", "Pz"] * 2)}
    bins = [(round(t, 2), round(t + 0.01, 2)) for t in np.arange(-0.2, 0.8, 0.01)]
    data = {"Hebart2023_fmri_train": recordings(train_ids, 1, fmri), "Hebart2023_fmri_test": recordings(test_ids, 4, fmri),
            "Papale2025_train": recordings(train_ids, 1, spikes), "Papale2025_test": recordings(test_ids, 5, spikes),
            "Gifford2022_train": recordings(train_ids, 2, eeg, time_bins=bins),
            "Gifford2022_test": recordings(test_ids, 4, eeg, time_bins=bins)}
    monkeypatch.setattr(things, "raw_assembly", lambda identifier: data[identifier].copy())
    return data, train_ids + test_ids


@pytest.mark.parametrize("family, region, reliability, threshold", [
    ("Hebart2023_fmri", "V1", "nc_testset", 30), ("Papale2025", "IT", "reliability", 0.3)])
def test_things_fmri_and_spikes_equal_the_direct_computation(things_data, family, region, reliability, threshold):
    data, ids = things_data
    benchmark = brainscore_vision.load_benchmark(f"{family}.{region}-ridgecv")
    degrees = {"Hebart2023_fmri": 10, "Papale2025": 18}[family]
    score = benchmark(feature_model(ids, degrees))
    train, test = (data[f"{family}_{split}"].squeeze("time_bin") for split in ("train", "test"))
    keep = np.flatnonzero((np.asarray(train["region"].values) == region)
                          & (np.asarray(train[reliability].values) > threshold))
    subjects = sorted(set(np.asarray(train["subject"].values)))
    expected = _expected_per_subject(benchmark, train.isel(neuroid=keep), test.isel(neuroid=keep),
                                     lambda: RidgeCV(alphas=ALPHA_LIST), subjects)
    assert float(score) == pytest.approx(expected, rel=1e-8)
    assert benchmark.version == 3 and benchmark.region == region
    check_benchmark(benchmark)  # the public battery, ceiling included, on the stand-in
    assert set(score.attrs["subject_scores"]["subject"].values) == set(subjects)


def test_gifford_flattens_the_first_600_ms_and_fits_per_subject(things_data):
    data, ids = things_data
    benchmark = brainscore_vision.load_benchmark("Gifford2022.IT-ridge")
    score = benchmark(feature_model(ids, 7))
    train = data["Gifford2022_train"]
    assert benchmark._train_assembly.sizes["neuroid"] == 6 * 60  # 6 channels x 60 bins of 10 ms
    flat = {}
    for split in ("train", "test"):
        assembly = data[f"Gifford2022_{split}"]
        values = np.asarray(assembly.values)[:, :, 20:80].reshape(assembly.sizes["presentation"], -1)
        flat[split] = assembly.isel(time_bin=0, drop=True).isel(neuroid=np.repeat(np.arange(6), 60)).copy(data=values)
    train_ids, train_means = mean_over_repetitions(flat["train"])  # Gifford's train images are averaged too
    averaged_train = flat["train"].isel(presentation=np.arange(len(train_ids))).copy(data=train_means)
    expected = _expected_per_subject(benchmark, averaged_train, flat["test"], lambda: Ridge(alpha=1.0),
                                     ["sub-01", "sub-02"])
    assert float(score) == pytest.approx(expected, rel=1e-8)
    assert train.sizes["time_bin"] == 100


def test_things_images_missing_say_what_to_fetch(monkeypatch):
    monkeypatch.delenv("BRAINSCORE_THINGS_IMAGES", raising=False)
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # Brain-Score's store unreachable as well
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    with pytest.raises(LocalDataMissingError) as raised:
        brainscore_vision.load_stimulus_set("Hebart2023_fmri_stim_test")
    message = str(raised.value)
    assert "\n" not in message and "BRAINSCORE_THINGS_IMAGES" in message and "osf.io/jum2f" in message


def test_a_missing_things_image_is_named(things_data, tmp_path):
    data, _ = things_data
    missing = things_ids(1, offset=40)[0]
    (tmp_path / "things" / "object_images" / missing.rsplit("_", 1)[0] / f"{missing}.jpg").unlink()
    with pytest.raises(LocalDataMissingError, match=missing):
        brainscore_vision.load_stimulus_set("Hebart2023_fmri_stim_test")


# ------------------------------------------------------------------------------------------------ Allen2022
@pytest.fixture
def nsd_folder(tmp_path, monkeypatch):
    """Allen2022_fmri train/test files packaged by brainio into a folder, recorded sha1s pointed at them."""
    import pandas as pd

    from brainio.packaging import package_data_assembly_locally, package_stimulus_set_locally
    from brainio.stimuli import StimulusSet
    from brainscore_vision.data import allen2022

    folder = tmp_path / "nsd"
    train_ids, test_ids = things_ids(30), things_ids(12, offset=30)
    write_images(tmp_path / "images", train_ids + test_ids)
    voxels = voxel_coords(["subj01", "subj02", "subj05"], ["V1", "IT"], 7, "nc_testset", seed=4)
    files = dict(allen2022.FILES)
    data = {}
    for split, ids, repetitions in (("train", train_ids, 1), ("test", test_ids, 3)):
        stimuli = StimulusSet(pd.DataFrame({"stimulus_id": ids}))
        stimuli.stimulus_paths = {s: tmp_path / "images" / f"{s}.jpg" for s in ids}
        name = f"Allen2022_fMRI_{split}_Stimuli"
        packaged = package_stimulus_set_locally(stimuli, name, downloads_path=folder)
        files[f"Allen2022_fmri_stim_{split}"] = (name, (packaged["csv_sha1"], packaged["zip_sha1"]))
        data[split] = recordings(ids, repetitions, voxels, seed=6 + repetitions)
        assembly_name = f"Allen2022_fMRI_{split}_Assembly"
        packaged = package_data_assembly_locally(data[split], assembly_name, name, downloads_path=folder)
        files[f"Allen2022_fmri_{split}"] = (assembly_name, packaged["sha1"], f"Allen2022_fmri_stim_{split}")
    monkeypatch.setattr(allen2022, "FILES", files)
    monkeypatch.setenv("BRAINSCORE_NSD_DIR", str(folder))
    return data, train_ids + test_ids


def test_allen2022_dual_ridge_equals_scikit_learn_ridge_per_subject(nsd_folder):
    data, ids = nsd_folder
    benchmark = brainscore_vision.load_benchmark("Allen2022_fmri.V1-ridge")
    score = benchmark(feature_model(ids, 8.4))
    train, test = (data[split].squeeze("time_bin") for split in ("train", "test"))
    keep = np.flatnonzero((np.asarray(train["region"].values) == "V1") & (np.asarray(train["nc_testset"].values) > 30))
    expected = _expected_per_subject(benchmark, train.isel(neuroid=keep), test.isel(neuroid=keep),
                                     lambda: Ridge(alpha=1.0), ["subj01", "subj02", "subj05"])
    assert float(score) == pytest.approx(expected, rel=1e-8)
    check_benchmark(benchmark)


def test_allen2022_rsa_equals_spearman_over_subjects(nsd_folder):
    import scipy.stats

    data, ids = nsd_folder
    benchmark = brainscore_vision.load_benchmark("Allen2022_fmri.IT-rdm")
    score = benchmark(feature_model(ids, 8.4))
    means = {}
    for split in ("train", "test"):
        assembly = data[split].squeeze("time_bin")
        keep = np.flatnonzero((np.asarray(assembly["region"].values) == "IT")
                              & (np.asarray(assembly["nc_testset"].values) > 30))
        means[split] = mean_over_repetitions(assembly.isel(neuroid=keep))
    order = np.argsort(means["train"][0] + means["test"][0])  # RDMs in sorted stimulus order
    patterns = np.concatenate([means["train"][1], means["test"][1]])[order]
    ids_sorted = np.asarray(means["train"][0] + means["test"][0])[order]
    upper = np.triu_indices(len(ids_sorted), k=1)
    model = (1 - np.corrcoef(features_of(ids_sorted)))[upper]
    subjects = np.asarray(data["train"].isel(neuroid=np.flatnonzero(
        (np.asarray(data["train"]["region"].values) == "IT")
        & (np.asarray(data["train"]["nc_testset"].values) > 30)))["subject"].values)
    rdms = [(1 - np.corrcoef(patterns[:, subjects == s]))[upper] for s in np.unique(subjects)]
    raw = np.mean([scipy.stats.spearmanr(model, rdm)[0] for rdm in rdms])
    ceiling = np.mean([scipy.stats.spearmanr(rdm, np.mean(rdms, axis=0))[0] for rdm in rdms])
    assert float(score.attrs["raw"]) == pytest.approx(raw, rel=1e-9)
    assert float(score) == pytest.approx(raw / ceiling, rel=1e-9)
    check_benchmark(benchmark)


def test_nsd_missing_says_which_folder_to_set(monkeypatch):
    monkeypatch.delenv("BRAINSCORE_NSD_DIR", raising=False)
    with pytest.raises(LocalDataMissingError) as raised:
        brainscore_vision.load_dataset("Allen2022_fmri_surface_test")
    assert "\n" not in str(raised.value) and "BRAINSCORE_NSD_DIR" in str(raised.value)


def test_nsd_files_with_other_bytes_are_refused(nsd_folder):
    from brainio.errors import Sha1MismatchError
    from brainscore_vision.data import allen2022

    name, _, stimuli = allen2022.FILES["Allen2022_fmri_test"]
    allen2022.FILES["Allen2022_fmri_test"] = (name, "0" * 40, stimuli)
    with pytest.raises(Sha1MismatchError):
        brainscore_vision.load_dataset("Allen2022_fmri_test")


# ------------------------------------------------------------------------------------------------- ImageNet
@pytest.mark.parametrize("layout", ["folders", "flat"])
def test_imagenet_top1_from_a_local_folder(tmp_path, monkeypatch, layout):
    from brainio.assemblies import BehavioralAssembly
    from brainscore_vision.benchmark_helpers.test_helper import PrecomputedFeatures

    synsets = ["n01440764", "n01443537", "n01484850"]
    files = {f"ILSVRC2012_val_{i:08d}": synsets[i % 3] for i in range(1, 13)}
    if layout == "folders":
        for name, synset in files.items():
            write_images(tmp_path / synset, [name], suffix=".JPEG")
    else:
        write_images(tmp_path, list(files), suffix=".JPEG")
        (tmp_path / "LOC_val_solution.csv").write_text(
            "ImageId,PredictionString\n" + "".join(f"{n},{s} 1 2 3 4\n" for n, s in files.items()))
    monkeypatch.setenv("BRAINSCORE_IMAGENET_DIR", str(tmp_path))
    answers = {f"{n}.JPEG": (s if i % 4 else synsets[0]) for i, (n, s) in enumerate(files.items())}
    model = PrecomputedFeatures(BehavioralAssembly(list(answers.values()), coords={
        "stimulus_id": ("presentation", list(answers))}, dims=["presentation"]))
    score = brainscore_vision.load_benchmark("ImageNet-top1")(model)
    expected = np.mean([answers[f"{n}.JPEG"] == s for n, s in files.items()])
    assert float(score) == pytest.approx(expected, abs=1e-12) and 0 < expected < 1


def test_imagenet_missing_says_what_to_fetch(monkeypatch):
    monkeypatch.delenv("BRAINSCORE_IMAGENET_DIR", raising=False)
    with pytest.raises(LocalDataMissingError, match="BRAINSCORE_IMAGENET_DIR"):
        brainscore_vision.load_benchmark("ImageNet-top1").stimulus_count()


# ----------------------------------------------------------------------- MajajHong2015: reverse and temporal
def _majajhong_trials(n_images=48, repetitions=4, time_bins=((70, 170),)):
    ids = [f"im{i:02d}" for i in range(n_images)]
    neuroids = {"neuroid_id": ("neuroid", [f"n{i}" for i in range(60)]), "region": ("neuroid", ["V4"] * 30 + ["IT"] * 30)}
    trials = recordings(ids, repetitions, neuroids, noise=0.7, time_bins=time_bins, extra_presentation={
        "object_name": ("presentation", [f"o{i % 4}" for i in range(n_images)] * repetitions)})
    trials.attrs["stimulus_set"] = _stimuli(ids)
    return trials, ids


def test_reverse_pls_benchmark_is_the_metric_over_predictor_consistency():
    from brainscore_vision.benchmarks.muzellec2026.benchmark import reverse_predictivity_benchmark

    trials, ids = _majajhong_trials()
    benchmark = reverse_predictivity_benchmark("IT", assembly=trials)
    model = feature_model(ids, 8)
    score = benchmark(model)
    it = trials.isel(neuroid=slice(30, 60)).squeeze("time_bin")
    averaged = brainscore_vision.benchmark_helpers.neural_common.average_repetition(it)
    stimuli = _stimuli(ids)
    raw = brainscore_vision.load_metric("reverse_pls", crossvalidation_kwargs={"stratification_coord": "object_name"})(
        model.look_at(stimuli), averaged)
    ceiling = brainscore_vision.load_ceiling("predictor_consistency")(it)
    assert float(score) == pytest.approx(float(raw) ** 2 / float(ceiling), rel=1e-10)
    assert benchmark.identifier == "MajajHong2015public.IT-reverse_pls" and benchmark.version == 4


def _stimuli(ids):
    import pandas as pd

    from brainio.stimuli import StimulusSet

    stimuli = StimulusSet(pd.DataFrame({"stimulus_id": ids, "object_name": [f"o{i % 4}" for i in range(len(ids))]}))
    stimuli.identifier = "majajhong-like"
    return stimuli


def test_temporal_pls_rebins_to_10_ms_and_scores_per_bin():
    from brainscore_vision.benchmarks.public_reference.benchmark import (
        MajajHong2015PublicTemporalPLS,
        majajhong_temporal_assembly,
    )

    trials, ids = _majajhong_trials(n_images=40, repetitions=3, time_bins=[(t, t + 20) for t in range(0, 100, 20)])
    aligned = majajhong_temporal_assembly("V4", False, assembly=trials)
    assert list(zip(aligned["time_bin_start"].values, aligned["time_bin_end"].values)) == [
        (t, t + 10) for t in range(0, 90, 10)]
    np.testing.assert_allclose(aligned.isel(time_bin=1).values,  # 10-20 ms: half of the first 20-ms bin
                               trials.isel(neuroid=slice(0, 30), time_bin=0).values)
    benchmark = MajajHong2015PublicTemporalPLS("V4", assembly=trials)
    assert benchmark.timebins == [(t, t + 10) for t in range(0, 90, 10)]
    assert benchmark.identifier == "MajajHong2015.V4.public-temporal-pls"


# ------------------------------------------------------------------------- #2169: old versions keep their number
def test_old_versions_keep_the_old_mapping(things_data):
    from brainscore_vision.benchmark_helpers.ceiling_mapping import normalization_for
    from brainscore_vision.benchmarks.things.benchmark import ThingsTrainTest

    assert normalization_for("MajajHong2015.IT.public-pls", 3) == "legacy_squared"
    assert normalization_for("MajajHong2015.IT.public-pls", 4) == "r2_over_ceiling"
    assert normalization_for("Cowley2023.V4-pls", 1) == "r2_over_ceiling"
    data, ids = things_data
    current = ThingsTrainTest("Hebart2023_fmri", "IT", "ridge")
    old = ThingsTrainTest("Hebart2023_fmri", "IT", "ridge")
    old._version, old._normalization = 2, normalization_for("Hebart2023_fmri.IT-ridge", 2)
    model = feature_model(ids, 10)
    new_score, old_score = current(model), old(model)
    per_subject_raw = np.asarray(new_score.attrs["raw"].attrs["raw"].values)
    ceilings = [_slice_ceiling(current, s) for s in new_score.attrs["raw"].attrs["raw"]["subject"].values]
    assert float(new_score) == pytest.approx(np.mean(per_subject_raw ** 2 / ceilings), rel=1e-10)
    assert float(old_score) == pytest.approx(np.mean((per_subject_raw / ceilings) ** 2), rel=1e-10)
