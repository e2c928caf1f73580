"""What brainscore-core writes to disk and what it reads from the environment, published for ``brainscore cache`` and
``brainscore config`` (entry-point groups ``brainscore_caches`` and ``brainscore_settings``:
:mod:`brainscore_core.package_hooks`).

Light on purpose (no numpy, xarray or SQLAlchemy): listing the caches and the settings imports this module only.
"""

from __future__ import annotations

from pathlib import Path

from brainscore_core import config
from brainscore_core.caches import CacheKind
from brainscore_core.package_hooks import Setting

__all__ = ["ceiling_entries", "published_caches", "published_settings"]


def ceiling_entries(root: Path) -> list[dict]:
    """The ceiling cache's entries (:mod:`brainscore_core._ceiling_cache` writes them): one per
    ``<identifier>/<record>.json``, with the netCDF arrays beside it (``<record>.*.nc``); the JSON goes first when
    deleting, so a reader never finds a record whose arrays are gone."""
    from brainio.paths import walk_files

    found = []
    for record in walk_files(root, ".json"):
        if record.parent.parent != root:
            continue  # the layout is <identifier>/<record>.json
        arrays = sorted(path for path in walk_files(record.parent, ".nc")
                        if path.parent == record.parent and path.name.startswith(f"{record.stem}."))
        found.append({"paths": [record, *arrays]})
    return found


def _load_weight_file_folder() -> list[Path]:
    """Where ``load_weight_file`` puts a plugin's weights by default: ``$BRAINSCORE_HOME/<first part of
    $BRAINSCORE_S3_WEIGHT_FOLDER, default models>``."""
    return [config.brainscore_home() / config.weight_folder().strip("/").split("/")[0]]


def _verified_files(root: Path) -> list[dict]:
    from brainio.cache import verified_files

    return verified_files(root)


def _results_url() -> str | None:
    """``$BRAINSCORE_RESULTS_URL`` as people may see it: the password hidden (:func:`brainscore_core.display.display_url`)."""
    from brainscore_core.display import display_url

    url = config.results_url()
    return None if url is None else display_url(url)


def published_caches() -> list[CacheKind]:
    """The ceiling cache and the default folder of Brain-Score plugins' weights (:mod:`brainscore_core.s3_files`)."""
    return [
        CacheKind("ceilings", lambda: [config.brainscore_home() / "ceilings"], ceiling_entries,
                  description="one ceiling's JSON with its arrays ($BRAINSCORE_HOME/ceilings/<benchmark>/)"),
        CacheKind("weights", _load_weight_file_folder, _verified_files, pruned_by_default=False,
                  description="one weight file load_weight_file fetched, with its .verified marker"),
    ]


def published_settings() -> list[Setting]:
    """Every variable :mod:`brainscore_core.config` reads."""
    return [
        Setting("home", ("BRAINSCORE_HOME",), "~/.brain-score", "ceilings, results, data store, screen conversions, "
                "activations (an empty value counts as unset)", config.brainscore_home, option="home"),
        Setting("progress", ("BRAINSCORE_PROGRESS",), "on", "progress bars (a flag)", config.progress_enabled,
                option="progress"),
        Setting("caching", ("RESULTCACHING_DISABLE",), "every cache on", "a true word turns off every disk cache; a "
                "comma-separated list the caches it names (ceiling, activations, model_tools...)",
                lambda: f"the ceiling cache {'on' if config.caching_enabled('ceiling', 'brainscore_core') else 'off'}",
                option="caching"),
        Setting("plugin_folders", (config.PLUGIN_FOLDERS_ENV,), "none", "the user's plugin folders (models/, "
                "benchmarks/, data/, metrics/ in each), separated by os.pathsep", config.plugin_folders,
                option="plugin_folders"),
        Setting("plugin_autoload_disabled", (config.AUTOLOAD_ENV,), "off", "no entry-point discovery and no plugin "
                "folders: only explicit registrations and BRAINSCORE_PLUGINS (a flag)", config.plugin_autoload_disabled),
        Setting("plugins", (config.PLUGINS_ENV,), "none", "entry-point names or modules (comma-separated) loaded even "
                "with autoload disabled", config.requested_plugins),
        Setting("results_url", (config.RESULTS_URL_ENV,), "sqlite:///$BRAINSCORE_HOME/results.sqlite",
                "SQLAlchemy URL of the results store (its password shown as ***)", _results_url),
        Setting("settings_file", (config.SETTINGS_ENV,), "$BRAINSCORE_HOME/settings.toml", "the one settings file "
                "(TOML; its [cluster.slurm] table)", config.settings_path),
        Setting("install_advice", (config.INSTALL_DEPENDENCIES_ENV,), "on", "a false word (Brain-Score's no) silences "
                "the line saying how to install a plugin folder's missing requirements; nothing is ever installed",
                config.install_advice_enabled),
        Setting("pip_constraint", ("PIP_CONSTRAINT",), "the checkout's constraints.txt", "the constraints file named "
                "in that line", config.pip_constraint),
        Setting("weight_folder", (config.WEIGHT_FOLDER_ENV,), "models", "default folder_name of load_weight_file / "
                "load_file", config.weight_folder),
    ]
