"""1.x ``brainscore.metrics.ceiling``: ceilings.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "InternalConsistency": ("brainscore_vision.load_ceiling('internal_consistency')",
             "brainscore_metrics.internal_consistency:InternalConsistency"),
})
