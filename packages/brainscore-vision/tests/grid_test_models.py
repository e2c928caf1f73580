"""Test models for the grid on a cluster, in a plugin folder of Brain-Score's style (found by worker processes through
``BRAINSCORE_PLUGIN_FOLDERS``, which local workers and Slurm jobs inherit): pixels that sleeps while it looks
(``pixels-slow``: a job can be cancelled in the middle of it) or first writes memory (``pixels-hog-<MB>``: a worker
goes past its limit)."""

from __future__ import annotations

from pathlib import Path

GRID_MODELS_PLUGIN = '''
"""Test models: pixels that sleeps while it looks (pixels-slow), or first allocates memory (pixels-hog-<MB>)."""
import time

from brainscore_vision import model_registry


class _Pixels:
    def __init__(self, identifier, seconds=0.0, hog_bytes=0):
        from model_tools.zoo.pixels import pixels

        self._model = pixels()
        self._identifier, self._seconds, self._hog_bytes = identifier, seconds, hog_bytes

    @property
    def identifier(self):
        return self._identifier

    def look_at(self, stimuli, *args, **kwargs):
        import numpy as np

        hog = np.ones(self._hog_bytes, dtype=np.uint8) if self._hog_bytes else None  # written: resident
        time.sleep(self._seconds)
        del hog
        return self._model.look_at(stimuli, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._model, name)


model_registry["pixels-slow"] = lambda: _Pixels("pixels-slow", seconds=8)
model_registry["pixels-hog-1200"] = lambda: _Pixels("pixels-hog-1200", seconds=2, hog_bytes=1200 * 2**20)
model_registry["pixels-hog-3000"] = lambda: _Pixels("pixels-hog-3000", seconds=2, hog_bytes=3000 * 2**20)
'''


def write_grid_models(folder: Path) -> Path:
    """Write the plugin under ``folder/models/grid_test_models``; returns ``folder`` (the plugin folder to name)."""
    package = folder / "models" / "grid_test_models"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(GRID_MODELS_PLUGIN)
    return folder
