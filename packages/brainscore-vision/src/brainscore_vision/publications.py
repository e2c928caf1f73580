"""What brainscore-vision writes to disk and what it reads from the environment, published for ``brainscore cache``
and ``brainscore config`` (entry-point groups ``brainscore_caches`` and ``brainscore_settings``:
``brainscore_core.package_hooks``).

Its caches (``$BRAINSCORE_HOME`` defaults to ``~/.brain-score``):

* ``data``: ``$BRAINSCORE_DATA_STORE`` (default ``$BRAINSCORE_HOME/data_store``), one packaged data plugin's store
  folder per entry (:mod:`brainscore_vision.data_helpers.packaged`); packaged again from ``$BRAINSCORE_RAW_DATA``, so
  pruned only when named;
* ``stimuli``: ``$BRAINSCORE_HOME/stimuli_on_screen``, the placed images of one ratio (model field / experiment
  field) per entry (:mod:`brainscore_vision.benchmark_helpers.screen`);
* ``weights``: ``$BRAINSCORE_HOME/brainscore-vision``, where Brain-Score's vision plugins put their weights
  (``load_weight_file(folder_name='brainscore-vision/models', ...)``), one file with its ``.verified`` marker per
  entry; fetched again over the network, so pruned only when named.

The other packages publish theirs (brainio its fetched files, brainscore-core the ceilings, model-tools the
activations, layer choices and the zoo's weights); ``brainscore cache`` (:mod:`brainscore_core.caches`) asks them all.
"""

from __future__ import annotations

from pathlib import Path

from brainscore_core.caches import CacheKind
from brainscore_core.config import brainscore_home
from brainscore_core.package_hooks import Setting
from brainscore_vision import settings

__all__ = ["published_caches", "published_settings"]


def _store_directory() -> list[Path]:
    from brainscore_vision.data_helpers.packaged import store_directory

    return [store_directory()]


def _verified_files(root: Path) -> list[dict]:
    from brainio.cache import verified_files

    return verified_files(root)


def published_caches() -> list[CacheKind]:
    """The packaged data store, the placed stimuli and the weights of Brain-Score's vision plugins."""
    return [
        CacheKind("data", _store_directory, pruned_by_default=False,
                  description="a packaged data plugin's store folder"),
        CacheKind("stimuli", lambda: [brainscore_home() / "stimuli_on_screen"],
                  description="the stimuli placed on screens of one size ratio"),
        CacheKind("weights", lambda: [brainscore_home() / "brainscore-vision"], _verified_files,
                  pruned_by_default=False, description="one weight file of a Brain-Score vision plugin"),
    ]


def _raw_data() -> Path:
    from brainscore_vision._paths import raw_data_dir

    return raw_data_dir()


def published_settings() -> list[Setting]:
    """Every variable :mod:`brainscore_vision.settings` reads."""
    local = [Setting(f"local_data.{variable.removeprefix('BRAINSCORE_').lower()}", (variable,), "none",
                     "a folder of data that may not be redistributed (README: Families whose data are not shipped)",
                     lambda variable=variable: settings.local_data_folder(variable))
             for variable in settings.LOCAL_DATA_ENVS]
    return [
        Setting("raw_data", (settings.RAW_DATA_ENV,), "shared/data beside the checkout", "folder of the raw "
                "recordings (cowley2023_v4/, ...)", _raw_data),
        Setting("data_store", (settings.DATA_STORE_ENV,), "$BRAINSCORE_HOME/data_store", "local store of the "
                "packaged data", lambda: _store_directory()[0]),
        Setting("data_source", (settings.DATA_SOURCE_ENV,), "local", "where packaged data loads from: local "
                "(packaged from the raw data) or the scheme of a store of brainio's brainio.stores entry points (s3, "
                "file, a third-party one)", settings.data_source),
        Setting("data_bucket", (settings.DATA_BUCKET_ENV,), "none", "that store's location (bucket[/folder] for s3)",
                settings.data_bucket),
        *local,
    ]
