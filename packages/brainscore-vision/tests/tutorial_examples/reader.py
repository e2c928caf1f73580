"""The reader's own data for the tutorial examples: real images, simulated responses, packaged and registered the way
the data-packaging tutorial shows.

- ``MyExperiment2024`` (also ``YourDataset``, IT only): 40 of the Kriegeskorte 2008 images (``$BRAINSCORE_RAW_DATA``)
  and simulated responses of 20 IT and 20 V4 neuroids, 3 repetitions, one 70-170 ms bin. Each neuroid's response is a
  fixed random mix of the image's downsampled pixels plus noise, so image-computable models can predict some of it.
- ``AuthorYear2021`` (the legacy tutorial's ``'<authoryear>'``): 48 of the images, 4 objects of 12 images (columns
  ``image_id`` and ``image_label``), and 1,200 simulated match-to-sample human trials (``sample_obj``, ``dist_obj``,
  ``truth``, the choice as the value).

:func:`prepare` packages them once into a brainio ``LocalStore`` (``$TUTORIAL_READER_STORE``) and records the sha1s;
:func:`register` (run at the top of each example's process) registers loaders that read them back through the normal
sha1-checked path. The other functions give the in-memory objects some snippets assume (``stimulus_set``,
``assembly``, ``df``, ...).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

N_IMAGES, N_REPETITIONS, N_PER_REGION = 40, 3, 20
OBJECTS = {"human bodypart": "body", "human face": "face", "nonhuman bodypart": "animalbody",
           "nonhuman face": "animalface"}


def raw_data() -> Path:
    return Path(os.environ["BRAINSCORE_RAW_DATA"]) / "kriegeskorte2008"


def _catalogue() -> pd.DataFrame:
    return pd.read_csv(raw_data() / "stimuli.csv", dtype={"stimulus_id": str})


def stimulus_paths(n: int = N_IMAGES) -> dict[str, Path]:
    frame = _catalogue().iloc[:n]
    return {sid: raw_data() / filename for sid, filename in zip(frame["stimulus_id"], frame["filename"], strict=True)}


def stimulus_set(n: int = N_IMAGES):
    """The reader's stimulus set ``MyExperiment2024`` (``stimulus_id``, ``category``), with its file paths."""
    from brainio.stimuli import StimulusSet

    frame = _catalogue().iloc[:n][["stimulus_id", "category"]].reset_index(drop=True)
    stimuli = StimulusSet(frame)
    stimuli.stimulus_paths = stimulus_paths(n)
    stimuli.name = "MyExperiment2024"
    return stimuli


def _pixels(ids) -> np.ndarray:
    from PIL import Image

    paths = stimulus_paths(92)
    return np.stack([np.asarray(Image.open(paths[sid]).convert("L").resize((16, 16)), dtype=float).ravel() / 255
                     for sid in ids])


def assembly(regions=("IT", "V4")):
    """Simulated responses (presentation x neuroid x time_bin) to the reader's images, with repetitions."""
    from brainio.assemblies import NeuroidAssembly

    rng = np.random.default_rng(2024)
    ids = list(stimulus_paths())
    pixels = _pixels(ids)
    pixels = (pixels - pixels.mean(0)) / (pixels.std(0) + 1e-9)
    n_neuroids = N_PER_REGION * len(regions)
    signal = pixels @ rng.normal(size=(pixels.shape[1], n_neuroids)) / np.sqrt(pixels.shape[1])
    trials = np.concatenate([signal + 0.7 * rng.normal(size=signal.shape) for _ in range(N_REPETITIONS)])
    return NeuroidAssembly(trials[:, :, None], dims=["presentation", "neuroid", "time_bin"], coords={
        "stimulus_id": ("presentation", ids * N_REPETITIONS),
        "repetition": ("presentation", np.repeat(np.arange(N_REPETITIONS), len(ids))),
        "neuroid_id": ("neuroid", [f"n{i:02d}" for i in range(n_neuroids)]),
        "region": ("neuroid", np.repeat(list(regions), N_PER_REGION)),
        "time_bin_start": ("time_bin", [70]), "time_bin_end": ("time_bin", [170])})


def legacy_stimulus_set():
    """``AuthorYear2021``: 48 images of 4 objects, with brainio 2021's ``image_id`` and an ``image_label``."""
    from brainio.stimuli import StimulusSet

    frame = _catalogue().iloc[:48]
    stimuli = StimulusSet(pd.DataFrame({"stimulus_id": frame["stimulus_id"], "image_id": frame["stimulus_id"],
                                        "image_label": frame["category"].map(OBJECTS),
                                        "object_name": frame["category"].map(OBJECTS)}).reset_index(drop=True))
    stimuli.stimulus_paths = stimulus_paths(48)
    stimuli.name = "AuthorYear2021"
    return stimuli


