"""1.x ``brainscore.metrics.rdm``: representational dissimilarity.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "RDM": ("brainscore_vision.load_metric('rdm') for two assemblies, brainscore_vision.metrics.rdm.RDM for one",
             "brainscore.metrics._classes:RDM"),
    "RDMMetric": ("brainscore_vision.load_metric('rdm')",
             "brainscore_metrics.rdm:RDMMetric"),
    "RDMCrossValidated": ("brainscore_vision.load_metric('rdm_cv')",
             "brainscore_metrics.rdm:RDMCrossValidated"),
    "RDMSimilarity": ("brainscore_vision.metrics.rdm.RDMSimilarity",
             "brainscore_metrics.rdm:RDMSimilarity"),
})
