"""``Igustibagus2024-ridge``: macaque IT multi-units on images of 10 objects in many styles (Igustibagus et al.
2024), as Brain-Score defines it.

NeuralBenchmark, 8 degrees, 63 trials, version 2, parent IT. The data (:func:`load_domain_transfer`): the 70-170 ms
bin; the neuroids whose internal consistency (split-half over repetitions, mean over the 10 splits) exceeds 0.7;
presentations without any value dropped; repetitions averaged (for the recordings); then the images of the sources
COCOColor, Art, COCOGray, TDW, Silhouette in the styles Brain-Score lists, from the recordings and their stimulus set.

Metric: ridge (alpha 1) over 10 splits stratified on ``object_label``, with Brain-Score's cross-validation hook
(:func:`drop_shared_backgrounds`): a training image whose ``background_id`` (other than 0) is also a test image's is
dropped from training. Ceiling: ``internal_consistency`` of the filtered repetitions; score raw^2 / ceiling.
"""

from __future__ import annotations

import numpy as np

from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark
from brainscore_vision.data.igustibagus2024 import BIBTEX
from brainscore_vision.utils import LazyLoad

__all__ = ["BIBTEX", "INCLUDE_SOURCES", "INCLUDE_STYLES", "Igustibagus2024_ridge", "NUMBER_OF_TRIALS",
           "RELIABILITY_THRESHOLD", "VISUAL_DEGREES", "drop_shared_backgrounds", "filter_neuroids",
           "load_domain_transfer"]

VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 63
RELIABILITY_THRESHOLD = 0.7
INCLUDE_SOURCES = ("COCOColor", "Art", "COCOGray", "TDW", "Silhouette")
INCLUDE_STYLES = ("silhouettes", "edges", "original", "sketch", "textures", "painting", "mosaic", "grayscale",
                  "convex_hull", "outline", "silhouette", "line_drawing", "cartoon")


def drop_shared_backgrounds(train_indices, test_indices, source):
    """Brain-Score's ``preprocess_indices`` hook: ``train_indices`` without the positions whose ``background_id``
    (looked up by position in ``source``, as Brain-Score looks it up) is a non-zero background of a test position.

    Brain-Score's version fails when no non-zero background is shared (it indexes with a tuple); here the training
    indices are then returned unchanged."""
    backgrounds = np.asarray(source["background_id"].values)
    train_indices, test_indices = np.asarray(train_indices), np.asarray(test_indices)
    shared = np.setdiff1d(np.intersect1d(backgrounds[train_indices], backgrounds[test_indices]), [0])
    if shared.size:
        train_indices = train_indices[~np.isin(backgrounds[train_indices], shared)]
    return train_indices, test_indices


def filter_neuroids(assembly, threshold: float):
    """The neuroids whose split-half internal consistency, averaged over the splits, exceeds ``threshold``; then the
    presentations that hold no value at all are dropped."""
    from brainscore_vision import load_ceiling

    ceiling = load_ceiling("internal_consistency")(assembly)
    reliability = np.asarray(ceiling.attrs["raw"].transpose("split", "neuroid").values).mean(axis=0)
    assembly = assembly.isel(neuroid=np.flatnonzero(reliability > threshold))
    values = np.asarray(assembly.transpose("presentation", ...).values)
    return assembly.isel(presentation=np.flatnonzero(~np.all(np.isnan(values.reshape(len(values), -1)), axis=1)))


def load_domain_transfer(average_repetitions: bool, assembly=None):
    """``Igustibagus2024`` prepared as the benchmark scores it (module docstring), ``presentation x neuroid``."""
    from brainio import average_repetition
    from brainscore_vision import load_dataset

    assembly = load_dataset("Igustibagus2024") if assembly is None else assembly
    stimulus_set = assembly.attrs.get("stimulus_set")
    if "time_bin" in assembly.dims:
        assembly = assembly.isel(time_bin=np.flatnonzero(np.asarray(assembly["time_bin_id"].values) == 0))
        assembly = assembly.squeeze("time_bin")
    assembly = filter_neuroids(assembly.transpose("presentation", "neuroid"), RELIABILITY_THRESHOLD)
    if average_repetitions:
        assembly = average_repetition(assembly)
    keep = (np.isin(np.asarray(assembly["stimulus_source"].values), INCLUDE_SOURCES)
            & np.isin(np.asarray(assembly["object_style"].values), INCLUDE_STYLES))
    assembly = assembly.isel(presentation=np.flatnonzero(keep))
    if stimulus_set is not None:
        stimulus_set = stimulus_set[stimulus_set["stimulus_source"].isin(INCLUDE_SOURCES)
                                    & stimulus_set["object_style"].isin(INCLUDE_STYLES)]
    assembly.attrs["stimulus_set"] = stimulus_set
    return assembly.transpose("presentation", "neuroid")


def Igustibagus2024_ridge() -> NeuralBenchmark:
    """``Igustibagus2024-ridge``."""
    from brainscore_vision import load_ceiling, load_metric

    repetitions = LazyLoad(lambda: load_domain_transfer(average_repetitions=False))
    ceiler = load_ceiling("internal_consistency")
    metric = load_metric("ridge", crossvalidation_kwargs={"stratification_coord": "object_label",
                                                          "preprocess_indices": drop_shared_backgrounds})
    return NeuralBenchmark(identifier="Igustibagus2024-ridge", version=2, parent="IT",
                           assembly=LazyLoad(lambda: load_domain_transfer(average_repetitions=True)),
                           similarity_metric=metric, visual_degrees=VISUAL_DEGREES, number_of_trials=NUMBER_OF_TRIALS,
                           ceiling_func=lambda: ceiler(repetitions), bibtex=BIBTEX, region="IT")
