"""1.x ``brainscore.metrics.transformations``: cross-validation.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "CrossValidation": ("brainscore_vision.metric_helpers.transformations.CrossValidation",
             "brainscore_vision.metric_helpers.transformations:CrossValidation"),
    "CrossValidationSingle": ("brainscore_vision.metric_helpers.transformations.CrossValidationSingle",
             "brainscore_vision.metric_helpers.transformations:CrossValidationSingle"),
    "apply_aggregate": ("brainscore_vision.metric_helpers.transformations.apply_aggregate",
             "brainscore_vision.metric_helpers.transformations:apply_aggregate"),
    "standard_error_of_the_mean": ("brainscore_vision.metric_helpers.transformations.standard_error_of_the_mean",
             "brainscore_vision.metric_helpers.transformations:standard_error_of_the_mean"),
})
