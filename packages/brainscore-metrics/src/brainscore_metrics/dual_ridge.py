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

import contextlib

import numpy as np

from brainscore_core.deprecation import renamed_keywords
from brainscore_core.metrics import Score, SplitMetric
from brainscore_metrics._align import align_pair
from brainscore_metrics._correlation import pearson_columns
from brainscore_metrics._gram import check_precision, stimulus_gram
from brainscore_metrics._ridge import (
    ALPHA_LIST,
    MIXED_MIN_FEATURES_PER_STIMULUS,
    ridge_fit,
    ridgecv_fit,
    train_centered_kernel,
)
from brainscore_metrics._scores import make_score, raw_score
from brainscore_metrics.backend import blas_threads_for, factorisation_threads, resolve_backend
from brainscore_metrics.errors import UnknownRegressionError

__all__ = ["DUAL_REGRESSIONS", "DualRidgeSplitCorrelation", "RowStack", "dual_ridge_predict", "stacked_gram"]

#: the two regressions of this module
DUAL_REGRESSIONS = ("dual_ridge", "dual_ridgecv")


class RowStack:
    """Several (n_i, p) numpy arrays seen as one (sum n_i, p) array without copying them.

    Supports what :func:`brainscore_metrics._gram.stimulus_gram` reads on numpy: ``shape``, ``dtype``,
    ``mean(axis=0, dtype=...)`` and column slices ``stack[:, start:stop]`` (which copy only that block).
    """

    def __init__(self, parts):
        self.parts = [np.asarray(part) for part in parts]
        widths = {part.shape[1] for part in self.parts}
        if len(widths) != 1:
            raise ValueError(f"stacked arrays need the same number of columns, got {sorted(widths)}")
        self.shape = (sum(part.shape[0] for part in self.parts), widths.pop())
        self.dtype = np.result_type(*self.parts)

    def mean(self, axis=None, dtype=None, out=None, **kwargs):
        if axis != 0:
            raise ValueError("RowStack only averages over rows (axis=0)")
        total = sum(part.sum(axis=0, dtype=np.float64) for part in self.parts)
        return np.asarray(total / self.shape[0], dtype=dtype or np.float64)

    def __getitem__(self, key):
        rows, columns = key
        if rows != slice(None):
            raise IndexError("RowStack only slices columns")
        return np.concatenate([part[:, columns] for part in self.parts], axis=0)


def stacked_gram(xp, parts, *, precision: str = "mixed", mixed_min_features_per_stimulus: float = 0.0):
    """Gram matrix of the column-centred rows of ``parts`` stacked, float64 (n x n, n = sum of rows).

    Parameters
    ----------
    xp : backend module
    parts : sequence of arrays of shape (n_i, n_features), float32 or float64
        On numpy they are read in feature blocks and never concatenated whole; on torch they are
        concatenated once.
    precision : {'mixed', 'float64'}, default='mixed'
        As :func:`brainscore_metrics._gram.stimulus_gram`.
    mixed_min_features_per_stimulus : float, default=0.0
        As :func:`brainscore_metrics._gram.stimulus_gram` (ridge passes
        :data:`brainscore_metrics._ridge.MIXED_MIN_FEATURES_PER_STIMULUS`).
    """
    check_precision(precision)
    source = RowStack(parts) if xp.name == "numpy" else xp.concatenate([xp.asarray(part) for part in parts], axis=0)
    return stimulus_gram(xp, source, center="columns", precision=precision,
                         mixed_min_features_per_stimulus=mixed_min_features_per_stimulus)


class _Shape:
    """What the ridge kernels of :mod:`brainscore_metrics._ridge` read of the source on the dual path."""

    def __init__(self, shape, like):
        self.shape = shape
        self.device = getattr(like, "device", None)


