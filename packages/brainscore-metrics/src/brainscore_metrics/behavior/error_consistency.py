"""``error_consistency``: Cohen's kappa between trial-wise correctness (Geirhos et al. 2020).

Per subject and condition, the correctness vectors of source and subject are paired on
``stimulus_id``. With accuracies ``a`` and ``b`` and observed agreement ``obs`` (fraction of stimuli
both got right or both got wrong), expected agreement is ``a*b + (1-a)(1-b)`` and
``kappa = (obs - exp) / (1 - exp)``. When ``exp == 1`` (both all right or both all wrong) kappa is
undefined: NaN, and left out of the means. Value = ``|mean over subjects of (mean over conditions)|``;
error = population std over all (subject, condition) kappas.

Everything is computed on matrices: per condition, a ``rows x stimuli`` correctness table (rows are the
source and the subjects; NaN where a row did not see a stimulus), and the kappas of all row pairs at once
from four matrix products (counts, correct counts, both-correct and both-wrong agreements). There is no
Python loop over trials or over subject pairs.
"""

from __future__ import annotations

import warnings

import numpy as np

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.behavior._common import add_confidence_interval, trial_values
from brainscore_metrics.errors import BehaviorInputError

__all__ = ["ErrorConsistency", "cohens_kappa", "pairwise_kappas"]


