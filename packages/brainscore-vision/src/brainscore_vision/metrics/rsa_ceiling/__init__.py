"""Brain-Score's import path ``brainscore_vision.metrics.rsa_ceiling``: the RSA noise ceiling.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
"""

from brainscore_metrics.rsa_ceiling import RSACeiling

__all__ = ["RSACeiling"]
