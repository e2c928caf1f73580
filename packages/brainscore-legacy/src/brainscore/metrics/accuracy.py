"""1.x ``brainscore.metrics.accuracy``: accuracy.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "Accuracy": ("brainscore_vision.load_metric('accuracy')",
             "brainscore_metrics.behavior.accuracy:Accuracy"),
})
