"""Brain-Score's metric plugin folders (``metrics/<folder>/__init__.py`` assigning ``metric_registry['<id>'] = ...``),
found by identifier like model folders (see :mod:`brainscore_vision.models`), and the names Brain-Score's
``brainscore_vision.metrics`` exports."""

from brainscore_core.metrics import Ceiling, Metric, Score
from brainscore_core.plugin_folders import extend_package_path

__all__ = ["Ceiling", "Metric", "Score"]

__path__ = extend_package_path(__path__, __name__)
