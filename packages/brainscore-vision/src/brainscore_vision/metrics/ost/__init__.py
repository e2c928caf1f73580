"""Brain-Score's import path ``brainscore_vision.metrics.ost``: object solution times.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
Brain-Score's TensorFlow readout ``TFProbabilitiesClassifier`` is ``SoftmaxReadout`` here (same training, numpy).
"""

from brainscore_metrics.behavior.ost import OSTCorrelation
from brainscore_metrics.behavior.softmax_readout import SoftmaxReadout as TFProbabilitiesClassifier

__all__ = ["OSTCorrelation", "TFProbabilitiesClassifier"]
