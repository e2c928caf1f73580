"""Dual (kernel) ridge on a fixed train/test split: ``dual_ridge_split`` and ``dual_ridgecv_split``.

Brain-Score's ``DualRidgeRegression`` / ``DualRidgeCVRegression`` (``metrics/regression_correlation``) give
scikit-learn's ``Ridge`` / ``RidgeCV`` predictions without the (n_features x n_neuroids) coefficient matrix:
when features outnumber the training stimuli, ridge depends on the source only through the Gram matrix of
its centred rows. Here that n x n x p product is paid **once per call**: the Gram matrix of the training and
test stimuli stacked (:func:`stacked_gram`, feature blocks, no copy of either source on numpy) holds both the
training kernel and the test-by-train kernel. Then

* ``dual_ridge_split``: one Cholesky solve of ``(Kc + alpha I) c = Yc`` (Kc: kernel of the training features
  centred on their mean), predictions ``Kc[test, train] c + mean(Y_train)``;
* ``dual_ridgecv_split``: one eigendecomposition of the training kernel serves the leave-one-out error of
  every alpha (scikit-learn's GCV formula, intercept direction unpenalised, mean squared error over all
  targets, first best alpha) and the solve of the chosen one. Brain-Score forms the Gram matrix twice and
  factorises it twice; the chosen alpha is the same (ridge depends on X only through ``Xc Xc'``).

With at least as many training stimuli as features both fall back to the primal solutions (scikit-learn's
``Ridge`` / ``RidgeCV``), as Brain-Score's classes do.

The score is the median over neuroids of the test Pearson r (Brain-Score's ``TrainTestSplitCorrelation``),
with ``attrs['raw']`` per neuroid and, for RidgeCV, ``attrs['alpha']``.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.deprecation import renamed_keywords
from brainscore_core.metrics import Score, SplitMetric
from brainscore_metrics._align import align_pair
from brainscore_metrics._correlation import pearson_columns
from brainscore_metrics._gram import stimulus_gram
from brainscore_metrics._ridge import (
    ALPHA_LIST,
    FACTORISATION_ERRORS,
    MIXED_MIN_FEATURES_PER_STIMULUS,
    ridge_fit,
    ridgecv_fit,
    train_centered_kernel,
)
from brainscore_metrics._ridge_dual import saddle_point_predictions
from brainscore_metrics._scores import make_score, raw_score
from brainscore_metrics.backend._numpy_sources import RowStack
from brainscore_metrics.backend.plan import compute_plan, with_float64_retry
from brainscore_metrics.errors import UnknownRegressionError

__all__ = ["DUAL_REGRESSIONS", "DualRidgeSplitCorrelation", "RowStack", "dual_ridge_predict", "stacked_gram"]

#: the two regressions of this module
DUAL_REGRESSIONS = ("dual_ridge", "dual_ridgecv")


def stacked_gram(plan, parts, *, mixed_min_features_per_stimulus: float = 0.0):
    """Gram matrix of the column-centred rows of ``parts`` stacked, float64 (n x n, n = sum of rows).

    Parameters
    ----------
    plan : ComputePlan
        Its precision rules the products of float32 parts (:func:`brainscore_metrics._gram.stimulus_gram`).
    parts : sequence of arrays of shape (n_i, n_features), float32 or float64
        Stacked by the backend's ``row_stack``: on numpy read in feature blocks and never concatenated whole
        (:class:`~brainscore_metrics.backend._numpy_sources.RowStack`); on torch concatenated once.
    mixed_min_features_per_stimulus : float, default=0.0
        As :func:`brainscore_metrics._gram.stimulus_gram` (ridge passes
        :data:`brainscore_metrics._ridge.MIXED_MIN_FEATURES_PER_STIMULUS`).
    """
    return stimulus_gram(plan, plan.xp.row_stack(parts), center="columns",
                         mixed_min_features_per_stimulus=mixed_min_features_per_stimulus)


class _Shape:
    """What the ridge kernels of :mod:`brainscore_metrics._ridge` read of the source on the dual path."""

    def __init__(self, shape, like):
        self.shape = shape
        self.device = getattr(like, "device", None)


def dual_ridge_predict(plan, X_train, Y_train, X_test, *, regression: str = "dual_ridge", alpha: float = 1.0,
                       alphas=ALPHA_LIST, cv="loo", alpha_per_target: bool = False):
    """Test predictions of ridge (``'dual_ridge'``) or RidgeCV (``'dual_ridgecv'``) fitted on the training pair.

    Parameters
    ----------
    plan : ComputePlan
        Its precision rules the Gram products of a float32 source.
    X_train : array of shape (n_train, n_features), float32 or float64
    Y_train : array of shape (n_train, n_neuroids), float64
    X_test : array of shape (n_test, n_features)
    regression : {'dual_ridge', 'dual_ridgecv'}, default='dual_ridge'
    alpha : float, default=1.0
        Ridge penalty of ``'dual_ridge'``.
    alphas : sequence of float, default=ALPHA_LIST
        Candidate penalties of ``'dual_ridgecv'``.
    cv : 'loo', int or splitter, default='loo'
        Folds of ``'dual_ridgecv'`` within the training rows (:class:`~brainscore_metrics.regression.RidgeCVRegression`).
    alpha_per_target : bool, default=False
        One alpha per neuroid for ``'dual_ridgecv'``.

    Returns
    -------
    (predictions of shape (n_test, n_neuroids), chosen alpha (float, or array (n_neuroids,)) or None)
    """
    xp = plan.xp
    if regression not in DUAL_REGRESSIONS:
        raise UnknownRegressionError(f"unknown dual regression {regression!r}; available: {DUAL_REGRESSIONS}")
    n_train, n_features = X_train.shape
    if n_features > n_train:  # the dual form: one Gram matrix of train and test together
        n = n_train + X_test.shape[0]
        train, test = np.arange(n_train), np.arange(n_train, n)
        Y = xp.concatenate([Y_train, xp.zeros((n - n_train, Y_train.shape[1]), like=Y_train)], axis=0)

        def attempt(attempt_plan):
            # float64 products when few features per stimulus vary: float32 rounding of a near-singular kernel
            # exceeds alpha there (issue 31's quantised input: 0.6 % of the predictions' scale on a fixed split)
            gram = stacked_gram(attempt_plan, [X_train, X_test],
                                mixed_min_features_per_stimulus=MIXED_MIN_FEATURES_PER_STIMULUS)
            shape = _Shape((n, n_features), gram)
            if regression == "dual_ridge":  # the kernel formed and factorised in the Gram matrix's training rows
                fitted = ridge_fit(attempt_plan, shape, Y, train, alpha=alpha, gram=gram, overwrite_gram=True)
                return saddle_point_predictions(xp, gram, fitted, test), None
            fitted = ridgecv_fit(attempt_plan, shape, Y, train, alphas=alphas, gram=gram, cv=cv,
                                 alpha_per_target=alpha_per_target)
            kernel = train_centered_kernel(xp, gram, train, test)
            return kernel @ fitted["dual"] + fitted["y_mean"], fitted.get("alpha")

        # a float32 kernel that is not positive definite: the package's one retry, with float64 products
        return with_float64_retry(plan, X_train, attempt, retry_on=FACTORISATION_ERRORS)
    # primal: scikit-learn's Ridge / RidgeCV on the training stimuli
    X_all = xp.concatenate([xp.asarray(X_train, dtype=xp.float64), xp.asarray(X_test, dtype=xp.float64)], axis=0)
    Y = xp.concatenate([Y_train, xp.zeros((X_test.shape[0], Y_train.shape[1]), like=Y_train)], axis=0)
    train = np.arange(n_train)
    if regression == "dual_ridge":
        fitted = ridge_fit(plan, X_all, Y, train, alpha=alpha)
    else:
        fitted = ridgecv_fit(plan, X_all, Y, train, alphas=alphas, cv=cv, alpha_per_target=alpha_per_target)
    test_rows = xp.take(X_all, xp.index(np.arange(n_train, X_all.shape[0]), X_all), 0)
    return (test_rows - fitted["x_mean"]) @ fitted["coef"] + fitted["y_mean"], fitted.get("alpha")


class DualRidgeSplitCorrelation(SplitMetric):
    """Brain-Score's ``dual_ridge_split`` / ``dual_ridgecv_split``: dual ridge on a fixed split, Pearson r.

    Call as ``metric(source_train, source_test, target_train, target_test)`` (Brain-Score passes them as
    keywords). Presentations are paired on ``comparison_coord`` within each pair.

    Parameters
    ----------
    regression : {'dual_ridge', 'dual_ridgecv'}, default='dual_ridge'
    alpha : float, default=1.0
        Penalty of ``'dual_ridge'`` (Brain-Score's ``regression_kwargs=dict(alpha=...)`` also works).
    alphas : sequence of float or None, default=None
        Candidates of ``'dual_ridgecv'`` (None: ``ALPHA_LIST``, Brain-Score's 99 values); ignored by
        ``'dual_ridge'``, as Brain-Score ignores it.
    regression_kwargs : dict or None, default=None
        ``alpha`` / ``alphas`` in Brain-Score's form.
    precision : {'mixed', 'float64'}, default='mixed'
        Gram products of a float32 source in float32 blocks summed in float64, or in float64.
    backend : {'numpy', 'torch', 'torch_cuda'} or None, default=None
    comparison_coord : str, default='stimulus_id'

    Returns (on call)
    -----------------
    Score (0-d): median over neuroids of Pearson r on the test stimuli; ``attrs['raw']`` (neuroid),
    ``attrs['error']`` NaN (one split), ``attrs['alpha']`` for RidgeCV.
    """

    @renamed_keywords(stimulus_coord="comparison_coord")
    def __init__(self, regression: str = "dual_ridge", *, alpha: float = 1.0, alphas=None,
                 regression_kwargs: dict | None = None, precision: str = "mixed", backend=None,
                 comparison_coord: str = "stimulus_id"):
        self.regression = regression
        self.alpha = alpha
        self.alphas = alphas
        self.regression_kwargs = regression_kwargs
        self.precision = precision
        self.backend = backend
        self.comparison_coord = comparison_coord

    def __call__(self, source_train, source_test, target_train, target_test) -> Score:
        kwargs = dict(self.regression_kwargs or {})
        alpha = kwargs.pop("alpha", self.alpha)
        alphas = kwargs.pop("alphas", self.alphas)
        if kwargs:
            raise TypeError(f"{self.regression}: unknown regression_kwargs {sorted(kwargs)}; known: alpha, alphas")
        train_source, train_target = align_pair(source_train, target_train, stimulus_coord=self.comparison_coord)
        test_source, test_target = align_pair(source_test, target_test, stimulus_coord=self.comparison_coord)
        n_rows, n_features = len(train_source.values) + len(test_source.values), train_source.values.shape[1]
        with compute_plan(self.backend, precision=self.precision, flops=n_rows ** 2 * n_features) as plan:
            xp = plan.xp
            X_train, X_test = xp.asarray(train_source.values), xp.asarray(test_source.values)
            prediction, chosen = dual_ridge_predict(
                plan, X_train, xp.asarray(train_target.values, dtype=xp.float64), X_test,
                regression=self.regression, alpha=alpha, alphas=ALPHA_LIST if alphas is None else alphas)
            r = xp.to_numpy(pearson_columns(xp, prediction, xp.asarray(test_target.values, dtype=xp.float64)))
        valid = ~np.isnan(r)
        center = float(np.median(r[valid])) if valid.any() else float("nan")
        raw = raw_score(r, ["neuroid"], dict(test_target.neuroid_coords))
        attrs = {"alpha": chosen} if chosen is not None else {}
        return make_score(center, np.nan, raw=raw, **attrs)
