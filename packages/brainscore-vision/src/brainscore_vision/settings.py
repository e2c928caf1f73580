"""brainscore-vision's settings, read in one place (as every package reads its own: ``brainscore_core.config`` says
the rule): where its raw recordings, its packaged data and the data that may not be redistributed live.

One answer per question: the environment variable, else the default. What is read here is published for
``brainscore config`` (:mod:`brainscore_vision.publications`) and listed in the README, section *Settings*. No other
module of brainscore-vision reads the environment (brainscore-core's ``tests/test_config.py`` greps for it).
"""

from __future__ import annotations

from pathlib import Path

from brainscore_core.config import env_path, env_text

__all__ = ["DATA_BUCKET_ENV", "DATA_SOURCE_ENV", "DATA_STORE_ENV", "LOCAL_DATA_ENVS", "RAW_DATA_ENV", "data_bucket",
           "data_source", "data_store_setting", "local_data_folder", "raw_data_setting"]

RAW_DATA_ENV = "BRAINSCORE_RAW_DATA"
DATA_STORE_ENV = "BRAINSCORE_DATA_STORE"
DATA_SOURCE_ENV = "BRAINSCORE_VISION_DATA_SOURCE"
DATA_BUCKET_ENV = "BRAINSCORE_VISION_S3_BUCKET"

#: folders of data that may not be redistributed, one variable each (``data_helpers/local_data.py`` says what each
#: must hold and where to get it)
LOCAL_DATA_ENVS = ("BRAINSCORE_THINGS_IMAGES", "BRAINSCORE_NSD_DIR", "BRAINSCORE_LAION_FMRI_DIR",
                   "BRAINSCORE_IMAGENET_DIR", "BRAINSCORE_IMAGENET_C_DIR", "BRAINSCORE_OBJECTNET_DIR")


def raw_data_setting() -> str | None:
    """``$BRAINSCORE_RAW_DATA`` as written (None when unset or blank); :func:`brainscore_vision._paths.raw_data_dir`
    resolves it and its default."""
    return env_text(RAW_DATA_ENV)


def data_store_setting() -> Path | None:
    """``$BRAINSCORE_DATA_STORE`` (``~`` expanded), the local store of packaged data; None when unset."""
    return env_path(DATA_STORE_ENV)


def data_source() -> str:
    """``$BRAINSCORE_VISION_DATA_SOURCE`` in lower case, default ``'local'``: ``local`` packages the raw data into a
    local store, any other word is a store scheme of brainio's ``brainio.stores`` entry points (``s3``, ...)."""
    return (env_text(DATA_SOURCE_ENV) or "local").lower()


def data_bucket() -> str | None:
    """``$BRAINSCORE_VISION_S3_BUCKET`` (``bucket[/folder]``, the remote store's location), else None."""
    return env_text(DATA_BUCKET_ENV)


def local_data_folder(variable: str) -> Path | None:
    """The folder named by ``variable`` (one of :data:`LOCAL_DATA_ENVS`; ``~`` expanded), else None when unset."""
    if variable not in LOCAL_DATA_ENVS:
        raise ValueError(f"{variable!r} is not a local-data variable; those are {', '.join(LOCAL_DATA_ENVS)}")
    return env_path(variable)
