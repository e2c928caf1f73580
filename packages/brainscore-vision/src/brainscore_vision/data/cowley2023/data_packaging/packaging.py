"""Package the Cowley et al. 2023 V4 recordings (raw files in ``cowley2023_v4/``) into brainio files.

Run as a script to package into a folder of your choice::

    python -m brainscore_vision.data.cowley2023.data_packaging.packaging --raw-data ../shared/data --out /tmp/cowley

What is built (see ``cowley2023_v4/README`` in the raw-data folder for the raw layout):

* stimulus set ``Cowley2023``: the 640 images of session 210325 (Bashivan et al. 2019 images, gray-scale
  stored as RGB, 112 x 112 px), one row per image in ``image_index`` order;
* stimulus sets ``Cowley2023.<session>`` for the averaged-only sessions 190923, 201025, 210225, 210224;
* assembly ``Cowley2023`` (NeuroidAssembly): single-trial spike counts of the 50 units of session 210325,
  dims ``presentation x neuroid x time_bin``; one presentation per valid repeat (the NaN-padded repeat
  slots are dropped), coordinates ``stimulus_id`` and ``repetition`` (0-based slot); one 100 ms bin;
* assemblies ``Cowley2023.<session>``: the repeat-averaged counts of the other sessions (no ``repetition``).

Row ``i`` of ``stimuli_<s>.csv`` is image ``images/<s>/c<s>_<i:04d>.jpg`` and column ``i`` of the response
arrays; the JPEG bytes are checked against the CSV's ``jpeg_sha1`` before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from brainio.assemblies import NeuroidAssembly
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

__all__ = ["AVERAGED_SESSIONS", "TIME_BIN", "TRIAL_SESSION", "build_averaged_assembly", "build_stimulus_set",
           "build_trials_assembly", "package", "stimulus_set_identifier"]

TRIAL_SESSION = "210325"
AVERAGED_SESSIONS = ("190923", "201025", "210225", "210224")
REGION = "V4"
TIME_BIN = (50, 150)
"""Spike-count window in ms after image onset (the source's 100 ms count bin; see the benchmark's docstring)."""




def stimulus_set_identifier(session: str) -> str:
    return "Cowley2023" if session == TRIAL_SESSION else f"Cowley2023.{session}"


def build_stimulus_set(raw_directory: Path, session: str) -> StimulusSet:
    """The images of ``session``, one row per image in response-array order, JPEG sha1s checked."""
    raw_directory = Path(raw_directory)
    table = pd.read_csv(raw_directory / f"stimuli_{session}.csv", dtype={"session": str, "stimulus_id": str})
    if list(table["image_index"]) != list(range(len(table))):
        raise RawDataError(f"stimuli_{session}.csv rows are not in image_index order 0..{len(table) - 1}")
    if "n_repeats" in table and table["n_repeats"].isna().all():
        table = table.drop(columns="n_repeats")
    stimulus_set = verified_stimulus_set(table, raw_directory, stimulus_set_identifier(session), sha1_column="jpeg_sha1",
                                         error=RawDataError)
    return stimulus_set


def _neuroid_coords(session: str, n_units: int, animal: str) -> dict[str, tuple[str, Any]]:
    return {
        "neuroid_id": ("neuroid", [f"{session}_u{unit:03d}" for unit in range(n_units)]),
        "unit_index": ("neuroid", np.arange(n_units)),
        "region": ("neuroid", [REGION] * n_units),
        "animal": ("neuroid", [animal] * n_units),
    }


_TIME_COORDS = {"time_bin_start": ("time_bin", [TIME_BIN[0]]), "time_bin_end": ("time_bin", [TIME_BIN[1]])}


def build_trials_assembly(raw_directory: Path, stimulus_set: StimulusSet) -> NeuroidAssembly:
    """Single-trial counts of session 210325: ``presentation x neuroid x time_bin``, padding dropped."""
    raw_directory = Path(raw_directory)
    raw = np.load(raw_directory / f"responses_raw_{TRIAL_SESSION}.npy")  # (unit, image, repeat slot)
    n_units, n_images, n_slots = raw.shape
    if n_images != len(stimulus_set):
        raise RawDataError(f"responses_raw_{TRIAL_SESSION}.npy has {n_images} images, the CSV {len(stimulus_set)}")
    n_repeats = stimulus_set["n_repeats"].to_numpy(dtype=int)
    valid = np.arange(n_slots)[None, :] < n_repeats[:, None]  # (image, slot)
    observed = ~np.isnan(raw).any(axis=0)
    if not np.array_equal(valid, observed) or np.isnan(raw[:, valid]).any():
        raise RawDataError(f"responses_raw_{TRIAL_SESSION}.npy: NaN padding does not match the CSV's n_repeats")
    image_index, slot = np.nonzero(valid)  # image-major, then repeat slot
    values = raw[:, image_index, slot].T[:, :, None]  # (presentation, neuroid, time_bin)
    stimulus_ids = stimulus_set["stimulus_id"].to_numpy()[image_index]
    animal = str(stimulus_set["animal_id"].iloc[0])
    assembly = NeuroidAssembly(
        values.astype(np.float32),
        coords={"stimulus_id": ("presentation", stimulus_ids), "repetition": ("presentation", slot),
                **_neuroid_coords(TRIAL_SESSION, n_units, animal), **_TIME_COORDS},
        dims=["presentation", "neuroid", "time_bin"])
    return assembly


def build_averaged_assembly(raw_directory: Path, session: str, stimulus_set: StimulusSet) -> NeuroidAssembly:
    """Repeat-averaged counts of ``session``: ``presentation x neuroid x time_bin``."""
    averaged = np.load(Path(raw_directory) / f"responses_avg_{session}.npy")  # (unit, image)
    n_units, n_images = averaged.shape
    if n_images != len(stimulus_set):
        raise RawDataError(f"responses_avg_{session}.npy has {n_images} images, the CSV {len(stimulus_set)}")
    animal = str(stimulus_set["animal_id"].iloc[0])
    return NeuroidAssembly(
        averaged.T[:, :, None].astype(np.float32),
        coords={"stimulus_id": ("presentation", stimulus_set["stimulus_id"].to_numpy()),
                **_neuroid_coords(session, n_units, animal), **_TIME_COORDS},
        dims=["presentation", "neuroid", "time_bin"])


def package(raw_directory: Path, store_directory: Path) -> Mapping[str, Any]:
    """Build and package every stimulus set and assembly into ``store_directory``; returns the manifest."""
    raw_directory, store_directory = Path(raw_directory), Path(store_directory)
    store_directory.mkdir(parents=True, exist_ok=True)
    manifest = empty_manifest()
    sessions = (TRIAL_SESSION, *AVERAGED_SESSIONS)
    with progress_bar(total=2 * len(sessions), desc="packaging Cowley2023", unit="file") as progress:
        for session in sessions:
            identifier = stimulus_set_identifier(session)
            stimulus_set = build_stimulus_set(raw_directory, session)
            add_stimulus_set(manifest, stimulus_set, identifier, store_directory)
            progress.update()
            if session == TRIAL_SESSION:
                assembly = build_trials_assembly(raw_directory, stimulus_set)
            else:
                assembly = build_averaged_assembly(raw_directory, session, stimulus_set)
            add_assembly(manifest, assembly, identifier, identifier, "NeuroidAssembly", store_directory)
            progress.update()
    return manifest


def main(argv: list[str] | None = None) -> None:
    run_packaging_script(package, "cowley2023_v4", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
