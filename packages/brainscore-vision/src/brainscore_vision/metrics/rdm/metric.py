"""Brain-Score's import path ``brainscore_vision.metrics.rdm.metric``: representational dissimilarity matrices.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.rdm import RDM, RDMCrossValidated, RDMMetric, RDMSimilarity

__all__ = ["RDM", "RDMCrossValidated", "RDMMetric", "RDMSimilarity"]
