"""Brain-Score's import path ``brainscore_vision.metric_helpers.temporal``: time-resolved helpers over labelled
assemblies. Re-exports; the one implementation is :mod:`brainscore_metrics.temporal_helpers`."""

from brainscore_metrics.temporal_helpers import (
    PerNeuroid,
    PerOps,
    PerPresentation,
    PerTime,
    PerTimeRegression,
    SpanOps,
    SpanTime,
    SpanTimeRegression,
    average_over_presentation,
)

__all__ = ["PerNeuroid", "PerOps", "PerPresentation", "PerTime", "PerTimeRegression", "SpanOps", "SpanTime",
           "SpanTimeRegression", "average_over_presentation"]
