"""Brain-Score's import path ``brainscore_vision.metrics.distribution_similarity`` (single-neuron property distributions): the names of its
``metric.py`` (:mod:`brainscore_vision.metrics.distribution_similarity.metric`), re-exported; registered through
brainscore-metrics' entry point, not here."""

from brainscore_vision.metrics.distribution_similarity.metric import *  # noqa: F403
from brainscore_vision.metrics.distribution_similarity.metric import __all__  # noqa: F401
