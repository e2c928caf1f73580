"""Brain-Score's import path ``brainscore_vision.metrics.error_consistency.metric``: error consistency.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.behavior.error_consistency import ErrorConsistency

__all__ = ["ErrorConsistency"]
