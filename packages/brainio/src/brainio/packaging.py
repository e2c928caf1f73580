"""Package stimulus sets (CSV + ZIP) and assemblies (netCDF) into files for a store.

Local packaging writes into ``downloads_path`` (default ``~/Downloads/brainscore_packages/``) and returns
the dicts of the data-packaging tutorial. The four packaging functions pass their arguments through the adapters
that installed distributions declare (:mod:`brainio.extensions`; brainscore-legacy accepts brainio 2021's spellings
this way). The checklist runs first; a refused input leaves the folder
unchanged. Output bytes are deterministic: CSV with ``\\n`` line ends, ZIP entries sorted by name with a
fixed 1980-01-01 timestamp and fixed permissions (stored, images are already compressed), netCDF without
time stamps; packaging the same input twice gives the same SHA-1s.
"""

from __future__ import annotations

import os
import zipfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pandas as pd
import xarray as xr

from .assemblies import resolve_assembly_class
from .errors import ValidationError
from .extensions import with_adapters
from .fetch import assembly_file_name, stimulus_file_stem
from .files import atomic_path, sha1_hash, target_lock
from .netcdf import write_netcdf
from .stimuli import StimulusSet, read_stimulus_csv
from .validation import check_assembly, check_stimulus_set

__all__ = [
    "default_downloads_path",
    "package_data_assembly",
    "package_data_assembly_locally",
    "package_stimulus_set",
    "package_stimulus_set_locally",
    "sha1_hash",
    "write_netcdf",
    "zip_identifier",
]

_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_DROPPED_COLUMNS = ("stimulus_current_local_file_path", "stimulus_path_within_store")


def default_downloads_path() -> Path:
    """``~/Downloads/brainscore_packages/`` (the tutorial's default output folder)."""
    return Path("~/Downloads/brainscore_packages").expanduser()


def _arcnames(stimulus_set: StimulusSet) -> list[str]:
    ids = stimulus_set["stimulus_id"].tolist()
    within = (stimulus_set["stimulus_path_within_store"].astype(str).tolist()
              if "stimulus_path_within_store" in stimulus_set.columns else ids)
    return [name + os.path.splitext(stimulus_set.get_stimulus(sid))[1] for sid, name in zip(ids, within)]


ZIP_COMMENT_PREFIX = "brainio stimulus set "


def zip_identifier(path: str | os.PathLike) -> str | None:
    """The stimulus set identifier recorded in a packaged ZIP's comment (None for archives packaged elsewhere)."""
    with zipfile.ZipFile(path) as archive:
        comment = archive.comment.decode("utf-8", "replace")
    return comment[len(ZIP_COMMENT_PREFIX):] if comment.startswith(ZIP_COMMENT_PREFIX) else None


