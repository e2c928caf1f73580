"""Brain-Score's import path ``brainscore_vision.metrics``: one sub-package per metric folder of brain-score/vision.

Each ``brainscore_vision.metrics.<folder>`` (and its ``metric.py`` / ``ceiling.py``) re-exports the names Brain-Score's
benchmarks and tutorials import from it, bound to the one implementation in brainscore-metrics (or, for the labelled
regression factories, :mod:`brainscore_vision.metric_helpers.regressions`). Nothing is registered here: metrics are
found through brainscore-metrics' entry point, and ``load_metric(identifier)`` is the way to build one. This package
also re-exports ``Score``, ``Metric`` and ``Ceiling`` (``from brainscore_vision.metrics import Score``).

It is also where Brain-Score's metric plugin folders go (a ``metrics/<folder>/__init__.py`` that assigns into the
metric registry): found by identifier like model folders (see :mod:`brainscore_vision.models`), here and in the user
plugin folders.
"""

from brainio.lazy import lazy_names
from brainscore_core.plugin_folders import extend_package_path

# resolved on first use (PEP 562): looking for a metric plugin folder imports neither pandas nor xarray
_LAZY = {"DataAssembly": "brainio.assemblies", "Ceiling": "brainscore_core.metrics", "Metric": "brainscore_core.metrics",
         "Score": "brainscore_core.metrics"}

__all__ = ["Ceiling", "DataAssembly", "Metric", "Score"]

__path__ = extend_package_path(__path__, __name__)


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
