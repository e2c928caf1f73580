"""Small synthetic stand-ins of the families whose data are not shipped, with the coordinates of Brain-Score's files
(THINGS data sets, Allen2022 NSD, ImageNet), a feature "model" and independent expected scores."""

from __future__ import annotations

import numpy as np
import scipy.stats
from PIL import Image

from brainio.assemblies import NeuroidAssembly
from brainscore_vision.benchmark_helpers.test_helper import PrecomputedFeatures


def things_ids(n: int, offset: int = 0) -> list[str]:
    """THINGS-style ids ``<concept>_<nn>s`` (the concept is the id up to its last underscore)."""
    return [f"concept{(i + offset) % 7:02d}_{i + offset:03d}s" for i in range(n)]


def write_images(root, ids, *, folder_of=None, suffix=".jpg"):
    """A tiny image per id at ``root / folder_of(id) / <id><suffix>``."""
    rng = np.random.default_rng(0)
    for stimulus_id in ids:
        folder = root / (folder_of(stimulus_id) if folder_of else "")
        folder.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (8, 8), tuple(int(v) for v in rng.integers(0, 255, 3))).save(folder / f"{stimulus_id}{suffix}")


def features_of(ids, n_features: int = 30, seed: int = 0) -> np.ndarray:
    """Deterministic features per stimulus id (the same id gives the same row in any call)."""
    return np.stack([np.random.default_rng([seed, sum(map(ord, s)), len(s)] + [ord(c) for c in s[-6:]])
                     .standard_normal(n_features) for s in ids])


def feature_model(ids, visual_degrees: float, n_features: int = 30) -> PrecomputedFeatures:
    values = features_of(ids, n_features)
    assembly = NeuroidAssembly(values, coords={"stimulus_id": ("presentation", list(ids)),
                                               "neuroid_id": ("neuroid", [f"f{i}" for i in range(n_features)])},
                               dims=["presentation", "neuroid"])
    return PrecomputedFeatures(assembly, visual_degrees=visual_degrees)


def recordings(ids, repetitions: int, neuroid_coords: dict, *, n_features: int = 30, noise: float = 1.0, seed: int = 1,
               time_bins=((0, 0),), extra_presentation=None) -> NeuroidAssembly:
    """``presentation x neuroid x time_bin`` responses: a linear readout of :func:`features_of` plus noise per trial;
    presentations grouped by repetition (all images once, then again)."""
    rng = np.random.default_rng(seed)
    n_neuroids, n_bins = len(next(iter(neuroid_coords.values()))[1]), len(time_bins)
    weights = rng.standard_normal((n_features, n_neuroids * n_bins)) / np.sqrt(n_features)
    signal = (features_of(ids, n_features) @ weights).reshape(len(ids), n_neuroids, n_bins)
    values = np.concatenate([signal + noise * rng.standard_normal(signal.shape) for _ in range(repetitions)])
    coords = {"stimulus_id": ("presentation", list(ids) * repetitions),
              "repetition": ("presentation", np.repeat(np.arange(repetitions), len(ids))),
              "stimulus_label": ("presentation", [s.rsplit("_", 1)[0] for s in ids] * repetitions),
              "object_name": ("presentation", [s.rsplit("_", 1)[0] for s in ids] * repetitions),
              **neuroid_coords,
              "time_bin_start": ("time_bin", [b[0] for b in time_bins]),
              "time_bin_end": ("time_bin", [b[1] for b in time_bins])}
    coords.update(extra_presentation or {})
    return NeuroidAssembly(values, coords=coords, dims=["presentation", "neuroid", "time_bin"])


def voxel_coords(subjects, regions, per_region: int, reliability: str, seed: int = 2) -> dict:
    rng = np.random.default_rng(seed)
    rows = [(s, r, i) for s in subjects for r in regions for i in range(per_region)]
    return {"neuroid_id": ("neuroid", [f"{s}-{r}-{i}" for s, r, i in rows]),
            "subject": ("neuroid", [s for s, _, _ in rows]), "region": ("neuroid", [r for _, r, _ in rows]),
            reliability: ("neuroid", rng.uniform(0, 1, len(rows)) * (100 if reliability == "nc_testset" else 1))}


def pearson_columns(a, b) -> np.ndarray:
    return np.array([scipy.stats.pearsonr(a[:, j], b[:, j])[0] for j in range(a.shape[1])])


def mean_over_repetitions(assembly) -> tuple[list[str], np.ndarray]:
    """(ids in first-appearance order, their repetition means) of a ``presentation x neuroid`` assembly."""
    ids = np.asarray(assembly["stimulus_id"].values).astype(str)
    order = list(dict.fromkeys(ids))
    values = np.asarray(assembly.values)
    return order, np.stack([values[ids == s].mean(axis=0) for s in order])