def _write_zip(path: Path, entries: list[tuple[str, str]], identifier: str) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.comment = (ZIP_COMMENT_PREFIX + identifier).encode("utf-8")  # the identifier inside the file
        for arcname, source in sorted(entries):
            info = zipfile.ZipInfo(arcname, date_time=_ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.create_system = 3
            with open(source, "rb") as file:
                archive.writestr(info, file.read())


def _recorded_identifier(target: Path) -> str | None:
    try:
        if target.suffix == ".zip":
            return zip_identifier(target)
        if target.suffix == ".nc":
            import h5netcdf

            with h5netcdf.File(target, "r") as file:
                return str(file.attrs.get("identifier")) if "identifier" in file.attrs else None
    except (OSError, ValueError, zipfile.BadZipFile):
        return None
    return None


def _refuse_overwrite(target: Path, temp: Path, identifier: str, overwrite: bool) -> None:
    """Refuse to replace ``target`` by different bytes unless ``overwrite``: file names map ``.`` to ``_``, so
    ``Lab.v1`` and ``Lab_v1`` share their files, and a silent replacement breaks the other package."""
    if overwrite or not target.exists() or sha1_hash(target) == sha1_hash(temp):
        return
    recorded = _recorded_identifier(target)
    holder = f"the package of {recorded!r}" if recorded else "another package or an earlier version"
    raise ValidationError(
        f"{target} already exists with different content ({holder}; identifiers that differ only in '.' and '_' "
        f"share file names, and {identifier!r} maps to this one); pass overwrite=True (--overwrite) to replace it, "
        "or package into another folder")


def _require_identifier(identifier: Any, what: str) -> None:
    if not isinstance(identifier, str) or not identifier.strip():
        raise ValidationError([f"the {what} needs an identifier (a non-empty string), got {identifier!r}: set "
                               f"{'stimulus_set.identifier' if what == 'stimulus set' else 'the identifier'} "
                               "or pass it to the packaging call"])


@with_adapters
def package_stimulus_set_locally(proto_stimulus_set: StimulusSet, stimulus_set_identifier: str,
                                 downloads_path: str | os.PathLike | None = None, *,
                                 filename_prefix: str = "stimulus_", overwrite: bool = False) -> dict[str, str]:
    """Write ``stimulus_<id>.csv`` and ``stimulus_<id>.zip`` for a stimulus set.

    Parameters
    ----------
    proto_stimulus_set : StimulusSet
        One row per stimulus with a unique string ``stimulus_id``, ``stimulus_paths`` for every id, no
        ``filename`` column; optional ``stimulus_path_within_store`` names the ZIP entries.
    stimulus_set_identifier : str
    downloads_path : path-like, optional
        Output folder, default=None meaning ``~/Downloads/brainscore_packages/``.
    filename_prefix : str, default='stimulus_'
    overwrite : bool, default=False
        Replace existing files of different content (otherwise refused: nothing is written).

    Returns
    -------
    dict with ``identifier``, ``csv_path``, ``zip_path``, ``csv_sha1``, ``zip_sha1``.

    Raises
    ------
    ValidationError
        Listing every failed check; nothing is written.
    """
    _require_identifier(stimulus_set_identifier, "stimulus set")
    problems = check_stimulus_set(proto_stimulus_set)
    arcnames = _arcnames(proto_stimulus_set) if not problems else []
    duplicated = pd.Series(arcnames)[pd.Series(arcnames).duplicated()].tolist()
    if duplicated:
        problems.append(f"several stimuli map to the same ZIP entry: {duplicated[:10]}")
    if problems:
        raise ValidationError([f"stimulus set {stimulus_set_identifier!r}: {p}" for p in problems])
    folder = Path(downloads_path) if downloads_path is not None else default_downloads_path()
    stem = stimulus_file_stem(stimulus_set_identifier, filename_prefix)
    csv_path, zip_path = folder / f"{stem}.csv", folder / f"{stem}.zip"
    frame = pd.DataFrame(proto_stimulus_set).drop(columns=[c for c in _DROPPED_COLUMNS
                                                          if c in proto_stimulus_set.columns])
    frame["filename"] = arcnames
    ids = proto_stimulus_set["stimulus_id"].tolist()
    entries = [(arcname, proto_stimulus_set.get_stimulus(sid)) for arcname, sid in zip(arcnames, ids)]
    with target_lock(csv_path, zip_path), ExitStack() as stack:  # both files appear, or neither
        temp_csv = stack.enter_context(atomic_path(csv_path))
        temp_zip = stack.enter_context(atomic_path(zip_path))
        frame.to_csv(temp_csv, index=False, lineterminator="\n")
        _write_zip(temp_zip, entries, stimulus_set_identifier)
        _refuse_overwrite(csv_path, temp_csv, stimulus_set_identifier, overwrite)
        _refuse_overwrite(zip_path, temp_zip, stimulus_set_identifier, overwrite)
    return {"identifier": stimulus_set_identifier, "csv_path": str(csv_path), "zip_path": str(zip_path),
            "csv_sha1": sha1_hash(csv_path), "zip_sha1": sha1_hash(zip_path)}


def _find_stimulus_set(folder: Path, identifier: str) -> pd.DataFrame | None:
    csv_path = folder / f"{stimulus_file_stem(identifier)}.csv"
    if not csv_path.is_file():
        return None
    stimulus_set = StimulusSet(read_stimulus_csv(csv_path))
    stimulus_set.identifier = identifier
    return stimulus_set


@with_adapters
def package_data_assembly_locally(proto_data_assembly: xr.DataArray, assembly_identifier: str,
                                  stimulus_set_identifier: str, assembly_class_name: str = "NeuroidAssembly",
                                  downloads_path: str | os.PathLike | None = None, *,
                                  stimulus_set: pd.DataFrame | None = None, allow_nan: bool = False,
                                  extras: dict[str, xr.DataArray] | None = None,
                                  overwrite: bool = False) -> dict[str, str]:
    """Write ``assy_<id>.nc`` for an assembly after the checklist.

    Parameters
    ----------
    proto_data_assembly : DataArray
        Dims must fit ``assembly_class_name`` (NeuroidAssembly: presentation x neuroid [x time_bin]).
    assembly_identifier, stimulus_set_identifier : str
    assembly_class_name : str, default='NeuroidAssembly'
    downloads_path : path-like, optional
        default=None meaning ``~/Downloads/brainscore_packages/``.
    stimulus_set : DataFrame, optional
        The set the assembly's ``stimulus_id`` values must come from; default=None, meaning the packaged
        ``stimulus_<stimulus_set_identifier>.csv`` in ``downloads_path`` (an error when neither exists).
    allow_nan : bool, default=False
        Accept NaN values (e.g. padded repetitions).
    extras : dict of str -> DataArray, optional
        Extra arrays written as netCDF groups.
    overwrite : bool, default=False
        Replace an existing file of different content (otherwise refused). The file records
        ``identifier`` and ``stimulus_set_identifier`` in its attributes.

    Returns
    -------
    dict with ``identifier``, ``path``, ``sha1``, ``cls``.
    """
    _require_identifier(assembly_identifier, "assembly")
    _require_identifier(stimulus_set_identifier, "stimulus set")
    cls = resolve_assembly_class(assembly_class_name)
    folder = Path(downloads_path) if downloads_path is not None else default_downloads_path()
    if stimulus_set is None and "presentation" in proto_data_assembly.dims:
        stimulus_set = _find_stimulus_set(folder, stimulus_set_identifier)
        if stimulus_set is None:
            raise ValidationError(f"assembly {assembly_identifier!r}: stimulus set {stimulus_set_identifier!r} not "
                                  f"found in {folder}; package it first or pass stimulus_set=")
    problems = check_assembly(proto_data_assembly, cls, stimulus_set, allow_nan=allow_nan)
    if problems:
        raise ValidationError([f"assembly {assembly_identifier!r}: {p}" for p in problems])
    assembly = cls(proto_data_assembly)
    assembly.attrs = {k: v for k, v in assembly.attrs.items() if k != "stimulus_set"}
    assembly.attrs["identifier"] = assembly_identifier
    assembly.attrs["stimulus_set_identifier"] = stimulus_set_identifier
    for name, extra in (extras or {}).items():
        if not isinstance(extra, xr.DataArray):
            raise ValidationError(f"extra {name!r} must be a DataArray, got {type(extra).__name__}")
        assembly.attrs[name] = extra
    path = folder / assembly_file_name(assembly_identifier)
    with target_lock(path):  # removes what a killed packaging left for this file
        sha1 = write_netcdf(assembly, path, check=lambda temp: _refuse_overwrite(path, temp, assembly_identifier,
                                                                                 overwrite))
    return {"identifier": assembly_identifier, "path": str(path), "sha1": sha1, "cls": cls.__name__}


def _upload(store: Any, local: dict, keys: dict[str, str]) -> dict:
    return {name: store.upload(Path(local[path_key]), Path(local[path_key]).name) for name, path_key in keys.items()}


@with_adapters
def package_stimulus_set(catalog_name: str | None, proto_stimulus_set: StimulusSet, stimulus_set_identifier: str,
                         bucket_name: str = "brainio-brainscore", *, store: Any = None,
                         downloads_path: str | os.PathLike | None = None, overwrite: bool = False) -> dict[str, Any]:
    """Package locally, then upload CSV and ZIP to ``store`` (default ``S3Store(bucket_name)``).

    ``overwrite=True`` replaces local files of different content left by an earlier packaging (a new version).

    ``catalog_name`` is accepted for Brain-Score compatibility and unused (no lookup catalogs here).
    Returns the local dict plus ``csv_version_id``, ``zip_version_id`` and ``bucket``.
    """
    local = package_stimulus_set_locally(proto_stimulus_set, stimulus_set_identifier, downloads_path,
                                         overwrite=overwrite)
    if store is None:
        from .stores.s3 import S3Store

        store = S3Store(bucket_name)
    versions = _upload(store, local, {"csv_version_id": "csv_path", "zip_version_id": "zip_path"})
    return {**local, **versions, "bucket": getattr(store, "bucket", bucket_name)}


@with_adapters
def package_data_assembly(catalog_identifier: str | None, proto_data_assembly: xr.DataArray,
                          assembly_identifier: str, stimulus_set_identifier: str,
                          assembly_class_name: str = "NeuronRecordingAssembly",
                          bucket_name: str = "brainio-brainscore", extras: dict | None = None, *,
                          store: Any = None, downloads_path: str | os.PathLike | None = None,
                          stimulus_set: pd.DataFrame | None = None, allow_nan: bool = False,
                          overwrite: bool = False) -> dict[str, Any]:
    """Package locally, then upload the netCDF file to ``store`` (default ``S3Store(bucket_name)``).

    ``overwrite=True`` replaces a local file of different content left by an earlier packaging (a new version).

    Returns the local dict plus ``version_id`` and ``bucket``.
    """
    local = package_data_assembly_locally(proto_data_assembly, assembly_identifier, stimulus_set_identifier,
                                          assembly_class_name, downloads_path, stimulus_set=stimulus_set,
                                          allow_nan=allow_nan, extras=extras, overwrite=overwrite)
    if store is None:
        from .stores.s3 import S3Store

        store = S3Store(bucket_name)
    versions = _upload(store, local, {"version_id": "path"})
    return {**local, **versions, "bucket": getattr(store, "bucket", bucket_name)}
