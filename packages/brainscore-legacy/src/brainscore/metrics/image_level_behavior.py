"""1.x ``brainscore.metrics.image_level_behavior``: image-level behavioural consistency.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "I2n": ("brainscore_vision.load_metric('i2n')",
             "brainscore.metrics._classes:I2n"),
    "I1": ("brainscore_vision.load_metric('i1')",
             "brainscore_metrics.behavior.i2n:I1"),
    "I1n": ("brainscore_vision.load_metric('i1n')",
             "brainscore_metrics.behavior.i2n:I1n"),
})
