"""Brain-Score's ``brainscore_vision.metrics.predictor_consistency.ceiling`` import path (a re-export)."""

from brainscore_metrics.predictor_consistency import SplitHalfPredictorConsistency, spearman_brown

__all__ = ["SplitHalfPredictorConsistency", "spearman_brown"]
