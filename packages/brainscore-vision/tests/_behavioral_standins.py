"""Our side of the behavioural stand-ins of issue 38 (part 1): the plain data of ``benchmarks/behavioral_standins.py``
as brainio objects, served in place of Brain-Score's bucket, and a BrainModel answering with its functions."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pandas as pd

from brainio import assemblies as assembly_classes
from brainio.assemblies import BehavioralAssembly
from brainio.linking import attach_stimulus_set
from brainio.stimuli import StimulusSet
from brainscore_vision.model_interface import BrainModel

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
EXPECTED = json.loads((HERE / "data" / "reference_behavioral_families.json").read_text())
_spec = importlib.util.spec_from_file_location("behavioral_standins", PACKAGE / "benchmarks" / "behavioral_standins.py")
STANDINS = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(STANDINS)
TRUTH_COLUMNS = ("truth", "animal", "object_class", "image_label")
#: the folder of each family's data plugin (its catalogue.json); Hebart2023 is in the public catalogue
CATALOGUES = {"Baker2022": "baker2022", "BMD2024": "bmd2024", "Lonnqvist2024": "lonnqvist2024",
              "Maniquet2024": "maniquet2024", "Scialom2024": "scialom2024", "Coggan2024_behavior": "coggan2024_behavior",
              "Hebart2023": None}


def catalogue_entries(family: str) -> dict:
    from brainscore_vision.data_helpers.public_catalogue import catalogue, read_catalogue

    folder = CATALOGUES[family]
    if folder is None:
        return catalogue()
    return read_catalogue(PACKAGE / "src" / "brainscore_vision" / "data" / folder / "catalogue.json")


def stimulus_set(identifier: str, columns: dict) -> StimulusSet:
    stimuli = StimulusSet(pd.DataFrame({name: list(values) for name, values in columns.items()}))
    stimuli["stimulus_id"] = stimuli["stimulus_id"].astype(str)  # as brainio reads a stimulus CSV
    stimuli.identifier = identifier
    stimuli.stimulus_paths = {}
    return stimuli


def assembly(data: dict, cls=BehavioralAssembly):
    """The stand-in as Brain-Score's netCDF file holds it (numeric stimulus ids stay numbers)."""
    return cls(np.asarray(data["values"]), coords={name: ("presentation", np.asarray(values))
                                                   for name, values in data["coords"].items()}, dims=["presentation"])


def write_images(root: Path, ids) -> dict[str, str]:
    """A small PNG per stimulus id (a colour and a square fixed by the id): ``{id: path}``."""
    from PIL import Image

    paths = {}
    for stimulus_id in sorted({str(i) for i in ids}):
        pixels = np.full((32, 32, 3), [int(255 * STANDINS.unit(stimulus_id, c)) for c in range(3)], np.uint8)
        corner = int(20 * STANDINS.unit(stimulus_id, "corner"))
        pixels[corner:corner + 10, corner:corner + 10] = 255 - pixels[0, 0]
        path = root / f"{stimulus_id}.png"
        Image.fromarray(pixels).save(path)
        paths[stimulus_id] = str(path)
    return paths


