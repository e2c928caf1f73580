"""Brain-Score's import path ``brainscore_vision.metrics.regression_correlation``: the names of its ``metric.py``
(:mod:`brainscore_vision.metrics.regression_correlation.metric`), re-exported; registered through brainscore-metrics'
entry point, not here."""

from brainscore_vision.metrics.regression_correlation.metric import *  # noqa: F403
from brainscore_vision.metrics.regression_correlation.metric import __all__  # noqa: F401
