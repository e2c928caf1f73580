"""Brain-Score's ``brainscore_vision.metrics.predictor_consistency`` import path: a re-export of
:class:`brainscore_metrics.predictor_consistency.SplitHalfPredictorConsistency` (registered as ``predictor_consistency``
by brainscore-metrics' plugin; nothing is registered here)."""

from brainscore_metrics.predictor_consistency import SplitHalfPredictorConsistency

__all__ = ["SplitHalfPredictorConsistency"]
