"""Lonnqvist et al. (2024), curve tracing: are two points on the same curve? Brain-Score's four benchmarks:

===========================================================  ==================================================
registry key                                                 ``.identifier``
===========================================================  ==================================================
``Lonnqvist2024_InlabInstructionsBehavioralAccuracyDistance``    ``Lonnqvist2024-inlab-instructions_behavioral_accuracy_distance``
``Lonnqvist2024_InlabNoInstructionsBehavioralAccuracyDistance``  ``Lonnqvist2024-inlab-no-instructions_behavioral_accuracy_distance``
``Lonnqvist2024_OnlineNoInstructionsBehavioralAccuracyDistance`` ``Lonnqvist2024-online-no-instructions_behavioral_accuracy_distance``
``Lonnqvist2024_EngineeringAccuracy``                            ``Lonnqvist2024-engineering_accuracy``
===========================================================  ==================================================

All version 1, parent ``Lonnqvist2024`` (the engineering one too, as Brain-Score declares it). The model is fitted on
the labelled ``Lonnqvist2024_train`` images (``probabilities`` task) and looks at ``Lonnqvist2024_test``, both
shown at **17.70753 degrees**; its choice per image is its most probable label. The three behavioural benchmarks
compare that with each subject of their data set by ``accuracy_distance`` (ceiling: the same metric over all pairs
of subjects; score = raw / ceiling, at most 1); the engineering one is the accuracy of the choices against the
images' truth (ceiling 1), on the stimuli of the in-lab data set.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_dataset, load_metric, load_stimulus_set
from brainscore_vision.benchmark_helpers.behavioral_tasks import (
    argmax_choices,
    as_text,
    ceiled,
    probabilities_of,
)
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "VISUAL_DEGREES", "convert_proba_to_choices"]

VISUAL_DEGREES = 17.70753
#: Brain-Score's is empty ("to appear in a future article"); a placeholder that names the data
BIBTEX = """@misc{Lonnqvist2024,
  title = {Lonnqvist2024: human curve tracing, same or different curve (Brain-Score benchmark data)},
  note = {article to appear; data in Brain-Score's bucket, brain-score/vision data/lonnqvist2024}, year = {2024}
}"""

convert_proba_to_choices = argmax_choices  # Brain-Score's name


class _Lonnqvist2024Base(BenchmarkBase):
    region = "behavior"

    def __init__(self, identifier: str, dataset: str, ceiling_func, metric, **kwargs):
        self._metric = metric
        self._stimulus_set = LazyLoad(lambda: load_stimulus_set("Lonnqvist2024_test"))
        self._fitting_stimuli = LazyLoad(lambda: load_stimulus_set("Lonnqvist2024_train"))
        self._visual_degrees = VISUAL_DEGREES
        self.assembly = LazyLoad(lambda: load_dataset(f"Lonnqvist2024_{dataset}"))
        super().__init__(identifier=identifier, version=1, ceiling_func=ceiling_func, parent="Lonnqvist2024",
                         bibtex=BIBTEX, **kwargs)

    def _choices(self, candidate: BrainModel):
        probabilities = probabilities_of(candidate, resolve(self._fitting_stimuli), resolve(self._stimulus_set),
                                         visual_degrees=self._visual_degrees)
        return argmax_choices(probabilities)

    def __call__(self, candidate: BrainModel) -> Score:
        raw = self._metric(self._choices(candidate), resolve(self.assembly))
        return ceiled(raw, self.ceiling, bound=True, bibtex=self.bibtex)


class _Lonnqvist2024BehavioralAccuracyDistance(_Lonnqvist2024Base):
    def __init__(self, dataset: str):
        metric = load_metric("accuracy_distance")
        super().__init__(identifier=f"Lonnqvist2024-{dataset}_behavioral_accuracy_distance", dataset=dataset,
                         ceiling_func=lambda: metric.ceiling(resolve(self.assembly)), metric=metric,
                         ceiling_data=lambda: resolve(self.assembly))


class _Lonnqvist2024EngineeringAccuracy(_Lonnqvist2024Base):
    def __init__(self):
        super().__init__(identifier="Lonnqvist2024-engineering_accuracy", dataset="inlab-instructions",
                         ceiling_func=lambda: Score(1.0), metric=load_metric("accuracy"))

    def __call__(self, candidate: BrainModel) -> Score:
        from brainio.assemblies import BehavioralAssembly

        choices = self._choices(candidate)
        stimuli = resolve(self._stimulus_set)
        truth = dict(zip(as_text(stimuli["stimulus_id"]), as_text(stimuli["truth"]), strict=True))
        ids = as_text(choices["stimulus_id"].values)
        target = BehavioralAssembly(np.asarray([truth[i] for i in ids]), coords={"stimulus_id": ("presentation", ids)},
                                    dims=["presentation"])
        source = choices.assign_coords(stimulus_id=("presentation", ids))
        raw = self._metric(source, target)
        return ceiled(raw, self.ceiling, bound=False, bibtex=self.bibtex, normalization="none (ceiling 1)")


def _Lonnqvist2024BehavioralAccuracyDistanceInlabInstructions():
    return _Lonnqvist2024BehavioralAccuracyDistance("inlab-instructions")


def _Lonnqvist2024BehavioralAccuracyDistanceInlabNoInstructions():
    return _Lonnqvist2024BehavioralAccuracyDistance("inlab-no-instructions")


def _Lonnqvist2024BehavioralAccuracyDistanceOnlineNoInstructions():
    return _Lonnqvist2024BehavioralAccuracyDistance("online-no-instructions")
