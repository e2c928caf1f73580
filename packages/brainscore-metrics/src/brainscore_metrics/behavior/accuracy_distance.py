"""``accuracy_distance``: how close the source's accuracy is to each subject's, relative to the largest
possible distance::

    distance(a_source, a_subject) = 1 - |a_source - a_subject| / max(1 - a_subject, a_subject - chance)

computed on the whole assembly, or per condition (the unique combinations of ``variables``) and then
averaged over conditions. Value = ``|mean over subjects|``, error = population std over subjects.
"""

from __future__ import annotations

import warnings

import numpy as np

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.behavior._common import add_confidence_interval, trial_values

__all__ = ["AccuracyDistance", "accuracy_distance"]


def accuracy_distance(source_accuracy, target_accuracy, chance_level: float = 0.0):
    """``1 - |s - t| / max(1 - t, t - chance_level)`` (NaN when that maximum is 0)."""
    maximum = np.maximum(1 - np.asarray(target_accuracy), np.asarray(target_accuracy) - chance_level)
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1 - np.abs(np.asarray(source_accuracy) - target_accuracy) / maximum


class AccuracyDistance(Metric):
    """Accuracy distance between a source and every subject (optionally per condition).

    Parameters
    ----------
    variables : tuple of str, default=()
        Trial coordinates defining conditions (e.g. ``('condition',)``); empty = whole assembly.
        ``__call__``'s third argument overrides it (the reference's call form).
    chance_level : float, default=0.0
    subject_coord, truth_coord, comparison_coord : str
        Default 'subject', 'truth', 'stimulus_id'. Correctness is ``values == truth`` on each side.
    bootstrap : int or None, default=None
        Bootstrap resamples of stimulus ids (trials weighted by how often their stimulus was drawn).
    random_state : int, default=0

    Returns (from ``__call__(source, target, variables=None, chance_level=None)``)
    ----------------------------------------------------------------------------
    Score (0-d) with ``attrs['error']`` and ``attrs['raw']`` (dim ``subject``).

    Notes
    -----
    The source's trials are restricted to a subject's stimulus ids when it holds all of them;
    otherwise (different images of the same categories, as in some benchmarks) all source trials of
    the condition are used. A condition the source lacks gives NaN and is skipped in the mean.
    """

    def __init__(self, *, variables: tuple = (), chance_level: float = 0.0, subject_coord: str = "subject",
                 truth_coord: str = "truth", comparison_coord: str = "stimulus_id", bootstrap: int | None = None,
                 random_state: int = 0):
        self.variables = variables
        self.chance_level = chance_level
        self.subject_coord = subject_coord
        self.truth_coord = truth_coord
        self.comparison_coord = comparison_coord
        self.bootstrap = bootstrap
        self.random_state = random_state

    def _trials(self, assembly, variables, what, subject):
        names = (self.truth_coord, self.comparison_coord, *variables) + ((self.subject_coord,) if subject else ())
        trials = trial_values(assembly, names, what=what)
        trials["correct"] = (trials["values"] == trials[self.truth_coord]).astype(float)
        return trials

    def __call__(self, source, target, variables: tuple | None = None, chance_level: float | None = None) -> Score:
        variables = tuple(self.variables if variables is None else variables)
        chance = self.chance_level if chance_level is None else chance_level
        first = self._trials(source, variables, "source", subject=False)
        second = self._trials(target, variables, "target", subject=True)
        _add_condition_codes(variables, first, second)
        subjects, subject_rows = np.unique(second[self.subject_coord], return_inverse=True)
        ids, id_codes = np.unique(np.concatenate([first[self.comparison_coord], second[self.comparison_coord]]),
                                  return_inverse=True)
        conditions, condition_codes = np.unique(np.concatenate([first["condition"], second["condition"]]),
                                                return_inverse=True)
        split = len(first["values"])
        shape = (len(conditions), len(ids))
        source_table = _TrialTable.of(np.zeros(split, dtype=np.int64), condition_codes[:split], id_codes[:split],
                                      first["correct"], (1, *shape))
        subject_table = _TrialTable.of(subject_rows, condition_codes[split:], id_codes[split:], second["correct"],
                                       (len(subjects), *shape))

        def per_subject(weights=None):
            return _distances(source_table.weighted(weights), subject_table.weighted(weights), chance)[0]

        values = per_subject()
        score = Score(abs(float(np.mean(values))))
        score.attrs["error"] = float(np.std(values))
        score.attrs["raw"] = Score(values, coords={self.subject_coord: subjects}, dims=[self.subject_coord])
        add_confidence_interval(score, lambda draw: abs(float(np.nanmean(per_subject(np.bincount(draw, minlength=len(
            ids)).astype(float))))), len(ids), self.bootstrap, self.random_state)
        return score

    def ceiling(self, assembly, variables: tuple | None = None, chance_level: float | None = None) -> Score:
        """Accuracy distance between all pairs of subjects (first of a pair as source).

        Returns
        -------
        Score (0-d) with ``attrs['error']`` and ``attrs['raw']`` of dim ``subject_pair`` (coords
        ``subject_left``, ``subject_right``).
        """
        variables = tuple(self.variables if variables is None else variables)
        chance = self.chance_level if chance_level is None else chance_level
        trials = self._trials(assembly, variables, "assembly", subject=True)
        _add_condition_codes(variables, trials)
        subjects, rows = np.unique(trials[self.subject_coord], return_inverse=True)
        ids, id_codes = np.unique(trials[self.comparison_coord], return_inverse=True)
        conditions, condition_codes = np.unique(trials["condition"], return_inverse=True)
        table = _TrialTable.of(rows, condition_codes, id_codes, trials["correct"],
                               (len(subjects), len(conditions), len(ids)))
        left, right = np.triu_indices(len(subjects), k=1)  # itertools.combinations' order
        values = _distances(table, table, chance)[left, right]
        score = Score(abs(float(np.mean(values))))
        score.attrs["error"] = float(np.std(values))
        score.attrs["raw"] = Score(values, coords={"subject_left": ("subject_pair", subjects[left]),
                                                   "subject_right": ("subject_pair", subjects[right])},
                                   dims=["subject_pair"])
        return score


