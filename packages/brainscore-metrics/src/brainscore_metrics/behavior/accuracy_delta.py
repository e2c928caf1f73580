"""``baker_accuracy_delta``: does a model lose as much accuracy as humans when an object's configuration is broken?

Baker & Elder (2022) show animal silhouettes whole (image type ``'w'``) and with their parts rearranged
(``'f'``, "Frankenstein") or fragmented (``'o'``). The *delta* is the accuracy on whole images minus the accuracy on
the other type.

- Model delta: per image type, the fraction of presentations labelled with their ``animal`` category, averaged over
  the categories (sorted); whole minus other.
- Human delta: per image type, each subject's fraction of correct trials (the assembly's values are correctness,
  non-zero = correct); the mean over subjects of whole minus other.
- Score: for ``HUMAN_SPLITS`` (100) half-samples of the subjects, ``max(1 - |human - model| / human, 0)`` with the
  human delta of that half; the mean over half-samples, ``error`` their std, ``raw`` the list.

The half-samples follow Brain-Score's draw exactly: sample ``i`` is
``RandomState(i).choice(range(1, n_subjects), n_subjects // 2, replace=False)``, i.e. subject *values* drawn from
1 .. n_subjects - 1 (Brain-Score numbers its subjects from 1; the last one is never in a half-sample). The
comparison uses the subjects' values as they are, so subjects must be numbered as in Baker2022's data.

The ceiling (:func:`split_half_ceiling`, Brain-Score's ``SplitHalvesConsistencyBaker`` of the Baker2022 benchmarks):
100 splits of the subjects drawn from *one* ``RandomState(0)`` the same way (a half and the rest), the consistency
``max(1 - |delta(half) - delta(rest)| / delta(rest), 0)`` of each, Spearman-Brown corrected (``2c / (1 + c)``);
the median over splits.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.behavior._common import trial_values
from brainscore_metrics.errors import BehaviorInputError
from brainscore_metrics.validation import require_coord

__all__ = ["CEILING_SPLITS", "HUMAN_SPLITS", "BakerAccuracyDelta", "extract_subjects", "get_human_delta",
           "get_model_delta", "split_half_ceiling"]

#: how many half-samples of the subjects the human delta is averaged over
HUMAN_SPLITS = 100
#: how many splits of the subjects the ceiling takes the median over
CEILING_SPLITS = 100
_WHOLE = "w"


def _check_image_types(image_types: Sequence[str]) -> None:
    if len(image_types) != 2 or image_types[0] != _WHOLE:
        raise BehaviorInputError(f"image_types must be ['w', <other image type>] (whole first, e.g. ['w', 'f'] or "
                                 f"['w', 'o']), got {list(image_types)!r}")


def extract_subjects(assembly) -> list:
    """The sorted unique values of the ``subject`` coordinate."""
    return sorted(set(require_coord(assembly, "subject", "target").tolist()))


def _subject_accuracies(correct: np.ndarray, subjects: np.ndarray, types: np.ndarray, image_type: str,
                        order: np.ndarray) -> np.ndarray:
    """Per subject (in ``order``), the fraction of non-zero values among the trials of ``image_type``."""
    selected = types == image_type
    codes = np.searchsorted(order, subjects[selected])
    totals = np.bincount(codes, minlength=len(order))
    hits = np.bincount(codes, weights=correct[selected].astype(bool), minlength=len(order))
    missing = order[totals == 0]
    if len(missing):
        raise BehaviorInputError(f"target: subject(s) {missing.tolist()[:5]} have no trials of image_type "
                                 f"{image_type!r}")
    return hits / totals


def _subject_deltas(target, image_types: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(sorted subjects, each one's accuracy on whole images minus on ``image_types[1]``)."""
    _check_image_types(image_types)
    values = np.asarray(target.values).ravel()
    subjects = require_coord(target, "subject", "target")
    types = require_coord(target, "image_type", "target")
    order = np.asarray(extract_subjects(target))
    whole = _subject_accuracies(values, subjects, types, image_types[0], order)
    other = _subject_accuracies(values, subjects, types, image_types[1], order)
    return order, whole - other


def get_human_delta(target, image_types: Sequence[str]) -> float:
    """Mean over the subjects of ``target`` of (accuracy on whole images - accuracy on ``image_types[1]``).

    Parameters
    ----------
    target : BehavioralAssembly of shape (n_trials,)
        Correctness per trial, with coordinates ``subject`` and ``image_type`` on the trial dim.
    image_types : [``'w'``, other]
    """
    return float(np.mean(_subject_deltas(target, image_types)[1]))


def _consistency(delta: float, reference: float) -> float:
    return max(1 - abs(delta - reference) / reference, 0)


