"""brainscore-core's settings, read in one place: options, environment variables, and their one truth rule.

One answer per question, read in this order: an option set with :func:`set_options` (a context manager, like
xarray's), then the environment variable, then the default. No other module of brainscore-core reads the environment
(``tests/test_config.py`` greps every package for it). Each package reads its own settings in one module of its own,
through the helpers here (:func:`env_flag`, :func:`env_text`, :func:`option`): brainscore-vision in
``brainscore_vision/settings.py`` (its data folders), model-tools in ``model_tools/settings.py`` (malloc, the activation
cache notice, torch hub), and brainio, which sits below this package, in ``brainio/_home.py`` and
``brainio/stores/s3.py``. Each publishes what it reads through the entry-point group ``brainscore_settings``
(:mod:`brainscore_core.package_hooks`), and ``brainscore config`` lists them all; this package's own are in
:mod:`brainscore_core.publications` and in its README, section *Environment variables*.

Flags (:func:`env_flag`) are true for ``1/true/yes/on`` and false for ``0/false/no/off`` and the empty string,
in any case and with surrounding spaces; anything else is the flag's default. So
``BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD=off`` leaves autoload on, as ``=0`` does.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from brainio.settings import FALSE_WORDS, TRUE_WORDS
from brainio.settings import env_flag as _brainio_env_flag

__all__ = ["AUTOLOAD_ENV", "INSTALL_DEPENDENCIES_ENV", "OPTIONS", "PLUGINS_ENV", "PLUGIN_FOLDERS_ENV",
           "RESULTS_URL_ENV", "SETTINGS_ENV", "WEIGHT_FOLDER_ENV", "brainscore_home", "caching_enabled",
           "child_environment", "env_flag", "env_path", "env_text", "install_advice_enabled", "option",
           "pip_constraint", "plugin_autoload_disabled", "plugin_folders", "progress_enabled", "read_settings",
           "requested_plugins", "results_url", "set_options", "settings_path", "weight_folder"]

AUTOLOAD_ENV = "BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD"
PLUGINS_ENV = "BRAINSCORE_PLUGINS"
RESULTS_URL_ENV = "BRAINSCORE_RESULTS_URL"
INSTALL_DEPENDENCIES_ENV = "BS_INSTALL_DEPENDENCIES"
WEIGHT_FOLDER_ENV = "BRAINSCORE_S3_WEIGHT_FOLDER"
SETTINGS_ENV = "BRAINSCORE_SETTINGS"

# one truth rule for every package's flags, kept in brainio (below this package)
_TRUE = TRUE_WORDS
_FALSE = FALSE_WORDS

OPTIONS: dict[str, Any] = {"home": None, "progress": None, "caching": None, "plugin_folders": None}
"""Options set by :func:`set_options`; None means: ask the environment. Options of other packages (published with their
settings, e.g. model-tools' ``cache_notice_gb``) join it while they are set."""


def env_flag(name: str, default: bool = False) -> bool:
    """The boolean value of environment variable ``name`` (see the module docstring; the rule is
    :func:`brainio.settings.env_flag`'s); ``default`` when unset or not a recognised word."""
    return _brainio_env_flag(name, default)


def env_text(name: str) -> str | None:
    """The value of environment variable ``name`` without surrounding spaces; None when unset or blank."""
    value = os.environ.get(name, "").strip()
    return value or None


def env_path(name: str) -> Path | None:
    """The folder or file environment variable ``name`` names (``~`` expanded); None when unset or blank."""
    configured = env_text(name)
    return Path(configured).expanduser() if configured else None


def option(name: str) -> Any:
    """The value of option ``name`` set by :func:`set_options` (None when not set): how another package's settings
    module reads the options it publishes."""
    return OPTIONS.get(name)


def brainscore_home() -> Path:
    """The option ``home``, else ``$BRAINSCORE_HOME`` (an empty value counts as unset), else ``~/.brain-score``."""
    if OPTIONS["home"] is not None:
        return Path(OPTIONS["home"]).expanduser()
    configured = env_text("BRAINSCORE_HOME")
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


def progress_enabled() -> bool:
    """The option ``progress``, else ``$BRAINSCORE_PROGRESS`` (shown unless it is a false word)."""
    if OPTIONS["progress"] is not None:
        return bool(OPTIONS["progress"])
    return env_flag("BRAINSCORE_PROGRESS", default=True)


def caching_enabled(what: str, module: str | None = None) -> bool:
    """Whether the disk cache of ``what`` (``'ceiling'``, ``'activations'``, ...) is on.

    The option ``caching`` (True / False) decides when set. Otherwise ``$RESULTCACHING_DISABLE`` (the reference's
    name): a true word turns every cache off, a false word or nothing leaves them on, and any other value is a
    comma-separated list of names; a cache is off when an entry contains ``what`` or starts with ``module``, the
    package that owns the cache (``brainscore_core`` for ceilings; model-tools passes ``model_tools``).
    """
    if OPTIONS["caching"] is not None:
        return bool(OPTIONS["caching"])
    value = os.environ.get("RESULTCACHING_DISABLE", "").strip().lower()
    if value in _FALSE:
        return True
    if value in _TRUE:
        return False
    return not any(what in part or (module is not None and part.strip().startswith(module))
                   for part in value.split(",") if part.strip())


# -- plugins --------------------------------------------------------------------------------------------------
def plugin_autoload_disabled() -> bool:
    """``$BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD`` as a flag (default False): True skips entry-point discovery and
    plugin folders; ``0/false/no/off`` leave autoload on."""
    return env_flag(AUTOLOAD_ENV, default=False)


def requested_plugins() -> list[str]:
    """``$BRAINSCORE_PLUGINS``: entry-point names or module paths (comma-separated) loaded even with autoload
    disabled; empty entries are ignored."""
    return [name.strip() for name in (env_text(PLUGINS_ENV) or "").split(",") if name.strip()]


def install_advice_enabled() -> bool:
    """``$BS_INSTALL_DEPENDENCIES`` as a flag (default True): False (``no``, Brain-Score's word) silences the line that
    says how to install a plugin folder's missing requirements. Nothing is ever installed either way."""
    return env_flag(INSTALL_DEPENDENCIES_ENV, default=True)


def pip_constraint() -> Path | None:
    """The first file of ``$PIP_CONSTRAINT`` (pip's own variable), else None."""
    configured = env_text("PIP_CONSTRAINT")
    return Path(configured.split()[0]) if configured else None


# -- stores and data ---------------------------------------------------------------------------------------------
def results_url() -> str | None:
    """``$BRAINSCORE_RESULTS_URL`` (a SQLAlchemy URL), else None (the store defaults to a SQLite file in the home)."""
    return env_text(RESULTS_URL_ENV)


def weight_folder(folder_name: str | None = None) -> str:
    """``folder_name``, else ``$BRAINSCORE_S3_WEIGHT_FOLDER``, else ``'models'`` (Brain-Score's default)."""
    return folder_name if folder_name is not None else (env_text(WEIGHT_FOLDER_ENV) or "models")


def child_environment(**variables: str) -> dict[str, str]:
    """This process's environment with ``variables`` set on top, for a child process (a copy; nothing here is read
    as a setting)."""
    return {**os.environ, **variables}


# -- the settings file ------------------------------------------------------------------------------------------
def settings_path() -> Path:
    """The one settings file: ``$BRAINSCORE_SETTINGS``, else ``$BRAINSCORE_HOME/settings.toml`` (``~`` expanded)."""
    configured = env_text(SETTINGS_ENV)
    return Path(configured).expanduser() if configured else brainscore_home() / "settings.toml"


def read_settings(path: str | os.PathLike | None = None) -> dict[str, Any]:
    """The tables of the settings file (TOML; default :func:`settings_path`), ``{}`` when there is none.

    The tables are read by the modules that own them (``[cluster.slurm]``: :mod:`brainscore_core.slurm_cluster`),
    which check their keys.

    Raises
    ------
    SettingsError
        The file is not valid TOML or cannot be read; the message names the file and the reason.
    """
    import tomllib

    from brainscore_core.errors import SettingsError

    path = Path(path) if path is not None else settings_path()
    try:
        with open(path, "rb") as file:
            return tomllib.load(file)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"the settings file {path} is not valid TOML: {error}") from None
    except OSError as error:
        raise SettingsError(f"cannot read the settings file {path}: {error.strerror or error}") from None


@contextlib.contextmanager
def set_options(**options: Any) -> Iterator[None]:
    """Set options for the duration of a ``with`` block (nested blocks restore what they changed).

    Example: ``with set_options(progress=False, caching=False, home="/scratch/bs"): ...``. Besides this package's
    options (:data:`OPTIONS`), every option another installed package publishes with its settings can be set
    (model-tools' ``cache_notice_gb``).
    """
    known = set(OPTIONS)
    if set(options) - known:  # another package's options: those it publishes with its settings
        from brainscore_core.package_hooks import published_settings

        known |= {setting.option for setting in published_settings() if setting.option}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"unknown option(s) {unknown}; known: {sorted(known)}")
    previous = {name: OPTIONS.get(name) for name in options}
    OPTIONS.update(options)
    try:
        yield
    finally:
        OPTIONS.update(previous)
