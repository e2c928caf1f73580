"""Brain-Score's import path ``brainscore_vision.metrics.i1i2.metric``: image-level behavioural consistency.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.behavior.i2n import I1, I1n, I2n

__all__ = ["I1", "I1n", "I2n"]
