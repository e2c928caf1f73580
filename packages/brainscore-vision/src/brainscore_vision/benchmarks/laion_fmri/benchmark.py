"""LAION-fMRI (Zerbe et al. 2026) benchmarks under Brain-Score's identifiers, from a local copy of the data.

Every benchmark scores each subject on its own voxels and averages over the five subjects
(:class:`~brainscore_vision.benchmark_helpers.multi_subject.MultiSubjectNeuralBenchmark`: ``raw``, per-subject
scores, a 200-resample bootstrap error). Voxels with a 12-repetition noise ceiling (``nc_12rep``, in %) of at most 30
are left out; images shown at 9.2 degrees, one trial; version 1.

``Zerbe2026_fmri[_persubject].{V1,V2,V4,IT}-{tau,ood}-ridgecv``
    A :class:`~brainscore_vision.benchmark_helpers.neural_common.TrainTestNeuralBenchmark` per subject on the
    re:vision split (``tau``: MMD-matched 80/20; ``ood``: the 371 out-of-distribution images as test) of the shared
    pool (1,492 images every subject saw) or of the subject's own pool: dual RidgeCV (``dual_ridgecv_split``) over
    21 alphas 1e-10 .. 1e10, repetitions averaged on both sides; the ceiling is the dataset's own per-voxel noise
    ceiling as a correlation, ``sqrt(nc_12rep / 100)``, its median over voxels (Brain-Score's ``_ncsnr_ceiling``);
    score ``r^2 / ceiling``.
``Zerbe2026_fmri.{V1,V2,V4,IT}-rdm-pearson``
    Brain-Score's RSA per subject on the tau train and test images of the shared pool (Spearman of the RDMs), divided
    by the mean over voxels of ``sqrt(nc_12rep / 100)``.
``Zerbe2026_fmri.{V1,V2,V4,IT}-cka``
    Unbiased linear CKA between the model's and each subject's responses (no RDM), averaged over subjects, divided by
    the mean pairwise CKA between subjects (``attrs['ceiling']`` carries its pairs and their standard error).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from brainio.stimuli import StimulusSet
from brainscore_core.metrics import Score
from brainscore_metrics.bootstrap import declare_no_error
from brainscore_vision import load_dataset, load_metric, load_stimulus_set
from brainscore_vision.benchmark_helpers.multi_subject import (
    MultiSubjectNeuralBenchmark,
    block_diagonal_concat,
)
from brainscore_vision.benchmark_helpers.neural_common import (
    TrainTestNeuralBenchmark,
    average_repetition,
    filter_reliable_neuroids,
)
from brainscore_vision.benchmark_helpers.rsa_subjects import RSABenchmark
from brainscore_vision.data.laion_fmri import BIBTEX
from brainscore_vision.data.laion_fmri.files import OOD_TYPES, SUBJECTS, split_ids
from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.utils import LazyLoad

__all__ = ["LAION_ALPHA_LIST", "LAIONfMRI", "LAIONfMRICKA", "LAIONfMRIRSA", "intersubject_cka_ceiling",
           "load_assembly", "load_full_assembly_one_subject", "ncsnr_ceiling"]

LAION_ALPHA_LIST = [10.0 ** i for i in range(-10, 11)]
VISUAL_DEGREES = 9.2
NOISE_CEILING_THRESHOLD = 0.3 * 100
REGION_ALIAS = {"IT_full": ("V4", "IT")}
MODEL_REGION = {"IT_full": "IT"}
SPLITS = ("tau", "ood") + tuple(f"ood_{t}" for t in OOD_TYPES)


def _subject_slice(subject: str, region: str, split: str, side: str, dataset_prefix: str,
                   noise_ceiling_threshold: float, noise_ceiling_coord: str):
    """One subject's reliable voxels of ``region`` on one side (``'train'``/``'test'``) of ``split``."""
    full = filter_reliable_neuroids(load_dataset(f"{dataset_prefix}_full_{subject}"), noise_ceiling_threshold,
                                    noise_ceiling_coord)
    regions = np.asarray(full["region"].values).astype(str)
    full = full.isel(neuroid=np.flatnonzero(np.isin(regions, REGION_ALIAS.get(region, (region,)))))
    full = full.assign_coords(region=("neuroid", np.full(full.sizes["neuroid"], region, dtype=object)))
    if "time_bin" in full.dims:
        full = full.isel(time_bin=0)
    canonical, ood = (("ood", (split[4:],)) if split.startswith("ood_") else (split, None))
    train, test = split_ids(canonical, subject if "persubject" in dataset_prefix else "shared", ood)
    keep = np.isin(np.asarray(full["stimulus_id"].values).astype(str), list(train if side == "train" else test))
    if not keep.any():
        raise BenchmarkDataError(f"empty {side} side of split {split!r} for {subject}, region {region}")
    return full.isel(presentation=np.flatnonzero(keep))


