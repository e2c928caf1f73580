"""brainio's settings, read from the environment (the only module of brainio that reads it, besides boto3's endpoint
variables in ``stores/s3.py``): brainio sits below brainscore-core, whose :mod:`brainscore_core.config` reads every
other setting. The public names are in :mod:`brainio.settings`.

* ``BRAINIO_HOME``: where the verified file cache lives, default ``~/.brainio``;
* ``BRAINIO_ARCHIVE_MAX_GB``: the most bytes one ZIP archive may expand to (GiB), default
  :data:`DEFAULT_ARCHIVE_MAX_GB`;
* ``BRAINIO_ARCHIVE_MAX_RATIO``: the most an archive (or one member larger than 1 MiB) may expand relative to its
  compressed size, default :data:`DEFAULT_ARCHIVE_MAX_RATIO`.

A limit that is unset, blank or not a positive number is the default; ``inf`` switches the limit off.

Flags (:func:`env_flag`) have one truth rule for every package (brainscore-core's ``config.env_flag`` is this
function): ``1/true/yes/on`` are true, ``0/false/no/off`` and the empty string false, in any case and with spaces
around; any other word is the flag's default. brainio reads one flag of its own, ``BRAINSCORE_REQUIRE_DATA``
(:func:`data_required`, for :mod:`brainio.skipping`).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

__all__ = ["DEFAULT_ARCHIVE_MAX_GB", "DEFAULT_ARCHIVE_MAX_RATIO", "FALSE_WORDS", "REQUIRE_DATA_ENV", "TRUE_WORDS",
           "archive_max_bytes", "archive_max_ratio", "cache_home", "data_required", "env_flag"]

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})
REQUIRE_DATA_ENV = "BRAINSCORE_REQUIRE_DATA"
"""The flag CI sets: a test that would skip for a reason CI provides (data, a test extra, a local server) fails."""

DEFAULT_ARCHIVE_MAX_GB = 64.0
"""Largest total a stimulus archive may expand to, GiB: above Brain-Score's largest published stimulus set, far below
what a ZIP bomb writes."""

DEFAULT_ARCHIVE_MAX_RATIO = 100.0
"""Largest expansion ratio (uncompressed / compressed bytes): images are stored or deflate by a few times at most; a
ZIP bomb expands by thousands."""


def cache_home() -> Path:
    """``$BRAINIO_HOME``, default ``~/.brainio``."""
    return Path(os.environ.get("BRAINIO_HOME", "~/.brainio")).expanduser()


def _positive(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, "").strip())
    except ValueError:
        return default
    return value if value > 0 and not math.isnan(value) else default


def archive_max_bytes() -> float:
    """``$BRAINIO_ARCHIVE_MAX_GB`` (GiB, default 64) in bytes; ``inf`` when switched off."""
    return _positive("BRAINIO_ARCHIVE_MAX_GB", DEFAULT_ARCHIVE_MAX_GB) * 1024**3


def archive_max_ratio() -> float:
    """``$BRAINIO_ARCHIVE_MAX_RATIO`` (default 100); ``inf`` when switched off."""
    return _positive("BRAINIO_ARCHIVE_MAX_RATIO", DEFAULT_ARCHIVE_MAX_RATIO)


def env_flag(name: str, default: bool = False) -> bool:
    """The boolean value of environment variable ``name`` (the truth rule in the module docstring); ``default`` when
    unset or not a recognised word."""
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    return default


def data_required() -> bool:
    """``$BRAINSCORE_REQUIRE_DATA`` as a flag (default False)."""
    return env_flag(REQUIRE_DATA_ENV, default=False)