class _TrialTable:
    """Correct answers (``sums``) and trials (``counts``) per row (source or subject), condition and stimulus id:
    arrays of shape (rows, conditions, ids); ``seen`` (rows, ids): 1 where the row has a trial of the id (drawn by a
    bootstrap or not)."""

    def __init__(self, sums: np.ndarray, counts: np.ndarray, seen: np.ndarray | None = None):
        self.sums, self.counts = sums, counts
        self.seen = (counts.sum(1) > 0).astype(float) if seen is None else seen

    @classmethod
    def of(cls, rows, conditions, ids, correct, shape) -> _TrialTable:
        flat = np.ravel_multi_index((rows, conditions, ids), shape)
        size = int(np.prod(shape))
        return cls(np.bincount(flat, weights=correct, minlength=size).reshape(shape),
                   np.bincount(flat, minlength=size).astype(float).reshape(shape))

    def weighted(self, weights: np.ndarray | None) -> _TrialTable:
        """Each stimulus id's trials counted ``weights[id]`` times (bootstrap draws); None: as they are."""
        return self if weights is None else _TrialTable(self.sums * weights, self.counts * weights, self.seen)


def _distances(first: _TrialTable, second: _TrialTable, chance: float) -> np.ndarray:
    """Accuracy distance of every row of ``first`` (as source) to every row of ``second``: shape (first rows,
    second rows); NaN where no condition of the second row pairs.

    For a pair, the source's trials are restricted to the stimulus ids the second row saw when the source saw all of
    them; per condition the second row has trials in, the distance between the two accuracies; the mean over those
    conditions (those the source lacks left out). Restricted sums are matrix products of the per-condition tables
    with the second rows' seen ids, so no loop runs over pairs or trials.
    """
    restrict = ((1 - first.seen) @ second.seen.T) == 0  # (first, second): the first row saw every id the second saw
    restricted_sums = np.einsum("fci,si->cfs", first.sums, second.seen)
    restricted_counts = np.einsum("fci,si->cfs", first.counts, second.seen)
    all_sums, all_counts = first.sums.sum(2).T[:, :, None], first.counts.sum(2).T[:, :, None]  # (c, first, 1)
    sums = np.where(restrict[None], restricted_sums, all_sums)
    counts = np.where(restrict[None], restricted_counts, all_counts)
    second_counts = second.counts.sum(2).T  # (c, second)
    with np.errstate(divide="ignore", invalid="ignore"):
        source_accuracy = sums / counts
        subject_accuracy = second.sums.sum(2).T / second_counts
    distances = accuracy_distance(source_accuracy, subject_accuracy[:, None, :], chance)
    distances = np.where(second_counts[:, None, :] > 0, distances, np.nan)  # the second row's conditions only
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(distances, axis=0)


def _add_condition_codes(variables: tuple, *trial_sets: dict) -> None:
    """One integer code per unique combination of ``variables``, shared by all ``trial_sets``."""
    lengths = [len(trials["values"]) for trials in trial_sets]
    codes = np.zeros(sum(lengths), dtype=np.int64)
    for name in variables:
        _, inverse = np.unique(np.concatenate([trials[name] for trials in trial_sets]), return_inverse=True)
        codes = codes * (inverse.max() + 1) + inverse
    for trials, part in zip(trial_sets, np.split(codes, np.cumsum(lengths)[:-1])):
        trials["condition"] = part
