"""Maniquet et al. (2024): do a model's confusions and its accuracy across manipulations (occlusion, clutter, phase
scrambling) follow the humans'? Brain-Score's two benchmarks, version 1, parent ``Maniquet2024``:

``Maniquet2024-confusion_similarity``
    Pearson r between the off-diagonal cells of the model's and the humans' confusion matrices
    (metric ``confusion_similarity``); ceiling **0.53526**.
``Maniquet2024-tasks_consistency``
    Pearson r over the human tasks between model and human accuracy (metric ``tasks_consistency``); ceiling
    **0.99810**.

The ceilings are Brain-Score's constants (computed once by its authors from the human data with unseeded random
splits), so they print offline. The model is fitted on ``Maniquet2024-train`` (``probabilities`` task) and looks at
``Maniquet2024-test``, both shown at **8 degrees**, one trial. Score = raw / ceiling, not clamped (as in Brain-Score:
a negative correlation gives a negative score).
"""

from __future__ import annotations

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_dataset, load_metric, load_stimulus_set
from brainscore_vision.benchmark_helpers.behavioral_tasks import ceiled, probabilities_of
from brainscore_vision.data.maniquet2024 import BIBTEX
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["CEILINGS", "VISUAL_DEGREES", "Maniquet2024ConfusionSimilarity", "Maniquet2024TasksConsistency"]

VISUAL_DEGREES = 8
#: Brain-Score's constant ceilings (its benchmark module: "pre-computed from the metric's ceiling on the humans")
CEILINGS = {"confusion_similarity": 0.53526, "tasks_consistency": 0.99810}


class _Maniquet2024(BenchmarkBase):
    region = "behavior"

    def __init__(self, metric: str):
        self._metric = load_metric(metric)
        self._fitting_stimuli = LazyLoad(lambda: load_stimulus_set("Maniquet2024-train"))
        self._stimulus_set = LazyLoad(lambda: load_stimulus_set("Maniquet2024-test"))
        self._human_assembly = LazyLoad(lambda: load_dataset("Maniquet2024"))
        self._visual_degrees = VISUAL_DEGREES
        self._number_of_trials = 1
        super().__init__(identifier=f"Maniquet2024-{metric}", version=1, ceiling=Score(CEILINGS[metric]),
                         parent="Maniquet2024", bibtex=BIBTEX)

    def __call__(self, candidate: BrainModel) -> Score:
        probabilities = probabilities_of(candidate, resolve(self._fitting_stimuli), resolve(self._stimulus_set),
                                         visual_degrees=self._visual_degrees)
        raw = self._metric(probabilities, resolve(self._human_assembly))
        return ceiled(raw, self.ceiling, bound=False, bibtex=self.bibtex)


def Maniquet2024ConfusionSimilarity() -> _Maniquet2024:
    """``Maniquet2024-confusion_similarity``."""
    return _Maniquet2024("confusion_similarity")


def Maniquet2024TasksConsistency() -> _Maniquet2024:
    """``Maniquet2024-tasks_consistency``."""
    return _Maniquet2024("tasks_consistency")
