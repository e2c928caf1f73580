"""Cowley et al. 2023 V4, session 210325, as assemblies, plus simple image features (real-data tests)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from brainio.assemblies import NeuroidAssembly

SESSION = "210325"


def load_trials(raw_data_dir: Path) -> NeuroidAssembly:
    """Single-trial NeuroidAssembly (presentation = image x repeat present, neuroid = unit)."""
    folder = Path(raw_data_dir) / "cowley2023_v4"
    raw = np.load(folder / f"responses_raw_{SESSION}.npy")  # (units, images, repeat slots), NaN padded
    with open(folder / f"stimuli_{SESSION}.csv", newline="") as handle:
        stimuli = list(csv.DictReader(handle))
    present = ~np.all(np.isnan(raw), axis=0)  # (images, repeats): trailing repeats are NaN for all units
    images, repeats = np.nonzero(present)
    values = raw[:, images, repeats].T  # (presentations, units)
    return NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", [stimuli[i]["stimulus_id"] for i in images]),
        "image_type": ("presentation", [stimuli[i]["image_type"] for i in images]),
        "repetition": ("presentation", repeats),
        "neuroid_id": ("neuroid", [f"{SESSION}_unit{u:02d}" for u in range(raw.shape[0])]),
        "region": ("neuroid", ["V4"] * raw.shape[0]),
        "animal_id": ("neuroid", [stimuli[0]["animal_id"]] * raw.shape[0]),
    }, dims=["presentation", "neuroid"])


def image_features(raw_data_dir: Path) -> NeuroidAssembly:
    """Simple features of each image: 16x16 downsampled grey pixels, per-channel means and standard
    deviations, and gradient energy pooled over a 4x4 grid (256 + 6 + 16 = 278 features)."""
    from PIL import Image

    folder = Path(raw_data_dir) / "cowley2023_v4"
    with open(folder / f"stimuli_{SESSION}.csv", newline="") as handle:
        stimuli = list(csv.DictReader(handle))
    rows = []
    for entry in stimuli:
        with Image.open(folder / entry["filename"]) as image:
            rgb = np.asarray(image.convert("RGB"), dtype=np.float64) / 255.0
            grey_small = np.asarray(image.convert("L").resize((16, 16), Image.BILINEAR), dtype=np.float64) / 255.0
        grey = rgb.mean(axis=2)
        gy, gx = np.gradient(grey)
        energy = (gx ** 2 + gy ** 2).reshape(4, 28, 4, 28).mean(axis=(1, 3))
        rows.append(np.concatenate([grey_small.ravel(), rgb.mean(axis=(0, 1)), rgb.std(axis=(0, 1)),
                                    energy.ravel()]))
    values = np.array(rows)
    return NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", [entry["stimulus_id"] for entry in stimuli]),
        "neuroid_id": ("neuroid", [f"feature{i:03d}" for i in range(values.shape[1])]),
    }, dims=["presentation", "neuroid"])


def averaged(trials: NeuroidAssembly) -> NeuroidAssembly:
    """Repetition-averaged responses (brainio's average_repetition)."""
    from brainio import average_repetition  # contract: also in brainio.assemblies (not there yet)

    return average_repetition(trials, repetition_coord="repetition")


def pixel_features(raw_data_dir: Path, size: int = 32) -> NeuroidAssembly:
    """The RGB pixels of each image downsampled to ``size`` x ``size`` (bilinear), in [0, 1]: 3 * size**2
    features, more than the 640 images for size >= 15 (the dual, kernel form of ridge)."""
    from PIL import Image

    folder = Path(raw_data_dir) / "cowley2023_v4"
    with open(folder / f"stimuli_{SESSION}.csv", newline="") as handle:
        stimuli = list(csv.DictReader(handle))
    rows = []
    for entry in stimuli:
        with Image.open(folder / entry["filename"]) as image:
            small = image.convert("RGB").resize((size, size), Image.BILINEAR)
            rows.append(np.asarray(small, dtype=np.float64).ravel() / 255.0)
    values = np.array(rows)
    return NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", [entry["stimulus_id"] for entry in stimuli]),
        "neuroid_id": ("neuroid", [f"pixel{i:04d}" for i in range(values.shape[1])]),
        "region": ("neuroid", ["pixels"] * values.shape[1]),
    }, dims=["presentation", "neuroid"])