def cohens_kappa(correct1: np.ndarray, correct2: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Cohen's kappa of two 0/1 correctness vectors (optionally weighted per stimulus).

    Returns NaN when expected agreement is 1 or there are no (weighted) stimuli.

    Examples
    --------
    >>> round(cohens_kappa(np.array([1, 1, 0, 0.]), np.array([1, 0, 0, 0.])), 6)   # obs .75, exp .5
    0.5
    """
    weights = np.ones(len(correct1)) if weights is None else weights
    total = weights.sum()
    if total == 0:
        return float("nan")
    a, b = weights @ correct1 / total, weights @ correct2 / total
    observed = weights @ (correct1 == correct2) / total
    expected = a * b + (1 - a) * (1 - b)
    if expected >= 1:
        return float("nan")
    return float((observed - expected) / (1 - expected))


def pairwise_kappas(correct: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Cohen's kappa of every pair of rows of a correctness table, over the stimuli both rows saw.

    Parameters
    ----------
    correct : ndarray of shape (n_rows, n_stimuli)
        1 (correct), 0 (wrong) or NaN (the row did not see that stimulus).
    weights : ndarray of shape (n_stimuli,), optional
        Per-stimulus weights (bootstrap counts); default 1.

    Returns
    -------
    ndarray of shape (n_rows, n_rows)
        ``kappa[i, j]``; NaN where the rows share no stimulus or the expected agreement is 1.
    """
    seen = ~np.isnan(correct)
    right = np.where(seen, correct, 0.0)
    wrong = seen - right
    seen = seen.astype(np.float64)
    if weights is not None:
        weights = np.asarray(weights, dtype=np.float64)
        weighted_seen, weighted_right, weighted_wrong = seen * weights, right * weights, wrong * weights
    else:
        weighted_seen, weighted_right, weighted_wrong = seen, right, wrong
    shared = weighted_seen @ seen.T  # (weighted) number of stimuli both rows saw
    right_of_first = weighted_right @ seen.T  # row i's correct answers among the shared stimuli
    agreement = weighted_right @ right.T + weighted_wrong @ wrong.T
    with np.errstate(divide="ignore", invalid="ignore"):
        a = right_of_first / shared
        b = right_of_first.T / shared
        observed = agreement / shared
        expected = a * b + (1 - a) * (1 - b)
        kappa = (observed - expected) / (1 - expected)
    kappa[(shared == 0) | (expected >= 1)] = np.nan
    return kappa


def _aggregate(table: np.ndarray) -> tuple[float, float]:
    """``|nanmean over rows of nanmean over conditions|`` and the nanstd over all cells."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows are expected (undefined kappas)
        value = abs(float(np.nanmean(np.nanmean(table, axis=1))))
        error = float(np.nanstd(table))
    return value, error


def _correctness_table(subject_index: np.ndarray, stimulus_index: np.ndarray, correct: np.ndarray,
                       n_rows: int, n_stimuli: int, names: np.ndarray, stimuli: np.ndarray, what: str,
                       comparison_coord: str) -> np.ndarray:
    """Scatter trials into a ``rows x stimuli`` table; a row seeing a stimulus twice is an error naming both."""
    flat = subject_index * n_stimuli + stimulus_index
    counts = np.bincount(flat, minlength=n_rows * n_stimuli)
    if (counts > 1).any():
        repeated = np.flatnonzero(counts > 1)[:5]
        raise BehaviorInputError(
            f"{what}: one trial per {comparison_coord} and subject expected within a condition; repeated: "
            f"{[(str(names[r // n_stimuli]), str(stimuli[r % n_stimuli])) for r in repeated]}")
    table = np.full(n_rows * n_stimuli, np.nan)
    table[flat] = correct
    return table.reshape(n_rows, n_stimuli)


class ErrorConsistency(Metric):
    """Error consistency (Cohen's kappa) of a source with every subject, per condition.

    Parameters
    ----------
    subject_coord, condition_coord, truth_coord, comparison_coord : str
        Default 'subject', 'condition', 'truth', 'stimulus_id'.
    bootstrap : int or None, default=None
        Bootstrap resamples of the source's stimuli (every cell re-weighted by how often each stimulus
        was drawn) for ``attrs['ci_low']``/``attrs['ci_high']``.
    random_state : int, default=0

    Returns (from ``__call__(source, target)``)
    -----------------------------------------
    Score (0-d) with ``attrs['error']`` and ``attrs['raw']`` of dims ``subject x condition`` (NaN for an
    undefined kappa or a condition a subject did not see).

    Raises
    ------
    BehaviorInputError
        Duplicate source stimulus ids, or subject stimuli the source lacks (names them), or a subject that
        saw one stimulus twice in one condition.
    """

    def __init__(self, *, subject_coord: str = "subject", condition_coord: str = "condition",
                 truth_coord: str = "truth", comparison_coord: str = "stimulus_id", bootstrap: int | None = None,
                 random_state: int = 0):
        self.subject_coord = subject_coord
        self.condition_coord = condition_coord
        self.truth_coord = truth_coord
        self.comparison_coord = comparison_coord
        self.bootstrap = bootstrap
        self.random_state = random_state

    def _trials(self, assembly, what: str, subject: bool) -> dict[str, np.ndarray]:
        names = (self.comparison_coord, self.truth_coord, self.condition_coord)
        trials = trial_values(assembly, names + ((self.subject_coord,) if subject else ()), what=what)
        trials["correct"] = (trials["values"] == trials[self.truth_coord]).astype(float)
        trials[self.comparison_coord] = trials[self.comparison_coord].astype(str)
        trials[self.condition_coord] = trials[self.condition_coord].astype(str)
        return trials

    def _source_reference(self, source) -> tuple[np.ndarray, np.ndarray]:
        trials = self._trials(source, "source", subject=False)
        ids = trials[self.comparison_coord]
        order = np.argsort(ids, kind="stable")
        ids = ids[order]
        if len(np.unique(ids)) != len(ids):
            repeated = np.unique(ids[np.r_[False, ids[1:] == ids[:-1]]])[:5]
            raise BehaviorInputError(f"source: duplicate {self.comparison_coord} {repeated.tolist()}; "
                                     "one trial per stimulus expected")
        return ids, trials["correct"][order]

    def _tables(self, trials: dict, stimuli: np.ndarray, what: str):
        """Per condition: the subjects' correctness tables over ``stimuli`` (sorted ids)."""
        subjects, subject_index = np.unique(trials[self.subject_coord], return_inverse=True)
        conditions, condition_index = np.unique(trials[self.condition_coord], return_inverse=True)
        ids = trials[self.comparison_coord]
        positions = np.minimum(np.searchsorted(stimuli, ids), len(stimuli) - 1)
        missing = stimuli[positions] != ids
        if missing.any():
            raise BehaviorInputError(f"{what}: {self.comparison_coord} {np.unique(ids[missing])[:5].tolist()} "
                                     f"({len(np.unique(ids[missing]))} in all) are missing from the assembly "
                                     "compared with")
        tables = []
        for column in range(len(conditions)):
            mask = condition_index == column
            tables.append(_correctness_table(subject_index[mask], positions[mask], trials["correct"][mask],
                                             len(subjects), len(stimuli), subjects, stimuli,
                                             f"{what}, condition {conditions[column]!r}", self.comparison_coord))
        return subjects, conditions, tables

    def __call__(self, source, target) -> Score:
        reference_ids, source_correct = self._source_reference(source)
        trials = self._trials(target, "target", subject=True)
        subjects, conditions, tables = self._tables(trials, reference_ids, "target")

        def table(weights=None):
            out = np.empty((len(subjects), len(conditions)))
            for column, subject_table in enumerate(tables):
                seen_by_any = ~np.isnan(subject_table).all(axis=0)
                source_row = np.where(seen_by_any, source_correct, np.nan)
                kappas = pairwise_kappas(np.vstack([source_row, subject_table]), weights)
                out[:, column] = kappas[0, 1:]
            return out

        kappas = table()
        value, error = _aggregate(kappas)
        score = Score(value)
        score.attrs["error"] = error
        score.attrs["raw"] = Score(kappas, coords={self.subject_coord: subjects, self.condition_coord: conditions},
                                   dims=[self.subject_coord, self.condition_coord])
        n = len(reference_ids)
        add_confidence_interval(score, lambda indices: _aggregate(table(np.bincount(indices, minlength=n)))[0],
                                n, self.bootstrap, self.random_state)
        return score

    def ceiling(self, assembly) -> Score:
        """Error consistency between all pairs of subjects (same aggregation, over subject pairs).

        Returns
        -------
        Score (0-d) with ``attrs['raw']`` of dims ``subject_pair x condition`` (coords
        ``subject_left``, ``subject_right``) and ``attrs['error']``.
        """
        trials = self._trials(assembly, "assembly", subject=True)
        stimuli = np.unique(trials[self.comparison_coord])
        subjects, conditions, tables = self._tables(trials, stimuli, "assembly")
        left, right = np.triu_indices(len(subjects), k=1)
        kappas = np.stack([pairwise_kappas(table)[left, right] for table in tables], axis=1) if tables else \
            np.empty((len(left), 0))
        value, error = _aggregate(kappas)
        score = Score(value)
        score.attrs["error"] = error
        score.attrs["raw"] = Score(kappas, coords={"subject_left": ("subject_pair", subjects[left]),
                                                   "subject_right": ("subject_pair", subjects[right]),
                                                   self.condition_coord: conditions},
                                   dims=["subject_pair", self.condition_coord])
        return score
