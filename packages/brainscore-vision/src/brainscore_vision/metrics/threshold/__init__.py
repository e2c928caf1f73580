"""Brain-Score's import path ``brainscore_vision.metrics.threshold``: psychometric thresholds.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.behavior.threshold import (
    Threshold,
    ThresholdElevation,
    inverse_psychometric_cum_gauss,
    psychometric_cum_gauss,
)

__all__ = ["Threshold", "ThresholdElevation", "inverse_psychometric_cum_gauss", "psychometric_cum_gauss"]