def load_assembly(region: str, split: str, side: str, average_repetitions: bool,
                  dataset_prefix: str = "Zerbe2026_fmri", subjects=SUBJECTS,
                  noise_ceiling_threshold: float = NOISE_CEILING_THRESHOLD, noise_ceiling_coord: str = "nc_12rep"):
    """The subjects' slices stitched block-diagonally (Brain-Score's coordinates), the side's stimuli attached."""
    slices = [_subject_slice(s, region, split, side, dataset_prefix, noise_ceiling_threshold, noise_ceiling_coord)
              for s in subjects]
    combined = block_diagonal_concat(slices)
    combined = combined.assign_coords(neuroid_id=("neuroid", np.arange(combined.sizes["neuroid"])),
                                      time_bin_start=0, time_bin_end=0)
    full = load_stimulus_set(f"{dataset_prefix}_stim_full")
    ids = set(np.asarray(combined["stimulus_id"].values).astype(str))
    stimuli = StimulusSet(full[full["stimulus_id"].astype(str).isin(ids)].reset_index(drop=True))
    stimuli.stimulus_paths = {s: full.stimulus_paths[s] for s in stimuli["stimulus_id"] if s in full.stimulus_paths}
    tag = f"-{'+'.join(subjects)}" if "persubject" in dataset_prefix else ""
    stimuli.identifier = f"{dataset_prefix}_stim_full--{split}-{side}{tag}"
    combined.attrs.update(stimulus_set=stimuli, stimulus_set_identifier=stimuli.identifier)
    if average_repetitions:
        combined = average_repetition(combined)
        combined.attrs.update(stimulus_set=stimuli, stimulus_set_identifier=stimuli.identifier)
    return combined


def ncsnr_ceiling(assembly, nc_coord: str = "nc_12rep") -> Score:
    """The dataset's noise ceiling as a correlation, ``sqrt(nc / 100)`` per voxel (float32, as Brain-Score), its
    median over voxels; per-voxel values (with ``subject``) in ``attrs['raw']``."""
    values = np.sqrt(np.clip(np.asarray(assembly[nc_coord].values).astype(np.float32), 0, 100) / 100.0)
    score = Score(float(np.nanmedian(values)))
    score.attrs["raw"] = Score(values, coords={"neuroid_id": ("neuroid", np.asarray(assembly["neuroid_id"].values)),
                                               "subject": ("neuroid", np.asarray(assembly["subject_id"].values))},
                               dims=["neuroid"])
    score.attrs["nc_coord"] = nc_coord
    return score


def _subject_benchmark(region, split, metric, metric_type, dataset_prefix, subject, threshold, nc_coord):
    def load(side, average):
        return LazyLoad(lambda: load_assembly(region, split, side, average, dataset_prefix, (subject,), threshold,
                                              nc_coord))

    test_repetitions = load("test", False)
    return TrainTestNeuralBenchmark(
        identifier=f"{dataset_prefix}.{region}-{split}-{metric_type}", version=1,
        ceiling_func=lambda: ncsnr_ceiling(test_repetitions, nc_coord), train_assembly=load("train", True),
        test_assembly=load("test", True), similarity_metric=metric, visual_degrees=VISUAL_DEGREES, number_of_trials=1,
        parent=region, bibtex=BIBTEX, region=MODEL_REGION.get(region, region), timebins=[(0, 0)])


