"""Brain-Score's import path ``brainscore_vision.metrics.regression_correlation.metric``: regression-correlation metrics.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
Brain-Score's ``TrainTestSplitCorrelation`` is ``SplitRegressedCorrelation`` here; the factories (``pls_regression()``, ...)
return labelled regressions over ours (:mod:`brainscore_vision.metric_helpers.regressions`); the dual-ridge factories
are ridge and RidgeCV (Brain-Score's dual classes compute the same numbers in the kernel form, which ours takes by
itself); ``ReverseTrainTestSplitCorrelation`` is reverse predictivity on a fixed split.
"""

from brainscore_metrics.regression_correlation import CrossRegressedCorrelation
from brainscore_metrics.regression_correlation import SplitRegressedCorrelation as TrainTestSplitCorrelation
from brainscore_metrics.reverse_predictivity import (
    ReverseCrossRegressedCorrelation,
    ReverseTrainTestSplitCorrelation,
)
from brainscore_metrics.temporal import SpanTimeCrossRegressedCorrelation
from brainscore_vision.metric_helpers.regressions import (
    ALPHA_LIST,
    dual_ridge_cv_regression,
    dual_ridge_regression,
    linear_regression,
    pearsonr_correlation,
    pls_regression,
    ridge_cv_regression,
    ridge_regression,
    single_regression,
)

__all__ = ["ALPHA_LIST", "CrossRegressedCorrelation", "ReverseCrossRegressedCorrelation",
           "ReverseTrainTestSplitCorrelation", "SpanTimeCrossRegressedCorrelation", "TrainTestSplitCorrelation",
           "dual_ridge_cv_regression", "dual_ridge_regression", "linear_regression", "pearsonr_correlation",
           "pls_regression", "ridge_cv_regression", "ridge_regression", "single_regression"]
