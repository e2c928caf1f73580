"""``value_delta``: similarity of two scalar values, ``exp(-scale * |source - target|)``."""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.validation import check_choice, single_number

__all__ = ["ValueDelta"]


class ValueDelta(Metric):
    """``exp(-scale * |a - b|)`` for two scalars (1 when equal, decaying with the difference).

    Parameters
    ----------
    scale : float, default=1.0
        Decay rate per unit of difference.
    bootstrap : None, default=None
        Accepted for a uniform metric signature; two scalars have no stimuli to resample, so any other
        value raises :class:`~brainscore_metrics.errors.InvalidParameterError` (a ValueError).
    random_state : int, default=0
        Unused (uniform signature).

    Returns (from ``__call__(source_value, target_value)``)
    -----------------------------------------------------
    Score (0-d) with ``attrs['error'] = 0.0`` and ``attrs['raw'] = [source_value, target_value]``.

    Raises
    ------
    DimensionError
        A value that is not one number (names it and its shape).
    """

    def __init__(self, scale: float = 1.0, *, bootstrap: None = None, random_state: int = 0):
        self.scale = scale
        self.bootstrap = bootstrap
        self.random_state = random_state

    def __call__(self, source_value, target_value) -> Score:
        check_choice(self.bootstrap, (None,), "bootstrap", "value_delta",
                     hint="it compares two scalars: there are no stimuli to resample")
        values = [single_number(source_value, "source_value"), single_number(target_value, "target_value")]
        score = Score(float(np.exp(-self.scale * abs(values[0] - values[1]))))
        score.attrs["error"] = 0.0
        score.attrs["raw"] = values
        return score
