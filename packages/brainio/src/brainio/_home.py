"""Where brainio keeps its verified file cache: ``$BRAINIO_HOME`` (the one environment variable brainio reads itself:
it sits below brainscore-core, whose :mod:`brainscore_core.config` reads every other setting)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_home"]


def cache_home() -> Path:
    """``$BRAINIO_HOME``, default ``~/.brainio``."""
    return Path(os.environ.get("BRAINIO_HOME", "~/.brainio")).expanduser()
