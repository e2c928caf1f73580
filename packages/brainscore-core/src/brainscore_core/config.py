"""Configuration shared by every package: the home folder, cache switches, progress bars, environment flags.

One answer per question, read in this order: an option set with :func:`set_options` (a context manager, like
xarray's), then the environment variable, then the default.

========================  =====================================  ============================================
option                    environment variable                   default
========================  =====================================  ============================================
``home``                  ``BRAINSCORE_HOME`` (empty = unset)    ``~/.brain-score``
``progress``              ``BRAINSCORE_PROGRESS``                on
``caching``               ``RESULTCACHING_DISABLE``              on (see :func:`caching_enabled`)
``plugin_folders``        ``BRAINSCORE_PLUGIN_FOLDERS``          none (see :func:`plugin_folders`)
``cache_notice_gb``       ``BRAINSCORE_CACHE_NOTICE_GB``         5 (see :func:`activation_cache_notice_bytes`)
========================  =====================================  ============================================

Flags (:func:`env_flag`) are true for ``1/true/yes/on`` and false for ``0/false/no/off`` and the empty string,
in any case and with surrounding spaces; anything else is the default.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_CACHE_NOTICE_GB", "OPTIONS", "PLUGIN_FOLDERS_ENV", "activation_cache_notice_bytes",
           "brainscore_home", "caching_enabled", "env_flag", "plugin_folders", "progress_enabled", "set_options"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}

OPTIONS: dict[str, Any] = {"home": None, "progress": None, "caching": None, "plugin_folders": None,
                           "cache_notice_gb": None}
"""Options set by :func:`set_options`; None means: ask the environment."""


def env_flag(name: str, default: bool = False) -> bool:
    """The boolean value of environment variable ``name`` (see the module docstring); ``default`` when unset or
    not a recognised word."""
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    return default


def brainscore_home() -> Path:
    """The option ``home``, else ``$BRAINSCORE_HOME`` (an empty value counts as unset), else ``~/.brain-score``."""
    if OPTIONS["home"] is not None:
        return Path(OPTIONS["home"]).expanduser()
    configured = os.environ.get("BRAINSCORE_HOME", "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".brain-score"


PLUGIN_FOLDERS_ENV = "BRAINSCORE_PLUGIN_FOLDERS"


def plugin_folders() -> list[Path]:
    """Folders of the user's own plugins, each laid out like Brain-Score's package folder (``models/``,
    ``benchmarks/``, ``data/``, ``metrics/``, one plugin folder in each): the option ``plugin_folders`` (a sequence of
    paths, or one string of paths separated by ``os.pathsep``), else ``$BRAINSCORE_PLUGIN_FOLDERS`` (separated by
    ``os.pathsep``), else none. Empty entries are ignored; ``~`` is expanded."""
    value = OPTIONS["plugin_folders"]
    if value is None:
        value = os.environ.get(PLUGIN_FOLDERS_ENV, "")
    entries = value.split(os.pathsep) if isinstance(value, str) else [os.fspath(entry) for entry in value]
    return [Path(entry.strip()).expanduser() for entry in entries if entry.strip()]


DEFAULT_CACHE_NOTICE_GB = 5.0
"""The activation cache size (GB, 1024**3 bytes) above which a one-line notice says so, unless configured."""


def activation_cache_notice_bytes() -> int | None:
    """Bytes of activation cache above which model-tools prints a one-line notice (once per process), or None for
    never: the option ``cache_notice_gb``, else ``$BRAINSCORE_CACHE_NOTICE_GB`` (a number of GB; ``0`` or a false
    word turns the notice off), else :data:`DEFAULT_CACHE_NOTICE_GB`. A value that is not a number is the default."""
    value: Any = OPTIONS["cache_notice_gb"]
    if value is None:
        value = os.environ.get("BRAINSCORE_CACHE_NOTICE_GB", "").strip().lower() or DEFAULT_CACHE_NOTICE_GB
    if value is False or (isinstance(value, str) and value in _FALSE):
        return None
    try:
        gigabytes = float(value)
    except (TypeError, ValueError):
        gigabytes = DEFAULT_CACHE_NOTICE_GB
    return int(gigabytes * 1024**3) if gigabytes > 0 else None


def progress_enabled() -> bool:
    """The option ``progress``, else ``$BRAINSCORE_PROGRESS`` (shown unless it is a false word)."""
    if OPTIONS["progress"] is not None:
        return bool(OPTIONS["progress"])
    return env_flag("BRAINSCORE_PROGRESS", default=True)


def caching_enabled(what: str) -> bool:
    """Whether the disk cache of ``what`` (``'ceiling'``, ``'activations'``, ``'layer_selection'``) is on.

    The option ``caching`` (True / False) decides when set. Otherwise ``$RESULTCACHING_DISABLE`` (the reference's
    name): a true word turns every cache off, a false word or nothing leaves them on, and any other value is a
    comma-separated list of names; a cache is off when an entry contains ``what`` or starts with its module
    (``model_tools`` for activations and layer selection, ``brainscore_core`` for ceilings).
    """
    if OPTIONS["caching"] is not None:
        return bool(OPTIONS["caching"])
    value = os.environ.get("RESULTCACHING_DISABLE", "").strip().lower()
    if value in _FALSE:
        return True
    if value in _TRUE:
        return False
    owner = "brainscore_core" if what == "ceiling" else "model_tools"
    return not any(what in part or part.strip().startswith(owner) for part in value.split(",") if part.strip())


@contextlib.contextmanager
def set_options(**options: Any) -> Iterator[None]:
    """Set options for the duration of a ``with`` block (nested blocks restore what they changed).

    Example: ``with set_options(progress=False, caching=False, home="/scratch/bs"): ...``.
    """
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"unknown option(s) {unknown}; known: {sorted(OPTIONS)}")
    previous = {name: OPTIONS[name] for name in options}
    OPTIONS.update(options)
    try:
        yield
    finally:
        OPTIONS.update(previous)
