"""Brain-Score's import path ``brainscore_vision.metrics.value_delta``: value delta.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.behavior.value_delta import ValueDelta

__all__ = ["ValueDelta"]
