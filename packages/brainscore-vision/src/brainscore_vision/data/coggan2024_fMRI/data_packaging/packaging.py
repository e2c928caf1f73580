"""Package the fMRI similarity matrices of Coggan & Tong (2024) (raw files in ``coggan2024_fmri/``).

Run as a script::

    python -m brainscore_vision.data.coggan2024_fMRI.data_packaging.packaging --raw-data ../shared/data --out /tmp/cg

* stimulus set ``Coggan2024_fMRI``: the 24 greyscale images (8 objects x complete / upper / lower occluder), in
  matrix order, every column of ``stimuli.csv`` kept (``filename`` renamed to ``raw_filename``); file sha1s
  checked against the CSV.
* assembly ``Coggan2024_fMRI`` (``DataAssembly``): ``rsms.npz`` as ``stimulus_row x stimulus_column x neuroid``
  = 24 x 24 x 36, one ``neuroid`` per (region, subject), region-major like Brain-Score's assembly; neuroid
  coordinates ``region`` (V1, V2, V4, IT), ``subject`` (sub-0 .. sub-8) and ``neuroid_id`` (``V1.sub-0``);
  row/column coordinates ``stimulus_id_row`` / ``stimulus_id_column``. The matrices are stored as measured:
  similarities, not symmetric, diagonal below 1 (see the raw folder's README).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from brainio.assemblies import DataAssembly
from brainio.stimuli import StimulusSet
from brainscore_core.progress import progress
from brainscore_vision.data_helpers.packaging_steps import (
    add_assembly,
    add_stimulus_set,
    empty_manifest,
    run_packaging_script,
    verified_stimulus_set,
)
from brainscore_vision.errors import RawDataError

__all__ = ["IDENTIFIER", "RSM_DIMS", "build_rsm_assembly", "build_stimulus_set", "package"]

IDENTIFIER = "Coggan2024_fMRI"
RSM_DIMS = ["stimulus_row", "stimulus_column", "neuroid"]




def build_stimulus_set(raw_directory: Path) -> StimulusSet:
    """The 24 images in matrix order with their object / occlusion columns; file sha1s checked."""
    raw_directory = Path(raw_directory)
    table = pd.read_csv(raw_directory / "stimuli.csv", dtype={"stimulus_id": str})
    if list(table["index"]) != list(range(len(table))):
        raise RawDataError(f"{raw_directory / 'stimuli.csv'}: rows are not in index order 0..{len(table) - 1}")
    stimulus_set = verified_stimulus_set(table, raw_directory, IDENTIFIER, sha1_column="sha1", error=RawDataError)
    return stimulus_set


def build_rsm_assembly(rsms: np.ndarray, regions, subjects, stimulus_ids) -> DataAssembly:
    """Similarity matrices ``(region, subject, stimulus, stimulus)`` as ``stimulus_row x stimulus_column x
    neuroid``, neuroids region-major (``neuroid = n_subjects * region_index + subject_index``)."""
    rsms = np.asarray(rsms, dtype=np.float64)
    n_regions, n_subjects, n_rows, n_columns = rsms.shape
    if n_rows != n_columns or n_rows != len(stimulus_ids):
        raise RawDataError(f"similarity matrices of shape {rsms.shape} do not match {len(stimulus_ids)} stimuli")
    regions = [str(r) for r in regions]
    subjects = [str(s) for s in subjects]
    region_of = np.repeat(regions, n_subjects)
    subject_of = np.tile(subjects, n_regions)
    values = rsms.reshape(n_regions * n_subjects, n_rows, n_columns).transpose(1, 2, 0)
    stimulus_ids = [str(s) for s in stimulus_ids]
    assembly = DataAssembly(
        np.ascontiguousarray(values),
        coords={"stimulus_id_row": ("stimulus_row", stimulus_ids),
                "stimulus_id_column": ("stimulus_column", stimulus_ids),
                "neuroid_id": ("neuroid", [f"{r}.{s}" for r, s in zip(region_of, subject_of)]),
                "region": ("neuroid", list(region_of)),
                "subject": ("neuroid", list(subject_of))},
        dims=RSM_DIMS)
    assembly.attrs.update(species="human", measure="similarity of fMRI response patterns (correlation-like), "
                                                   "not symmetric; rows and columns presumably independent halves")
    return assembly


def package(raw_directory: Path, store_directory: Path) -> Mapping[str, Any]:
    """Build and package the stimulus set and the similarity-matrix assembly into ``store_directory``."""
    raw_directory, store_directory = Path(raw_directory), Path(store_directory)
    store_directory.mkdir(parents=True, exist_ok=True)
    manifest = empty_manifest()
    with progress(total=2, desc="packaging Coggan2024_fMRI", unit="file") as bar:
        stimulus_set = build_stimulus_set(raw_directory)
        add_stimulus_set(manifest, stimulus_set, IDENTIFIER, store_directory)
        bar.update()
        with np.load(raw_directory / "rsms.npz") as arrays:
            stimulus_ids = [str(s) for s in arrays["stimulus_ids"]]
            if stimulus_ids != list(stimulus_set["stimulus_id"]):
                raise RawDataError(f"{raw_directory / 'rsms.npz'}: stimulus_ids differ from the stimuli.csv order")
            assembly = build_rsm_assembly(arrays["rsms"], arrays["regions"], arrays["subjects"], stimulus_ids)
        add_assembly(manifest, assembly, IDENTIFIER, IDENTIFIER, "DataAssembly", store_directory)
        bar.update()
    return manifest


def main(argv: list[str] | None = None) -> None:
    run_packaging_script(package, "coggan2024_fmri", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