def legacy_trials():
    """1,200 simulated match-to-sample trials on ``AuthorYear2021`` (a BehavioralAssembly, the choice as value)."""
    from brainio.assemblies import BehavioralAssembly

    rng = np.random.default_rng(2021)
    stimuli = legacy_stimulus_set()
    objects = sorted(set(OBJECTS.values()))
    difficulty = rng.uniform(0.6, 0.95, len(stimuli))
    image = rng.integers(len(stimuli), size=1200)
    truth = stimuli["image_label"].to_numpy()[image]
    distractor = np.array([objects[(objects.index(t) + k) % 4] for t, k in zip(truth, rng.integers(1, 4, 1200),
                                                                              strict=True)])
    choice = np.where(rng.random(1200) < difficulty[image], truth, distractor)
    ids = stimuli["stimulus_id"].to_numpy()[image]
    return BehavioralAssembly(choice, dims=["presentation"], coords={
        "stimulus_id": ("presentation", ids), "image_id": ("presentation", ids),
        "sample_obj": ("presentation", truth), "dist_obj": ("presentation", distractor),
        "truth": ("presentation", truth), "choice": ("presentation", choice),
        "trial": ("presentation", np.arange(1200))})


def prepare(store: Path) -> None:
    """Package the reader's data into ``store`` (once) and record the sha1s in ``store/reader.json``."""
    from brainio.packaging import package_data_assembly_locally, package_stimulus_set_locally

    store = Path(store)
    if (store / "reader.json").exists():
        return
    records = {}
    for identifier, stimuli, data, cls in (
            ("MyExperiment2024", stimulus_set(), assembly(), "NeuroidAssembly"),
            ("YourDataset", stimulus_set(), assembly(("IT",)), "NeuroidAssembly"),
            ("AuthorYear2021", legacy_stimulus_set(), legacy_trials(), "BehavioralAssembly")):
        packaged_stimuli = package_stimulus_set_locally(stimuli, identifier, downloads_path=store)
        packaged = package_data_assembly_locally(data, identifier, identifier, cls, downloads_path=store)
        records[identifier] = {"csv_sha1": packaged_stimuli["csv_sha1"], "zip_sha1": packaged_stimuli["zip_sha1"],
                               "sha1": packaged["sha1"], "cls": cls}
    (store / "reader.json").write_text(json.dumps(records))


def register() -> None:
    """Register the reader's data plugins (stimulus sets and assemblies) in this process."""
    from brainio import LocalStore, load_assembly, load_stimulus_set
    from brainio.assemblies import resolve_assembly_class
    from brainscore_vision import data_registry, stimulus_set_registry

    folder = Path(os.environ["TUTORIAL_READER_STORE"])
    store = LocalStore(folder)
    for identifier, record in json.loads((folder / "reader.json").read_text()).items():
        def stimuli(identifier=identifier, record=record):
            return load_stimulus_set(identifier, store, csv_sha1=record["csv_sha1"], zip_sha1=record["zip_sha1"])

        def data(identifier=identifier, record=record, stimuli=stimuli):
            return load_assembly(identifier, store, sha1=record["sha1"], cls=resolve_assembly_class(record["cls"]),
                                 stimulus_set_loader=stimuli)

        stimulus_set_registry[identifier] = stimuli
        data_registry[identifier] = data


def averaged_assembly(region: str | None = "IT"):
    """The reader's repetition-averaged responses (one region, time bin squeezed), as most snippets assume."""
    from brainio.assemblies import average_repetition

    data = assembly()
    if region is not None:
        data = data.sel(region=region)
    return average_repetition(data).squeeze("time_bin", drop=True)


def model_assembly():
    """Model-like features of the reader's images (the 16 x 16 pixels), ``presentation x neuroid``."""
    from brainio.assemblies import NeuroidAssembly

    ids = list(stimulus_paths())
    pixels = _pixels(ids)
    return NeuroidAssembly(pixels, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", [f"pixel{i}" for i in range(pixels.shape[1])]),
        "layer": ("neuroid", ["pixels"] * pixels.shape[1])})


def write_stimuli_csv(path: Path = Path("stimuli.csv")) -> Path:
    """A CSV as a lab has it: ``stimulus_id`` (integers, to be made strings), ``filename``, ``category``."""
    frame = _catalogue().iloc[:N_IMAGES]
    pd.DataFrame({"stimulus_id": np.arange(1, N_IMAGES + 1), "filename": [Path(f).name for f in frame["filename"]],
                  "category": frame["category"]}).to_csv(path, index=False)
    return path


def load_assembly(average_repetitions: bool = True, region: str = "IT"):
    """The reader's own ``load_assembly`` (the tutorials' pattern): their registered data, one region, repetitions
    averaged or kept (time bin kept, as loaded)."""
    from brainio.assemblies import average_repetition
    from brainscore_vision import load_dataset

    data = load_dataset("MyExperiment2024")
    data = data.sel(neuroid=data["region"] == region)
    return average_repetition(data) if average_repetitions else data
