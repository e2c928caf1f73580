"""Psychometric fits remembered by content, inside a block the caller opens.

:func:`~brainscore_metrics.behavior.threshold.fit_psychometric` is a pure function of its four arrays, and one
fit costs thousands of L-BFGS-B runs (50 x len(x) starting points). A family of benchmarks may fit the same arrays
again: Malania2007's vernier-acuity benchmark fits, per condition, the ``vernier_only`` responses that the
condition's threshold-elevation benchmark fitted already (same readout, same images).

The memory is a :class:`PsychometricFits` object the caller owns and opens with :func:`remembering_psychometric_fits`
for the duration of a block; outside such a block nothing is remembered. This package keeps no module-global mutable
state (``tests/test_module_state.py``: no ``lru_cache``, no module-level container): the only module-level name is a
``ContextVar`` whose ``set`` is undone by a ``reset`` in the same function, so the choice never outlives the block,
and the memory itself lives in the caller's object (brainscore-vision's Malania2007 benchmarks hold one for the
process).

The key is a sha1 over each array's dtype, shape and bytes (``x``, ``y``, the starting slopes and means): equal keys
mean equal inputs, hence the same fit, bit for bit. The value, ``((alpha, beta, lapse) or None, r2)``, is immutable.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = ["MAX_FITS", "PsychometricFits", "fits_key", "remembered_fits", "remembering_psychometric_fits"]

#: Fits a :class:`PsychometricFits` keeps at most by default.
MAX_FITS = 128

_remembered: contextvars.ContextVar[PsychometricFits | None] = contextvars.ContextVar(
    "brainscore_metrics_psychometric_fits", default=None)


def fits_key(*arrays: Any) -> str:
    """sha1 hex over each array's dtype, shape and bytes, in order."""
    sha = hashlib.sha1()
    for array in arrays:
        array = np.ascontiguousarray(array)
        sha.update(f"{array.dtype.str}|{array.shape}|".encode())
        sha.update(array.tobytes())
    return sha.hexdigest()


class PsychometricFits:
    """A least-recently-used memory of psychometric fits by :func:`fits_key`.

    Parameters
    ----------
    max_fits : int, default=MAX_FITS
        Fits kept at most (each a few floats); 0 remembers nothing.
    """

    def __init__(self, max_fits: int = MAX_FITS):
        self.max_fits = max_fits
        self._entries: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> Any:
        """The fit remembered under ``key``, or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: str, fit: Any) -> None:
        if self.max_fits <= 0:
            return
        with self._lock:
            self._entries[key] = fit
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_fits:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


@contextlib.contextmanager
def remembering_psychometric_fits(fits: PsychometricFits | None) -> Iterator[PsychometricFits | None]:
    """Inside the block, :func:`~brainscore_metrics.behavior.threshold.fit_psychometric` reads and fills ``fits``
    (None: nothing remembered in the block)."""
    token = _remembered.set(fits)
    try:
        yield fits
    finally:
        _remembered.reset(token)


def remembered_fits() -> PsychometricFits | None:
    """The memory of the enclosing :func:`remembering_psychometric_fits` block, or None."""
    return _remembered.get()
