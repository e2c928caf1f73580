"""Brain-Score's regression factories (``pls_regression()`` & co.): labelled regressions over ours.

Each returns an :class:`~brainscore_vision.metric_helpers.xarray_utils.XarrayRegression` (``fit(source, target)``,
``predict(source)`` on ``presentation x neuroid`` assemblies) around the array regression of brainscore-metrics with
Brain-Score's defaults, so plugin code that fits one directly works, and passing one as the ``regression`` of
``CrossRegressedCorrelation`` / ``TrainTestSplitCorrelation`` runs our implementation of that regression
(the metrics unwrap it with ``as_array_regression()``). ``pearsonr_correlation()`` is the labelled Pearson r.
Re-exported from Brain-Score's path ``brainscore_vision.metrics.regression_correlation(.metric)``.
"""

from __future__ import annotations

from typing import Any

import scipy.stats

from brainscore_metrics.mask_regression import MaskRegression
from brainscore_metrics.regression import (
    ALPHA_LIST,
    LinearRegression,
    NeuronToNeuron,
    PLSRegression,
    RidgeCVRegression,
    RidgeRegression,
)
from brainscore_vision.metric_helpers.xarray_utils import XarrayCorrelation, XarrayRegression

__all__ = ["ALPHA_LIST", "dual_ridge_cv_regression", "dual_ridge_regression", "linear_regression", "mask_regression",
           "pearsonr_correlation", "pls_regression", "ridge_cv_regression", "ridge_regression", "single_regression"]


def _labelled(regression: Any, xarray_kwargs: dict | None) -> XarrayRegression:
    return XarrayRegression(regression, **(xarray_kwargs or {}))


def pls_regression(regression_kwargs: dict | None = None, xarray_kwargs: dict | None = None) -> XarrayRegression:
    """PLS, 25 components, unscaled (scikit-learn's ``PLSRegression(n_components=25, scale=False)`` numbers).
    ``regression_kwargs`` go to :class:`~brainscore_metrics.regression.PLSRegression` (``scale`` must be False)."""
    kwargs = dict(regression_kwargs or {})
    if kwargs.pop("scale", False):
        raise ValueError("pls_regression(regression_kwargs=dict(scale=True)): only the unscaled PLS of Brain-Score's "
                         "metrics is implemented")
    return _labelled(PLSRegression(**kwargs), xarray_kwargs)


def linear_regression(xarray_kwargs: dict | None = None) -> XarrayRegression:
    """Least squares with intercept (scikit-learn's ``LinearRegression()`` numbers)."""
    return _labelled(LinearRegression(), xarray_kwargs)


def ridge_regression(regression_kwargs: dict | None = None, xarray_kwargs: dict | None = None) -> XarrayRegression:
    """Ridge, ``alpha=1`` by default (scikit-learn's ``Ridge`` numbers)."""
    return _labelled(RidgeRegression(**{"alpha": 1, **(regression_kwargs or {})}), xarray_kwargs)


def ridge_cv_regression(regression_kwargs: dict | None = None, xarray_kwargs: dict | None = None,
                        alphas=ALPHA_LIST) -> XarrayRegression:
    """Ridge with the alpha chosen by efficient leave-one-out over ``alphas`` (scikit-learn's ``RidgeCV``).
    ``store_cv_results`` and ``alpha`` in ``regression_kwargs`` are accepted and ignored, as Brain-Score drops them."""
    kwargs = {key: value for key, value in (regression_kwargs or {}).items()
              if key not in ("alpha", "store_cv_results")}
    return _labelled(RidgeCVRegression(**{"alphas": alphas, **kwargs}), xarray_kwargs)


def dual_ridge_regression(regression_kwargs: dict | None = None,
                          xarray_kwargs: dict | None = None) -> XarrayRegression:
    """Brain-Score's ``DualRidgeRegression``: ridge with intercept solved through the stimulus kernel, which is
    scikit-learn's ``Ridge`` (its own docstring says so); ours takes the kernel path by itself when features outnumber
    training stimuli. ``chunk_size`` in ``regression_kwargs`` (a memory knob of Brain-Score's) is accepted and
    ignored."""
    kwargs = {key: value for key, value in (regression_kwargs or {}).items() if key != "chunk_size"}
    return ridge_regression(kwargs, xarray_kwargs)


def dual_ridge_cv_regression(regression_kwargs: dict | None = None, xarray_kwargs: dict | None = None,
                             alphas=ALPHA_LIST) -> XarrayRegression:
    """Brain-Score's ``DualRidgeCVRegression``: RidgeCV's leave-one-out choice of alpha, then ridge in the dual form;
    the same numbers as scikit-learn's ``RidgeCV`` (:func:`ridge_cv_regression`). ``chunk_size`` is ignored."""
    kwargs = {key: value for key, value in (regression_kwargs or {}).items() if key != "chunk_size"}
    return ridge_cv_regression(kwargs, xarray_kwargs, alphas=alphas)


def single_regression(xarray_kwargs: dict | None = None) -> XarrayRegression:
    """Neuron to neuron: each target neuroid predicted by its best-correlated source unit."""
    return _labelled(NeuronToNeuron(), xarray_kwargs)


def mask_regression(**kwargs) -> XarrayRegression:
    """The factorised mask regression (Klindt et al. 2017), Brain-Score's defaults; ``kwargs`` go to
    :class:`~brainscore_metrics.mask_regression.MaskRegression`. Fitted directly on an assembly, it reads the source's
    ``channel``/``channel_x``/``channel_y`` layout from ``channel_shape=`` (a metric reads it from the coordinates)."""
    return _labelled(MaskRegression(**kwargs), None)


def pearsonr_correlation(xarray_kwargs: dict | None = None) -> XarrayCorrelation:
    """Pearson r per neuroid between a prediction and a target (``scipy.stats.pearsonr``)."""
    return XarrayCorrelation(scipy.stats.pearsonr, **(xarray_kwargs or {}))
