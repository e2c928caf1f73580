"""Behavioural benchmarks: the model performs a task, its choices are compared with subjects' choices.

Call flow: ``start_task(task, fitting_stimuli)`` (fitting stimuli placed on the screen too) ->
``place_on_screen`` -> ``look_at`` -> ``metric(model_behaviour, subject_behaviour)`` -> raw / ceiling
(optionally clamped to [0, 1] with ``bound_score``).
"""

from __future__ import annotations

from collections.abc import Callable

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Metric, Score
from brainscore_core.normalization import bound_score, ceil_score
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import resolve

__all__ = ["BehavioralBenchmark"]


class BehavioralBenchmark(BenchmarkBase):
    """Compare a model's task behaviour with subjects' behaviour.

    Parameters
    ----------
    identifier : str
        E.g. ``'Geirhos2021colour-error_consistency'``.
    assembly : BehavioralAssembly or LazyLoad
        Subjects' responses (dims ``presentation`` [x ``choice``]); ``attrs['stimulus_set']`` (or
        ``stimulus_set=``) holds the stimuli.
    similarity_metric : Metric
        ``metric(model_behaviour, subject_behaviour) -> Score``.
    task : BrainModel.Task or str
        ``'label'``, ``'probabilities'`` or ``'odd_one_out'``.
    visual_degrees : float
        Size of the stimuli in the experiment, in degrees.
    number_of_trials : int
    ceiling_func : callable
        ``ceiling_func() -> Score``.
    fitting_stimuli : StimulusSet, list of str, str or None, default=None
        What ``start_task`` needs (a StimulusSet is placed on the screen first).
    stimulus_set : StimulusSet or None, default=None
    bound : bool, default=False
        Clamp the ceiled score to [0, 1] (``bound_score``; the unclamped value stays in attrs).
    version : int, default=1
    parent, bibtex : str or None, default=None
    """

    def __init__(self, identifier: str, assembly, similarity_metric: Metric, task, visual_degrees: float,
                 number_of_trials: int, ceiling_func: Callable[[], Score], *, fitting_stimuli=None,
                 stimulus_set=None, bound: bool = False, version: int = 1, parent: str | None = "behavior",
                 bibtex: str | None = None):
        super().__init__(identifier=identifier, ceiling_func=ceiling_func, version=version, parent=parent,
                         bibtex=bibtex, ceiling_data=lambda: resolve(self._assembly))
        self._assembly = assembly
        self._similarity_metric = similarity_metric
        self._task = task
        self._visual_degrees = visual_degrees
        self._number_of_trials = number_of_trials
        self._fitting_stimuli = fitting_stimuli
        self._stimulus_set = stimulus_set
        self._bound = bound

    region = "behavior"  # the model's behavioural readout layer answers

    def stimulus_count(self) -> int:
        """Stimuli a model is shown: the test set plus the fitting set (the grid's memory plan reads it)."""
        assembly = resolve(self._assembly)
        shown = resolve(self._stimulus_set) if self._stimulus_set is not None else assembly.stimulus_set
        fitting = resolve(self._fitting_stimuli)
        return len(shown) + (len(fitting) if hasattr(fitting, "__len__") else 0)

    def _place(self, candidate: BrainModel, stimulus_set):
        return place_on_screen(stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                               source_visual_degrees=self._visual_degrees)

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = resolve(self._assembly)
        fitting = resolve(self._fitting_stimuli)
        if hasattr(fitting, "stimulus_paths"):
            fitting = self._place(candidate, fitting)
        candidate.start_task(self._task, fitting)
        stimulus_set = resolve(self._stimulus_set) if self._stimulus_set is not None else assembly.stimulus_set
        behaviour = candidate.look_at(self._place(candidate, stimulus_set), number_of_trials=self._number_of_trials)
        raw = self._similarity_metric(behaviour, assembly)
        score = ceil_score(raw, self.ceiling)
        return bound_score(score) if self._bound else score
