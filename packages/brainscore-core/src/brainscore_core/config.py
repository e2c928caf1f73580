"""Every setting of every package, read in one place: options, environment variables, and their one truth rule.

One answer per question, read in this order: an option set with :func:`set_options` (a context manager, like
xarray's), then the environment variable, then the default. No other module of brainscore-core, brainscore-metrics,
brainscore-vision or model-tools reads the environment (``tests/test_config.py`` greps for it). brainio sits below this
package (it cannot import it) and reads its own: ``BRAINIO_HOME`` (its cache, ``brainio/_home.py``, as
:func:`brainio.cache.cache_home`) and boto3's ``AWS_ENDPOINT_URL_S3`` / ``AWS_ENDPOINT_URL``
(:class:`brainio.stores.S3Store`); they are listed too.

Every variable, its option, its reader here, its meaning and its default are in one table: brainscore-core's README,
section *Environment variables* (``tests/test_config.py`` checks that every variable read here is in it).

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

__all__ = ["AUTOLOAD_ENV", "DATA_BUCKET_ENV", "DATA_SOURCE_ENV", "DEFAULT_CACHE_NOTICE_GB", "INSTALL_DEPENDENCIES_ENV",
           "LOCAL_DATA_ENVS", "OPTIONS", "PLUGINS_ENV", "PLUGIN_FOLDERS_ENV", "RAW_DATA_ENV", "RESULTS_URL_ENV", "WEIGHT_FOLDER_ENV",
           "activation_cache_notice_bytes", "brainscore_home", "caching_enabled", "child_environment", "data_bucket",
           "data_source",
           "data_store_setting", "env_flag", "install_advice_enabled", "local_data_folder", "malloc_tuned_by_user", "pip_constraint",
           "plugin_autoload_disabled", "plugin_folders", "progress_enabled", "raw_data_setting", "requested_plugins",
           "read_settings", "results_url", "reuse_memory_enabled", "set_options", "settings_path", "torch_hub_dir",
           "weight_folder", "SETTINGS_ENV"]

AUTOLOAD_ENV = "BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD"
PLUGINS_ENV = "BRAINSCORE_PLUGINS"
RESULTS_URL_ENV = "BRAINSCORE_RESULTS_URL"
RAW_DATA_ENV = "BRAINSCORE_RAW_DATA"
DATA_SOURCE_ENV = "BRAINSCORE_VISION_DATA_SOURCE"
DATA_BUCKET_ENV = "BRAINSCORE_VISION_S3_BUCKET"
INSTALL_DEPENDENCIES_ENV = "BS_INSTALL_DEPENDENCIES"
WEIGHT_FOLDER_ENV = "BRAINSCORE_S3_WEIGHT_FOLDER"
SETTINGS_ENV = "BRAINSCORE_SETTINGS"

# one truth rule for every package's flags, kept in brainio (below this package)
_TRUE = TRUE_WORDS
_FALSE = FALSE_WORDS

OPTIONS: dict[str, Any] = {"home": None, "progress": None, "caching": None, "plugin_folders": None,
                           "cache_notice_gb": None}
"""Options set by :func:`set_options`; None means: ask the environment."""


def env_flag(name: str, default: bool = False) -> bool:
    """The boolean value of environment variable ``name`` (see the module docstring; the rule is
    :func:`brainio.settings.env_flag`'s); ``default`` when unset or not a recognised word."""
    return _brainio_env_flag(name, default)


def _text(name: str) -> str | None:
    """The value of environment variable ``name`` without surrounding spaces; None when unset or blank."""
    value = os.environ.get(name, "").strip()
    return value or None


def brainscore_home() -> Path:
    """The option ``home``, else ``$BRAINSCORE_HOME`` (an empty value counts as unset), else ``~/.brain-score``."""
    if OPTIONS["home"] is not None:
        return Path(OPTIONS["home"]).expanduser()
    configured = _text("BRAINSCORE_HOME")
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


# -- plugins --------------------------------------------------------------------------------------------------
def plugin_autoload_disabled() -> bool:
    """``$BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD`` as a flag (default False): True skips entry-point discovery and
    plugin folders; ``0/false/no/off`` leave autoload on."""
    return env_flag(AUTOLOAD_ENV, default=False)


def requested_plugins() -> list[str]:
    """``$BRAINSCORE_PLUGINS``: entry-point names or module paths (comma-separated) loaded even with autoload
    disabled; empty entries are ignored."""
    return [name.strip() for name in (_text(PLUGINS_ENV) or "").split(",") if name.strip()]


def install_advice_enabled() -> bool:
    """``$BS_INSTALL_DEPENDENCIES`` as a flag (default True): False (``no``, Brain-Score's word) silences the line that
    says how to install a plugin folder's missing requirements. Nothing is ever installed either way."""
    return env_flag(INSTALL_DEPENDENCIES_ENV, default=True)


def pip_constraint() -> Path | None:
    """The first file of ``$PIP_CONSTRAINT`` (pip's own variable), else None."""
    configured = _text("PIP_CONSTRAINT")
    return Path(configured.split()[0]) if configured else None


# -- stores and data ---------------------------------------------------------------------------------------------
def results_url() -> str | None:
    """``$BRAINSCORE_RESULTS_URL`` (a SQLAlchemy URL), else None (the store defaults to a SQLite file in the home)."""
    return _text(RESULTS_URL_ENV)


def raw_data_setting() -> str | None:
    """``$BRAINSCORE_RAW_DATA`` as written (None when unset or blank); brainscore-vision resolves it and its
    default (``brainscore_vision._paths.raw_data_dir``)."""
    return _text(RAW_DATA_ENV)


def data_store_setting() -> Path | None:
    """``$BRAINSCORE_DATA_STORE`` (``~`` expanded), the local store of packaged data; None when unset."""
    configured = _text("BRAINSCORE_DATA_STORE")
    return Path(configured).expanduser() if configured else None


def data_source() -> str:
    """``$BRAINSCORE_VISION_DATA_SOURCE`` in lower case, default ``'local'``: ``local`` packages the raw data into a
    local store, any other word is a store scheme of brainio's ``brainio.stores`` entry points (``s3``, ...)."""
    return (_text(DATA_SOURCE_ENV) or "local").lower()


def data_bucket() -> str | None:
    """``$BRAINSCORE_VISION_S3_BUCKET`` (``bucket[/folder]``, the remote store's location), else None."""
    return _text(DATA_BUCKET_ENV)


#: folders of data that may not be redistributed, one variable each (brainscore-vision's
#: ``data_helpers/local_data.py`` says what each must hold and where to get it)
LOCAL_DATA_ENVS = ("BRAINSCORE_THINGS_IMAGES", "BRAINSCORE_NSD_DIR", "BRAINSCORE_LAION_FMRI_DIR",
                   "BRAINSCORE_IMAGENET_DIR",
                   "BRAINSCORE_IMAGENET_C_DIR", "BRAINSCORE_OBJECTNET_DIR")


def local_data_folder(variable: str) -> Path | None:
    """The folder named by ``variable`` (one of :data:`LOCAL_DATA_ENVS`; ``~`` expanded), else None when unset."""
    if variable not in LOCAL_DATA_ENVS:
        raise ValueError(f"{variable!r} is not a local-data variable; those are {', '.join(LOCAL_DATA_ENVS)}")
    configured = _text(variable)
    return Path(configured).expanduser() if configured else None


def weight_folder(folder_name: str | None = None) -> str:
    """``folder_name``, else ``$BRAINSCORE_S3_WEIGHT_FOLDER``, else ``'models'`` (Brain-Score's default)."""
    return folder_name if folder_name is not None else (_text(WEIGHT_FOLDER_ENV) or "models")


def child_environment(**variables: str) -> dict[str, str]:
    """This process's environment with ``variables`` set on top, for a child process (a copy; nothing here is read
    as a setting)."""
    return {**os.environ, **variables}


# -- the settings file ------------------------------------------------------------------------------------------
def settings_path() -> Path:
    """The one settings file: ``$BRAINSCORE_SETTINGS``, else ``$BRAINSCORE_HOME/settings.toml`` (``~`` expanded)."""
    configured = _text(SETTINGS_ENV)
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


# -- model-tools ------------------------------------------------------------------------------------------------
_MALLOC_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_")


def malloc_tuned_by_user() -> bool:
    """Whether the user tuned glibc's malloc through the environment (``MALLOC_MMAP_THRESHOLD_``,
    ``MALLOC_TRIM_THRESHOLD_``, ``MALLOC_TOP_PAD_`` set, or ``GLIBC_TUNABLES`` naming malloc)."""
    return any(name in os.environ for name in _MALLOC_SETTINGS) or "malloc" in os.environ.get("GLIBC_TUNABLES", "")


def reuse_memory_enabled() -> bool:
    """``$MODEL_TOOLS_REUSE_MEMORY`` as a flag (default True): whether model-tools keeps freed memory for the next
    batch."""
    return env_flag("MODEL_TOOLS_REUSE_MEMORY", default=True)


def torch_hub_dir() -> Path:
    """torch hub's folder: ``$TORCH_HOME/hub``, else ``$XDG_CACHE_HOME/torch/hub``, else ``~/.cache/torch/hub``
    (torch's own rule; read here so that torch need not be imported to find a weight file)."""
    base = _text("TORCH_HOME") or str(Path(_text("XDG_CACHE_HOME") or "~/.cache") / "torch")
    return Path(base).expanduser() / "hub"


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
