"""Brain-Score's import path ``brainscore_vision.metrics.mask_regression.metric``: the factorised mask regression.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
``mask_regression()`` is the labelled regression; ``load_metric('mask_regression')`` the metric.
"""

from brainscore_metrics.mask_regression import MaskRegression
from brainscore_metrics.regression_correlation import CrossRegressedCorrelation
from brainscore_vision.metric_helpers.regressions import mask_regression, pearsonr_correlation

__all__ = ["CrossRegressedCorrelation", "MaskRegression", "mask_regression", "pearsonr_correlation"]
