"""Reverse predictivity (Muzellec & Kar, muzellec2026): how well the brain predicts the model.

``reverse_pls`` / ``reverse_pls_cv`` (Brain-Score's ``ReverseCrossRegressedCorrelation``) and ``reverse_pls_split``
(``ReverseTrainTestSplitCorrelation``) are the regression-correlation metrics with source and target swapped: PLS
(25 components) maps the neural recordings onto every model feature, and the score is the median over model
features of the test Pearson r, averaged over splits. Called like the forward metrics,
``metric(model_assembly, neural_assembly)``; splits are drawn from the model assembly (Brain-Score's
cross-validation draws them from its target, which the swap makes the model).

With PLS the target (the model, p features, usually p >> stimuli) enters only through its stimulus Gram matrix,
formed once per call (the n x n x p product), and one pass over its columns for the test correlations
(:mod:`brainscore_metrics._pls_wide_target`); scikit-learn's NIPALS, which Brain-Score runs, reads all p
columns in every power iteration of every component of every split. Other regressions
(``regression='ridge'``, ...) go through :class:`~brainscore_metrics.regression_correlation.CrossRegressedCorrelation`
with the arguments swapped.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Score
from brainscore_metrics._align import align_pair
from brainscore_metrics._frozen import frozen
from brainscore_metrics._gram import check_precision, stimulus_gram
from brainscore_metrics._pls_wide_target import pls_wide_target_correlations
from brainscore_metrics._scores import make_score, raw_score
from brainscore_metrics.backend.plan import compute_plan
from brainscore_metrics.dual_ridge import stacked_gram
from brainscore_metrics.errors import TooFewFeaturesError
from brainscore_metrics.regression_correlation import CrossRegressedCorrelation, SplitRegressedCorrelation
from brainscore_metrics.splits import aggregate_splits, indices_of_values

__all__ = ["ReverseCrossRegressedCorrelation", "ReversePredictivity", "ReversePredictivitySplit",
           "ReverseTrainTestSplitCorrelation"]

_PLS_DEFAULTS = frozen({"n_components": 25, "max_iter": 500, "tol": 1e-6})


def _median_per_split(raw: np.ndarray) -> np.ndarray:
    out = np.full(raw.shape[0], np.nan)
    for index, row in enumerate(raw):
        valid = ~np.isnan(row)
        if valid.any():
            out[index] = np.median(row[valid])
    return out


def _pls_options(regression_kwargs, n_source: int, n_train: int) -> dict:
    """PLS options with scikit-learn's bound on the components (at most the source's neuroids)."""
    options = {**_PLS_DEFAULTS, **dict(regression_kwargs or {})}
    options.pop("scale", None)  # Brain-Score's scale=False is the only form computed here
    allow_fewer = options.pop("allow_fewer_features", False)
    unknown = sorted(set(options) - set(_PLS_DEFAULTS))
    if unknown:
        raise TypeError(f"reverse PLS: unknown regression_kwargs {unknown}; known: {sorted(_PLS_DEFAULTS)}")
    bound = min(n_source, n_train)
    if options["n_components"] > bound:
        if not allow_fewer:
            raise TooFewFeaturesError(
                f"reverse PLS needs n_components={options['n_components']} <= the neural assembly's "
                f"{n_source} neuroids (and {n_train} training stimuli); pass "
                f"regression_kwargs=dict(n_components=...) or dict(allow_fewer_features=True)")
        options["n_components"] = bound
    return options


class ReversePredictivity(CrossRegressedCorrelation):
    """Cross-validated reverse predictivity: PLS from the neural assembly to the model's features.

    Parameters
    ----------
    regression : str, default='pls'
        ``'pls'`` runs the Gram-matrix kernel; any other regression name of
        :class:`~brainscore_metrics.regression_correlation.CrossRegressedCorrelation` runs that metric swapped.
    regression_kwargs : dict or None, default=None
        PLS: ``n_components`` (25), ``max_iter`` (500), ``tol`` (1e-6), ``allow_fewer_features``.
    crossvalidation_kwargs : dict or None, default=None
        As :class:`~brainscore_metrics.splits.StimulusSplitter` (Brain-Score's muzellec2026 benchmarks use
        ``dict(stratification_coord='object_name')``).
    precision : {'mixed', 'float64'}, default='mixed'
        Gram products of a float32 model assembly in float32 blocks summed in float64, or in float64.
    backend, comparison_coord
        As :class:`~brainscore_metrics.regression_correlation.CrossRegressedCorrelation`.

    Returns (from ``__call__(model_assembly, neural_assembly)``)
    ----------------------------------------------------------
    Score (0-d): mean over splits of the median over model features of Pearson r; attrs ``error`` (population
    std over splits / sqrt(n_splits)), ``raw`` (split x neuroid, the model's neuroid coordinates), ``splits``.
    """

    def __init__(self, regression="pls", *, regression_kwargs=None, crossvalidation_kwargs=None, backend=None,
                 precision: str = "mixed", comparison_coord: str = "stimulus_id", **kwargs):
        super().__init__(regression, regression_kwargs=regression_kwargs, crossvalidation_kwargs=crossvalidation_kwargs,
                         backend=backend, comparison_coord=comparison_coord, **kwargs)
        self.precision = precision

    def __call__(self, source, target) -> Score:
        if self.regression != "pls" or self.bootstrap:
            return super().__call__(target, source)
        check_precision(self.precision)
        neural_m, model_m = align_pair(target, source, stimulus_coord=self.comparison_coord)
        splitter = self._splitter()
        values, pairs = splitter.split_values(source)  # from the model: the swapped call's target
        sorted_values = np.asarray(source[splitter.split_coord].values)[model_m.order]
        splits = [(indices_of_values(sorted_values, values[train]), indices_of_values(sorted_values, values[test]))
                  for train, test in pairs]
        n, p = model_m.values.shape
        with compute_plan(self.backend, precision=self.precision, flops=n * n * p) as plan:
            xp = plan.xp
            X, Y = xp.asarray(neural_m.values, dtype=xp.float64), xp.asarray(model_m.values)
            options = _pls_options(self.regression_kwargs, X.shape[1], min(len(train) for train, _ in splits))
            gram = stimulus_gram(plan, Y, center="columns")
            raw, n_iter = pls_wide_target_correlations(xp, gram, X, Y, splits, **options)
        per_split = _median_per_split(raw)
        center, error = aggregate_splits(per_split)
        raw_coords = {"split": np.arange(len(splits)), **model_m.neuroid_coords}
        return make_score(center, error, raw=raw_score(raw, ["split", "neuroid"], raw_coords), splits=per_split)


#: Brain-Score's class name
ReverseCrossRegressedCorrelation = ReversePredictivity


class ReversePredictivitySplit(SplitRegressedCorrelation):
    """Reverse predictivity on a fixed train/test split (Brain-Score's ``reverse_pls_split``).

    Call as ``metric(source_train, source_test, target_train, target_test)`` with the model as source and the
    recordings as target (the forward convention), positionally or by keyword as Brain-Score does. Parameters
    as :class:`ReversePredictivity` without cross-validation.

    Returns (on call)
    -----------------
    Score (0-d): median over model features of the test Pearson r; ``attrs['raw']`` (neuroid), ``error`` NaN.
    """

    def __init__(self, regression="pls", *, regression_kwargs=None, backend=None, precision: str = "mixed",
                 comparison_coord: str = "stimulus_id", **kwargs):
        super().__init__(regression, regression_kwargs=regression_kwargs, backend=backend,
                         comparison_coord=comparison_coord, **kwargs)
        self.precision = precision

    def __call__(self, source_train, source_test, target_train, target_test) -> Score:
        if self.regression != "pls" or self.bootstrap:
            return super().__call__(target_train, target_test, source_train, source_test)
        check_precision(self.precision)
        neural_train, model_train = align_pair(target_train, source_train, stimulus_coord=self.comparison_coord)
        neural_test, model_test = align_pair(target_test, source_test, stimulus_coord=self.comparison_coord)
        n_train = neural_train.values.shape[0]
        n_rows = n_train + neural_test.values.shape[0]
        with compute_plan(self.backend, precision=self.precision,
                          flops=n_rows ** 2 * model_train.values.shape[1]) as plan:
            xp = plan.xp
            X = xp.asarray(np.concatenate([neural_train.values, neural_test.values]), dtype=xp.float64)
            splits = [(np.arange(n_train), np.arange(n_train, X.shape[0]))]
            options = _pls_options(self.regression_kwargs, X.shape[1], n_train)
            parts = [xp.asarray(model_train.values), xp.asarray(model_test.values)]
            gram = stacked_gram(plan, parts)
            raw, _ = pls_wide_target_correlations(xp, gram, X, xp.row_stack(parts), splits, **options)
        r = raw[0]
        valid = ~np.isnan(r)
        center = float(np.median(r[valid])) if valid.any() else float("nan")
        return make_score(center, np.nan, raw=raw_score(r, ["neuroid"], dict(model_test.neuroid_coords)))


#: Brain-Score's class name
ReverseTrainTestSplitCorrelation = ReversePredictivitySplit
