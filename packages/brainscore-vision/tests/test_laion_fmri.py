"""LAION-fMRI (Zerbe2026_fmri*) on a synthetic stand-in of Brain-Score's files: two subjects, the re:vision split
files, a manifest of images. Expected scores come from scikit-learn (RidgeCV), scipy (Spearman) and a written-out
unbiased CKA on the same arrays."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from _synthetic_families import (
    feature_model,
    features_of,
    mean_over_repetitions,
    pearson_columns,
    write_images,
)
from sklearn.linear_model import RidgeCV

import brainscore_vision
from brainio.assemblies import NeuroidAssembly
from brainscore_core.testing import check_benchmark
from brainscore_vision.benchmarks.laion_fmri.benchmark import (
    LAION_ALPHA_LIST,
    LAIONfMRI,
    LAIONfMRICKA,
    LAIONfMRIRSA,
)
from brainscore_vision.errors import LocalDataMissingError

SUBJECTS = ("sub-01", "sub-03")
REGULAR = [f"shared_12rep_LAION_cluster_{1000 + i}_i0.jpg" for i in range(30)]
OOD = [f"shared_4rep_OOD_{kind}_{i}.jpg" for kind in ("shape", "gabor") for i in range(4)]


def _subject_assembly(subject: str, seed: int) -> NeuroidAssembly:
    ids = REGULAR + OOD
    rng = np.random.default_rng(seed)
    n_voxels = 16
    weights = rng.standard_normal((30, n_voxels)) / np.sqrt(30)
    signal = features_of([i.removesuffix(".jpg") for i in ids]) @ weights
    values = np.concatenate([signal + 0.8 * rng.standard_normal(signal.shape) for _ in range(3)])[:, :, None]
    return NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", ids * 3), "repetition": ("presentation", np.repeat(np.arange(3), len(ids))),
        "neuroid_id": ("neuroid", [f"{subject}-v{i}" for i in range(n_voxels)]),
        "subject_id": ("neuroid", [subject] * n_voxels), "region": ("neuroid", ["V1"] * 8 + ["IT"] * 8),
        "nc_12rep": ("neuroid", rng.uniform(0, 100, n_voxels)),
        "time_bin_start": ("time_bin", [0]), "time_bin_end": ("time_bin", [0])},
        dims=["presentation", "neuroid", "time_bin"])


@pytest.fixture
def laion_folder(tmp_path, monkeypatch):
    from brainio.packaging import package_data_assembly_locally
    from brainscore_vision.data.laion_fmri import files

    folder = tmp_path / "laion"
    write_images(folder / "stimuli", [i.removesuffix(".jpg") for i in REGULAR + OOD])
    (folder / "stimuli" / "manifest.csv").write_text(
        "stimulus_id,filename\n" + "".join(f"{i},{i}\n" for i in REGULAR + OOD))
    splits = {"tau": (REGULAR[:24], REGULAR[24:]), "ood": (REGULAR, OOD)}
    (folder / "splits" / "shared").mkdir(parents=True)
    for name, (train, test) in splits.items():
        (folder / "splits" / "shared" / f"{name}.json").write_text(json.dumps(
            {"name": name, "variants": [{"variant_id": 0, "train_ids": train, "test_ids": test}]}))
    table, data = dict(files.FILES), {}
    stimuli = pd.DataFrame({"stimulus_id": REGULAR + OOD})
    for index, subject in enumerate(SUBJECTS):
        data[subject] = _subject_assembly(subject, 10 + index)
        name = f"LAION_fMRI_full_{subject}_Assembly"
        packaged = package_data_assembly_locally(data[subject], name, "Zerbe2026_fmri_stim_full", downloads_path=folder,
                                                 stimulus_set=stimuli)
        table[("shared", subject)] = (name, packaged["sha1"])
    monkeypatch.setattr(files, "FILES", table)
    monkeypatch.setenv("BRAINSCORE_LAION_FMRI_DIR", str(folder))
    return data, splits


def _model():
    return feature_model([i.removesuffix(".jpg") for i in REGULAR + OOD], 9.2)


def _renamed(model):  # the manifest's ids end in .jpg; the features were drawn for the bare names
    features = model.features.assign_coords(stimulus_id=("presentation", [f"{s}.jpg" for s in
                                                                          model.features["stimulus_id"].values]))
    model.features = features
    return model


def _voxels(assembly, region):
    keep = (np.asarray(assembly["region"].values) == region) & (np.asarray(assembly["nc_12rep"].values) > 30)
    return assembly.isel(neuroid=np.flatnonzero(keep)).squeeze("time_bin")


def _rows(assembly, ids):
    return assembly.isel(presentation=np.flatnonzero(np.isin(assembly["stimulus_id"].values, ids)))


@pytest.mark.parametrize("split", ["tau", "ood"])
def test_ridgecv_per_subject_over_the_ncsnr_ceiling(laion_folder, split):
    data, splits = laion_folder
    benchmark = LAIONfMRI("V1", split, subjects=SUBJECTS)
    score = benchmark(_renamed(_model()))
    check_benchmark(benchmark)
    expected = []
    for subject in SUBJECTS:
        voxels = _voxels(data[subject], "V1")
        train_ids, train = mean_over_repetitions(_rows(voxels, splits[split][0]))
        test_ids, test = mean_over_repetitions(_rows(voxels, splits[split][1]))
        prediction = RidgeCV(alphas=LAION_ALPHA_LIST).fit(
            features_of([i.removesuffix(".jpg") for i in train_ids]), train).predict(
            features_of([i.removesuffix(".jpg") for i in test_ids]))
        raw = np.median(pearson_columns(prediction, test))
        ceiling = np.median(np.sqrt(np.clip(voxels["nc_12rep"].values.astype(np.float32), 0, 100) / 100.0))
        expected.append(raw ** 2 / float(ceiling))
    assert float(score) == pytest.approx(np.mean(expected), rel=1e-7)
    assert list(score.attrs["raw_subjects"]["subject"].values) == list(SUBJECTS)
    assert np.isfinite(score.attrs["error"])


def _tau_means(data, subject, region, splits):
    voxels = _voxels(data[subject], region)
    ids, values = mean_over_repetitions(_rows(voxels, splits["tau"][0] + splits["tau"][1]))
    order = np.argsort(ids)
    return np.asarray(ids)[order], values[order], voxels


def test_rsa_per_subject_over_the_mean_ncsnr(laion_folder):
    data, splits = laion_folder
    score = LAIONfMRIRSA("IT", subjects=SUBJECTS)(_renamed(_model()))
    expected = []
    for subject in SUBJECTS:
        ids, patterns, voxels = _tau_means(data, subject, "IT", splits)
        upper = np.triu_indices(len(ids), k=1)
        model = (1 - np.corrcoef(features_of([i.removesuffix(".jpg") for i in ids])))[upper]
        raw = scipy.stats.spearmanr(model, (1 - np.corrcoef(patterns))[upper])[0]
        ceiling = np.mean(np.sqrt(np.clip(voxels["nc_12rep"].values.astype(np.float32), 0, 100) / 100.0))
        expected.append(raw / float(ceiling))
    assert float(score) == pytest.approx(np.mean(expected), rel=1e-7)


def _unbiased_cka(x, y):
    """Song et al.'s U-statistic HSIC on linear kernels with zeroed diagonals, written out."""
    def hsic(k, m):
        n = k.shape[0]
        k, m = k - np.diag(np.diag(k)), m - np.diag(np.diag(m))
        return (np.sum(k * m) + k.sum() * m.sum() / ((n - 1) * (n - 2)) - 2 / (n - 2) * k.sum(1) @ m.sum(1)) / (
            n * (n - 3))
    k, m = x @ x.T, y @ y.T
    return hsic(k, m) / (np.sqrt(hsic(k, k) * hsic(m, m)) + 1e-12)


