"""Brain-Score's import path ``brainscore_vision.metrics.internal_consistency``: the split-half internal-consistency ceiling.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.internal_consistency import InternalConsistency

__all__ = ["InternalConsistency"]
