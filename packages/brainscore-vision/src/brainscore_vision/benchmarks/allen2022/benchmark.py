"""Allen et al. 2022 (NSD) fMRI benchmarks, volumetric and surface, 8 and 4 subjects, under Brain-Score's identifiers.

``<prefix>.{V1,V2,V4,IT}-ridge`` with ``prefix`` one of ``Allen2022_fmri``, ``Allen2022_fmri_4subj``,
``Allen2022_fmri_surface``, ``Allen2022_fmri_surface_4subj``
    :class:`~brainscore_vision.benchmark_helpers.neural_common.TrainTestNeuralBenchmark`: dual ridge (``alpha=1``,
    ``dual_ridge_split``: the model's features enter through one stimulus Gram matrix) fitted per subject
    (``alpha_coord='subject'``), each subject ceiled by its voxels' split-half internal consistency on the test
    repetitions; voxels with ``nc_testset`` above 30 (%); train repetitions kept; 8.4 degrees (NSD's square
    aperture), one trial; version 1.
``<prefix>.{V1,V2,V4,IT}-rdm``
    Brain-Score's RSA over subjects (:class:`~brainscore_vision.benchmark_helpers.rsa_subjects.RSABenchmark`) on
    all train and test images, repetitions averaged: the mean over subjects of the Spearman correlation of the
    model's RDM with the subject's, divided by the ``rsa_ceiling`` (each subject against the mean of all).

ROIs as Brain-Score defines them: V1, V2, V4 from NSD's pRF ROIs, IT NSD's ventral "streams" label (Algonauts 2023).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from brainio.stimuli import StimulusSet
from brainscore_metrics.regression import ALPHA_LIST
from brainscore_vision import load_ceiling, load_dataset, load_metric
from brainscore_vision.benchmark_helpers.neural_common import (
    TrainTestNeuralBenchmark,
    filter_reliable_neuroids,
    prepare_split_assembly,
)
from brainscore_vision.benchmark_helpers.rsa_subjects import RSABenchmark
from brainscore_vision.data.allen2022 import BIBTEX
from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.utils import LazyLoad

__all__ = ["NOISE_CEILING_THRESHOLD", "PREFIXES", "REGIONS", "VISUAL_DEGREES", "Allen2022fmri", "Allen2022fmriRSA",
           "load_assembly", "load_full_assembly"]

VISUAL_DEGREES = 8.4
NOISE_CEILING_THRESHOLD = 0.3 * 100
"""Voxels with ``nc_testset`` (in %) at or below this are left out."""
REGIONS = ("V1", "V2", "V4", "IT")
PREFIXES = ("Allen2022_fmri", "Allen2022_fmri_4subj", "Allen2022_fmri_surface", "Allen2022_fmri_surface_4subj")


def load_assembly(region: str, split: str, average_repetitions: bool, dataset_prefix: str = "Allen2022_fmri",
                  noise_ceiling_threshold: float = NOISE_CEILING_THRESHOLD):
    """``<prefix>_<split>`` reliable voxels of ``region``, ``presentation x neuroid``."""
    assembly = load_dataset(f"{dataset_prefix}_{split}")
    stimulus_set = assembly.attrs.get("stimulus_set")
    assembly = filter_reliable_neuroids(assembly, noise_ceiling_threshold, "nc_testset")
    regions = np.asarray(assembly["region"].values).astype(str)
    assembly = assembly.isel(neuroid=np.flatnonzero(regions == region))
    if assembly.sizes["neuroid"] == 0:
        raise BenchmarkDataError(f"{dataset_prefix}_{split}: no reliable voxel in region {region!r}")
    return prepare_split_assembly(assembly, average_repetitions=average_repetitions, stimulus_set=stimulus_set)


def load_full_assembly(region: str, dataset_prefix: str = "Allen2022_fmri",
                       noise_ceiling_threshold: float = NOISE_CEILING_THRESHOLD):
    """Train and test images together, repetitions averaged (for RSA), with both stimulus sets joined."""
    train, test = (load_assembly(region, split, True, dataset_prefix, noise_ceiling_threshold)
                   for split in ("train", "test"))
    combined = type(train)(xr.concat([train, test], dim="presentation"))
    stimuli = StimulusSet(pd.concat([train.stimulus_set, test.stimulus_set], ignore_index=True))
    stimuli.stimulus_paths = {**train.stimulus_set.stimulus_paths, **test.stimulus_set.stimulus_paths}
    stimuli.identifier = f"{dataset_prefix}_train--full"
    combined.attrs["stimulus_set"] = stimuli
    combined.attrs["stimulus_set_identifier"] = stimuli.identifier
    return combined


def Allen2022fmri(region: str, metric_type: str = "ridge", dataset_prefix: str = "Allen2022_fmri",
                  alphas=ALPHA_LIST) -> TrainTestNeuralBenchmark:
    """``<dataset_prefix>.<region>-<metric_type>`` (dual ridge, one mapping per subject)."""
    train = LazyLoad(lambda: load_assembly(region, "train", False, dataset_prefix))
    test = LazyLoad(lambda: load_assembly(region, "test", True, dataset_prefix))
    test_repetitions = LazyLoad(lambda: load_assembly(region, "test", False, dataset_prefix))
    ceiler = load_ceiling("internal_consistency")
    return TrainTestNeuralBenchmark(
        identifier=f"{dataset_prefix}.{region}-{metric_type}", version=1, ceiling_func=lambda: ceiler(test_repetitions),
        train_assembly=train, test_assembly=test, similarity_metric=load_metric(f"dual_{metric_type}_split",
                                                                                alphas=alphas),
        alpha_coord="subject", per_voxel_ceilings=False, visual_degrees=VISUAL_DEGREES, number_of_trials=1,
        parent=region, bibtex=BIBTEX, region=region)


def Allen2022fmriRSA(region: str, dataset_prefix: str = "Allen2022_fmri") -> RSABenchmark:
    """``<dataset_prefix>.<region>-rdm``."""
    return RSABenchmark(identifier=f"{dataset_prefix}.{region}-rdm", version=1,
                        assembly=LazyLoad(lambda: load_full_assembly(region, dataset_prefix)), region=region,
                        visual_degrees=VISUAL_DEGREES, number_of_trials=1, bibtex=BIBTEX)
