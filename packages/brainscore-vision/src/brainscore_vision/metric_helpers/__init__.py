"""Brain-Score's ``brainscore_vision.metric_helpers`` import path, for plugin code written against it.

``Defaults`` names the dims and coordinates metrics align on; :mod:`.transformations` (cross-validation and
aggregation), :mod:`.xarray_utils` (labelled regression and per-neuroid correlation) hold the rest. New code uses
``brainscore_metrics`` directly; these names keep existing plugins running unchanged.
"""

__all__ = ["Defaults"]


class Defaults:
    """Dims and coordinates metrics align on: ``presentation x neuroid``, ``stimulus_id``, ``neuroid_id``."""

    expected_dims = ("presentation", "neuroid")
    stimulus_coord = "stimulus_id"
    neuroid_dim = "neuroid"
    neuroid_coord = "neuroid_id"
