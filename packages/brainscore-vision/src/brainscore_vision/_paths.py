"""Where this package keeps files: caches under ``$BRAINSCORE_HOME``, raw data under ``$BRAINSCORE_RAW_DATA``."""

from __future__ import annotations

import os
from pathlib import Path

from brainscore_core.config import brainscore_home  # the one answer for all packages, re-exported here

__all__ = ["brainscore_home", "raw_data_dir"]


def raw_data_dir() -> Path:
    """``$BRAINSCORE_RAW_DATA``: the folder that holds the raw recordings (``cowley2023_v4/`` ...), as an absolute
    path.

    A relative value is relative to the working directory of the process that reads it (as for any path on the
    command line): ``../shared/data`` works from the checkout's root only, so set an absolute path
    (``export BRAINSCORE_RAW_DATA="$PWD/../shared/data"`` in the checkout's root). Default: ``shared/data`` beside
    the repository checkout this package lives in (an editable install), else the first ``shared/data`` found in the
    working directory or one of its parents (a regular install used from inside a checkout), else
    ``./shared/data``.
    """
    from brainscore_vision.settings import raw_data_setting

    configured = raw_data_setting()
    if configured:
        return Path(os.path.abspath(Path(configured).expanduser()))
    here = Path(__file__).resolve()
    # src/brainscore_vision/_paths.py -> packages/brainscore-vision -> packages -> <repo> -> ../shared/data
    for parent in here.parents:
        candidate = parent.parent / "shared" / "data"
        if (parent / "packages").is_dir() and candidate.is_dir():
            return candidate
    working = Path.cwd().resolve()
    for folder in (working, *working.parents):
        if (folder / "shared" / "data").is_dir():
            return folder / "shared" / "data"
    return working / "shared" / "data"
