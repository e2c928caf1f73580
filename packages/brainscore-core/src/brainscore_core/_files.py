"""Home directory and atomic file writes."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["atomic_write", "brainscore_home"]


def brainscore_home() -> Path:
    """``$BRAINSCORE_HOME`` (default ``~/.brain-score``): :func:`brainscore_core.config.brainscore_home`."""
    from brainscore_core.config import brainscore_home as configured_home

    return configured_home()


def atomic_write(path: str | os.PathLike, write: Callable[[Path], object]) -> None:
    """Call ``write(temp_path)`` on a temporary file beside ``path``, then rename it to ``path``
    (:func:`brainio.files.atomic_write`: readers see the old file or the complete new one; umask permissions)."""
    from brainio.files import atomic_write as _atomic_write

    _atomic_write(path, write)
