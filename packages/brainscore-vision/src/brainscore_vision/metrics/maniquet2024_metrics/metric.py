"""Brain-Score's import path ``brainscore_vision.metrics.maniquet2024_metrics.metric``: Maniquet2024's confusion similarity and tasks consistency.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.behavior.confusion import ConfusionSimilarity, TasksConsistency

__all__ = ["ConfusionSimilarity", "TasksConsistency"]
