"""Brain-Score's import path ``brainscore_vision.metrics.threshold`` (psychometric thresholds): the names of its
``metric.py`` (:mod:`brainscore_vision.metrics.threshold.metric`), re-exported; registered through
brainscore-metrics' entry point, not here."""

from brainscore_vision.metrics.threshold.metric import *  # noqa: F403
from brainscore_vision.metrics.threshold.metric import __all__  # noqa: F401
