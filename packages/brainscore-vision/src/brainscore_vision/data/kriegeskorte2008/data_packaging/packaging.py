"""Package the 92-image data of Kriegeskorte et al. 2008 (raw files in ``kriegeskorte2008/``) into brainio files.

Run as a script::

    python -m brainscore_vision.data.kriegeskorte2008.data_packaging.packaging --raw-data ../shared/data --out /tmp/k92

* stimulus set ``Kriegeskorte2008``: 92 PNGs in RDM order, every column of ``stimuli.csv`` kept
  (``filename`` renamed to ``raw_filename``); the decoded pixels are checked against ``pixel_sha1``.
* ``Kriegeskorte2008.hIT``: ``human_it_rdms`` (4 subjects x 2 sessions x 92 x 92, float32 as in the source);
* ``Kiani2007.mIT``: ``monkey_it_rdm`` (92 x 92) as one subject and one session.

Both are ``DataAssembly`` objects of dims ``subject x session x stimulus_row x stimulus_column``; RDM
row/column ``i`` is stimulus ``stimulus_ids[i]`` of ``rdms.npz``, checked to equal the CSV order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PIL import Image

from brainio.assemblies import DataAssembly
from brainio.stimuli import StimulusSet
from brainscore_core.progress import progress as progress_bar
from brainscore_vision.data_helpers.packaging_steps import (
    add_assembly,
    add_stimulus_set,
    empty_manifest,
    run_packaging_script,
    verified_stimulus_set,
)
from brainscore_vision.errors import RawDataError

__all__ = ["build_rdm_assembly", "build_stimulus_set", "package"]

STIMULUS_SET = "Kriegeskorte2008"
RDM_DIMS = ["subject", "session", "stimulus_row", "stimulus_column"]




def build_stimulus_set(raw_directory: Path) -> StimulusSet:
    """The 92 images in RDM order, with category columns; pixel sha1s checked."""
    raw_directory = Path(raw_directory)
    table = pd.read_csv(raw_directory / "stimuli.csv", dtype={"stimulus_id": str})
    if list(table["index"]) != list(range(len(table))):
        raise RawDataError("stimuli.csv rows are not in index order 0..91")
    return verified_stimulus_set(table, raw_directory, STIMULUS_SET, sha1_column="pixel_sha1", digest=_pixel_sha1,
                                 error=RawDataError, what="pixel sha1")


def _pixel_sha1(path: Path) -> str:
    with Image.open(path) as image:
        pixels = np.ascontiguousarray(np.asarray(image, dtype=np.uint8))
    return hashlib.sha1(pixels.tobytes()).hexdigest()


def build_rdm_assembly(rdms: np.ndarray, stimulus_ids, subjects, sessions) -> DataAssembly:
    """RDMs of shape ``(subject, session, stimulus, stimulus)`` as a labelled DataAssembly."""
    stimulus_ids = [str(s) for s in stimulus_ids]
    return DataAssembly(
        rdms,
        coords={"subject": ("subject", [str(s) for s in subjects]),
                "session": ("session", [int(s) for s in sessions]),
                "stimulus_id_row": ("stimulus_row", stimulus_ids),
                "stimulus_id_column": ("stimulus_column", stimulus_ids)},
        dims=RDM_DIMS)


def _rdm_assemblies(raw_directory: Path, stimulus_set: StimulusSet) -> dict[str, DataAssembly]:
    with np.load(raw_directory / "rdms.npz") as arrays:
        stimulus_ids = [str(s) for s in arrays["stimulus_ids"]]
        if stimulus_ids != list(stimulus_set["stimulus_id"]):
            raise RawDataError("rdms.npz stimulus_ids differ from the stimuli.csv order")
        human = build_rdm_assembly(arrays["human_it_rdms"], stimulus_ids, arrays["human_it_subjects"],
                                   arrays["human_it_sessions"])
        monkey = build_rdm_assembly(arrays["monkey_it_rdm"][None, None], stimulus_ids, ["kiani2007_population"], [1])
    human.attrs.update(region="IT", species="human", measure="1 - Pearson r, fMRI voxel patterns (316 voxels)")
    monkey.attrs.update(region="IT", species="macaque", measure="1 - Pearson r, 674 single neurons")
    return {"Kriegeskorte2008.hIT": human, "Kiani2007.mIT": monkey}


def package(raw_directory: Path, store_directory: Path) -> Mapping[str, Any]:
    """Build and package the stimulus set and both RDM assemblies into ``store_directory``."""
    raw_directory, store_directory = Path(raw_directory), Path(store_directory)
    store_directory.mkdir(parents=True, exist_ok=True)
    manifest = empty_manifest()
    with progress_bar(total=3, desc="packaging Kriegeskorte2008", unit="file") as progress:
        stimulus_set = build_stimulus_set(raw_directory)
        add_stimulus_set(manifest, stimulus_set, STIMULUS_SET, store_directory)
        progress.update()
        for identifier, assembly in _rdm_assemblies(raw_directory, stimulus_set).items():
            add_assembly(manifest, assembly, identifier, STIMULUS_SET, "DataAssembly", store_directory)
            progress.update()
    return manifest


def main(argv: list[str] | None = None) -> None:
    run_packaging_script(package, "kriegeskorte2008", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