def split_half_ceiling(target, image_types: Sequence[str], *, n_splits: int = CEILING_SPLITS,
                       random_state: int = 0) -> Score:
    """Median over ``n_splits`` splits of the subjects of the Spearman-Brown corrected consistency of the human
    deltas of the two parts (Brain-Score's ``SplitHalvesConsistencyBaker``; see the module docstring).

    Parameters
    ----------
    target : BehavioralAssembly of shape (n_trials,)
        Correctness per trial with coordinates ``subject`` (numbered from 1, as Baker2022's) and ``image_type``.
    image_types : [``'w'``, other]
    n_splits : int, default=100
    random_state : int, default=0
        Seed of the one ``numpy.random.RandomState`` all splits are drawn from.

    Returns
    -------
    Score (0-d) with attrs ``raw`` (the corrected consistencies, dim ``split``) and ``uncorrected_consistencies``.
    """
    subjects, deltas = _subject_deltas(target, image_types)
    draw = np.random.RandomState(random_state)
    uncorrected = []
    for _ in range(n_splits):
        half = draw.choice(range(1, len(subjects)), len(subjects) // 2, replace=False)
        first = np.isin(subjects, half)
        uncorrected.append(_consistency(float(np.mean(deltas[first])), float(np.mean(deltas[~first]))))
    uncorrected = np.asarray(uncorrected, dtype=float)
    corrected = 2 * uncorrected / (1 + uncorrected)
    splits = np.arange(n_splits)
    score = Score(float(np.median(corrected)))
    score.attrs["raw"] = Score(corrected, coords={"split": splits}, dims=["split"])
    score.attrs["uncorrected_consistencies"] = Score(uncorrected, coords={"split": splits}, dims=["split"])
    return score


def get_model_delta(source, image_types: Sequence[str]) -> float:
    """Accuracy on whole images minus accuracy on ``image_types[1]``; each is the mean over ``animal`` categories of
    the fraction of presentations labelled with their category.

    Parameters
    ----------
    source : BehavioralAssembly
        The model's labels, one per presentation (dims ``presentation`` or ``choice x presentation`` with one
        choice), with coordinates ``animal`` and ``image_type`` on ``presentation``.
    image_types : [``'w'``, other]
    """
    _check_image_types(image_types)
    trials = trial_values(source, ("animal", "image_type"), what="source")
    labels, animals, types = trials["values"], trials["animal"], trials["image_type"]
    categories = np.asarray(sorted(set(animals.tolist())))
    accuracies = []
    for image_type in image_types:
        selected = types == image_type
        codes = np.searchsorted(categories, animals[selected])
        totals = np.bincount(codes, minlength=len(categories))
        if (totals == 0).any():
            raise BehaviorInputError(f"source: no presentation of image_type {image_type!r} for animal(s) "
                                     f"{categories[totals == 0].tolist()[:5]}")
        hits = np.bincount(codes, weights=labels[selected] == animals[selected], minlength=len(categories))
        accuracies.append(np.mean(hits / totals))
    return float(accuracies[0] - accuracies[1])


class BakerAccuracyDelta(Metric):
    """Similarity of the model's and the humans' accuracy drop from whole to broken-configuration images.

    Parameters
    ----------
    image_types : list of str
        ``['w', 'f']`` (Frankenstein delta) or ``['w', 'o']`` (fragmented delta).

    Returns (from ``__call__(source, target)``)
    -------------------------------------------
    Score (0-d): mean over ``HUMAN_SPLITS`` half-samples of ``max(1 - |human - model| / human, 0)``;
    attrs ``error`` (std over half-samples), ``raw`` (the list), ``model_delta``.
    """

    def __init__(self, image_types: Sequence[str]):
        self.image_types = image_types

    def __call__(self, source, target) -> Score:
        model_delta = get_model_delta(source, self.image_types)
        subjects = require_coord(target, "subject", "target")
        n_subjects = len(set(subjects.tolist()))
        scores = []
        for split in range(HUMAN_SPLITS):
            half = np.random.RandomState(split).choice(range(1, n_subjects), n_subjects // 2, replace=False)
            half_target = target.isel({target["subject"].dims[0]: np.flatnonzero(np.isin(subjects, half))})
            human_delta = get_human_delta(half_target, self.image_types)
            scores.append(_consistency(model_delta, human_delta))
        score = Score(float(np.mean(scores)))
        score.attrs["error"] = float(np.std(scores))
        score.attrs["raw"] = scores
        score.attrs["model_delta"] = model_delta
        return score

    def compute_ceiling(self, source, target, image_types: Sequence[str]) -> float:
        """``max(1 - |delta(source) - delta(target)| / delta(target), 0)`` for two halves of the human trials."""
        return _consistency(get_human_delta(source, image_types), get_human_delta(target, image_types))
