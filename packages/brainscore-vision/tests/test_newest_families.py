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
