"""Regression-correlation metrics: map source onto target, correlate predictions per neuroid.

Cross-validated (``pls``, ``ridge``, ``ridgecv``, ``linear_predictivity``, ``neuron_to_neuron``,
``reverse_pls``): for each split of the stimuli (:class:`~brainscore_metrics.splits.StimulusSplitter`,
drawn from the target in its given order), fit on the training stimuli, predict the test stimuli,
take Pearson r per neuroid, then the median over neuroids (NaN ignored). The score is the mean over
splits with ``error`` = population std over splits / sqrt(n_splits); ``raw`` holds the per-split,
per-neuroid r (dims split x neuroid, with the target's neuroid coordinates). Fixed-split variants
(``*_split``) take (source_train, source_test, target_train, target_test).

Before fitting, source and target are each sorted by ``stimulus_id`` (ids must be unique and the two
sets equal), so the numbers equal the reference for any presentation order of the source, and for the
same presentation order of the target (which defines the splits).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.deprecation import renamed_keywords
from brainscore_core.metrics import Metric, Score, SplitMetric
from brainscore_metrics._align import align_pair
from brainscore_metrics._correlation import pearson_columns
from brainscore_metrics._scores import make_score, raw_score
from brainscore_metrics.backend import blas_threads_for, resolve_backend
from brainscore_metrics.bootstrap import bootstrap_indices, percentile_interval
from brainscore_metrics.notices import notice_wide_source
from brainscore_metrics.regression import make_regression
from brainscore_metrics.splits import StimulusSplitter, aggregate_splits

__all__ = [
    "CrossRegressedCorrelation",
    "SplitRegressedCorrelation",
    "correlate_splits",
]


def check_correlation(correlation) -> None:
    """Accept Brain-Score's ``correlation=`` argument: None or Pearson's r (``pearsonr_correlation()``, an
    ``XarrayCorrelation`` around ``scipy.stats.pearsonr``, or ``pearsonr`` itself), the only correlation its
    regression metrics use; anything else is refused by name."""
    if correlation is None:
        return
    function = getattr(correlation, "correlation_function", correlation)
    if getattr(function, "__name__", None) != "pearsonr":
        raise ValueError(f"correlation={correlation!r}: the regression-correlation metrics compute Pearson's r "
                         "(pass None or pearsonr_correlation())")


def prepare_regression(regression, source_m) -> None:
    """Let a regression that needs the source's neuroid layout (the mask regression) read it from the unwrapped
    source (``regression.set_source_layout(neuroid_coords)``)."""
    set_layout = getattr(regression, "set_source_layout", None)
    if callable(set_layout):
        set_layout(source_m.neuroid_coords)


def _in_id_order(by_id: np.ndarray, split_values: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Rows whose split value is in ``chosen``, listed in stimulus-id order (``by_id``: the rows sorted by id)."""
    return by_id[np.isin(split_values[by_id], chosen)]


def correlate_splits(xp, predictions, targets) -> np.ndarray:
    """Per-split, per-neuroid Pearson r.

    Parameters
    ----------
    predictions, targets : lists (one entry per split) of arrays of shape (n_test, n_neuroids)

    Returns
    -------
    ndarray of shape (n_splits, n_neuroids)
    """
    return np.stack([xp.to_numpy(pearson_columns(xp, p, t)) for p, t in zip(predictions, targets, strict=True)])


def _median_over_neuroids(raw: np.ndarray) -> np.ndarray:
    out = np.full(raw.shape[0], np.nan)
    valid = ~np.all(np.isnan(raw), axis=1)
    if valid.any():
        out[valid] = np.nanmedian(raw[valid], axis=1)
    return out


def bootstrap_cv(xp, predictions, targets, *, n_bootstrap: int, confidence: float, random_state: int):
    """Bootstrap over test stimuli with each split's predictions fixed (no refit).

    For every resample, each split's test stimuli are drawn with replacement (independent streams per
    split), r per neuroid is recomputed, its median over neuroids taken and the mean over splits formed.

    Returns
    -------
    (ci_low, ci_high, samples of shape (n_bootstrap,))
    """
    draws = [bootstrap_indices(int(p.shape[0]), n_bootstrap, random_state + split)
             for split, p in enumerate(predictions)]
    samples = np.empty(n_bootstrap)
    for b in range(n_bootstrap):
        per_split = []
        for split, (p, t) in enumerate(zip(predictions, targets, strict=True)):
            rows = draws[split][b]
            r = xp.to_numpy(pearson_columns(xp, xp.take(p, rows, 0), xp.take(t, rows, 0)))
            per_split.append(np.nanmedian(r) if not np.all(np.isnan(r)) else np.nan)
        per_split = np.asarray(per_split)
        samples[b] = np.nanmean(per_split) if not np.all(np.isnan(per_split)) else np.nan
    return (*percentile_interval(samples, confidence), samples)


