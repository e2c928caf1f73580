"""Brain-Score's import path ``brainscore_vision.metrics.baker_accuracy_delta`` (Baker2022's accuracy delta): the names of its
``metric.py`` (:mod:`brainscore_vision.metrics.baker_accuracy_delta.metric`), re-exported; registered through
brainscore-metrics' entry point, not here."""

from brainscore_vision.metrics.baker_accuracy_delta.metric import *  # noqa: F403
from brainscore_vision.metrics.baker_accuracy_delta.metric import __all__  # noqa: F401
