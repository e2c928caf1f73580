"""Render the Marques2020 grating stimulus sets from their parameter tables and package them with brainio.

Run as a script to package all five sets into a folder of your choice::

    python -m brainscore_vision.data.marques2020.data_packaging.stimuli --raw-data ../shared/data --out /tmp/m20

Each set ``Marques2020_<name>`` comes from ``marques2020/stimuli/image_dicarlo_Marques2020_<name>.csv``: one image per
row, in the table's order (Brain-Score's property code reshapes responses in that order). The stimulus set keeps
every column of the table (``degrees``, ``radius``, ``position_x``, ``position_y``, ``orientation``, ``phase``,
``contrast``, ``spatial_frequency``, ``image_id``, ``image_file_name``) and adds ``stimulus_id`` (= ``image_id`` as
text); the table's ``filename`` is the ZIP entry name ``<stimulus_id>.png``, which packaging writes again. Gratings
are 672 x 672 px over 12 deg, the blank 448 x 448 px of grey 128 (the source's sizes).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from brainio.stimuli import StimulusSet
from brainscore_vision.data.marques2020.gratings import (
    GREY,
    StimulusTableError,
    encode_png,
    grating_batches,
    require_columns,
)
from brainscore_vision.data_helpers.packaging_steps import (
    add_stimulus_set,
    empty_manifest,
    run_packaging_script,
)

__all__ = ["IMAGE_SIZE_PX", "SETS", "build_stimulus_set", "package", "package_set", "read_table",
           "stimulus_set_identifier", "table_path"]

SETS = ("orientation", "spatial_frequency", "size", "receptive_field", "blank")
IMAGE_SIZE_PX = {"orientation": 672, "spatial_frequency": 672, "size": 672, "receptive_field": 672, "blank": 448}
"""Image width and height in pixels per set (56 px/deg over 12 deg; the blank as Brain-Score's, 448 px)."""
_TABLE_ONLY = ("filename",)  # written again by brainio's packaging


def stimulus_set_identifier(name: str) -> str:
    """``'Marques2020_<name>'``, Brain-Score's identifier of the set."""
    return f"Marques2020_{name}"


def table_path(raw_directory: Path, name: str) -> Path:
    """Parameter table of set ``name`` inside the raw ``marques2020/`` folder."""
    return Path(raw_directory) / "stimuli" / f"image_dicarlo_{stimulus_set_identifier(name)}.csv"


def read_table(path: Path, *, blank: bool = False) -> pd.DataFrame:
    """The parameter table at ``path``, checked: the columns the generator needs and ``image_id`` = row index.

    Raises
    ------
    StimulusTableError
        Naming the missing column(s) or the first out-of-order ``image_id``, and the file.
    """
    table = pd.read_csv(path)
    require_columns(table, ("degrees", "image_id") if blank else
                    ("image_id", "degrees", "radius", "position_x", "position_y", "orientation", "phase", "contrast",
                     "spatial_frequency"), path)
    misplaced = np.flatnonzero(table["image_id"].to_numpy() != np.arange(len(table)))
    if len(misplaced):
        raise StimulusTableError(f"stimulus table {path}: image_id must equal the row index 0..{len(table) - 1}; "
                                 f"row {misplaced[0]} has {table['image_id'].iloc[misplaced[0]]!r}")
    return table


def build_stimulus_set(raw_directory: Path, name: str, image_directory: Path) -> StimulusSet:
    """Render set ``name`` into ``image_directory`` (one ``<image_id>.png`` per row) and describe it.

    Returns
    -------
    StimulusSet with ``identifier`` and ``stimulus_paths`` set, one row per table row in table order.
    """
    path = table_path(raw_directory, name)
    table = read_table(path, blank=name == "blank")
    image_directory = Path(image_directory)
    image_directory.mkdir(parents=True, exist_ok=True)
    size_px = IMAGE_SIZE_PX[name]
    stimulus_ids = table["image_id"].astype(str).to_numpy()
    if name == "blank":
        blank = encode_png(np.full((size_px, size_px), GREY, dtype=np.uint8))
        batches = [(np.arange(len(table)), None)]
    else:
        batches = grating_batches(table, size_px, source=path)
    for rows, images in batches:
        for position, row in enumerate(rows):
            png = blank if images is None else encode_png(images[position])
            (image_directory / f"{stimulus_ids[row]}.png").write_bytes(png)
    frame = table.drop(columns=[column for column in _TABLE_ONLY if column in table.columns])
    frame.insert(0, "stimulus_id", stimulus_ids)
    stimulus_set = StimulusSet(frame)
    stimulus_set.stimulus_paths = {sid: str(image_directory / f"{sid}.png") for sid in stimulus_ids}
    stimulus_set.identifier = stimulus_set_identifier(name)
    return stimulus_set


def package_set(name: str, raw_directory: Path, store_directory: Path) -> Mapping[str, Any]:
    """Render and package set ``name`` (CSV + ZIP) into ``store_directory``; returns its manifest.

    The PNG files are rendered into a temporary folder inside ``store_directory`` (``.render-<name>-*.part``: a
    killed run's folder is removed by the next packaging of the store, under its lock) and removed afterwards.
    """
    store_directory = Path(store_directory)
    store_directory.mkdir(parents=True, exist_ok=True)
    manifest = empty_manifest()
    with tempfile.TemporaryDirectory(dir=store_directory, prefix=f".render-{name}-", suffix=".part") as images:
        stimulus_set = build_stimulus_set(raw_directory, name, Path(images))
        add_stimulus_set(manifest, stimulus_set, stimulus_set_identifier(name), store_directory)
    return manifest


def package(raw_directory: Path, store_directory: Path) -> Mapping[str, Any]:
    """Render and package all five sets into ``store_directory``; returns the manifest."""
    manifest = empty_manifest()
    for name in SETS:
        manifest["stimulus_sets"].update(package_set(name, raw_directory, store_directory)["stimulus_sets"])
    return manifest


def main(argv: list[str] | None = None) -> None:
    run_packaging_script(package, "marques2020", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
