"""Brain-Score's import path ``brainscore_vision.metrics.regression_correlation.metric``: regression-correlation metrics.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
Brain-Score's ``TrainTestSplitCorrelation`` is ``SplitRegressedCorrelation`` here; the factories (``pls_regression()``, ...)
return labelled regressions over ours (:mod:`brainscore_vision.metric_helpers.regressions`). The dual-ridge and
reverse fixed-split forms are not here yet.
"""

from brainscore_metrics.regression_correlation import (
    CrossRegressedCorrelation,
    ReverseCrossRegressedCorrelation,
)
from brainscore_metrics.regression_correlation import (
    SplitRegressedCorrelation as TrainTestSplitCorrelation,
)
from brainscore_metrics.temporal import SpanTimeCrossRegressedCorrelation
from brainscore_vision.metric_helpers.regressions import (
    ALPHA_LIST,
    linear_regression,
    pearsonr_correlation,
    pls_regression,
    ridge_cv_regression,
    ridge_regression,
    single_regression,
)

__all__ = ["ALPHA_LIST", "CrossRegressedCorrelation", "ReverseCrossRegressedCorrelation", "SpanTimeCrossRegressedCorrelation", "TrainTestSplitCorrelation", "linear_regression", "pearsonr_correlation", "pls_regression", "ridge_cv_regression", "ridge_regression", "single_regression"]
