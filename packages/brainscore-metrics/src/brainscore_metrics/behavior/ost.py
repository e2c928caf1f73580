"""``ost``: object solution times (Kubilius, Schrimpf et al. 2019; Kar et al. 2019).

For each image, the *object solution time* (OST) is when its object becomes decodable at the level primates reach:
the time at which the image's I1 (the mean over distractors of the d' of choosing its object, from a readout of the
responses in one time bin) first reaches the primates' I1 for that image. The metric correlates the model's OSTs
with the measured ones.

Call flow (Brain-Score's, step for step):

1. Shuffle-split cross-validation over the target's images (``n_splits=10``, ``test_size=0.1``, seed 1, no
   stratification); train and test images keep the target's order, and each source presentation is matched to
   its image by ``stimulus_id`` (the first match).
2. Per split and per time bin (by ascending ``time_bin_start``): a softmax readout of ``image_label``
   (:class:`~brainscore_metrics.behavior.softmax_readout.SoftmaxReadout`) is trained on the training images'
   responses in that bin and predicts the test images' label probabilities; their I1 is :func:`image_i1`.
   Bins are visited until every test image has reached its threshold (the target's ``i1`` coordinate).
3. OST per image (:func:`solution_times`): the first bin whose I1 reaches the threshold, linearly interpolated
   from the highest I1 below the threshold seen before it (the bin itself if there is none); NaN if never reached.
4. Spearman r between model and measured OSTs over the images where both are defined; the score is the mean over
   splits, ``error`` the standard error over splits.

Inputs: ``source_recordings`` (presentation x neuroid x time_bin, coordinates ``stimulus_id``, ``image_label``,
``truth`` on presentation and ``time_bin_start`` on time_bin) and ``target_osts`` (presentation: measured OST per
image in ms, coordinates ``stimulus_id`` and ``i1``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

import numpy as np
from scipy.stats import spearmanr

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.behavior.i2n import dprime_matrix
from brainscore_metrics.behavior.softmax_readout import SoftmaxReadout
from brainscore_metrics.errors import BehaviorInputError, StimulusMismatchError
from brainscore_metrics.splits import StimulusSplitter, aggregate_splits
from brainscore_metrics.validation import require_coord

__all__ = ["OSTCorrelation", "image_i1", "solution_times"]


def image_i1(probabilities: np.ndarray, classes: Sequence, truth: Sequence, cap: float = 5.0) -> np.ndarray:
    """I1 per image from a readout's label probabilities (Brain-Score's ``i1``: unnormalised, distractors averaged).

    ``p(i, o) = P(o) / (P(o) + P(truth(i)))`` for every other object ``o``; d' = Phi^-1(1 - p) - Phi^-1(FA) with
    FA the mean over the images of ``o`` of their ``p(., truth(i))``, clipped to +-``cap``; I1 = the NaN-mean of
    d' over distractors.

    Parameters
    ----------
    probabilities : ndarray of shape (n_images, n_classes)
    classes : sequence of length n_classes
        The label of each column.
    truth : sequence of length n_images
        Each image's object; must be one of ``classes``.

    Returns
    -------
    ndarray of shape (n_images,)
    """
    column = {label: position for position, label in enumerate(np.asarray(classes).tolist())}
    unknown = sorted({label for label in np.asarray(truth).tolist() if label not in column})
    if unknown:
        raise BehaviorInputError(f"truth label(s) {unknown[:5]} are not among the readout's classes "
                                 f"{list(column)[:10]}")
    truth_column = np.array([column[label] for label in np.asarray(truth).tolist()])
    rows = np.arange(len(truth_column))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = probabilities / (probabilities + probabilities[rows, truth_column][:, None])
    p[rows, truth_column] = np.nan
    dprime = dprime_matrix(p, truth_column, cap=cap, normalize=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an image whose every d' is NaN keeps NaN
        return np.nanmean(dprime, axis=1)


def solution_times(i1_per_bin: Callable[[int], np.ndarray], time_bin_starts: Sequence[float],
                   thresholds: np.ndarray) -> np.ndarray:
    """Interpolated time at which each image's I1 first reaches its threshold.

    Parameters
    ----------
    i1_per_bin : callable
        ``i1_per_bin(k)`` gives the I1 of every image (shape (n_images,)) in the ``k``-th bin of
        ``time_bin_starts``; called in order, and no more once every image has reached its threshold.
    time_bin_starts : sequence of float, ascending
    thresholds : ndarray of shape (n_images,)

    Returns
    -------
    ndarray of shape (n_images,): ``t_below + (threshold - i1_below) (t_hit - t_below) / (i1_hit - i1_below)``,
    where (``t_hit``, ``i1_hit``) is the first bin at or above the threshold and (``t_below``, ``i1_below``) the bin
    with the highest I1 below it before then (``t_hit`` when there is none); NaN where the threshold is never reached.
    """
    thresholds = np.asarray(thresholds, dtype=float)
    last_time, last_i1 = np.full(len(thresholds), np.nan), np.full(len(thresholds), np.nan)
    hit_time, hit_i1 = np.full(len(thresholds), np.nan), np.full(len(thresholds), np.nan)
    for k, start in enumerate(time_bin_starts):
        i1 = np.asarray(i1_per_bin(k), dtype=float)
        open_ = np.isnan(hit_time)
        with np.errstate(invalid="ignore"):
            below = open_ & (i1 < thresholds) & (np.isnan(last_i1) | (last_i1 < i1))
            reached = open_ & (i1 >= thresholds)
        last_time[below], last_i1[below] = start, i1[below]
        hit_time[reached], hit_i1[reached] = start, i1[reached]
        if not np.isnan(hit_time).any():
            break
    with np.errstate(invalid="ignore", divide="ignore"):
        interpolated = last_time + (thresholds - last_i1) * (hit_time - last_time) / (hit_i1 - last_i1)
    return np.where(np.isnan(last_time), hit_time, interpolated)


#: training features per time bin (float64 bytes) below which readouts of several bins are fitted together
STACK_BELOW_BYTES = 256 * 2 ** 10


class _ChunkedI1:
    """``i1(k)``: the test images' I1 from a readout of time bin ``k``.

    A readout's training is thousands of small steps; with few training features per bin the steps cost their Python
    overhead, not their arithmetic. Then readouts are fitted a chunk of consecutive bins at a time (one stacked fit,
    :class:`SoftmaxReadout`), chunks doubling in length (1, 2, 4, ... bins, capped by ``max_chunk_bytes``): bins past
    the one where every image has reached its threshold are never needed, so this fits at most about twice the bins
    a bin-by-bin loop fits, in a few passes. With more than :data:`STACK_BELOW_BYTES` of training features per bin the
    arithmetic dominates and bins are fitted one at a time (`benchmarks/bench_ported.py`)."""

    def __init__(self, values, bin_order, train_rows, test_rows, labels, truth, *, readout_kwargs, cap,
                 max_chunk_bytes):
        self.values, self.bin_order, self.train_rows, self.test_rows = values, bin_order, train_rows, test_rows
        self.labels, self.truth, self.readout_kwargs, self.cap = labels, truth, readout_kwargs or {}, cap
        per_bin = 8 * len(train_rows) * values.shape[1]
        self.max_chunk = max(1, int(max_chunk_bytes // max(per_bin, 1))) if per_bin < STACK_BELOW_BYTES else 1
        self.chunk = 1
        self.cache: dict[int, np.ndarray] = {}

    def __call__(self, k: int) -> np.ndarray:
        if k not in self.cache:
            bins = self.bin_order[k:k + self.chunk]
            train = np.moveaxis(self.values[np.ix_(self.train_rows, np.arange(self.values.shape[1]), bins)], 2, 0)
            test = np.moveaxis(self.values[np.ix_(self.test_rows, np.arange(self.values.shape[1]), bins)], 2, 0)
            readout = SoftmaxReadout(**self.readout_kwargs).fit(train, self.labels[self.train_rows])
            probabilities = readout.predict_proba(test)
            for offset in range(len(bins)):
                self.cache[k + offset] = image_i1(probabilities[offset], readout.classes_, self.truth[self.test_rows],
                                                  cap=self.cap)
            self.chunk = min(2 * self.chunk, self.max_chunk)
        return self.cache.pop(k)


def _first_positions(ids: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Position of the first occurrence in ``ids`` of each of ``wanted``."""
    order = np.argsort(ids, kind="stable")
    found = np.searchsorted(ids[order], wanted)
    return order[np.minimum(found, len(ids) - 1)]


