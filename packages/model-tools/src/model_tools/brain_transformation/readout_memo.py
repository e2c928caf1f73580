"""Fitted ``probabilities`` readouts remembered in this process, keyed by content.

Brain-Score's benchmarks of one family often fit the same readout again: Malania2007's vernier-acuity benchmark
refits, per condition, the nine readouts its nine threshold-elevation benchmarks fitted (same model, same 500
fitting images, same trials). The fit (StandardScaler + newton-cg logistic regression, no randomness) is a pure
function of the fitting rows and their labels, so a second ``start_task('probabilities', same content)`` may reuse the
first fit and give the same coefficients, bit for bit.

The key is content, never an object's identity or a stimulus set's identifier: the activations model's own
activations-cache key of the fitting stimuli (format, model identifier, weights digest, preprocessing, reduction and
every image's content, :meth:`~model_tools.activations.extractor.ActivationsExtractor.activations_key`), the readout
layer, the trials (microsaccades) and the visual degrees that size them, the stimulus ids and labels in order (with
their dtype), the logistic-regression settings and scikit-learn's version. Another model, other weights, another
layer, another image byte or label gives another key. An activations model without ``activations_key`` (a user's
callable) is never remembered: every fit runs.

Bounded: at most :data:`MAX_READOUTS` readouts and :data:`MAX_READOUT_BYTES` of their arrays, least recently used
dropped first. An entry is a copy of the fitted scaler and classifier, and each reuse gets its own copy, so nothing a
caller does to its readout reaches another.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from model_tools.digest import json_digest

__all__ = ["FITTED_READOUTS", "MAX_READOUTS", "MAX_READOUT_BYTES", "FittedReadouts", "readout_key"]

#: Readouts remembered at most (Malania2007 needs 9 alive at once).
MAX_READOUTS = 32
#: Bytes of readout arrays (scaler statistics, coefficients) remembered at most.
MAX_READOUT_BYTES = 256 * 2 ** 20


def _labels_document(values: Any) -> dict[str, Any]:
    array = np.asarray(values)
    return {"dtype": str(array.dtype), "values": array.tolist()}


def readout_key(activations_model: Any, fitting_stimuli: Any, layer: str, column: str,
                trials: Mapping[str, Any] | None, settings: Mapping[str, Any]) -> str | None:
    """The content key of a ``probabilities`` readout fitted on ``fitting_stimuli``, or None when the activations model
    cannot name its activations' content (no ``activations_key``)."""
    activations_key = getattr(activations_model, "activations_key", None)
    if not callable(activations_key):
        return None
    import sklearn

    return json_digest({
        "readout": "probabilities", "activations": activations_key(fitting_stimuli), "layer": layer,
        "trials": dict(trials or {}), "visual_degrees": getattr(activations_model, "visual_degrees", None),
        "stimulus_id": _labels_document(fitting_stimuli["stimulus_id"].values), "label_column": column,
        "labels": _labels_document(fitting_stimuli[column].values), "settings": dict(settings),
        "sklearn": sklearn.__version__})


def _nbytes(estimator: Any) -> int:
    return sum(value.nbytes for value in vars(estimator).values() if isinstance(value, np.ndarray))


class FittedReadouts:
    """A least-recently-used memory of fitted (scaler, classifier) pairs by :func:`readout_key`.

    Parameters
    ----------
    max_readouts : int, default=MAX_READOUTS
        Entries kept at most; 0 remembers nothing.
    max_bytes : int, default=MAX_READOUT_BYTES
        Bytes of the entries' numpy arrays kept at most.
    """

    def __init__(self, max_readouts: int = MAX_READOUTS, max_bytes: int = MAX_READOUT_BYTES):
        self.max_readouts = max_readouts
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, tuple[Any, Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str | None) -> tuple[Any, Any] | None:
        """A copy of the (scaler, classifier) remembered under ``key``, or None."""
        if key is None:
            return None
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
        return copy.deepcopy(entry[0]), copy.deepcopy(entry[1])

    def put(self, key: str | None, scaler: Any, classifier: Any) -> None:
        """Remember a copy of a fitted (scaler, classifier) under ``key`` (nothing when ``key`` is None)."""
        if key is None or self.max_readouts <= 0:
            return
        size = _nbytes(scaler) + _nbytes(classifier)
        if size > self.max_bytes:
            return
        entry = (copy.deepcopy(scaler), copy.deepcopy(classifier), size)
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_readouts or self._bytes() > self.max_bytes:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def _bytes(self) -> int:
        return sum(entry[2] for entry in self._entries.values())


#: The process's memory of fitted readouts (what :class:`~model_tools.brain_transformation.behavior.
#: ProbabilitiesMapping` consults).
FITTED_READOUTS = FittedReadouts()
