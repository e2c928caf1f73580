"""Temporal regression-correlation (``spantime_pls``, ``spantime_ridge``).

One mapping is fitted per split on all (time bin x training stimulus) samples; predictions of the test
stimuli are correlated with the target per time bin. Splits are over stimuli (all time bins of a
stimulus fall on the same side). The source either has no ``time_bin`` dim / a single bin (its
responses are used for every target bin) or the same number of bins as the target, matched by position.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Score
from brainscore_metrics._align import align_pair
from brainscore_metrics._scores import make_score, raw_score
from brainscore_metrics.backend import resolve_backend
from brainscore_metrics.errors import DimensionError
from brainscore_metrics.regression import make_regression
from brainscore_metrics.regression_correlation import (
    CrossRegressedCorrelation,
    _median_over_neuroids,
    check_correlation,
    correlate_splits,
)
from brainscore_metrics.splits import aggregate_splits, indices_of_values
from brainscore_metrics.validation import require_dims

__all__ = ["SpanTimeCrossRegressedCorrelation"]


class SpanTimeCrossRegressedCorrelation(CrossRegressedCorrelation):
    """Cross-validated regression-correlation over time bins (parameters as
    :class:`~brainscore_metrics.regression_correlation.CrossRegressedCorrelation`, without bootstrap).

    Returns (on call with a target of dims presentation x neuroid x time_bin)
    -------------------------------------------------------------------------
    Score with a ``time_bin`` dim: per time bin, the mean over splits of the median over neuroids of
    Pearson r; attrs ``error`` (time_bin), ``raw`` (split x neuroid x time_bin).
    """

    def __call__(self, source, target) -> Score:
        check_correlation(self.correlation)
        regression = make_regression(self.regression, self.regression_kwargs, self.backend)
        require_dims(target, ("time_bin",), "target")
        source_m, target_m = align_pair(source, target, stimulus_coord=self.comparison_coord, time=True)
        Y3 = target_m.values  # (n, q, T)
        n, _, n_bins = Y3.shape
        X3 = source_m.values if source_m.values.ndim == 3 else source_m.values[:, :, None]
        if X3.shape[2] == 1:
            X3 = np.repeat(X3, n_bins, axis=2)
        elif X3.shape[2] != n_bins:
            raise DimensionError(f"source has {X3.shape[2]} time bins, target {n_bins}; need 1 or equal")
        X = np.concatenate([X3[:, :, t] for t in range(n_bins)])  # rows: time-major (t, stimulus)
        Y = np.concatenate([Y3[:, :, t] for t in range(n_bins)])
        splitter = self._splitter()
        values, pairs = splitter.split_values(target.isel(time_bin=0))
        sorted_values = np.asarray(target[splitter.split_coord].values)[target_m.order]
        offsets = np.arange(n_bins)[:, None] * n

        def stacked(chosen):
            rows = indices_of_values(sorted_values, chosen)
            return (offsets + rows[None, :]).reshape(-1), len(rows)

        splits, n_test = [], []
        for train, test in pairs:
            train_rows, _ = stacked(values[train])
            test_rows, count = stacked(values[test])
            splits.append((train_rows, test_rows))
            n_test.append(count)
        xp = resolve_backend(self.backend)
        if regression.backend is None:
            regression.backend = xp.name
        predictions = regression.cross_predict(xp.asarray(X), xp.asarray(Y), splits)
        raw = np.empty((len(splits), Y3.shape[1], n_bins))
        for t in range(n_bins):
            preds = [p[t * count:(t + 1) * count] for p, count in zip(predictions, n_test, strict=True)]
            targets = [xp.asarray(Y[test[t * count:(t + 1) * count]], dtype=xp.float64)
                       for (_, test), count in zip(splits, n_test, strict=True)]
            raw[:, :, t] = correlate_splits(xp, preds, targets)
        per_split = np.stack([_median_over_neuroids(raw[:, :, t]) for t in range(n_bins)], axis=1)
        centers, errors = zip(*(aggregate_splits(per_split[:, t]) for t in range(n_bins)), strict=True)
        time_coords = target_m.time_coords
        raw_coords = {"split": np.arange(len(splits)), **target_m.neuroid_coords, **time_coords}
        return make_score(np.asarray(centers), np.asarray(errors), dims=["time_bin"], coords=time_coords,
                          raw=raw_score(raw, ["split", "neuroid", "time_bin"], raw_coords), splits=per_split)
