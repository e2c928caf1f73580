"""Coggan & Tong (2024): human recognition of occluded objects; ``tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity``
(Brain-Score's identifier, version 1, parent ``behavior``).

The model is fitted on ``Coggan2024_behavior_fitting`` (``probabilities`` task over the 8 object classes) and looks at
the 22,560 occluded images of the human experiment, both shown at **10 degrees**; its choice per image is its most
probable class. On the occluded trials (visibility < 1), per subject and occlusion condition (occluder type x colour,
30), the mean human accuracy and the mean model accuracy over that subject's images; per subject, Pearson r between
the two across conditions; raw = the mean over subjects (subjects whose r is undefined left out, as pandas' mean
does in Brain-Score). The ceiling is each subject's r with the mean of the other subjects (the lower bound of the
noise ceiling, Nili et al. 2014), averaged over subjects (``attrs['error']``: its standard error). Score =
(raw / ceiling)², as Brain-Score's ``ceiler`` does (a negative r gives a positive score; ``attrs['raw']`` keeps the
sign). Each subject saw its own random object-occluder pairings, so image-level metrics have no ceiling here.

Brain-Score's ``benchmark.ceiling`` raises (its ``ceiling_func`` takes an argument); here it returns the ceiling, which
needs the human data only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.stats

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_dataset, load_stimulus_set
from brainscore_vision.benchmark_helpers.behavioral_tasks import argmax_choices, as_text, probabilities_of
from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "CONDITION", "VISUAL_DEGREES", "Coggan2024_behavior_ConditionWiseAccuracySimilarity",
           "condition_accuracies", "get_noise_ceiling", "subject_correlations"]

VISUAL_DEGREES = 10
#: the occlusion condition: occluder type x occluder colour
CONDITION = ("occluder_type", "occluder_color")
BIBTEX = """@article{Tong.Coggan2024.behavior,
  author = {David D. Coggan and Frank Tong}, title = {Modeling human visual recognition of occluded objects},
  year = {2024}, journal = {in prep}
}"""


def condition_accuracies(assembly, model_choices=None) -> pd.DataFrame:
    """Per subject and occlusion condition (occluded trials only), the mean ``human_accuracy`` and, with
    ``model_choices`` (model's choice per ``stimulus_id``), the mean ``model_accuracy``: one row each, sorted by
    subject and condition."""
    frame = pd.DataFrame({name: np.asarray(assembly[name].values) for name in
                          ("subject", *CONDITION, "visibility", "human_accuracy", "object_class")})
    if model_choices is not None:
        ids = as_text(assembly["stimulus_id"].values)
        missing = sorted(set(ids) - set(model_choices))
        if missing:
            raise BenchmarkDataError(f"Coggan2024_behavior: the model gave no choice for stimuli {missing[:5]}")
        chosen = np.asarray([model_choices[i] for i in ids])
        frame["model_accuracy"] = (chosen == frame["object_class"].astype(str).to_numpy()).astype(float)
    frame["human_accuracy"] = frame["human_accuracy"].astype(float)
    occluded = frame[frame["visibility"].astype(float) < 1]
    columns = ["human_accuracy"] + (["model_accuracy"] if model_choices is not None else [])
    return occluded.groupby(["subject", *CONDITION], sort=True)[columns].mean().reset_index()


def _pearson_per_subject(performance: pd.DataFrame, first: str, second: str) -> pd.Series:
    """Pearson r of columns ``first`` and ``second`` within each subject (NaN where either is constant)."""
    def r(rows):
        a, b = rows[first].to_numpy(float), rows[second].to_numpy(float)
        a, b = a - a.mean(), b - b.mean()
        with np.errstate(divide="ignore", invalid="ignore"):
            return float((a @ b) / np.sqrt((a @ a) * (b @ b)))
    return pd.Series({subject: r(rows) for subject, rows in performance.groupby("subject", sort=True)})


def subject_correlations(performance: pd.DataFrame) -> pd.Series:
    """Per subject, Pearson r between human and model condition accuracies."""
    return _pearson_per_subject(performance, "human_accuracy", "model_accuracy")


def get_noise_ceiling(performance: pd.DataFrame) -> Score:
    """Mean over subjects of the Pearson r between a subject's condition accuracies and the other subjects' mean
    (Brain-Score's ``get_noise_ceiling``); ``attrs['raw']`` the per-subject r, ``attrs['error']`` their standard error.
    """
    sums = performance.groupby(list(CONDITION))["human_accuracy"].agg(["sum", "count"])
    keyed = performance.join(sums, on=list(CONDITION))
    keyed = keyed[keyed["count"] > 1]  # a condition no other subject has does not pair (Brain-Score's inner merge)
    keyed["others"] = (keyed["sum"] - keyed["human_accuracy"]) / (keyed["count"] - 1)
    per_subject = _pearson_per_subject(keyed, "human_accuracy", "others")
    ceiling = Score(float(np.mean(per_subject.to_numpy())))
    ceiling.attrs["raw"] = per_subject.to_numpy().tolist()
    ceiling.attrs["error"] = float(scipy.stats.sem(per_subject.to_numpy()))
    return ceiling


class Coggan2024_behavior_ConditionWiseAccuracySimilarity(BenchmarkBase):
    region = "behavior"

    def __init__(self):
        self._fitting_stimuli = LazyLoad(lambda: load_stimulus_set("Coggan2024_behavior_fitting"))
        self._assembly = LazyLoad(lambda: load_dataset("Coggan2024_behavior"))
        self._visual_degrees = VISUAL_DEGREES
        self._number_of_trials = 1
        super().__init__(identifier="tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity", version=1,
                         ceiling_func=lambda: get_noise_ceiling(condition_accuracies(resolve(self._assembly))),
                         parent="behavior", bibtex=BIBTEX, ceiling_data=lambda: resolve(self._assembly))

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = resolve(self._assembly)
        probabilities = probabilities_of(candidate, resolve(self._fitting_stimuli), assembly.attrs["stimulus_set"],
                                         visual_degrees=self._visual_degrees)
        choices = argmax_choices(probabilities)
        chosen = dict(zip(as_text(choices["stimulus_id"].values), as_text(choices.values), strict=True))
        per_subject = subject_correlations(condition_accuracies(assembly, chosen))
        raw = Score(float(np.nanmean(per_subject.to_numpy())))
        raw.attrs["raw"] = per_subject.to_numpy().tolist()
        raw.attrs["subjects"] = [str(subject) for subject in per_subject.index]
        ceiling = self.ceiling
        score = Score(float((float(raw) / float(ceiling)) ** 2))
        score.attrs.update(raw=raw, ceiling=ceiling, normalization="(raw / ceiling)^2", bibtex=self.bibtex)
        return score
