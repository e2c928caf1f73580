"""Internal-consistency noise ceiling: split-half reliability over repetitions (reference section 5.2).

The sorted unique values of the repetition coordinate are split by ``ShuffleSplit(n_splits=10,
train_size=0.5, random_state=1)``; half A holds the presentations whose repetition is in the train set,
half B the rest. Each half is averaged over its repetitions per stimulus (NaN-skipping; stimuli are the
groups of all presentation coordinates except the repetition coordinate, NaN metadata counting as equal),
the halves are correlated per neuroid across stimuli (Pearson, stimuli present in both halves),
corrected with Spearman-Brown (n=2), and the median over neuroids is taken per split. The ceiling is the
mean over splits, ``error`` the population std over splits / sqrt(n_splits), ``raw`` the per-split,
per-neuroid corrected r. All neuroids are computed at once: half sums are accumulated repetition by
repetition from the presentation rows (used in place when a repetition's rows are contiguous, gathered
otherwise) for a batch of splits at a time, so no dense stimulus x neuroid x repetition copy is made;
nothing loops over neuroids.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import ShuffleSplit

from brainscore_core.deprecation import renamed_keywords
from brainscore_core.metrics import Ceiling, Score
from brainscore_metrics._scores import make_score, raw_score
from brainscore_metrics._split_half import masked_pearson, spearman_brown, split_half_from_rows
from brainscore_metrics.backend import resolve_backend
from brainscore_metrics.bootstrap import bootstrap_indices, percentile_interval
from brainscore_metrics.splits import aggregate_splits
from brainscore_metrics.validation import coords_on_dim, matrix_dims, repetition_index, require_dims

__all__ = ["InternalConsistency", "InternalConsistencyTemporal", "repetition_halves", "repetition_rows"]


def repetition_rows(assembly, repetition_coord: str = "repetition", *, time: bool = False):
    """A non-averaged assembly as rows (one per presentation) and the row of each (repetition, stimulus).

    Inputs are checked by :func:`brainscore_metrics.validation.matrix_dims` and
    :func:`brainscore_metrics.validation.repetition_index` (stimuli grouped as ``average_repetition`` does).

    Returns
    -------
    rows : float64 ndarray of shape (n_presentations, n_neuroids[, n_time_bins]); a view of the
        assembly's values when they are float64 and in this dim order
    slots : int ndarray of shape (n_repetitions, n_stimuli), -1 where a stimulus lacks a repetition
    repetitions : ndarray of the sorted unique repetition values
    """
    order, drop = matrix_dims(assembly, time=time, time_hint="use the temporal ceiling "
                              "'internal_consistency_temporal' with a temporal metric such as 'spantime_pls'")
    stimulus, repetition, repetitions = repetition_index(assembly, repetition_coord)
    data = assembly.squeeze(drop, drop=True) if drop else assembly
    rows = np.asarray(data.transpose(*order).values, dtype=np.float64)
    slots = np.full((len(repetitions), int(stimulus.max()) + 1), -1, dtype=np.int64)
    slots[repetition, stimulus] = np.arange(len(stimulus))
    return rows, slots, repetitions


def repetition_halves(n_repetitions: int, n_splits: int = 10, random_state: int = 1) -> np.ndarray:
    """Half-A membership of each repetition per split: bool ndarray (n_splits, n_repetitions), from
    ``ShuffleSplit(n_splits, train_size=0.5, random_state)`` over the sorted repetition values."""
    if n_repetitions < 2:
        raise ValueError(f"split-half consistency needs at least 2 repetitions, got {n_repetitions}")
    halves = np.zeros((n_splits, n_repetitions), dtype=bool)
    splitter = ShuffleSplit(n_splits=n_splits, train_size=0.5, random_state=random_state)
    for split, (train, _) in enumerate(splitter.split(np.zeros(n_repetitions))):
        halves[split, train] = True
    return halves


def _median(raw: np.ndarray, axis: int) -> np.ndarray:
    all_nan = np.all(np.isnan(raw), axis=axis)
    filled = np.where(np.isnan(raw) & all_nan[(slice(None),) * axis + (None,)], 0, raw) if raw.ndim > 1 else raw
    out = np.nanmedian(filled, axis=axis)
    return np.where(all_nan, np.nan, out)


class InternalConsistency(Ceiling):
    """Split-half internal consistency over repetitions with Spearman-Brown correction.

    Parameters
    ----------
    repetition_coord : str, default='repetition'
        Presentation coordinate that numbers the repetitions (e.g. 'repetition_id').
    split_coord : str or None, default=None
        Brain-Score's name of ``repetition_coord`` (``load_ceiling('internal_consistency', split_coord=
        'repetition_id')``, as its Cadena2017 benchmarks call it); when given, it is the repetition coordinate.
    propagate_nan : bool, default=False
        A neuroid whose half means hold a NaN (a stimulus without any trial in that half) gets NaN for that split and
        leaves its median, as in Brain-Score, whose ceiling correlates the half means with ``scipy.stats.pearsonr``
        (Cadena2017-mask's ceiling on trials with NaN). False: r over the stimuli present in both halves.
    n_splits : int, default=10
    random_state : int, default=1
    backend : str or None, default=None
    bootstrap : int or None, default=None
        Resamples of stimuli (each split's half means fixed) for ``ci_low``/``ci_high``.
    confidence : float, default=0.95
    bootstrap_random_state : int, default=0
        Seed of the bootstrap (``bootstrap_seed`` is its deprecated name).
    max_batch_bytes : int or None, default=None
        Scratch memory for the half sums of one batch of splits (default: half the size of the data).

    Returns (on call with a non-averaged assembly, dims presentation x neuroid)
    ----------------------------------------------------------------------------
    Score (0-d) with attrs ``error``, ``raw`` (split x neuroid), ``splits``.
    """

    _time = False

    @renamed_keywords(bootstrap_seed="bootstrap_random_state")
    def __init__(self, repetition_coord: str = "repetition", *, n_splits: int = 10, random_state: int = 1,
                 backend=None, bootstrap: int | None = None, confidence: float = 0.95, bootstrap_random_state: int = 0,
                 max_batch_bytes: int | None = None, split_coord: str | None = None, propagate_nan: bool = False):
        self.repetition_coord = repetition_coord
        self.split_coord = split_coord
        self.propagate_nan = propagate_nan
        self.n_splits = n_splits
        self.random_state = random_state
        self.backend = backend
        self.bootstrap = bootstrap
        self.confidence = confidence
        self.bootstrap_random_state = bootstrap_random_state
        self.max_batch_bytes = max_batch_bytes

    def _repetition_coord(self) -> str:
        return self.repetition_coord if self.split_coord is None else self.split_coord

    def _consistency(self, rows: np.ndarray, slots: np.ndarray):
        """(n_splits, n_columns) corrected r for rows (n_presentations, n_columns) and slots
        (n_repetitions, n_stimuli)."""
        xp = resolve_backend(self.backend)
        halves = repetition_halves(slots.shape[0], self.n_splits, self.random_state)
        result = split_half_from_rows(xp, xp.asarray(rows), slots, halves, max_batch_bytes=self.max_batch_bytes,
                                      keep_halves=bool(self.bootstrap) or self.propagate_nan)
        if self.propagate_nan:
            raw, (half_a, half_b) = result
            raw[np.isnan(half_a).any(axis=1) | np.isnan(half_b).any(axis=1)] = np.nan
            result = (raw, (half_a, half_b)) if self.bootstrap else raw
        return xp, result

    def _bootstrap(self, xp, half_a, half_b, reduce):
        draws = bootstrap_indices(half_a.shape[1], self.bootstrap, self.bootstrap_random_state)
        samples = np.empty(self.bootstrap)
        for b, rows in enumerate(draws):
            r = masked_pearson(xp, xp.asarray(np.moveaxis(half_a[:, rows], 0, -1)),
                               xp.asarray(np.moveaxis(half_b[:, rows], 0, -1)))
            samples[b] = reduce(xp.to_numpy(spearman_brown(xp, r)).T)
        return (*percentile_interval(samples, self.confidence), samples)

    def __call__(self, assembly) -> Score:
        rows, slots, _ = repetition_rows(assembly, self._repetition_coord())
        xp, result = self._consistency(rows, slots)
        raw, halves = (result if self.bootstrap else (result, None))
        per_split = _median(raw, axis=1)
        center, error = aggregate_splits(per_split)
        attrs = {"splits": per_split}
        if self.bootstrap:
            def reduce(values):
                return np.nanmean(_median(values, axis=1))
            low, high, _ = self._bootstrap(xp, *halves, reduce)
            attrs.update(ci_low=low, ci_high=high, ci_confidence=self.confidence, confidence=self.confidence)
        coords = {"split": np.arange(raw.shape[0]), **coords_on_dim(assembly)}
        return make_score(center, error, raw=raw_score(raw, ["split", "neuroid"], coords), **attrs)


class InternalConsistencyTemporal(InternalConsistency):
    """:class:`InternalConsistency` per time bin: input dims presentation x neuroid x time_bin; the Score
    has a ``time_bin`` dim (with the assembly's time-bin coordinates), ``raw`` dims split x neuroid x
    time_bin."""

    def __call__(self, assembly) -> Score:
        require_dims(assembly, ("time_bin",))
        rows, slots, _ = repetition_rows(assembly, self._repetition_coord(), time=True)
        n_presentations, n_neuroids, n_bins = rows.shape
        xp, result = self._consistency(rows.reshape(n_presentations, n_neuroids * n_bins), slots)
        raw, halves = (result if self.bootstrap else (result, None))
        raw = raw.reshape(-1, n_neuroids, n_bins)
        per_split = _median(raw, axis=1)  # (split, time_bin)
        centers, errors = zip(*(aggregate_splits(per_split[:, t]) for t in range(n_bins)), strict=True)
        time_coords = coords_on_dim(assembly, "time_bin")
        attrs = {"splits": per_split}
        if self.bootstrap:
            def reduce(values):
                return np.nanmean(_median(values.reshape(-1, n_neuroids, n_bins), axis=1))
            low, high, _ = self._bootstrap(xp, *halves, reduce)
            attrs.update(ci_low=low, ci_high=high, ci_confidence=self.confidence, confidence=self.confidence)
        raw_coords = {"split": np.arange(raw.shape[0]), **coords_on_dim(assembly), **time_coords}
        return make_score(np.asarray(centers), np.asarray(errors), dims=["time_bin"], coords=time_coords,
                          raw=raw_score(raw, ["split", "neuroid", "time_bin"], raw_coords), **attrs)
