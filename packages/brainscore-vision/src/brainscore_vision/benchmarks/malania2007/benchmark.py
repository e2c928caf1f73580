"""Malania, Herzog & Westheimer (2007): vernier thresholds and their elevation by flankers (10 benchmarks).

As Brain-Score defines them (``benchmarks/malania2007``, commit c642dbe4):

``Malania2007.<condition>-threshold_elevation`` (identifier ``Malania2007.<condition>``), 9 flanker conditions
    The model fits the ``probabilities`` task on the condition's 500 fitting images (2 trials with
    ``require_variance=True``: Brain-Score's microsaccades), then looks at the 50 ``vernier_only`` images and the 50
    images of the condition (10 trials each, with microsaccades), all shown at **2.986667 degrees**. Metric
    ``threshold_elevation``: the model's threshold in the condition over its threshold in ``vernier_only``, both read
    at 75 % correct from a cumulative-Gaussian fit over the independent variable, scored against each subject's
    elevation (mean of ``max(0, 1 - |human - model| / human)``); a failed fit scores 0. Only subjects measured in the
    condition count, paired with their own ``vernier_only`` threshold. Ceiling: each subject's elevation scored
    against the others' (leave-one-out, Brain-Score's draw). Score = raw / ceiling (not clipped). Version 1, parent
    ``Malania2007``.
``Malania2007.vernieracuity-threshold``
    For each of the 9 conditions: fit on its fitting images, look at ``vernier_only`` (10 trials), metric
    ``threshold`` against the ``vernier_only`` thresholds of the condition's subjects, divided by the mean of the 9
    leave-one-out ceilings and capped at 1; the score is the mean over the 9, its error the mean of the raw errors.

The independent variable is ``image_label``, as Brain-Score passes it. In Brain-Score's stimulus sets that column is
also the answer the model is scored on; when it is not numeric, a model reaching the required 60 % accuracy cannot be
fitted and the metric raises (Brain-Score's own fit raises a ``TypeError`` at the same point, ours an
``InputTypeError`` naming the coordinate). ``independent_variable=`` chooses another column (e.g.
``'vernier_offset_arcsec'``), under a different number than Brain-Score's.

The ten benchmarks repeat work whose answer is fixed by its inputs: the acuity benchmark refits the nine readouts the
elevation benchmarks fitted (model-tools remembers a fitted readout by content and reuses it) and fits the
``vernier_only`` responses each elevation benchmark fitted for its baseline. Both kinds of benchmark fit their
psychometric functions inside :data:`PSYCHOMETRIC_FITS`, a bounded memory of fits by the bytes of their inputs
(:mod:`brainscore_metrics.behavior.psychometric_memo`), so such a fit runs once per process; the numbers are those of
a fit run again.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_metrics.behavior.psychometric_memo import PsychometricFits, remembering_psychometric_fits
from brainscore_vision import load_dataset, load_metric, load_stimulus_set
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.data.malania2007 import BASELINE_CONDITION, CONDITIONS
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BASELINE_CONDITION", "CONDITIONS", "PSYCHOMETRIC_FITS", "Malania2007ThresholdElevation",
           "Malania2007VernierAcuity", "paired_thresholds"]

BIBTEX = """@article{malania2007,
  author = {Malania, Maka and Herzog, Michael H. and Westheimer, Gerald},
  title = {Grouping of contextual elements that affect vernier thresholds},
  journal = {Journal of Vision}, volume = {7}, number = {2}, pages = {1-1}, year = {2007}, issn = {1534-7362},
  doi = {10.1167/7.2.1}, url = {https://doi.org/10.1167/7.2.1}
}"""

VISUAL_DEGREES = 2.986667
NUMBER_OF_TRIALS = 10  # Brain-Score: "arbitrary choice for microsaccades to improve precision of estimates"
FITTING_TRIALS = 2
THRESHOLD_ACCURACY = 0.75
INDEPENDENT_VARIABLE = "image_label"  # Brain-Score's choice; see the module docstring
PARENT = "Malania2007"
#: Psychometric fits of the family's benchmarks in this process, by content (a fit is a few floats; 128 at most)
PSYCHOMETRIC_FITS = PsychometricFits()


def paired_thresholds(condition_assembly, baseline_assembly) -> tuple[np.ndarray, np.ndarray]:
    """The thresholds of the subjects measured in the condition (not NaN), each with its own ``vernier_only``
    threshold, in the baseline's subject order (Brain-Score's ``filter_baseline_subjects``).

    Parameters
    ----------
    condition_assembly, baseline_assembly : PropertyAssembly of shape (subject,)
        Human thresholds with a ``subject`` coordinate.

    Returns
    -------
    (condition thresholds, baseline thresholds) : two ndarrays of shape (n_paired,)
    """
    condition = dict(zip(np.asarray(condition_assembly["subject"].values).tolist(),
                         np.asarray(condition_assembly.values, dtype=float).tolist(), strict=True))
    measured = {subject for subject, value in condition.items() if not np.isnan(value)}
    subjects = [subject for subject in np.asarray(baseline_assembly["subject"].values).tolist() if subject in measured]
    baseline = dict(zip(np.asarray(baseline_assembly["subject"].values).tolist(),
                        np.asarray(baseline_assembly.values, dtype=float).tolist(), strict=True))
    return np.asarray([condition[s] for s in subjects]), np.asarray([baseline[s] for s in subjects])


def _assembly(condition: str):
    return load_dataset(f"Malania2007.{condition}")


def _placed(stimuli, candidate: BrainModel):
    return place_on_screen(stimuli, target_visual_degrees=candidate.visual_degrees(),
                           source_visual_degrees=VISUAL_DEGREES)


def _fit(candidate: BrainModel, condition: str) -> None:
    fitting = _placed(load_stimulus_set(f"Malania2007.{condition}_fit"), candidate)
    candidate.start_task(BrainModel.Task.probabilities, fitting_stimuli=fitting, number_of_trials=FITTING_TRIALS,
                         require_variance=True)


def _look(candidate: BrainModel, condition: str):
    return candidate.look_at(_placed(load_stimulus_set(f"Malania2007.{condition}"), candidate),
                             number_of_trials=NUMBER_OF_TRIALS, require_variance=True)


class Malania2007ThresholdElevation(BenchmarkBase):
    """``Malania2007.<condition>-threshold_elevation`` (identifier ``Malania2007.<condition>``).

    Parameters
    ----------
    condition : str
        One of :data:`CONDITIONS`.
    independent_variable : str, default='image_label'
        The stimulus column the psychometric function is fitted over (Brain-Score's choice by default).
    """

    region = "behavior"

    def __init__(self, condition: str, *, independent_variable: str = INDEPENDENT_VARIABLE):
        if condition not in CONDITIONS:
            raise ValueError(f"unknown Malania2007 condition {condition!r}; choose one of {CONDITIONS}")
        self.condition = condition
        self.independent_variable = independent_variable
        self._pairs = LazyLoad(lambda: paired_thresholds(_assembly(condition), _assembly(BASELINE_CONDITION)))
        self._metric = load_metric("threshold_elevation", independent_variable=independent_variable,
                                   baseline_condition=BASELINE_CONDITION, test_condition=condition,
                                   threshold_accuracy=THRESHOLD_ACCURACY)
        super().__init__(identifier=f"Malania2007.{condition}", version=1, parent=PARENT, bibtex=BIBTEX,
                         ceiling_func=lambda: self._metric.ceiling(self._human()))

    def _human(self) -> dict:
        condition, baseline = resolve(self._pairs)
        return {"baseline_assembly": baseline, "condition_assembly": condition}

    def __call__(self, candidate: BrainModel) -> Score:
        _fit(candidate, self.condition)
        responses = {condition: _look(candidate, condition) for condition in (BASELINE_CONDITION, self.condition)}
        with remembering_psychometric_fits(PSYCHOMETRIC_FITS):
            raw = self._metric(responses, self._human())
        ceiling = self.ceiling
        score = Score(float(raw) / float(ceiling))
        score.attrs.update(raw=raw, ceiling=ceiling, normalization="raw / ceiling", bibtex=self.bibtex)
        return score


class Malania2007VernierAcuity(BenchmarkBase):
    """``Malania2007.vernieracuity-threshold`` (see the module docstring).

    Parameters
    ----------
    independent_variable : str, default='image_label'
    """

    region = "behavior"

    def __init__(self, *, independent_variable: str = INDEPENDENT_VARIABLE):
        self.independent_variable = independent_variable
        self._baselines = LazyLoad(lambda: {condition: paired_thresholds(_assembly(condition), _assembly(
            BASELINE_CONDITION))[1] for condition in CONDITIONS})
        self._metric = load_metric("threshold", independent_variable=independent_variable,
                                   threshold_accuracy=THRESHOLD_ACCURACY)
        super().__init__(identifier="Malania2007.vernieracuity-threshold", version=1, parent=PARENT, bibtex=BIBTEX,
                         ceiling_func=self._mean_ceiling)

    def _mean_ceiling(self) -> Score:
        ceilings = [self._metric.ceiling(baseline) for baseline in resolve(self._baselines).values()]
        ceiling = Score(float(np.mean([float(c) for c in ceilings])))
        ceiling.attrs["error"] = float(np.mean([c.attrs["error"] for c in ceilings]))
        return ceiling

    def __call__(self, candidate: BrainModel) -> Score:
        ceiling = float(self.ceiling)
        raws, ceiled, errors = [], [], []
        for condition in CONDITIONS:
            _fit(candidate, condition)
            with remembering_psychometric_fits(PSYCHOMETRIC_FITS):
                raw = self._metric(_look(candidate, BASELINE_CONDITION), resolve(self._baselines)[condition])
            raws.append(float(raw))
            ceiled.append(min(float(raw) / ceiling, 1.0))  # Brain-Score caps each condition at 1
            errors.append(float(raw.attrs.get("error", 0.0)))
        score = Score(float(np.mean(ceiled)))
        score.attrs.update(error=float(np.mean(errors)), raw=Score(float(np.mean(raws))), ceiling=self.ceiling,
                           per_condition=dict(zip(CONDITIONS, ceiled, strict=True)),
                           normalization="mean over the 9 conditions of raw / ceiling, each capped at 1",
                           bibtex=self.bibtex)
        return score
