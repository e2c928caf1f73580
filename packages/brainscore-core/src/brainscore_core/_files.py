"""Home directory and atomic file writes."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["atomic_write", "brainscore_home"]


def brainscore_home() -> Path:
    """``$BRAINSCORE_HOME`` (default ``~/.brain-score``)."""
    return Path(os.environ.get("BRAINSCORE_HOME") or Path.home() / ".brain-score").expanduser()


def atomic_write(path: str | os.PathLike, write: Callable[[Path], object]) -> None:
    """Call ``write(temp_path)`` on a temporary file beside ``path``, then rename it to ``path``
    (:func:`brainio.files.atomic_write`: readers see the old file or the complete new one; umask permissions)."""
    from brainio.files import atomic_write as _atomic_write

    _atomic_write(path, write)
