"""Package Geirhos et al. (2021) "model-vs-human" (raw files in ``geirhos2021/``) into brainio files.

Run as a script::

    python -m brainscore_vision.data.geirhos2021.data_packaging.packaging --raw-data ../shared/data --out /tmp/g21

* assemblies ``Geirhos2021_<dataset>`` for all 17 data sets (``BehavioralAssembly``, one ``presentation`` per
  trial, the subject's choice as the value; ``na`` = no answer in time), built from every response CSV with
  vectorised pandas string operations. Presentation coordinates: ``stimulus_id``, ``truth`` and ``category``
  (the ground-truth class), ``choice``, ``condition`` (string), ``subject``, ``session``, ``trial``,
  ``response_time`` (the CSV's ``rt``), ``image_id_long`` (the CSV's ``imagename``).
* stimulus sets ``Geirhos2021_{cue-conflict,edge,silhouette,sketch}`` (the four data sets with images): every
  column of ``stimuli_<dataset>.csv`` plus ``truth`` (= ``category``, the shape class for cue-conflict) and
  ``condition`` (``'0'``); image sha1s checked against the table.

Trial -> stimulus: for the four data sets with images, ``stimulus_id`` is the part of ``imagename`` after its 6th
underscore (the raw folder's rule, equal to the stimulus tables' ids). For the 13 data sets without images it is
Brain-Score's lookup id, the ``imagename`` fields from the 4th on (``<condition>_<class>_<nn>_<source image>``),
so that the trials match Brain-Score's stimulus sets of those data sets.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from brainio.assemblies import BehavioralAssembly
from brainscore_core.progress import progress
from brainscore_vision.data_helpers.packaging_steps import (
    add_assembly,
    add_stimulus_set,
    empty_manifest,
    run_packaging_script,
    verified_stimulus_set,
)
from brainscore_vision.errors import RawDataError

__all__ = ["CLASSES", "DATASETS", "DATASETS_WITH_IMAGES", "RawDataError", "build_assembly", "build_stimulus_set",
           "identifier", "package", "read_trials"]

DATASETS = ("colour", "contrast", "cue-conflict", "edge", "eidolonI", "eidolonII", "eidolonIII", "false-colour",
            "high-pass", "low-pass", "phase-scrambling", "power-equalisation", "rotation", "silhouette", "sketch",
            "stylized", "uniform-noise")
DATASETS_WITH_IMAGES = ("cue-conflict", "edge", "silhouette", "sketch")
CLASSES = ("airplane", "bear", "bicycle", "bird", "boat", "bottle", "car", "cat", "chair", "clock", "dog",
           "elephant", "keyboard", "knife", "oven", "truck")
NO_RESPONSE = "na"
_COLUMNS = ("subj", "session", "trial", "rt", "object_response", "category", "condition", "imagename")




def identifier(dataset: str) -> str:
    """``'Geirhos2021_<dataset>'``, Brain-Score's identifier of the data set's assembly and stimulus set."""
    return f"Geirhos2021_{dataset}"


def _read_one(path: Path) -> pd.DataFrame:
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    table = table.rename(columns={"Session": "session"})
    missing = [column for column in _COLUMNS if column not in table.columns]
    if missing:
        raise RawDataError(f"{path}: missing columns {missing}")
    if table.empty:
        raise RawDataError(f"{path}: subject file without trials")
    table["source_file"] = path.name
    table["source_row"] = np.arange(2, len(table) + 2)  # 1-based line numbers, after the header
    return table


def read_trials(raw_directory: Path, dataset: str) -> pd.DataFrame:
    """Every trial of ``dataset`` (all subject files concatenated), with a ``stimulus_id`` column.

    Raises
    ------
    RawDataError
        No response files, a file without trials, a missing column, or a class label outside the 16 classes
        (the message names the file and line).
    """
    files = sorted((Path(raw_directory) / "responses" / dataset).glob(f"{dataset}_subject-*_session_*.csv"))
    if not files:
        raise RawDataError(f"no response files for {dataset!r} in {Path(raw_directory) / 'responses' / dataset}")
    trials = pd.concat([_read_one(path) for path in files], ignore_index=True)
    known = set(CLASSES)
    for column, allowed in (("category", known), ("object_response", known | {NO_RESPONSE})):
        bad = ~trials[column].isin(allowed)
        if bad.any():
            row = trials[bad].iloc[0]
            raise RawDataError(f"{row['source_file']} line {row['source_row']}: unknown class label "
                               f"{row[column]!r} in column {column!r} ({int(bad.sum())} such trials); "
                               f"expected one of {list(CLASSES)}" + (" or 'na'" if column == "object_response" else ""))
    stem = trials["imagename"].str.removesuffix(".png")
    if dataset in DATASETS_WITH_IMAGES:
        trials["stimulus_id"] = stem.str.split("_", n=6).str[6]
    else:
        trials["stimulus_id"] = stem.str.split("_", n=3).str[3]
    if trials["stimulus_id"].isna().any():
        row = trials[trials["stimulus_id"].isna()].iloc[0]
        raise RawDataError(f"{row['source_file']} line {row['source_row']}: imagename {row['imagename']!r} does not "
                           "have the <nnnn>_<code>_<subject>_<condition>_<class>_<nn>_<image>.png form")
    return trials


def build_stimulus_set(raw_directory: Path, dataset: str):
    """The images of one of the four data sets with images, in the table's order; sha1s checked."""
    raw_directory = Path(raw_directory)
    table_path = raw_directory / f"stimuli_{dataset}.csv"
    table = pd.read_csv(table_path, dtype={"stimulus_id": str, "category": str})
    table["truth"] = table["category"]
    table["condition"] = "0"
    return verified_stimulus_set(table, raw_directory, identifier(dataset), sha1_column="sha1", error=RawDataError)