class CrossRegressedCorrelation(Metric):
    """Cross-validated regression-correlation metric.

    Parameters
    ----------
    regression : {'pls', 'ridge', 'ridgecv', 'linear', 'neuron_to_neuron', 'mask'} or regression object,
        default='pls'
        An object is one of :mod:`brainscore_metrics.regression`'s classes, Brain-Score's labelled form (e.g.
        ``pls_regression()`` from ``brainscore_vision.metrics.regression_correlation``) or any estimator with
        ``fit(X, Y)``/``predict(X)``; see :func:`~brainscore_metrics.regression.make_regression`.
    correlation : None or Pearson's r, default=None
        Brain-Score's second argument (``pearsonr_correlation()``); only Pearson's r is computed.
    crossvalidation_kwargs : dict or None, default=None
        Passed to :class:`~brainscore_metrics.splits.StimulusSplitter` (e.g.
        ``dict(stratification_coord='texture_type')``, ``dict(splits=5)``).
    regression_kwargs : dict or None, default=None
        Passed to the regression class (e.g. ``dict(n_components=10)``, ``dict(alpha=10)``).
    backend : str or None, default=None
        Array backend ('numpy', 'torch', 'torch_cuda'); None = current (see ``use_backend``).
    bootstrap : int or None, default=None
        Number of bootstrap resamples of the test stimuli for ``ci_low``/``ci_high`` attrs (None: off).
    confidence : float, default=0.95
    bootstrap_random_state : int, default=0
        Seed of the bootstrap (``bootstrap_seed`` is its deprecated name).
    comparison_coord : str, default='stimulus_id'
        Coordinate pairing source and target presentations (``stimulus_coord`` is its deprecated name).

    Returns (on call)
    -----------------
    Score (0-d): mean over splits of the median over neuroids of Pearson r, attrs ``error``, ``raw``
    (split x neuroid), ``splits`` (n_splits), and per-split fit information where the regression has it
    (``alpha`` for ridgecv); ``ci_low``, ``ci_high``, ``ci_confidence`` (also under its older key ``confidence``) with ``bootstrap``.
    """

    @renamed_keywords(bootstrap_seed="bootstrap_random_state", stimulus_coord="comparison_coord")
    def __init__(self, regression="pls", correlation=None, crossvalidation_kwargs=None, *, regression_kwargs=None,
                 backend=None, bootstrap: int | None = None, confidence: float = 0.95,
                 bootstrap_random_state: int = 0, comparison_coord: str = "stimulus_id"):
        self.regression = regression
        self.correlation = correlation
        self.regression_kwargs = regression_kwargs
        self.crossvalidation_kwargs = crossvalidation_kwargs
        self.backend = backend
        self.bootstrap = bootstrap
        self.confidence = confidence
        self.bootstrap_random_state = bootstrap_random_state
        self.comparison_coord = comparison_coord

    def _splitter(self) -> StimulusSplitter:
        kwargs = dict(self.crossvalidation_kwargs or {})
        if "splits" in kwargs:  # the reference's name
            kwargs["n_splits"] = kwargs.pop("splits")
        return StimulusSplitter(**kwargs)

    def __call__(self, source, target) -> Score:
        check_correlation(self.correlation)
        regression = make_regression(self.regression, self.regression_kwargs, self.backend)
        # the source keeps its own row order (a wide layer is never copied); each split lists its rows in
        # stimulus-id order, as if both had been sorted, so results do not depend on the inputs' order
        source_m, target_m = align_pair(source, target, stimulus_coord=self.comparison_coord, keep_source_order=True)
        prepare_regression(regression, source_m)
        splitter = self._splitter()
        values, pairs = splitter.split_values(target)
        pairs = splitter.preprocess(pairs, source)
        split_values = np.asarray(target[splitter.split_coord].values)[target_m.order]
        by_id = np.argsort(source_m.stimulus_ids, kind="stable")
        splits = [(_in_id_order(by_id, split_values, values[train]), _in_id_order(by_id, split_values, values[test]))
                  for train, test in pairs]
        xp = resolve_backend(self.backend)
        X, Y = xp.asarray(source_m.values), xp.asarray(target_m.values)
        if regression.backend is None:
            regression.backend = xp.name
        n, p = X.shape
        notice_wide_source(p, max(len(train) for train, _ in splits), len(splits), f"{self.regression!s} regression",
                           n_stimuli=n if getattr(regression, "shares_one_gram", False) else None)
        with blas_threads_for(xp, flops=len(splits) * n * p * (min(n, p) + Y.shape[1])):
            # a regression that correlates split by split without all predictions (RidgeCV's dual form: a wide target
            # stays near the inputs' memory) does so when no bootstrap needs the predictions
            stream = None if self.bootstrap else getattr(regression, "cross_correlate", None)
            raw = stream(X, Y, splits) if stream is not None else None
            if raw is None:
                predictions = regression.cross_predict(X, Y, splits)
                Yf = xp.asarray(Y, dtype=xp.float64)
                targets = [xp.take(Yf, xp.index(test, Yf), 0) for _, test in splits]
                raw = correlate_splits(xp, predictions, targets)
        per_split = _median_over_neuroids(raw)
        center, error = aggregate_splits(per_split)
        raw_coords = {"split": np.arange(len(splits)), **target_m.neuroid_coords}
        attrs = {"splits": per_split}
        info = getattr(regression, "split_info_", [])
        if info and info[0]:
            for key in info[0]:
                attrs[key] = np.asarray([entry[key] for entry in info])
        if self.bootstrap:
            low, high, _ = bootstrap_cv(xp, predictions, targets, n_bootstrap=self.bootstrap,
                                        confidence=self.confidence, random_state=self.bootstrap_random_state)
            attrs.update(ci_low=low, ci_high=high, ci_confidence=self.confidence, confidence=self.confidence)
        return make_score(center, error, raw=raw_score(raw, ["split", "neuroid"], raw_coords), **attrs)