class OSTCorrelation(Metric):
    """Spearman correlation of model and primate object solution times (see the module docstring).

    Parameters
    ----------
    n_splits : int, default=10
    test_size : float, default=0.1
    random_state : int, default=1
        Seed of the splits.
    readout_kwargs : dict or None, default=None
        Passed to :class:`~brainscore_metrics.behavior.softmax_readout.SoftmaxReadout`.
    cap : float, default=5.0
        d' is clipped to +-cap.
    max_chunk_bytes : int, default=256 MiB
        Readouts of consecutive time bins are fitted together, in chunks that double in length up to this many
        bytes of training features (float64); the results do not depend on it.

    Returns (from ``__call__(source_recordings, target_osts)``)
    ----------------------------------------------------------
    Score (0-d): mean over splits of the Spearman r; attrs ``error`` (standard error over splits), ``raw``
    (per-split r, dim ``split``), ``predicted_osts`` (per split, the test images' model OSTs).
    """

    def __init__(self, *, n_splits: int = 10, test_size: float = 0.1, random_state: int = 1,
                 readout_kwargs: dict | None = None, cap: float = 5.0, max_chunk_bytes: int = 256 * 2 ** 20):
        self.n_splits = n_splits
        self.test_size = test_size
        self.random_state = random_state
        self.readout_kwargs = readout_kwargs
        self.cap = cap
        self.max_chunk_bytes = max_chunk_bytes

    def _source(self, source):
        missing = [dim for dim in ("presentation", "neuroid", "time_bin") if dim not in source.dims]
        if missing:
            raise BehaviorInputError(f"source_recordings: expected dims (presentation, neuroid, time_bin), got "
                                     f"{source.dims}")
        starts = require_coord(source, "time_bin_start", "source_recordings", dim="time_bin")
        values = np.asarray(source.transpose("presentation", "neuroid", "time_bin").values)
        order = np.argsort(starts, kind="stable")
        return (values, starts[order], order, require_coord(source, "stimulus_id", "source_recordings"),
                require_coord(source, "image_label", "source_recordings"),
                require_coord(source, "truth", "source_recordings"))

    def __call__(self, source_recordings, target_osts) -> Score:
        values, starts, bin_order, source_ids, labels, truth = self._source(source_recordings)
        target_ids = require_coord(target_osts, "stimulus_id", "target_osts")
        thresholds = require_coord(target_osts, "i1", "target_osts").astype(float)
        measured = np.asarray(target_osts.values, dtype=float).ravel()
        if set(source_ids.tolist()) != set(target_ids.tolist()):
            raise StimulusMismatchError(
                f"source_recordings and target_osts hold different stimuli: "
                f"{sorted(set(map(str, target_ids)) ^ set(map(str, source_ids)))[:5]}")
        positions = _first_positions(source_ids, target_ids)  # target image -> its source presentation
        splitter = StimulusSplitter(self.n_splits, test_size=self.test_size, stratification_coord=None,
                                    random_state=self.random_state)
        per_split, predictions = [], []
        for train, test in splitter.split(target_osts):
            train_rows, test_rows = positions[train], positions[test]

            i1_in_bin = _ChunkedI1(values, bin_order, train_rows, test_rows, labels, truth,
                                   readout_kwargs=self.readout_kwargs, cap=self.cap,
                                   max_chunk_bytes=self.max_chunk_bytes)
            predicted = solution_times(i1_in_bin, starts, thresholds[test])
            predictions.append(predicted)
            both = ~np.isnan(predicted) & ~np.isnan(measured[test])
            per_split.append(spearmanr(predicted[both], measured[test][both])[0] if both.sum() > 1 else np.nan)
        center, error = aggregate_splits(np.asarray(per_split, dtype=float))
        score = Score(center)
        score.attrs["error"] = error
        score.attrs["raw"] = Score(np.asarray(per_split, dtype=float), coords={"split": np.arange(len(per_split))},
                                   dims=["split"])
        score.attrs["predicted_osts"] = predictions
        return score