def serve(monkeypatch, families=tuple(CATALOGUES), image_root: Path | None = None) -> dict:
    """Serve the stand-ins of ``families`` in place of Brain-Score's bucket (``brainio.s3``'s two loaders, which the
    by-reference loaders call), keyed by the bucket identifiers of each family's catalogue; with ``image_root``, each
    stimulus gets an image file there. Returns what was asked for: ``{'assembly': [s3 identifiers],
    'stimulus_set': [...]}``."""
    import brainio.s3

    stimulus_sets, data = {}, {}
    for family in families:
        entries = catalogue_entries(family)
        made = STANDINS.FAMILIES[family]()
        for identifier, columns in made["stimulus_sets"].items():
            stimulus_sets[entries[("stimulus_set", identifier)]["s3_identifier"]] = columns
        for identifier, values in made["assemblies"].items():
            data[entries[("assembly", identifier)]["s3_identifier"]] = values
    asked = {"assembly": [], "stimulus_set": []}
    files = None
    if image_root is not None:
        image_root.mkdir(parents=True, exist_ok=True)
        files = write_images(image_root, [i for columns in stimulus_sets.values() for i in columns["stimulus_id"]])

    def load_stimulus_set_from_s3(identifier, bucket, csv_sha1, zip_sha1, csv_version_id, zip_version_id,
                                  filename_prefix=None):
        asked["stimulus_set"].append(identifier)
        loaded = stimulus_set(identifier, stimulus_sets[identifier])
        if files is not None:
            loaded.stimulus_paths = {i: files[i] for i in loaded["stimulus_id"]}
        return loaded

    def load_assembly_from_s3(identifier, version_id, sha1, bucket, cls, stimulus_set_loader=None,
                              merge_stimulus_set_meta=True):
        asked["assembly"].append(identifier)
        cls = getattr(assembly_classes, cls) if isinstance(cls, str) else cls
        loaded = assembly(data[identifier], cls)
        loaded.attrs["identifier"] = identifier
        if stimulus_set_loader is not None:
            loaded = attach_stimulus_set(loaded, stimulus_set_loader(), merge=merge_stimulus_set_meta)
        return loaded

    monkeypatch.setattr(brainio.s3, "load_stimulus_set_from_s3", load_stimulus_set_from_s3)
    monkeypatch.setattr(brainio.s3, "load_assembly_from_s3", load_assembly_from_s3)
    return asked


class StandinModel(BrainModel):
    """A BrainModel answering with the stand-ins' deterministic functions of the stimuli it is shown (the same
    functions the reference's model uses in Brain-Score's venv)."""

    def __init__(self, degrees: float):
        self._degrees = degrees
        self.task, self.choices = None, None
        self.shown: list[int] = []

    @property
    def identifier(self) -> str:
        return "standin"

    def visual_degrees(self) -> float:
        return self._degrees

    def start_task(self, task, fitting_stimuli=None, **kwargs) -> None:
        self.task = BrainModel.Task(task)
        if self.task == BrainModel.Task.label:
            self.choices = list(fitting_stimuli)
        elif self.task == BrainModel.Task.probabilities:
            self.choices = sorted(set(fitting_stimuli["image_label"].astype(str)))

    def start_recording(self, recording_target, time_bins) -> None:
        raise NotImplementedError("the stand-in model only answers behavioural tasks")

    def look_at(self, stimuli, number_of_trials: int = 1, require_variance: bool = False):
        ids = list(stimuli["stimulus_id"].values)
        self.shown.append(len(ids))
        coords = {column: ("presentation", stimuli[column].to_numpy()) for column in stimuli.columns}
        if self.task == BrainModel.Task.odd_one_out:
            triplets = np.asarray(ids).reshape(-1, 3)
            answers = STANDINS.odd_one_out_answers(triplets.tolist())
            return BehavioralAssembly(np.asarray([answers], dtype=object),
                                      coords={"stimulus_id": ("presentation", ["|".join(t) for t in triplets])},
                                      dims=["choice", "presentation"])
        truth = next(column for column in TRUTH_COLUMNS if column in stimuli.columns)
        if self.task == BrainModel.Task.label:
            kinds = stimuli["image_type"].to_numpy() if "image_type" in stimuli.columns else None
            answers = STANDINS.label_answers(ids, stimuli[truth].to_numpy(), self.choices, kinds)
            return BehavioralAssembly(np.asarray([answers], dtype=object), coords=coords,
                                      dims=["choice", "presentation"])
        values = STANDINS.probability_answers(ids, stimuli[truth].to_numpy(), self.choices)
        return BehavioralAssembly(values, coords={**coords, "choice": ("choice", self.choices)},
                                  dims=["presentation", "choice"])
