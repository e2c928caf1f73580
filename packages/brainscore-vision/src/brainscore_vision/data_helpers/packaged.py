"""Data that a plugin packages itself from raw files, stored in a brainio store and loaded from there.

A data plugin in this repository ships no data. It ships a *packaging script* that turns the raw
recordings (``$BRAINSCORE_RAW_DATA/<folder>``) into brainio files (stimulus CSV + ZIP, assembly netCDF),
and a :class:`PackagedData` object that runs the script once, on first use, into a
:class:`brainio.stores.LocalStore` under ``$BRAINSCORE_DATA_STORE`` (default
``$BRAINSCORE_HOME/data_store``). From then on every load goes through the normal brainio loaders
(``brainio.fetch.load_stimulus_set`` / ``load_assembly``): copied into the ``$BRAINIO_HOME`` cache and
checked against its sha1.

Integrity: the sha1 of every raw input file is recorded in the plugin and checked before packaging (a
changed file is an error naming it); the sha1s of the packaged files are written to the store's
``manifest.json`` and every load checks the file against them. The store heals itself: a damaged
``manifest.json``, or a packaged file that fails its sha1 or is missing, is packaged again from the raw data
(once, under the store's lock, with a :class:`DataRepairWarning`). Packaging runs under the store's lock, so the
temporaries (``.*.part``) that a killed packaging left in the store folder are removed before it starts. The stimulus CSV and ZIP files are
written by pure Python, byte-for-byte deterministic: where the plugin records their sha1s too, a
difference means the packaging code changed and is reported as a :class:`PackagingDriftWarning` naming
the file. The bytes of a netCDF assembly file also depend on the HDF5/h5py/h5netcdf versions, so the
assembly sha1s a plugin records serve S3 loads only (the uploaded files are fixed bytes) and are not
compared after local packaging; the tests check the assemblies' content instead.

Remote data: with ``BRAINSCORE_VISION_DATA_SOURCE=<scheme>`` and ``BRAINSCORE_VISION_S3_BUCKET=<location>`` the same
identifiers load, with the sha1s the plugin records, from the store brainio opens for ``<scheme>://<location>``
(:func:`brainio.stores.open_store`: ``s3`` with ``bucket/folder``, ``file`` with a folder, or any store a package
registers in the entry-point group ``brainio.stores``) instead of being packaged.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from filelock import FileLock

from brainio.files import sha1_hash
from brainscore_core.deprecation import deprecated_alias
from brainscore_vision._paths import brainscore_home, raw_data_dir
from brainscore_vision.errors import (
    DataIntegrityError,
    DataRepairWarning,
    DataSourceError,
    MissingRawDataError,
    PackagingDriftWarning,
)
from brainscore_vision.settings import DATA_BUCKET_ENV, DATA_SOURCE_ENV

__all__ = ["DataIntegrityError", "DataRepairWarning", "DataSourceError", "MissingRawDataError", "PackagedData",
           "PackagingDriftWarning", "data_source", "remote_store", "store_directory"]

MANIFEST = "manifest.json"
SOURCE_ENV = DATA_SOURCE_ENV
BUCKET_ENV = DATA_BUCKET_ENV


def store_directory() -> Path:
    """Root of the local store: ``$BRAINSCORE_DATA_STORE``, default ``$BRAINSCORE_HOME/data_store``."""
    from brainscore_vision.settings import data_store_setting

    return data_store_setting() or brainscore_home() / "data_store"


def data_source() -> str:
    """``'local'`` (package from raw data, the default) or the scheme of a brainio store
    (``$BRAINSCORE_VISION_DATA_SOURCE``: ``s3``, ``file``, or a scheme an installed package registers in entry-point
    group ``brainio.stores``).

    Raises
    ------
    DataSourceError
        A word that is neither ``local`` nor a registered scheme (the message lists them).
    """
    from brainio.stores import store_schemes
    from brainscore_vision.settings import data_source as configured

    source = configured()
    if source != "local" and source not in store_schemes():
        raise DataSourceError(f"{SOURCE_ENV} must be 'local' or the scheme of a store in entry-point group "
                              f"'brainio.stores' ({', '.join(store_schemes())}), got {source!r}")
    return source


def remote_store():
    """The store vision's packaged data load from when the data source is not ``local``:
    ``brainio.stores.open_store('<scheme>://<$BRAINSCORE_VISION_S3_BUCKET>')``.

    Raises
    ------
    DataSourceError
        The location is not set.
    """
    from brainio.stores import open_store
    from brainscore_vision.settings import data_bucket

    source, location = data_source(), data_bucket()
    if not location:
        raise DataSourceError(f"{SOURCE_ENV}={source} needs {BUCKET_ENV}=<location of the store> (for s3: "
                              "<bucket>[/<folder>])")
    return open_store(f"{source}://{location}")


sha1_of = deprecated_alias(sha1_hash, "brainscore_vision.data_helpers.packaged.sha1_of", "brainio.files.sha1_hash")


class PackagedData:
    """The packaged files of one data plugin.

    Parameters
    ----------
    name : str
        Store sub-folder and display name, e.g. ``'cowley2023'``.
    raw_folder : str
        Folder of the raw recordings inside ``$BRAINSCORE_RAW_DATA``, e.g. ``'cowley2023_v4'``.
    package : callable
        ``package(raw_directory, store_directory) -> manifest`` writes the brainio files into
        ``store_directory`` and returns ``{'stimulus_sets': {identifier: {'csv_sha1', 'zip_sha1'}},
        'assemblies': {identifier: {'sha1', 'cls', 'stimulus_set_identifier'}}}``.
    raw_sha1 : mapping of str to str, default=None
        Relative path (inside ``raw_folder``) -> expected sha1 of each raw input file.
    packaged_sha1 : mapping, default=None
        Expected manifest entries (same layout as the manifest). Used for S3 loads; the stimulus-set
        (CSV/ZIP) sha1s are also compared with what local packaging produced, the netCDF ones are not.
    packaging_version : int, default=1
        Bump to re-package existing stores after the packaging script changed.
    """

    def __init__(self, name: str, raw_folder: str, package: Callable[[Path, Path], Mapping[str, Any]], *,
                 raw_sha1: Mapping[str, str] | None = None, packaged_sha1: Mapping[str, Any] | None = None,
                 packaging_version: int = 1):
        self.name = name
        self.raw_folder = raw_folder
        self.package = package
        self.raw_sha1 = dict(raw_sha1 or {})
        self.packaged_sha1 = dict(packaged_sha1 or {})
        self.packaging_version = packaging_version

    # -- locations ---------------------------------------------------------------------------------
    @property
    def directory(self) -> Path:
        """The local store folder of this plugin."""
        return store_directory() / self.name

    @property
    def raw_directory(self) -> Path:
        return raw_data_dir() / self.raw_folder

    def store(self):
        from brainio.stores import LocalStore

        return LocalStore(self.directory)

    # -- packaging ---------------------------------------------------------------------------------
    def manifest(self) -> dict[str, Any]:
        """The store's manifest, packaging the raw data first when the store is empty or outdated."""
        manifest = self._read_manifest()
        if manifest is not None:
            return manifest
        self.directory.mkdir(parents=True, exist_ok=True)
        with FileLock(str(self.directory) + ".lock"):
            manifest = self._read_manifest()  # another process may have packaged while we waited
            if manifest is None:
                manifest = self._package()
        return manifest

    def is_packaged(self) -> bool:
        return self._read_manifest() is not None

    def prepare(self) -> dict[str, Any]:
        """Package now (if needed); returns the manifest. Used by ``brainscore data prepare``."""
        return self.manifest()

    def _read_manifest(self) -> dict[str, Any] | None:
        path = self.directory / MANIFEST
        if not path.is_file():
            return None
        try:
            manifest = json.loads(path.read_text())
            if not isinstance(manifest, dict) or not all(isinstance(manifest.get(section), dict)
                                                         for section in ("stimulus_sets", "assemblies")):
                raise ValueError("not a manifest of stimulus_sets and assemblies")
        except (OSError, ValueError) as error:
            warnings.warn(f"{path} is damaged ({error}); packaging {self.name!r} again from the raw data",
                          DataRepairWarning, stacklevel=3)
            return None
        if manifest.get("packaging_version") != self.packaging_version:
            return None
        return manifest

    def repackage(self, reason: str) -> dict[str, Any]:
        """Package again from the raw data (under the store's lock), e.g. after a packaged file failed its sha1."""
        warnings.warn(f"{self.name!r} store at {self.directory}: {reason}; packaging it again from the raw data",
                      DataRepairWarning, stacklevel=3)
        self.directory.mkdir(parents=True, exist_ok=True)
        with FileLock(str(self.directory) + ".lock"):
            return self._package()

    def _self_repairing(self, load: Callable[[], Any]) -> Any:
        """``load()``; when a locally packaged file is damaged or missing, package again once and retry."""
        from brainio.errors import Sha1MismatchError, StoreKeyError

        try:
            return load()
        except (Sha1MismatchError, StoreKeyError) as error:
            if data_source() != "local":
                raise
            self.repackage(str(error))
            return load()

    def check_raw_data(self) -> Path:
        """The raw folder, after checking that it exists and that its files have the recorded sha1s."""
        raw = self.raw_directory
        if not raw.is_dir():
            from brainscore_vision.settings import raw_data_setting

            configured = raw_data_setting()
            relative = (f", a relative path: relative to the working directory {os.getcwd()}; set an absolute one"
                        if configured and not os.path.isabs(os.path.expanduser(configured)) else "")
            raise MissingRawDataError(
                f"raw data for {self.name!r} not found at {raw}: set BRAINSCORE_RAW_DATA to the folder that "
                f"contains {self.raw_folder}/ (currently {configured or 'unset'!r}{relative})")
        for relative, expected in sorted(self.raw_sha1.items()):
            path = raw / relative
            if not path.is_file():
                raise MissingRawDataError(f"raw data file {path} of {self.name!r} is missing (BRAINSCORE_RAW_DATA={raw.parent})")
            actual = sha1_hash(path)
            if actual != expected:
                raise DataIntegrityError(
                    f"raw data file {path} has sha1 {actual}, the {self.name!r} plugin expects {expected}: the raw "
                    "data changed; restore the file or update the plugin (and its packaging_version)")
        return raw

    def _remove_temporaries(self) -> None:
        """Every ``.*.part`` file or folder in the store: called under the store's lock, which every packaging of the
        store holds, so they were left by a killed run."""
        from brainio.files import remove_path

        for leftover in self.directory.glob(".*.part"):
            remove_path(leftover)

    def _package(self) -> dict[str, Any]:
        self._remove_temporaries()
        raw = self.check_raw_data()
        manifest = dict(self.package(raw, self.directory))
        self._compare_with_recorded(manifest)
        manifest["packaging_version"] = self.packaging_version
        manifest["raw_directory"] = str(raw)
        _write_json_atomically(self.directory / MANIFEST, manifest)
        return manifest

    def _compare_with_recorded(self, manifest: Mapping[str, Any]) -> None:
        """Warn where a packaged CSV or ZIP file differs from the recorded sha1 (netCDF bytes are left out:
        they change with the HDF5 library, not with our code)."""
        for section, entries in self.packaged_sha1.items():
            if section == "assemblies":
                continue
            for identifier, expected in entries.items():
                actual = manifest.get(section, {}).get(identifier, {})
                for key, value in expected.items():
                    if key.endswith("sha1") and actual.get(key) != value:
                        warnings.warn(
                            f"packaged {section[:-1].replace('_', ' ')} {identifier!r} ({key}) in {self.directory} "
                            f"has sha1 {actual.get(key)}, the {self.name!r} plugin records {value}: the packaging "
                            "code or a library writing the files changed; re-record the sha1s",
                            PackagingDriftWarning, stacklevel=4)

    # -- loading -----------------------------------------------------------------------------------
    def load_stimulus_set(self, identifier: str):
        """The stimulus set ``identifier`` through the brainio loader (sha1-checked)."""
        from brainio.fetch import load_stimulus_set

        if data_source() != "local":
            entry = self._recorded("stimulus_sets", identifier)
            return load_stimulus_set(identifier, remote_store(), entry["csv_sha1"], entry["zip_sha1"],
                                     csv_version_id=entry.get("csv_version_id"),
                                     zip_version_id=entry.get("zip_version_id"))

        def load():
            entry = self._entry("stimulus_sets", identifier)
            return load_stimulus_set(identifier, self.store(), entry["csv_sha1"], entry["zip_sha1"])

        return self._self_repairing(load)

    def load_assembly(self, identifier: str, stimulus_set_loader: Callable | None = None,
                      merge_stimulus_set_meta: bool = True):
        """The assembly ``identifier`` through the brainio loader (sha1-checked)."""
        from brainio import assemblies
        from brainio.fetch import load_assembly

        if data_source() != "local":
            entry = self._recorded("assemblies", identifier)
            return load_assembly(identifier, remote_store(), entry["sha1"], getattr(assemblies, entry["cls"]),
                                 version_id=entry.get("version_id"), stimulus_set_loader=stimulus_set_loader,
                                 merge_stimulus_set_meta=merge_stimulus_set_meta)

        def load():
            entry = self._entry("assemblies", identifier)
            return load_assembly(identifier, self.store(), entry["sha1"], getattr(assemblies, entry["cls"]),
                                 stimulus_set_loader=stimulus_set_loader,
                                 merge_stimulus_set_meta=merge_stimulus_set_meta)

        return self._self_repairing(load)

    def _entry(self, section: str, identifier: str) -> Mapping[str, Any]:
        manifest = self.manifest()
        try:
            return manifest[section][identifier]
        except KeyError:
            raise KeyError(f"{self.name!r} store at {self.directory} has no {section[:-1]} {identifier!r}; "
                           f"it has {sorted(manifest.get(section, {}))}") from None

    def _recorded(self, section: str, identifier: str) -> Mapping[str, Any]:
        try:
            return self.packaged_sha1[section][identifier]
        except KeyError:
            raise KeyError(f"the {self.name!r} plugin records no sha1 of {section[:-1]} {identifier!r} for a remote "
                           f"store; unset {SOURCE_ENV} to package it from raw data") from None


def _write_json_atomically(path: Path, content: Mapping[str, Any]) -> None:
    from brainio.files import atomic_write, target_lock

    with target_lock(path):
        atomic_write(path, lambda temporary: temporary.write_text(json.dumps(content, indent=2, sort_keys=True)),
                     durable=True)  # the store's manifest: flushed before it replaces the old one
