"""1.x ``brainscore.metrics.xarray_utils``: labelled regression and correlation.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "XarrayRegression": ("brainscore_vision.metric_helpers.xarray_utils.XarrayRegression",
             "brainscore_vision.metric_helpers.xarray_utils:XarrayRegression"),
    "XarrayCorrelation": ("brainscore_vision.metric_helpers.xarray_utils.XarrayCorrelation",
             "brainscore_vision.metric_helpers.xarray_utils:XarrayCorrelation"),
    "Defaults": ("brainscore_vision.metric_helpers.Defaults",
             "brainscore_vision.metric_helpers:Defaults"),
})