class _SingleSubject:
    """A one-subject LAION benchmark: the child itself, its score marked as having no resampling error."""

    def __init__(self, child):
        self._child = child

    def __getattr__(self, name):
        return getattr(self._child, name)

    def __call__(self, candidate) -> Score:
        return declare_no_error(self._child(candidate), "single-subject TrainTest; no per-stimulus axis")


def LAIONfMRI(region: str, split: str, metric_type: str = "ridgecv", dataset_prefix: str = "Zerbe2026_fmri",
              alphas=LAION_ALPHA_LIST, subjects=SUBJECTS, noise_ceiling_threshold: float = NOISE_CEILING_THRESHOLD,
              noise_ceiling_coord: str = "nc_12rep"):
    """``<dataset_prefix>.<region>-<split>-<metric_type>`` (``split``: tau, ood or ood_<type>)."""
    if split not in SPLITS:
        raise BenchmarkDataError(f"LAION-fMRI split {split!r} is not a single split; choose one of {SPLITS}")
    metric = load_metric(f"dual_{metric_type}_split", alphas=alphas)

    def child(subject):
        return _subject_benchmark(region, split, metric, metric_type, dataset_prefix, subject,
                                  noise_ceiling_threshold, noise_ceiling_coord)

    if len(subjects) == 1:
        return _SingleSubject(child(subjects[0]))
    return MultiSubjectNeuralBenchmark(f"{dataset_prefix}.{region}-{split}-{metric_type}", subjects, child,
                                       peak_aggregation=float(len(subjects)) if "persubject" in dataset_prefix else 1.0)


def load_full_assembly_one_subject(subject: str, region: str, dataset_prefix: str = "Zerbe2026_fmri",
                                   noise_ceiling_threshold: float = NOISE_CEILING_THRESHOLD,
                                   noise_ceiling_coord: str = "nc_12rep"):
    """One subject's tau train and test images together (repetitions averaged), ``subject`` on the voxels."""
    sides = [load_assembly(region, "tau", side, True, dataset_prefix, (subject,), noise_ceiling_threshold,
                           noise_ceiling_coord) for side in ("train", "test")]
    combined = type(sides[0])(xr.concat(sides, dim="presentation"))
    merged = pd.concat([s.attrs["stimulus_set"] for s in sides], ignore_index=True).drop_duplicates("stimulus_id")
    stimuli = StimulusSet(merged.reset_index(drop=True))
    stimuli.stimulus_paths = {**sides[0].attrs["stimulus_set"].stimulus_paths,
                              **sides[1].attrs["stimulus_set"].stimulus_paths}
    stimuli.identifier = f"{dataset_prefix}_stim_full--rdm-{subject}"
    combined = combined.assign_coords(subject=("neuroid", np.full(combined.sizes["neuroid"], subject, dtype=object)))
    combined.attrs.update(stimulus_set=stimuli, stimulus_set_identifier=stimuli.identifier)
    return combined


def _ncsnr_rsa_ceiling(assembly) -> Score:
    values = np.sqrt(np.clip(np.asarray(assembly["nc_12rep"].values).astype(np.float32), 0, 100) / 100.0)
    ceiling = Score(float(np.nanmean(values)))
    ceiling.attrs["ncsnr_voxel_count"] = int(np.isfinite(values).sum())
    return ceiling


def _subject_rsa(region, dataset_prefix, subject, threshold, nc_coord, *, kind: str, ceiler, **metric):
    assembly = LazyLoad(lambda: load_full_assembly_one_subject(subject, region, dataset_prefix, threshold, nc_coord))
    return RSABenchmark(identifier=f"{dataset_prefix}.{region}-{kind}-{subject}", version=1, assembly=assembly,
                        region=MODEL_REGION.get(region, region), visual_degrees=VISUAL_DEGREES, number_of_trials=1,
                        bibtex=BIBTEX, ceiler=ceiler, parent=region, **metric)


def _shared_pool_only(dataset_prefix: str, what: str) -> None:
    if "persubject" in dataset_prefix:
        raise BenchmarkDataError(f"{what} is only defined for the shared pool: per-subject stimuli differ")


