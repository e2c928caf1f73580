"""``confusion_similarity`` and ``tasks_consistency`` (Maniquet et al. 2024): model vs human object recognition
under occlusion, clutter and scrambling.

Both take the model's ``probabilities`` (``presentation x choice``, coordinates ``image_label`` and, for
``tasks_consistency``, ``manipulation`` and ``manipulation_details`` on ``presentation``) and the human trials
(coordinates ``image_label``, ``prediction`` and ``task`` on the trial dim). The model's choice is the label of its
most probable choice.

- ``confusion_similarity``: Pearson r between the off-diagonal cells of the human and the model confusion matrices
  (rows true label, columns chosen label, in the order of the model's ``choice`` coordinate).
- ``tasks_consistency``: Pearson r, over the human tasks (sorted), between human and model accuracy per task; each
  human task name maps to one (manipulation, manipulation_details) pair of the model's presentations
  (:func:`task_condition`).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Metric, Score
from brainscore_metrics._frozen import frozen
from brainscore_metrics.behavior._common import trial_values
from brainscore_metrics.errors import BehaviorInputError
from brainscore_metrics.validation import require_coord

__all__ = ["ConfusionSimilarity", "TasksConsistency", "confusion_matrix", "off_diagonal", "task_condition"]

#: words of a human task name -> the model presentations' ``manipulation``
_MANIPULATIONS = frozen({"clutter": "clutter", "control": "control", "occlusion": "occluder",
                          "scrambling": "phasescrambling"})
#: the rest of a human task name -> the model presentations' ``manipulation_details``
_DETAILS = frozen({
    "heavy": "heavy", "light": "light", "highpass": "highpass", "lowpass": "lowpass",
    **{f"{size}_{kind}_{level}": f"{size.replace('_', '')}-{level}"
       for size in ("few_large", "many_small") for kind in ("blobs", "deletion", "partial_viewing")
       for level in ("high", "low")},
})


def task_condition(task: str) -> tuple[str | None, str]:
    """The (``manipulation``, ``manipulation_details``) of the model presentations that match human ``task``.

    A task containing the word ``control`` is ``('control', 'control')``; otherwise the first word that names a
    manipulation gives it (None if none does) and the remaining words, joined by ``_``, give the details
    (``'control'`` when they are not a known detail), e.g. ``'occlusion_few_large_blobs_high'`` ->
    ``('occluder', 'fewlarge-high')``.
    """
    words = task.split("_")
    if "control" in words:
        return "control", "control"
    manipulation = next((value for key, value in _MANIPULATIONS.items() if key in words), None)
    detail = "_".join(word for word in words if word not in _MANIPULATIONS)
    return manipulation, _DETAILS.get(detail, "control")


def confusion_matrix(true_labels: np.ndarray, chosen_labels: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Counts of (true, chosen) label pairs, shape (n_labels, n_labels) in the order of ``labels``; pairs with a
    label outside ``labels`` are not counted (scikit-learn's ``confusion_matrix(..., labels=labels)``)."""
    index = {label: position for position, label in enumerate(labels.tolist())}
    rows = np.array([index.get(label, -1) for label in np.asarray(true_labels).tolist()], dtype=int)
    columns = np.array([index.get(label, -1) for label in np.asarray(chosen_labels).tolist()], dtype=int)
    keep = (rows >= 0) & (columns >= 0)
    flat = np.bincount(rows[keep] * len(labels) + columns[keep], minlength=len(labels) ** 2)
    return flat.reshape(len(labels), len(labels))


def off_diagonal(matrix: np.ndarray) -> np.ndarray:
    """The cells of a square matrix off its diagonal, row by row."""
    return matrix[~np.eye(matrix.shape[0], dtype=bool)]


def _pearson(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, dtype=float) - np.mean(a), np.asarray(b, dtype=float) - np.mean(b)
    with np.errstate(invalid="ignore", divide="ignore"):
        return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


def _model_choices(probabilities) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(choices in the ``choice`` coordinate's order, chosen label per presentation, true label per presentation)."""
    if "choice" not in probabilities.dims:
        raise BehaviorInputError(f"probabilities: expected dims ('presentation', 'choice'), got {probabilities.dims}")
    choices = np.asarray(probabilities["choice"].values)
    values = np.asarray(probabilities.transpose("presentation", "choice").values)
    chosen = choices[np.argmax(values, axis=1)]
    return choices, chosen, require_coord(probabilities, "image_label", "probabilities", dim="presentation")


def _check_labels(choices: np.ndarray, human_labels: np.ndarray) -> None:
    if sorted(set(choices.tolist())) != sorted(set(human_labels.tolist())):
        raise BehaviorInputError(f"the model's choices {sorted(set(choices.tolist()))[:8]} differ from the humans' "
                                 f"image_label values {sorted(set(human_labels.tolist()))[:8]}")


class ConfusionSimilarity(Metric):
    """Pearson r between the off-diagonal cells of the model's and the humans' confusion matrices.

    Returns (from ``__call__(probabilities, human_assembly)``)
    ----------------------------------------------------------
    Score (0-d), attrs ``model_confusion`` and ``human_confusion`` (n_labels x n_labels counts).
    """

    def __call__(self, probabilities, human_assembly) -> Score:
        choices, chosen, truth = _model_choices(probabilities)
        human = trial_values(human_assembly, ("image_label", "prediction"), what="human_assembly")
        _check_labels(choices, human["image_label"])
        model_confusion = confusion_matrix(truth, chosen, choices)
        human_confusion = confusion_matrix(human["image_label"], human["prediction"], choices)
        score = Score(_pearson(off_diagonal(human_confusion), off_diagonal(model_confusion)))
        score.attrs["model_confusion"] = model_confusion
        score.attrs["human_confusion"] = human_confusion
        return score


class TasksConsistency(Metric):
    """Pearson r, over the human tasks, between the model's and the humans' accuracy per task.

    Returns (from ``__call__(probabilities, human_assembly)``)
    ----------------------------------------------------------
    Score (0-d), attrs ``tasks`` (sorted), ``model_accuracies`` and ``human_accuracies`` (per task).
    """

    def __call__(self, probabilities, human_assembly) -> Score:
        choices, chosen, truth = _model_choices(probabilities)
        manipulation = require_coord(probabilities, "manipulation", "probabilities", dim="presentation")
        details = require_coord(probabilities, "manipulation_details", "probabilities", dim="presentation")
        human = trial_values(human_assembly, ("image_label", "prediction", "task"), what="human_assembly")
        _check_labels(choices, human["image_label"])
        tasks = sorted(set(human["task"].tolist()))
        model_correct, human_correct = chosen == truth, human["image_label"] == human["prediction"]
        model_accuracies, human_accuracies = [], []
        for task in tasks:
            condition = task_condition(task)
            selected = (manipulation == condition[0]) & (details == condition[1])
            if not selected.any():
                raise BehaviorInputError(f"probabilities: no presentation with (manipulation, manipulation_details) "
                                         f"= {condition} for the human task {task!r}")
            model_accuracies.append(float(model_correct[selected].mean()))
            human_accuracies.append(float(human_correct[human["task"] == task].mean()))
        score = Score(_pearson(model_accuracies, human_accuracies))
        score.attrs.update(tasks=tasks, model_accuracies=model_accuracies, human_accuracies=human_accuracies)
        return score