def dual_ridge_predict(xp, X_train, Y_train, X_test, *, regression: str = "dual_ridge", alpha: float = 1.0,
                       alphas=ALPHA_LIST, precision: str = "mixed", cv="loo", alpha_per_target: bool = False):
    """Test predictions of ridge (``'dual_ridge'``) or RidgeCV (``'dual_ridgecv'``) fitted on the training pair.

    Parameters
    ----------
    xp : backend module
    X_train : array of shape (n_train, n_features), float32 or float64
    Y_train : array of shape (n_train, n_neuroids), float64
    X_test : array of shape (n_test, n_features)
    regression : {'dual_ridge', 'dual_ridgecv'}, default='dual_ridge'
    alpha : float, default=1.0
        Ridge penalty of ``'dual_ridge'``.
    alphas : sequence of float, default=ALPHA_LIST
        Candidate penalties of ``'dual_ridgecv'``.
    precision : {'mixed', 'float64'}, default='mixed'
    cv : 'loo', int or splitter, default='loo'
        Folds of ``'dual_ridgecv'`` within the training rows (:class:`~brainscore_metrics.regression.RidgeCVRegression`).
    alpha_per_target : bool, default=False
        One alpha per neuroid for ``'dual_ridgecv'``.

    Returns
    -------
    (predictions of shape (n_test, n_neuroids), chosen alpha (float, or array (n_neuroids,)) or None)
    """
    if regression not in DUAL_REGRESSIONS:
        raise UnknownRegressionError(f"unknown dual regression {regression!r}; available: {DUAL_REGRESSIONS}")
    n_train, n_features = X_train.shape
    if n_features > n_train:  # the dual form: one Gram matrix of train and test together
        n = n_train + X_test.shape[0]
        # float64 products when few features per stimulus vary: float32 rounding of a near-singular kernel exceeds
        # alpha there (issue 31's quantised input: 0.6 % of the predictions' scale on a fixed split)
        gram = stacked_gram(xp, [X_train, X_test], precision=precision,
                            mixed_min_features_per_stimulus=MIXED_MIN_FEATURES_PER_STIMULUS)
        train, test = np.arange(n_train), np.arange(n_train, n)
        Y = xp.concatenate([Y_train, xp.zeros((n - n_train, Y_train.shape[1]), like=Y_train)], axis=0)
        shape = _Shape((n, n_features), gram)
        # n x n factorisations on one thread unless the Gram product's thread probe just found all threads faster
        # (threaded OpenBLAS Cholesky contends on a loaded machine; on a quiet one it is 1.6x faster at 3,200)
        with factorisation_threads() if xp.name == "numpy" else contextlib.nullcontext():
            if regression == "dual_ridge":
                fitted = ridge_fit(xp, shape, Y, train, alpha=alpha, gram=gram)
            else:
                fitted = ridgecv_fit(xp, shape, Y, train, alphas=alphas, gram=gram, cv=cv,
                                     alpha_per_target=alpha_per_target)
        kernel = train_centered_kernel(xp, gram, train, test)
        return kernel @ fitted["dual"] + fitted["y_mean"], fitted.get("alpha")
    # primal: scikit-learn's Ridge / RidgeCV on the training stimuli
    X_all = xp.concatenate([xp.asarray(X_train, dtype=xp.float64), xp.asarray(X_test, dtype=xp.float64)], axis=0)
    Y = xp.concatenate([Y_train, xp.zeros((X_test.shape[0], Y_train.shape[1]), like=Y_train)], axis=0)
    train = np.arange(n_train)
    if regression == "dual_ridge":
        fitted = ridge_fit(xp, X_all, Y, train, alpha=alpha)
    else:
        fitted = ridgecv_fit(xp, X_all, Y, train, alphas=alphas, cv=cv, alpha_per_target=alpha_per_target)
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
        xp = resolve_backend(self.backend)
        X_train, X_test = xp.asarray(train_source.values), xp.asarray(test_source.values)
        n_train, n_features = X_train.shape
        with blas_threads_for(xp, flops=(n_train + X_test.shape[0]) ** 2 * n_features):
            prediction, chosen = dual_ridge_predict(
                xp, X_train, xp.asarray(train_target.values, dtype=xp.float64), X_test,
                regression=self.regression, alpha=alpha, alphas=ALPHA_LIST if alphas is None else alphas,
                precision=self.precision)
            r = xp.to_numpy(pearson_columns(xp, prediction, xp.asarray(test_target.values, dtype=xp.float64)))
        valid = ~np.isnan(r)
        center = float(np.median(r[valid])) if valid.any() else float("nan")
        raw = raw_score(r, ["neuroid"], dict(test_target.neuroid_coords))
        attrs = {"alpha": chosen} if chosen is not None else {}
        return make_score(center, np.nan, raw=raw, **attrs)
