"""Steps every packaging script shares: package into a local store while filling the manifest, and the
``--raw-data``/``--out`` command line.

The manifest is the mapping :class:`~brainscore_vision.data_helpers.packaged.PackagedData` expects from a
plugin's ``package(raw_directory, store_directory)``::

    {'stimulus_sets': {identifier: {'csv_sha1', 'zip_sha1'}},
     'assemblies': {identifier: {'sha1', 'cls', 'stimulus_set_identifier'}}}
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from brainio.packaging import package_data_assembly_locally, package_stimulus_set_locally

__all__ = ["add_assembly", "add_stimulus_set", "empty_manifest", "run_packaging_script", "verified_stimulus_set"]


def verified_stimulus_set(table, raw_directory: Path, identifier: str, *, sha1_column: str,
                          digest: Callable[[Path], str] | None = None, error: type[Exception] = ValueError,
                          what: str = "sha1"):
    """A StimulusSet of the raw ``table`` (``stimulus_id`` and ``filename`` columns relative to ``raw_directory``),
    every file checked against the table's ``sha1_column`` before anything is packaged.

    Parameters
    ----------
    table : DataFrame
        One row per stimulus; ``filename`` is renamed ``raw_filename`` (packaging writes its own ``filename``).
    raw_directory : Path
    identifier : str
    sha1_column : str
        The column holding each file's expected digest.
    digest : callable, default=None
        ``digest(path) -> hex``; None means the sha1 of the file's bytes.
    error : exception class, default=ValueError
        Raised for a mismatch, with a message naming the file, both digests and ``what`` was hashed.
    """
    from brainio.files import sha1_hash
    from brainio.stimuli import StimulusSet

    digest = digest or sha1_hash
    raw_directory = Path(raw_directory)
    paths = {}
    for stimulus_id, filename, expected in zip(table["stimulus_id"], table["filename"], table[sha1_column]):
        path = raw_directory / filename
        actual = digest(path)
        if actual != expected:
            raise error(f"image {path} has {what} {actual}, the stimulus table records {expected}")
        paths[stimulus_id] = str(path)
    stimulus_set = StimulusSet(table.rename(columns={"filename": "raw_filename"}))
    stimulus_set.stimulus_paths = paths
    stimulus_set.identifier = identifier
    return stimulus_set


def empty_manifest() -> dict[str, dict[str, Any]]:
    """A manifest with no stimulus sets and no assemblies yet."""
    return {"stimulus_sets": {}, "assemblies": {}}


def add_stimulus_set(manifest: dict[str, dict[str, Any]], stimulus_set, identifier: str,
                     store_directory: Path) -> None:
    """Package ``stimulus_set`` (CSV + ZIP) into ``store_directory`` and record its sha1s in ``manifest``."""
    packaged = package_stimulus_set_locally(stimulus_set, identifier, downloads_path=store_directory,
                                            overwrite=True)  # the plugin's own store: re-packaging replaces
    manifest["stimulus_sets"][identifier] = {"csv_sha1": packaged["csv_sha1"], "zip_sha1": packaged["zip_sha1"]}


def add_assembly(manifest: dict[str, dict[str, Any]], assembly, identifier: str, stimulus_set_identifier: str,
                 assembly_class_name: str, store_directory: Path, *, stimulus_set=None,
                 allow_nan: bool = False) -> None:
    """Package ``assembly`` (netCDF) into ``store_directory`` and record its sha1, class and stimulus set
    in ``manifest``. ``stimulus_set`` (a table with ``stimulus_id``) stands in for a stimulus set that is not
    packaged in the same store (e.g. one registered by reference); ``allow_nan`` accepts NaN values (e.g. a
    property that is undefined for some neurons)."""
    packaged = package_data_assembly_locally(assembly, identifier, stimulus_set_identifier, assembly_class_name,
                                             downloads_path=store_directory, stimulus_set=stimulus_set,
                                             allow_nan=allow_nan, overwrite=True)
    manifest["assemblies"][identifier] = {"sha1": packaged["sha1"], "cls": assembly_class_name,
                                          "stimulus_set_identifier": stimulus_set_identifier}


def run_packaging_script(package: Callable[[Path, Path], Mapping[str, Any]], raw_folder: str, description: str,
                         argv: list[str] | None = None) -> None:
    """Command line of a packaging script: ``--raw-data`` (the folder holding ``raw_folder/``) and ``--out``;
    packages and prints one line per packaged file."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--raw-data", required=True, type=Path, help=f"folder that contains {raw_folder}/")
    parser.add_argument("--out", required=True, type=Path, help="folder to write the packaged files into")
    args = parser.parse_args(argv)
    for section, entries in package(args.raw_data / raw_folder, args.out).items():
        for identifier, entry in entries.items():
            print(section, identifier, entry)
