"""``brainscore_vision.model_helpers.brain_transformation.behavior``: Brain-Score's task readouts, as thin forms of
this package's (:mod:`model_tools.brain_transformation.behavior`, :mod:`~model_tools.brain_transformation.odd_one_out`):
each is set up with ``start_task(task, ...)`` and answers ``look_at(stimuli)``."""

from __future__ import annotations

from typing import Any

from model_tools.brain_transformation.behavior import LabelMapping, softmax
from model_tools.brain_transformation.behavior import ProbabilitiesMapping as _ProbabilitiesMapping
from model_tools.brain_transformation.label_indices import default_label_indices, label_key
from model_tools.brain_transformation.odd_one_out import OddOneOut as _OddOneOut
from model_tools.errors import MissingLabelsError

__all__ = ["BehaviorArbiter", "LabelBehavior", "LabelToImagenetIndices", "LogitsBehavior", "OddOneOut",
           "ProbabilitiesMapping", "softmax"]


class BehaviorArbiter:
    """Brain-Score's dispatcher over readouts: ``start_task(task, ...)`` sets up ``mapping[task]`` (keys are
    ``BrainModel.Task`` members or their names), ``look_at`` asks the readout of the current task."""

    def __init__(self, mapping: dict):
        self.mapping = mapping
        self.current_executor: Any = None

    def start_task(self, task: Any, *args: Any, **kwargs: Any) -> Any:
        self.current_executor = self.mapping[task]
        return self.current_executor.start_task(task, *args, **kwargs)

    def look_at(self, stimuli: Any, *args: Any, **kwargs: Any) -> Any:
        return self.current_executor.look_at(stimuli, *args, **kwargs)


class LabelBehavior(LabelMapping):
    """``LabelBehavior(identifier, activations_model)``; ``start_task('label', choice_labels)``."""

    def __init__(self, identifier: str, activations_model: Any):
        super().__init__(identifier, activations_model, labels="imagenet")

    def start_task(self, task: Any, choice_labels: Any) -> None:
        self.labels = choice_labels

    def look_at(self, stimuli: Any, number_of_trials: int = 1, require_variance: bool = False):
        return super().look_at(stimuli)


LogitsBehavior = LabelBehavior


class ProbabilitiesMapping(_ProbabilitiesMapping):
    """``ProbabilitiesMapping(identifier, activations_model, layer)``; ``start_task('probabilities',
    fitting_stimuli)``."""

    def start_task(self, task: Any, fitting_stimuli: Any = None, number_of_trials: int = 1,
                   require_variance: bool = False) -> None:
        if str(getattr(task, "value", task)) != "passive":
            self.fit(fitting_stimuli)

    def look_at(self, stimuli: Any, number_of_trials: int = 1, require_variance: bool = False):
        return super().look_at(stimuli)


class OddOneOut(_OddOneOut):
    """``OddOneOut(identifier, activations_model, layer)``; ``start_task('odd_one_out')``."""

    def start_task(self, task: Any) -> None:
        """Nothing to set up."""

    def look_at(self, triplets: Any, number_of_trials: int = 1, require_variance: bool = False):
        return super().look_at(triplets)


class LabelToImagenetIndices:
    """ImageNet indices of a label of the shipped table (:func:`~model_tools.brain_transformation.label_indices.
    default_label_indices`: the 16 classes and the other labels of Brain-Score's behavioural benchmarks)."""

    @classmethod
    def label_to_indices(cls, label: str) -> tuple[int, ...]:
        table = default_label_indices()
        key = label_key(label)
        if key not in table:
            raise MissingLabelsError(f"label {label!r} has no ImageNet indices (known: {sorted(table)})")
        return table[key]