def test_cka_over_the_pairwise_intersubject_cka(laion_folder):
    data, splits = laion_folder
    score = LAIONfMRICKA("V1", subjects=SUBJECTS)(_renamed(_model()))
    means = {subject: _tau_means(data, subject, "V1", splits) for subject in SUBJECTS}
    ids = means[SUBJECTS[0]][0]
    features = features_of([i.removesuffix(".jpg") for i in ids])
    raw = np.mean([_unbiased_cka(features, means[s][1]) for s in SUBJECTS])
    ceiling = _unbiased_cka(means[SUBJECTS[0]][1], means[SUBJECTS[1]][1])
    assert float(score.attrs["ceiling"]) == pytest.approx(ceiling, rel=1e-9)
    assert float(score) == pytest.approx(raw / ceiling, rel=1e-9)


def test_registered_identifiers_and_missing_folder(monkeypatch):
    identifiers = [i for i in brainscore_vision.benchmark_registry if i.startswith("Zerbe2026")]
    assert len(identifiers) == 24 and "Zerbe2026_fmri_persubject.IT-ood-ridgecv" in identifiers
    monkeypatch.delenv("BRAINSCORE_LAION_FMRI_DIR", raising=False)
    with pytest.raises(LocalDataMissingError) as raised:
        brainscore_vision.load_dataset("Zerbe2026_fmri_full_sub-05")
    assert "\n" not in str(raised.value) and "BRAINSCORE_LAION_FMRI_DIR" in str(raised.value)
