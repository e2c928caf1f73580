"""BMD2024: how close a model's accuracy is to each subject's on silhouettes rendered as textures or dotted outlines.

``BMD2024.<condition>Behavioral-accuracy_distance`` for ``texture_1``, ``texture_2``, ``dotted_1``, ``dotted_2``
(Brain-Score's identifiers, version 1, parent ``BMD2024``; the article is still to appear, so Brain-Score's bibtex is
empty and ours is a placeholder naming the data). The model labels the condition's images (``label`` task over the
sorted categories of the stimulus set), shown at **8 degrees**, one trial; the metric ``accuracy_distance`` compares
its accuracy with each subject's; the ceiling is the same metric over all pairs of subjects. Score = raw / ceiling,
at most 1.
"""

from __future__ import annotations

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_dataset, load_metric
from brainscore_vision.benchmark_helpers.behavioral_tasks import ceiled, choices_of, labels_of
from brainscore_vision.data.bmd2024 import CONDITIONS
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "CONDITIONS", "VISUAL_DEGREES", "BMD2024AccuracyDistance", "load_assembly"]

VISUAL_DEGREES = 8
#: Brain-Score's is empty ("to appear in a future article"); a placeholder that names the data
BIBTEX = """@misc{BMD2024,
  title = {BMD2024: human recognition of texturised and dotted-outline silhouettes (Brain-Score benchmark data)},
  note = {article to appear; data in Brain-Score's bucket, brain-score/vision data/bmd2024}, year = {2024}
}"""


def load_assembly(dataset: str):
    """The human answers of condition ``dataset``."""
    return load_dataset(f"BMD2024.{dataset}")


class _BMD2024BehavioralAccuracyDistance(BenchmarkBase):
    region = "behavior"

    def __init__(self, dataset: str):
        if dataset not in CONDITIONS:
            raise ValueError(f"unknown BMD2024 condition {dataset!r}; choose one of {CONDITIONS}")
        self._metric = load_metric("accuracy_distance")
        self._assembly = LazyLoad(lambda: load_assembly(dataset))
        self._visual_degrees = VISUAL_DEGREES
        super().__init__(identifier=f"BMD2024.{dataset}Behavioral-accuracy_distance", version=1,
                         ceiling_func=lambda: self._metric.ceiling(resolve(self._assembly)), parent="BMD2024",
                         bibtex=BIBTEX, ceiling_data=lambda: resolve(self._assembly))

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = resolve(self._assembly)
        stimuli = assembly.attrs["stimulus_set"]
        labels = labels_of(candidate, stimuli, choices_of(stimuli["truth"]), visual_degrees=self._visual_degrees)
        return ceiled(self._metric(labels, assembly), self.ceiling, bound=True, bibtex=self.bibtex)


def BMD2024AccuracyDistance(experiment: str) -> _BMD2024BehavioralAccuracyDistance:
    """``BMD2024.<experiment>Behavioral-accuracy_distance``."""
    return _BMD2024BehavioralAccuracyDistance(experiment)
