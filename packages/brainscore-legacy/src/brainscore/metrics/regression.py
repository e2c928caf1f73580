"""1.x ``brainscore.metrics.regression``: regression-correlation metrics and their parts.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "CrossRegressedCorrelation": ("brainscore_vision.load_metric('pls') or brainscore_vision.metrics.regression_correlation.CrossRegressedCorrelation",
             "brainscore_metrics.regression_correlation:CrossRegressedCorrelation"),
    "pls_regression": ("brainscore_vision.metrics.regression_correlation.pls_regression",
             "brainscore_vision.metric_helpers.regressions:pls_regression"),
    "linear_regression": ("brainscore_vision.metrics.regression_correlation.linear_regression",
             "brainscore_vision.metric_helpers.regressions:linear_regression"),
    "ridge_regression": ("brainscore_vision.metrics.regression_correlation.ridge_regression",
             "brainscore_vision.metric_helpers.regressions:ridge_regression"),
    "pearsonr_correlation": ("brainscore_vision.metrics.regression_correlation.pearsonr_correlation",
             "brainscore_vision.metric_helpers.regressions:pearsonr_correlation"),
    "mask_regression": ("brainscore_vision.metrics.mask_regression.mask_regression",
             "brainscore_vision.metric_helpers.regressions:mask_regression"),
})
