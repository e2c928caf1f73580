"""Brain-Score's import path ``brainscore_vision.metrics.cka``: centered kernel alignment.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
Brain-Score's ``CKA`` is ``CKAMetric`` here.
"""

from brainscore_metrics.cka import CKACrossValidated
from brainscore_metrics.cka import CKAMetric as CKA

__all__ = ["CKA", "CKACrossValidated"]
