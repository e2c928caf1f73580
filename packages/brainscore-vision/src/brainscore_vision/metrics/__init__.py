"""Brain-Score's import path ``brainscore_vision.metrics``: one sub-package per metric folder of brain-score/vision.

Each ``brainscore_vision.metrics.<folder>`` (and its ``metric.py`` / ``ceiling.py``) re-exports the names Brain-Score's
benchmarks and tutorials import from it, bound to the one implementation in brainscore-metrics (or, for the labelled
regression factories, :mod:`brainscore_vision.metric_helpers.regressions`). Nothing is registered here: metrics are
found through brainscore-metrics' entry point, and ``load_metric(identifier)`` is the way to build one. This package
also re-exports ``Score``, ``Metric`` and ``Ceiling`` (``from brainscore_vision.metrics import Score``).
"""

from brainio.assemblies import DataAssembly
from brainscore_core.metrics import Ceiling, Metric, Score

__all__ = ["Ceiling", "DataAssembly", "Metric", "Score"]