def LAIONfMRIRSA(region: str, dataset_prefix: str = "Zerbe2026_fmri", subjects=SUBJECTS,
                 noise_ceiling_threshold: float = NOISE_CEILING_THRESHOLD, noise_ceiling_coord: str = "nc_12rep"):
    """``<dataset_prefix>.<region>-rdm-pearson``."""
    _shared_pool_only(dataset_prefix, "LAION-fMRI RSA")
    return MultiSubjectNeuralBenchmark(
        f"{dataset_prefix}.{region}-rdm-pearson", subjects,
        lambda subject: _subject_rsa(region, dataset_prefix, subject, noise_ceiling_threshold, noise_ceiling_coord,
                                     kind="rdm-pearson", ceiler=_ncsnr_rsa_ceiling))


def intersubject_cka_ceiling(subjects, load_subject, unbiased: bool = True) -> Score:
    """Mean CKA over pairs of subjects (two assemblies held at a time); ``error`` the SEM over pairs."""
    metric = load_metric("cka" if unbiased else "cka_biased")
    values, labels = [], []
    for first in range(len(subjects)):
        a = load_subject(subjects[first])
        for second in range(first + 1, len(subjects)):
            values.append(float(metric(a, load_subject(subjects[second]))))
            labels.append(f"{subjects[first]}|{subjects[second]}")
    if not values:
        raise BenchmarkDataError("an inter-subject CKA ceiling needs at least two subjects")
    pairs = np.asarray(values)
    ceiling = Score(float(pairs.mean()))
    ceiling.attrs["error"] = float(pairs.std(ddof=1) / np.sqrt(pairs.size)) if pairs.size > 1 else 0.0
    ceiling.attrs["ceiling_method"] = "pairwise_intersubject_cka"
    ceiling.attrs["ceiling_pairs"] = Score(pairs, coords={"pair": labels}, dims=["pair"])
    loo = [np.mean([v for label, v in zip(labels, pairs, strict=True) if s in label.split("|")]) for s in subjects]
    ceiling.attrs["ceiling_loo_per_subject"] = Score(np.asarray(loo), coords={"subject": list(subjects)},
                                                     dims=["subject"])
    return ceiling


class _MultiSubjectCKA(MultiSubjectNeuralBenchmark):
    """Children scored with a ceiling of 1 (raw CKA); the aggregate divided by the inter-subject CKA."""

    def __init__(self, identifier, subjects, factory, load_subject, unbiased: bool):
        self._load_subject, self._unbiased = load_subject, unbiased
        super().__init__(identifier, subjects, factory, peak_aggregation=2.0)

    def _compute_ceiling(self) -> Score:
        return intersubject_cka_ceiling(self._subjects, self._load_subject, self._unbiased)

    def __call__(self, candidate) -> Score:
        raw_scale = super().__call__(candidate)
        ceiling = self.ceiling
        value = float(ceiling)
        if not np.isfinite(value) or value <= 0:
            raise BenchmarkDataError(f"{self.identifier}: inter-subject CKA ceiling {value} is not usable")
        score = Score(float(raw_scale) / value)
        score.attrs.update(raw_scale.attrs)
        score.attrs["ceiling"] = ceiling
        if raw_scale.attrs.get("error") is not None:
            score.attrs["error"] = float(raw_scale.attrs["error"]) / value
        return score


def LAIONfMRICKA(region: str, dataset_prefix: str = "Zerbe2026_fmri", subjects=SUBJECTS,
                 noise_ceiling_threshold: float = NOISE_CEILING_THRESHOLD, noise_ceiling_coord: str = "nc_12rep",
                 unbiased: bool = True):
    """``<dataset_prefix>.<region>-cka`` (unbiased linear CKA by default)."""
    _shared_pool_only(dataset_prefix, "LAION-fMRI CKA")
    similarity = load_metric("cka" if unbiased else "cka_biased")

    def child(subject):
        return _subject_rsa(region, dataset_prefix, subject, noise_ceiling_threshold, noise_ceiling_coord,
                            kind="cka", ceiler=lambda assembly: Score(1.0), rdm=lambda x: x, similarity=similarity)

    def load_subject(subject):
        return load_full_assembly_one_subject(subject, region, dataset_prefix, noise_ceiling_threshold,
                                              noise_ceiling_coord)

    return _MultiSubjectCKA(f"{dataset_prefix}.{region}-cka", subjects, child, load_subject, unbiased)
