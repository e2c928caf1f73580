"""1.x ``brainscore.metrics``: the metric base classes and ``Score``.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "Score": ("brainscore_core.metrics.Score",
             "brainscore_core.metrics:Score"),
    "Metric": ("brainscore_core.metrics.Metric",
             "brainscore_core.metrics:Metric"),
    "Ceiling": ("brainscore_core.metrics.Ceiling",
             "brainscore_core.metrics:Ceiling"),
})
