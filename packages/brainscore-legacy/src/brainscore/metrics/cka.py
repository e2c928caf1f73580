"""1.x ``brainscore.metrics.cka``: centered kernel alignment.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "CKAMetric": ("brainscore_vision.load_metric('cka')",
             "brainscore_metrics.cka:CKAMetric"),
    "CKACrossValidated": ("brainscore_vision.load_metric('cka_cv')",
             "brainscore_metrics.cka:CKACrossValidated"),
})
