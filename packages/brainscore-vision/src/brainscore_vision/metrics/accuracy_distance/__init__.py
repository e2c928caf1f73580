"""Brain-Score's import path ``brainscore_vision.metrics.accuracy_distance``: accuracy distance.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.behavior.accuracy_distance import AccuracyDistance

__all__ = ["AccuracyDistance"]
