"""Brain-Score's import path ``brainscore_vision.metrics.accuracy.metric``: accuracy.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.behavior.accuracy import Accuracy

__all__ = ["Accuracy"]
