"""The arrays ``compare_reference.py`` (and ``bench_hard_paths.py``) time both sides on, written once as ``.npy``
files: the issue's int8-quantised activations and hard inputs, pixel features, and regression inputs with a known
latent structure. Run through ``compare_reference.py prepare``."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import numpy as np

DATA = Path(os.environ["BRAINSCORE_RAW_DATA"]) if "BRAINSCORE_RAW_DATA" in os.environ else (
    Path(__file__).resolve().parents[3] / ".." / "shared" / "data")


def _save(directory: Path, name: str, array: np.ndarray) -> None:
    tmp = directory / f".{name}.tmp.npy"
    np.save(tmp, array, allow_pickle=False)
    os.replace(tmp, directory / f"{name}.npy")


def _regression_inputs(rng, n_stimuli, n_features, n_neuroids, n_reps, n_latent):
    latent = rng.normal(size=(n_stimuli, n_latent))
    source = latent @ rng.normal(size=(n_latent, n_features)) + rng.normal(size=(n_stimuli, n_features))
    signal = latent @ rng.normal(size=(n_latent, n_neuroids)) * 0.3
    trials = signal[:, :, None] + rng.normal(size=(n_stimuli, n_neuroids, n_reps))
    return source, trials


def _quantised_activations(rng, n_stimuli, n_features, gain_sigma):
    """ReLU of a 50-dimensional latent with lognormal channel gains, quantised per tensor to int8 levels (float32)."""
    latent = rng.normal(size=(n_stimuli, 50))
    gains = np.exp(gain_sigma * rng.normal(size=n_features))
    X = np.maximum(latent @ rng.normal(size=(50, n_features)) / np.sqrt(50)
                   + 0.3 * rng.normal(size=(n_stimuli, n_features)), 0) * gains
    scale = X.max() / 127
    return (np.round(X / scale) * scale).astype(np.float32), latent


def prepare_hard(directory: Path) -> None:
    """The --hard groups: q8 (lognormal(0, 1.7) gains: centred Gram condition 2.2e8, rank n - 1), q8r (gains
    lognormal(0, 2.0): 8,145 constant features, rank 1,855) and pxr (Cowley 2023 session 210325: images as pixels,
    averaged V4 responses)."""
    for group, sigma in (("q8", 1.7), ("q8r", 2.0)):
        rng = np.random.default_rng(2024)
        source, latent = _quantised_activations(rng, 3200, 10000, sigma)
        signal = latent @ rng.normal(size=(50, 200)) * 0.3
        trials = signal[:, :, None] + rng.normal(size=(3200, 200, 10))
        _save(directory, f"{group}_source", source)
        _save(directory, f"{group}_source_order", rng.permutation(3200))
        _save(directory, f"{group}_target_order", rng.permutation(3200))
        _save(directory, f"{group}_trials", trials)
        _save(directory, f"{group}_ids", np.array([f"im{i:05d}" for i in range(3200)]))
        _save(directory, f"{group}_objects", np.array([f"obj{i % 8}" for i in range(3200)]))
    from PIL import Image

    folder = DATA / "cowley2023_v4"
    with open(folder / "stimuli_210325.csv", newline="") as handle:
        stimuli = list(csv.DictReader(handle))
    pixels = []
    for entry in stimuli:
        with Image.open(folder / entry["filename"]) as image:
            pixels.append(np.asarray(image.convert("RGB"), dtype=np.float32).ravel())
    responses = np.load(folder / "responses_avg_210325.npy").T.astype(np.float64)  # (images, units)
    rng = np.random.default_rng(640)
    _save(directory, "pxr_source", np.stack(pixels))
    _save(directory, "pxr_source_order", rng.permutation(len(stimuli)))
    _save(directory, "pxr_target_order", rng.permutation(len(stimuli)))
    _save(directory, "pxr_trials", responses[:, :, None])  # one "repetition": the averaged responses
    _save(directory, "pxr_ids", np.array([entry["stimulus_id"] for entry in stimuli]))
    _save(directory, "pxr_objects", np.array([entry["image_type"] for entry in stimuli]))


def prepare(directory: Path, big: bool, wide: bool = False) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    groups = [("synth", 640, 300, 50, 10, 20)] + ([("mh", 3200, 10000, 200, 10, 50)] if big else [])
    groups += [("w32", 3200, 10000, 200, 10, 50), ("px", 640, 37632, 200, 10, 50),
               ("px4k", 640, 4096, 200, 10, 50)] if wide else []
    for group, n_stimuli, n_features, n_neuroids, n_reps, n_latent in groups:
        rng = np.random.default_rng(2024)
        source, trials = _regression_inputs(rng, n_stimuli, n_features, n_neuroids, n_reps, n_latent)
        if group in ("w32", "px", "px4k"):  # model activations are float32
            source = source.astype(np.float32)
        ids = np.array([f"im{i:05d}" for i in range(n_stimuli)])
        objects = np.array([f"obj{i % 8}" for i in range(n_stimuli)])
        # stored orders differ between source and target (and neither is sorted): alignment is exercised
        _save(directory, f"{group}_source", source)
        _save(directory, f"{group}_source_order", rng.permutation(n_stimuli))
        _save(directory, f"{group}_target_order", rng.permutation(n_stimuli))
        _save(directory, f"{group}_trials", trials)  # stimulus x neuroid x repetition
        _save(directory, f"{group}_ids", ids)
        _save(directory, f"{group}_objects", objects)
    # 92 stimuli: model activations (92 x 500) and "neural" responses (92 x 100) sharing a latent
    rng = np.random.default_rng(92)
    latent = rng.normal(size=(92, 10))
    _save(directory, "act92_source", latent @ rng.normal(size=(10, 500)) + 2 * rng.normal(size=(92, 500)))
    _save(directory, "act92_target", latent @ rng.normal(size=(10, 100)) + 3 * rng.normal(size=(92, 100)))
    _save(directory, "act92_ids", np.array([f"k92_{i + 1:03d}" for i in range(92)]))
    _save(directory, "act92_order", rng.permutation(92))
    # Cowley 2023 V4 session 210325: drop the NaN-padded repeat slots
    folder = DATA / "cowley2023_v4"
    raw = np.load(folder / "responses_raw_210325.npy")  # unit x image x repeat slot
    with open(folder / "stimuli_210325.csv", newline="") as handle:
        stimuli = list(csv.DictReader(handle))
    present = ~np.all(np.isnan(raw), axis=0)
    images, repeats = np.nonzero(present)
    _save(directory, "cowley_values", raw[:, images, repeats].T.astype(np.float64))
    _save(directory, "cowley_ids", np.array([stimuli[i]["stimulus_id"] for i in images]))
    _save(directory, "cowley_repetition", repeats.astype(np.int64))


# ------------------------------------------------------------------------------------------------- run