class SplitRegressedCorrelation(SplitMetric):
    """Regression-correlation on a fixed train/test split.

    Call as ``metric(source_train, source_test, target_train, target_test)``. Parameters as
    :class:`CrossRegressedCorrelation` (no cross-validation; Brain-Score's name is ``TrainTestSplitCorrelation``).
    Returns a 0-d Score: median over neuroids of the test Pearson r, attrs ``raw`` (neuroid), ``error`` NaN (the reference defines none) and,
    with ``bootstrap``, ``ci_low``/``ci_high`` from resampled test stimuli.

    ``alphas`` (default None) is Brain-Score's keyword of ``load_metric('ridgecv_split', alphas=...)``: the
    candidates of ``'ridgecv'``; the other regressions ignore it, as Brain-Score's do.
    """

    @renamed_keywords(bootstrap_seed="bootstrap_random_state", stimulus_coord="comparison_coord")
    def __init__(self, regression="pls", correlation=None, *, regression_kwargs=None, backend=None,
                 bootstrap: int | None = None, confidence: float = 0.95, bootstrap_random_state: int = 0,
                 comparison_coord: str = "stimulus_id", alphas=None):
        self.regression = regression
        self.correlation = correlation
        self.regression_kwargs = regression_kwargs
        self.alphas = alphas
        self.backend = backend
        self.bootstrap = bootstrap
        self.confidence = confidence
        self.bootstrap_random_state = bootstrap_random_state
        self.comparison_coord = comparison_coord

    def __call__(self, source_train, source_test, target_train, target_test) -> Score:
        check_correlation(self.correlation)
        kwargs = self.regression_kwargs
        if self.alphas is not None and self.regression == "ridgecv":
            kwargs = {"alphas": self.alphas, **(kwargs or {})}
        regression = make_regression(self.regression, kwargs, self.backend)
        train_source, train_target = align_pair(source_train, target_train, stimulus_coord=self.comparison_coord)
        test_source, test_target = align_pair(source_test, target_test, stimulus_coord=self.comparison_coord)
        prepare_regression(regression, train_source)
        xp = resolve_backend(self.backend)
        if regression.backend is None:
            regression.backend = xp.name
        regression.fit(xp.asarray(train_source.values), xp.asarray(train_target.values))
        prediction = regression.predict(xp.asarray(test_source.values))
        target = xp.asarray(test_target.values, dtype=xp.float64)
        r = xp.to_numpy(pearson_columns(xp, prediction, target))
        center = _median_over_neuroids(r[None, :])[0]
        attrs = {}
        if getattr(regression, "alpha_", None) is not None:
            attrs["alpha"] = regression.alpha_
        if self.bootstrap:
            low, high, _ = bootstrap_cv(xp, [prediction], [target], n_bootstrap=self.bootstrap,
                                        confidence=self.confidence, random_state=self.bootstrap_random_state)
            attrs.update(ci_low=low, ci_high=high, ci_confidence=self.confidence, confidence=self.confidence)
        raw = raw_score(r, ["neuroid"], dict(test_target.neuroid_coords))
        return make_score(center, np.nan, raw=raw, **attrs)