def build_assembly(trials: pd.DataFrame, dataset: str, stimulus_ids=None) -> BehavioralAssembly:
    """The trials as a ``BehavioralAssembly`` (dims ``presentation``), choices as values.

    Parameters
    ----------
    trials : DataFrame
        From :func:`read_trials`.
    dataset : str
    stimulus_ids : collection of str, optional
        The stimulus set's ids; a trial whose stimulus is not among them is an error naming file and line.
    """
    if stimulus_ids is not None:
        absent = ~trials["stimulus_id"].isin(set(stimulus_ids))
        if absent.any():
            row = trials[absent].iloc[0]
            raise RawDataError(f"{row['source_file']} line {row['source_row']}: stimulus {row['stimulus_id']!r} "
                               f"is not in the stimulus set {identifier(dataset)!r} ({int(absent.sum())} such trials)")
    response_time = pd.to_numeric(trials["rt"].replace({"NaN": "nan", "": "nan"}), errors="coerce")
    assembly = BehavioralAssembly(
        trials["object_response"].to_numpy(dtype=object).astype(str),
        coords={"stimulus_id": ("presentation", trials["stimulus_id"].to_numpy().astype(str)),
                "truth": ("presentation", trials["category"].to_numpy().astype(str)),
                "category": ("presentation", trials["category"].to_numpy().astype(str)),
                "choice": ("presentation", trials["object_response"].to_numpy().astype(str)),
                "condition": ("presentation", trials["condition"].to_numpy().astype(str)),
                "subject": ("presentation", trials["subj"].to_numpy().astype(str)),
                "session": ("presentation", trials["session"].astype(int).to_numpy()),
                "trial": ("presentation", trials["trial"].astype(int).to_numpy()),
                "response_time": ("presentation", response_time.to_numpy(dtype=np.float64)),
                "image_id_long": ("presentation", trials["imagename"].to_numpy().astype(str))},
        dims=["presentation"])
    assembly.attrs["dataset"] = dataset
    return assembly


def package(raw_directory: Path, store_directory: Path) -> Mapping[str, Any]:
    """Build and package the 4 stimulus sets and the 17 assemblies into ``store_directory``."""
    raw_directory, store_directory = Path(raw_directory), Path(store_directory)
    store_directory.mkdir(parents=True, exist_ok=True)
    manifest = empty_manifest()
    for dataset in progress(DATASETS, desc="packaging Geirhos2021", unit="data set"):
        trials = read_trials(raw_directory, dataset)
        if dataset in DATASETS_WITH_IMAGES:
            stimulus_set = build_stimulus_set(raw_directory, dataset)
            add_stimulus_set(manifest, stimulus_set, identifier(dataset), store_directory)
            assembly = build_assembly(trials, dataset, stimulus_set["stimulus_id"])
            stand_in = None
        else:  # Brain-Score's own stimulus set is remote: the trials' ids stand in for the packaging check
            assembly = build_assembly(trials, dataset)
            stand_in = pd.DataFrame({"stimulus_id": np.unique(trials["stimulus_id"].to_numpy().astype(str))})
        add_assembly(manifest, assembly, identifier(dataset), identifier(dataset), "BehavioralAssembly",
                     store_directory, stimulus_set=stand_in)
    return manifest


def main(argv: list[str] | None = None) -> None:
    run_packaging_script(package, "geirhos2021", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
