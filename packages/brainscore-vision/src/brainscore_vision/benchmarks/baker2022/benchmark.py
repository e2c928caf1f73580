"""Baker & Elder (2022): does a model lose as much accuracy as humans when an animal silhouette's configuration is
broken? Brain-Score's three benchmarks, identifiers, versions and call flow:

``Baker2022frankenstein-accuracy_delta`` / ``Baker2022fragmented-accuracy_delta``
    Upright silhouettes (``Baker2022_normal_distortion``): whole (``w``) against Frankenstein (``f``) or fragmented
    (``o``) images.
``Baker2022inverted-accuracy_delta``
    Inverted silhouettes (``Baker2022_inverted_distortion``): whole against Frankenstein.

The model labels the images (``label`` task over the 9 animals), shown at **8.8 degrees**, one trial. The metric
``baker_accuracy_delta`` compares the model's accuracy drop (whole minus broken, averaged over the animals) with the
human drop of 100 half-samples of the subjects; the ceiling is the median of 100 Spearman-Brown corrected split-half
consistencies of the human drops, all splits drawn from one ``RandomState(0)``
(:func:`brainscore_metrics.behavior.accuracy_delta.split_half_ceiling`). Score = raw / ceiling, clamped to [0, 1].
Both are computed on the trials of the benchmark's orientation, as Brain-Score's ``__call__`` does (its
``benchmark.ceiling`` raises; here it returns that ceiling).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_metrics.behavior.accuracy_delta import CEILING_SPLITS, split_half_ceiling
from brainscore_vision import load_dataset, load_metric
from brainscore_vision.benchmark_helpers.behavioral_tasks import ceiled, choices_of, labels_of
from brainscore_vision.data.baker2022 import BIBTEX, DATASETS
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["DATASETS", "VISUAL_DEGREES", "Baker2022AccuracyDeltaFragmented", "Baker2022AccuracyDeltaFrankenstein",
           "Baker2022InvertedAccuracyDelta", "SplitHalvesConsistencyBaker", "load_assembly"]

VISUAL_DEGREES = 8.8
PARENT = "Baker2022"


def load_assembly(dataset: str):
    """The human trials of ``dataset`` (``'normal'`` or ``'inverted'``)."""
    return load_dataset(f"Baker2022_{dataset}_distortion")


class SplitHalvesConsistencyBaker:
    """Brain-Score's name for the Baker2022 ceiling: ``SplitHalvesConsistencyBaker(metric, num_splits,
    split_coordinate, image_types)(assembly)`` (``metric`` and ``split_coordinate`` are kept for the signature; the
    split is over ``subject``)."""

    def __init__(self, metric=None, num_splits: int = CEILING_SPLITS, split_coordinate: str = "subject",
                 image_types=("w", "f")):
        self._metric = metric
        self.num_splits = num_splits
        self.split_coordinate = split_coordinate
        self.image_types = image_types

    def __call__(self, assembly) -> Score:
        return split_half_ceiling(assembly, list(self.image_types), n_splits=self.num_splits)


class _Baker2022AccuracyDelta(BenchmarkBase):
    region = "behavior"

    def __init__(self, identifier_suffix: str, dataset: str, image_types: list[str]):
        self.orientation = dataset
        self.image_types = image_types
        self._metric = load_metric("baker_accuracy_delta", image_types=image_types)
        self._assembly = LazyLoad(lambda: load_assembly(dataset))
        self._trials = LazyLoad(self._orientation_trials)
        self._visual_degrees = VISUAL_DEGREES
        self._number_of_trials = 1
        super().__init__(identifier=f"Baker2022{identifier_suffix}-accuracy_delta", version=1,
                         ceiling_func=lambda: SplitHalvesConsistencyBaker(image_types=image_types)(resolve(self._trials)),
                         parent=PARENT, bibtex=BIBTEX, ceiling_data=lambda: resolve(self._trials))

    def _orientation_trials(self):
        assembly = resolve(self._assembly)
        keep = np.flatnonzero(np.asarray(assembly["orientation"].values).astype(str) == self.orientation)
        return assembly.isel(presentation=keep)

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = resolve(self._assembly)
        stimuli = assembly.attrs["stimulus_set"]
        stimuli = stimuli[stimuli["orientation"].astype(str) == self.orientation]
        labels = labels_of(candidate, stimuli, choices_of(assembly["truth"].values), visual_degrees=self._visual_degrees,
                           number_of_trials=self._number_of_trials)
        raw = self._metric(labels, resolve(self._trials))
        return ceiled(raw, self.ceiling, bound=True, bibtex=self.bibtex)


def Baker2022AccuracyDeltaFrankenstein() -> _Baker2022AccuracyDelta:
    """``Baker2022frankenstein-accuracy_delta``: whole against Frankenstein, upright."""
    return _Baker2022AccuracyDelta(identifier_suffix="frankenstein", dataset="normal", image_types=["w", "f"])


def Baker2022AccuracyDeltaFragmented() -> _Baker2022AccuracyDelta:
    """``Baker2022fragmented-accuracy_delta``: whole against fragmented, upright."""
    return _Baker2022AccuracyDelta(identifier_suffix="fragmented", dataset="normal", image_types=["w", "o"])


def Baker2022InvertedAccuracyDelta() -> _Baker2022AccuracyDelta:
    """``Baker2022inverted-accuracy_delta``: whole against Frankenstein, inverted."""
    return _Baker2022AccuracyDelta(identifier_suffix="inverted", dataset="inverted", image_types=["w", "f"])
