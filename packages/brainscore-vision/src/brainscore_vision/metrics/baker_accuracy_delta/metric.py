"""Brain-Score's import path ``brainscore_vision.metrics.baker_accuracy_delta.metric``: Baker2022's accuracy delta.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.behavior.accuracy_delta import (
    HUMAN_SPLITS,
    BakerAccuracyDelta,
    extract_subjects,
    get_human_delta,
    get_model_delta,
)

__all__ = ["BakerAccuracyDelta", "HUMAN_SPLITS", "extract_subjects", "get_human_delta", "get_model_delta"]
