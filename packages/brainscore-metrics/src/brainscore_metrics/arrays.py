"""The array face of brainscore-metrics: numpy arrays or torch tensors in, arrays or floats out, no labels.

Assemblies stay the labelled face (the metric classes align stimuli and build Scores); this module is what
similarity-measure registries and analysis scripts call on plain matrices, rows being stimuli (or conditions) in the
same order on both sides. Every name here is also importable from the package's top level (resolved lazily).

Regression (scikit-learn shapes: ``fit`` / ``predict`` / ``cross_predict``; torch in, torch out)
    :class:`RidgeRegression`, :class:`RidgeCVRegression` (``cv='loo' | k | splitter``, ``alpha_per_target``),
    :class:`LinearRegression`, :class:`PLSRegression`, :class:`NeuronToNeuron`; on a fixed split
    :func:`ridge_predict`, :func:`ridgecv_predict` (one stimulus Gram product of train and test together);
    :func:`pearson_columns` scores predictions per neuroid.
RSA
    :func:`compute_rdm` (correlation, squared Euclidean, squared Mahalanobis, crossnobis: rsatoolbox's definitions),
    :func:`compare_rdms` (Spearman, Pearson, cosine, whitened Pearson / cosine, Kendall tau-a), :func:`rsa` (both).
CKA
    :func:`linear_cka` (unbiased or classic, through the stimulus Gram matrix or the feature products, whichever is
    smaller), :func:`linear_cka_from_grams`.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._linear_regressions import LinearRegression, RidgeCVRegression, RidgeRegression
from brainscore_metrics._pls_regression import PLSRegression
from brainscore_metrics._rdm_comparisons import RDM_COMPARISONS, compare_rdm_vectors
from brainscore_metrics._rdm_methods import RDM_METHODS, _as_numpy, rdm_vector
from brainscore_metrics._ridge import ALPHA_LIST
from brainscore_metrics.regression import NeuronToNeuron

__all__ = ["ALPHA_LIST", "RDM_COMPARISONS", "RDM_METHODS", "LinearRegression", "NeuronToNeuron", "PLSRegression",
           "RidgeCVRegression", "RidgeRegression", "compare_rdms", "dual_ridge_predict", "linear_cka",
           "linear_cka_from_grams", "compute_rdm", "pearson_columns", "ridge_predict", "ridgecv_predict", "rsa"]


def dual_ridge_predict(X_train, Y_train, X_test, *, regression: str = "dual_ridge", alpha: float = 1.0,
                       alphas=ALPHA_LIST, cv="loo", alpha_per_target: bool = False, precision: str = "mixed",
                       backend=None):
    """Test predictions of ridge (``'dual_ridge'``) or RidgeCV (``'dual_ridgecv'``) fitted on the training pair.

    With more features than training stimuli, the Gram matrix of the training and test stimuli stacked is formed
    once (float32 blocks summed in float64 for a float32 source under ``precision='mixed'``) and holds both kernels;
    otherwise scikit-learn's primal ``Ridge`` / ``RidgeCV``.

    Parameters
    ----------
    X_train : array of shape (n_train, n_features), float32 or float64 (numpy or torch)
    Y_train : array of shape (n_train, n_neuroids)
    X_test : array of shape (n_test, n_features)
    regression : {'dual_ridge', 'dual_ridgecv'}, default='dual_ridge'
    alpha : float, default=1.0
    alphas : sequence of float, default=ALPHA_LIST
    cv : 'loo', int or splitter, default='loo'
        Folds of RidgeCV within the training rows (as :class:`RidgeCVRegression`).
    alpha_per_target : bool, default=False
    precision : {'mixed', 'float64'}, default='mixed'
    backend : {'numpy', 'torch', 'torch_cuda'} or None, default=None
        None: torch when an input is a tensor, else numpy.

    Returns
    -------
    (predictions of shape (n_test, n_neuroids), float64 on the backend; chosen alpha (float, array of shape
    (n_neuroids,) with ``alpha_per_target``, or None for ``'dual_ridge'``))
    """
    from brainscore_metrics.backend import blas_threads_for, resolve_backend
    from brainscore_metrics.dual_ridge import dual_ridge_predict as _predict

    xp = resolve_backend(backend, X_train, Y_train, X_test)
    X_train, X_test = _source(xp, X_train), _source(xp, X_test)
    Y_train = xp.asarray(Y_train, dtype=xp.float64)
    flops = (X_train.shape[0] + X_test.shape[0]) ** 2 * X_train.shape[1]
    with blas_threads_for(xp, flops=flops):
        return _predict(xp, X_train, Y_train, X_test, regression=regression, alpha=alpha, alphas=alphas,
                        precision=precision, cv=cv, alpha_per_target=alpha_per_target)


def _source(xp, X):
    from brainscore_metrics._array_regression import _ArrayRegression

    return _ArrayRegression._as_source(xp, X)


def ridge_predict(X_train, Y_train, X_test, *, alpha: float = 1.0, precision: str = "mixed", backend=None):
    """Predictions for ``X_test`` of ridge with intercept fitted on ``(X_train, Y_train)``: scikit-learn's
    ``Ridge(alpha).fit(X_train, Y_train).predict(X_test)``, array of shape (n_test, n_neuroids), float64
    (:func:`dual_ridge_predict`)."""
    return dual_ridge_predict(X_train, Y_train, X_test, alpha=alpha, precision=precision, backend=backend)[0]


def ridgecv_predict(X_train, Y_train, X_test, *, alphas=ALPHA_LIST, cv="loo", alpha_per_target: bool = False,
                    precision: str = "mixed", backend=None):
    """Predictions for ``X_test`` of RidgeCV fitted on ``(X_train, Y_train)`` and the chosen alpha(s):
    ``cv='loo'`` is scikit-learn's ``RidgeCV(alphas, alpha_per_target=...)``, ``cv=k`` himalaya's
    ``KernelRidgeCV(alphas, cv=k, fit_intercept=True)`` (:func:`dual_ridge_predict`).

    Returns
    -------
    (array of shape (n_test, n_neuroids), float or array of shape (n_neuroids,))
    """
    return dual_ridge_predict(X_train, Y_train, X_test, regression="dual_ridgecv", alphas=alphas, cv=cv,
                              alpha_per_target=alpha_per_target, precision=precision, backend=backend)


def pearson_columns(predictions, targets) -> np.ndarray:
    """Pearson r of matching columns (neuroids) over rows; NaN where a column is constant.

    Parameters
    ----------
    predictions, targets : arrays of shape (n_rows, n_neuroids), numpy or torch

    Returns
    -------
    ndarray of shape (n_neuroids,), float64
    """
    from brainscore_metrics._correlation import pearson_columns as _pearson
    from brainscore_metrics.backend import resolve_backend

    xp = resolve_backend(None, predictions, targets)
    r = _pearson(xp, xp.asarray(predictions, dtype=xp.float64), xp.asarray(targets, dtype=xp.float64))
    return np.asarray(xp.to_numpy(r), dtype=np.float64)


def compute_rdm(patterns, method: str = "correlation", *, conditions=None, folds=None, noise=None, remove_mean: bool = False,
        precision: str = "mixed", backend=None) -> np.ndarray:
    """Upper triangle (row-major) of the RDM of ``patterns`` (n_rows x n_channels), float64: ``'correlation'``
    (1 - r), ``'euclidean'`` (squared, / n_channels), ``'mahalanobis'`` (with the noise precision ``noise``) or
    ``'crossnobis'`` (``conditions`` and ``folds`` per row), as rsatoolbox's ``calc_rdm`` computes them
    (:func:`brainscore_metrics._rdm_methods.rdm_vector` has the parameters). ``scipy.spatial.distance.squareform``
    makes it square."""
    return rdm_vector(patterns, method, conditions=conditions, folds=folds, noise=noise, remove_mean=remove_mean,
                      precision=precision, backend=backend)


def compare_rdms(rdms1, rdms2, method: str = "spearman", *, sigma_k=None) -> np.ndarray:
    """Similarity of every RDM of ``rdms1`` with every RDM of ``rdms2``, array of shape (n_rdms1, n_rdms2):
    ``'spearman'``, ``'pearson'``, ``'cosine'``, ``'corr_cov'``, ``'cosine_cov'`` or ``'tau_a'``, as rsatoolbox's
    ``compare`` (:func:`brainscore_metrics._rdm_comparisons.compare_rdm_vectors` has the parameters). RDMs are
    upper-triangle vectors (n_pairs,), stacks of them (n_rdms, n_pairs) or square stacks (n_rdms, n, n)."""
    return compare_rdm_vectors(rdms1, rdms2, method, sigma_k=sigma_k)


def rsa(patterns1, patterns2, *, rdm_method: str = "correlation", comparison: str = "spearman",
        precision: str = "mixed", backend=None) -> float:
    """Compare the RDMs of two pattern matrices over the same rows: ``compare_rdms(compute_rdm(patterns1), compute_rdm(patterns2))``
    as a float (Brain-Score's ``rdm`` metric with the defaults)."""
    first = compute_rdm(patterns1, rdm_method, precision=precision, backend=backend)
    second = compute_rdm(patterns2, rdm_method, precision=precision, backend=backend)
    return float(compare_rdms(first, second, comparison)[0, 0])


def linear_cka(source, target, *, unbiased: bool = True, precision: str = "mixed", backend=None) -> float:
    """Linear CKA (Kornblith et al. 2019) of two row-aligned feature matrices; ``unbiased`` uses the U-statistic
    HSIC (Song et al. 2012). Through the stimulus Gram matrix of the wider input when it has at least as many
    features as stimuli, else through the feature products (:func:`brainscore_metrics.cka.linear_cka`).

    Parameters
    ----------
    source : array of shape (n_stimuli, n_features_source), numpy or torch
    target : array of shape (n_stimuli, n_features_target)
    unbiased : bool, default=True
    precision : {'mixed', 'float64'}, default='mixed'
    backend : {'numpy', 'torch', 'torch_cuda'} or None, default=None
        Where the stimulus Gram matrix is formed (numpy when None).

    Returns
    -------
    float
    """
    from brainscore_metrics.cka import linear_cka as _cka

    return _cka(_as_numpy(source), _as_numpy(target), unbiased=unbiased, precision=precision, backend=backend)


def linear_cka_from_grams(gram1, gram2, *, unbiased: bool = True) -> float:
    """Linear CKA from two linear Gram matrices over the same stimuli (n x n each)."""
    from brainscore_metrics.cka import linear_cka_from_grams as _cka

    return _cka(np.asarray(_as_numpy(gram1), dtype=np.float64), np.asarray(_as_numpy(gram2), dtype=np.float64),
                unbiased=unbiased)
