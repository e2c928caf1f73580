"""Scialom et al. (2024): object recognition from images degraded as a visual prosthesis would show them (phosphenes
or contour segments at 12-100 % of the elements), against rgb and contour images. Brain-Score's 44 benchmarks,
version 1 (registry keys ``Scialom2024_<dataset><kind>``, identifiers below):

``Scialom2024_<dataset>-behavioral_accuracy`` (22: the 20 data sets and the 2 composites ``<kind>-all``)
    The model labels the data set's images (``label`` task over the sorted truths of the stimulus set), shown **as
    they are** (Brain-Score runs these without ``place_on_screen``), one trial; ``accuracy_distance`` against each
    subject; ceiling: the same metric over all pairs of subjects; score = raw / ceiling, at most 1. Parent
    ``Scialom2024``.
``Scialom2024_<kind>-all-error_consistency`` (2)
    The composites' images placed on the screen from **8 degrees**; ``error_consistency`` (Cohen's kappa per
    subject and condition); ceiling: the same over all pairs of subjects; score = raw / ceiling (not clamped).
    Parent ``Scialom2024``.
``Scialom2024_<dataset>-engineering_accuracy`` (20: the data sets)
    Top-1 accuracy of the model's labels (10 trials, as they are) against the truths; ceiling 1. Parent
    ``Scialom2024-top1`` (an engineering group).

The 22 stimulus sets share their images (each composite is rgb + contours + its kind's nine sets): the activations
of an image are computed once (model-tools' cache shares rows by content).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_dataset, load_metric
from brainscore_vision.benchmark_helpers.behavioral_tasks import as_text, ceiled, choices_of, labels_of
from brainscore_vision.data.scialom2024 import DATASETS
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "COMPOSITES", "DATASETS", "VISUAL_DEGREES", "load_assembly"]

VISUAL_DEGREES = 8
COMPOSITES = ("phosphenes-all", "segments-all")
#: Brain-Score's is empty ("to appear in a future article"); a placeholder that names the data
BIBTEX = """@misc{Scialom2024,
  title = {Scialom2024: human recognition of phosphene and contour-segment images (Brain-Score benchmark data)},
  note = {article to appear; data in Brain-Score's bucket, brain-score/vision data/scialom2024}, year = {2024}
}"""


def load_assembly(dataset: str):
    """The human answers of ``dataset`` (its stimulus set attached)."""
    return load_dataset(f"Scialom2024_{dataset}")


class _Scialom2024(BenchmarkBase):
    region = "behavior"

    def __init__(self, dataset: str, suffix: str, parent: str, **kwargs):
        if dataset not in DATASETS:
            raise ValueError(f"unknown Scialom2024 data set {dataset!r}; choose one of {DATASETS}")
        self.dataset = dataset
        self._assembly = LazyLoad(lambda: load_assembly(dataset))
        super().__init__(identifier=f"Scialom2024_{dataset}-{suffix}", version=1, parent=parent, bibtex=BIBTEX,
                         **kwargs)

    def _stimulus_set(self):
        return resolve(self._assembly).attrs["stimulus_set"]


class _Scialom2024BehavioralAccuracyDistance(_Scialom2024):
    def __init__(self, dataset: str):
        self._metric = load_metric("accuracy_distance")
        super().__init__(dataset, "behavioral_accuracy", "Scialom2024",
                         ceiling_func=lambda: self._metric.ceiling(resolve(self._assembly)),
                         ceiling_data=lambda: resolve(self._assembly))

    def __call__(self, candidate: BrainModel) -> Score:
        stimuli = self._stimulus_set()
        labels = labels_of(candidate, stimuli, choices_of(stimuli["truth"]), visual_degrees=None)
        return ceiled(self._metric(labels, resolve(self._assembly)), self.ceiling, bound=True, bibtex=self.bibtex)


class _Scialom2024BehavioralErrorConsistency(_Scialom2024):
    def __init__(self, dataset: str):
        self._metric = load_metric("error_consistency")
        self._visual_degrees = VISUAL_DEGREES
        self._number_of_trials = 1
        super().__init__(dataset, "error_consistency", "Scialom2024",
                         ceiling_func=lambda: self._metric.ceiling(resolve(self._assembly)),
                         ceiling_data=lambda: resolve(self._assembly))

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = resolve(self._assembly)
        labels = labels_of(candidate, self._stimulus_set(), choices_of(assembly["truth"].values),
                           visual_degrees=self._visual_degrees, number_of_trials=self._number_of_trials)
        return ceiled(self._metric(labels, assembly), self.ceiling, bound=False, bibtex=self.bibtex)


class _Scialom2024EngineeringAccuracy(_Scialom2024):
    def __init__(self, dataset: str):
        self._metric = load_metric("accuracy")
        super().__init__(dataset, "engineering_accuracy", "Scialom2024-top1", ceiling_func=lambda: Score(1.0))

    def __call__(self, candidate: BrainModel) -> Score:
        from brainio.assemblies import BehavioralAssembly

        stimuli = self._stimulus_set()
        labels = labels_of(candidate, stimuli, choices_of(stimuli["truth"]), visual_degrees=None, number_of_trials=10)
        labels = labels.squeeze("choice") if "choice" in labels.dims else labels
        ids = as_text(labels["stimulus_id"].values)
        truth = dict(zip(as_text(stimuli["stimulus_id"]), as_text(stimuli["truth"]), strict=True))
        target = BehavioralAssembly(np.asarray([truth[i] for i in ids]), coords={"stimulus_id": ("presentation", ids)},
                                    dims=["presentation"])
        raw = self._metric(labels.assign_coords(stimulus_id=("presentation", ids)), target)
        return ceiled(raw, self.ceiling, bound=False, bibtex=self.bibtex, normalization="none (ceiling 1)")
