"""Brain-Score's import path ``brainscore_vision.metrics.dimensionality.metric``: factor dimensionality.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.dimensionality import Dimensionality

__all__ = ["Dimensionality"]
