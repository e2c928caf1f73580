"""Synthetic stand-ins for the data of the neural families of issue 39, following each data plugin's schema
(coordinates, dims, attrs as Brain-Score's benchmarks read them), a few dozen stimuli each.

Plain numpy only: ``benchmarks/reference_neural_families.py`` (Brain-Score's code, in its own venv) and
``tests/test_neural_families.py`` (ours) import these functions and build their own assembly classes from the
returned specs, so both sides see the same arrays. A spec is a dict: ``values``, ``dims``, ``coords`` ({name: (dim,
values)}), ``attrs``; a stimulus table is {column: values}.
"""

from __future__ import annotations

import numpy as np


def _ids(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i:03d}" for i in range(n)]


def features(stimuli: dict, n_features: int, seed: int, signal=None, weight: float = 0.0, time_bins=None):
    """A model's recordings of ``stimuli`` (presentation x neuroid [x time_bin]): every stimulus column as a
    presentation coordinate, random features plus ``weight`` times a random projection of ``signal``."""
    rng = np.random.default_rng(seed)
    n = len(stimuli["stimulus_id"])
    values = rng.normal(size=(n, n_features))
    if signal is not None:
        values += weight * signal @ rng.normal(size=(signal.shape[1], n_features))
    coords = {name: ("presentation", list(column)) for name, column in stimuli.items()}
    coords.update(neuroid_id=("neuroid", [f"f{i}" for i in range(n_features)]),
                  layer=("neuroid", ["standin"] * n_features))
    dims = ["presentation", "neuroid"]
    if time_bins is not None:  # a temporal model: the features drift over the bins
        drift = rng.normal(size=(1, n_features, len(time_bins)))
        values = values[:, :, None] * (1 + 0.3 * np.arange(len(time_bins)))[None, None, :] + drift
        coords.update(time_bin_start=("time_bin", [start for start, _ in time_bins]),
                      time_bin_end=("time_bin", [end for _, end in time_bins]))
        dims.append("time_bin")
    return {"values": values, "dims": dims, "coords": coords, "attrs": {}}


def _repeated(stimuli: dict, repetitions: int, repetition_coord: str = "repetition") -> dict:
    n = len(stimuli["stimulus_id"])
    coords = {name: ("presentation", list(np.tile(np.asarray(column, dtype=object), repetitions)))
              for name, column in stimuli.items()}
    coords[repetition_coord] = ("presentation", list(np.repeat(np.arange(repetitions), n)))
    return coords


def _trials(signal: np.ndarray, repetitions: int, noise: np.ndarray, rng) -> np.ndarray:
    """(repetitions * n, neuroids) trials: the signal plus noise of a per-neuroid scale."""
    return np.concatenate([signal + noise[None, :] * rng.normal(size=signal.shape) for _ in range(repetitions)])


# -- Bracci2019 -------------------------------------------------------------------------------------------------------
def bracci2019():
    """(stimuli, human assembly, model features): 27 images; 4 subjects x 3 regions x 8 voxels."""
    rng = np.random.default_rng(1901)
    stimuli = {"stimulus_id": _ids("b", 27), "stimulus_name": [f"name{i}" for i in range(27)],
               "exemplar_number": [i % 3 for i in range(27)], "image_label": [f"l{i % 9}" for i in range(27)],
               "image_group": [f"g{i % 3}" for i in range(27)]}
    latent = rng.normal(size=(27, 5))
    columns, subjects, rois, voxels = [], [], [], []
    for subject in ("s1", "s2", "s3", "s4"):
        for roi in (0, 1, 2):
            mixing = rng.normal(size=(5, 8))
            columns.append(latent @ mixing + rng.normal(scale=1.0 + 0.3 * roi, size=(27, 8)) + rng.normal(size=8))
            subjects += [subject] * 8
            rois += [roi] * 8
            voxels += list(range(8))
    human = {"values": np.concatenate(columns, axis=1), "dims": ["presentation", "neuroid"],
             "coords": {**{name: ("presentation", list(column)) for name, column in stimuli.items()},
                        "neuroid_id": ("neuroid", [f"n{i}" for i in range(len(voxels))]),
                        "subject": ("neuroid", subjects), "roi": ("neuroid", rois), "voxels": ("neuroid", voxels)},
             "attrs": {}}
    return stimuli, human, features(stimuli, 30, 1902, latent, 0.8)


# -- Cadena2017 -------------------------------------------------------------------------------------------------------
def cadena2017():
    """(stimuli, trials, model features): 40 images x 4 repetitions, 12 V1 neurons; some neurons never saw some
    images (NaN in every repetition), one trial is missing for one image."""
    rng = np.random.default_rng(1701)
    stimuli = {"stimulus_id": _ids("c", 40), "image_type": ["original" if i % 2 else "texture" for i in range(40)]}
    latent = rng.normal(size=(40, 4))
    signal = latent @ rng.normal(size=(4, 12))
    values = _trials(signal, 4, rng.uniform(0.3, 1.2, 12), rng)
    for image, neurons in ((3, [0, 1, 2]), (11, [5]), (20, [7, 8])):
        values[image::40, neurons] = np.nan
    values[40 * 2 + 25, 4] = np.nan  # one trial
    coords = _repeated(stimuli, 4, "repetition_id")
    coords.update(neuroid=("neuroid", list(range(12))), time_bin_start=("time_bin", [40]),
                  time_bin_end=("time_bin", [100]))
    trials = {"values": values[:, :, None], "dims": ["presentation", "neuroid", "time_bin"], "coords": coords,
              "attrs": {}}
    return stimuli, trials, features(stimuli, 40, 1702, latent, 0.6)


# -- Igustibagus2024 --------------------------------------------------------------------------------------------------
CATEGORIES = ("apple", "bear", "bird", "car", "chair", "dog", "elephant", "face", "plane", "zebra")
_ART = ("cartoon", "line_drawing", "mosaic", "painting", "sketch")
_SILHOUETTES = ("convex_hull", "outline", "skeleton", "silhouette")


def igustibagus2024_stimuli():
    """460 images of 10 objects: 60 photographs (``Silhouette`` / ``original``, backgrounds 1-60), 40 of each Art
    style, COCO colour, COCO grey and TDW (background 0, one in five with a photograph's background), 20 of each
    silhouette style (the photographs' backgrounds)."""
    rng = np.random.default_rng(2401)
    rows = []

    def add(source, style, n, backgrounds):
        for i in range(n):
            rows.append((source, style, CATEGORIES[i % 10], int(backgrounds[i])))

    add("Silhouette", "original", 60, np.arange(1, 61))
    for style in _ART:
        add("Art", style, 40, np.where(rng.random(40) < 0.2, rng.integers(1, 61, 40), 0))
    for source in ("COCOColor", "COCOGray", "TDW"):
        add(source, "original" if source == "TDW" else "grayscale" if source == "COCOGray" else "original", 40,
            np.where(rng.random(40) < 0.2, rng.integers(1, 61, 40), 0))
    for style in _SILHOUETTES:
        add("Silhouette", style, 20, rng.integers(1, 61, 20))
    order = rng.permutation(len(rows))  # the table's order is not the order of sorted ids
    rows = [rows[i] for i in order]
    return {"stimulus_id": [f"i{i:03d}" for i in order], "stimulus_source": [r[0] for r in rows],
            "object_style": [r[1] for r in rows], "object_label": [r[2] for r in rows],
            "background_id": [r[3] for r in rows]}


def igustibagus2024():
    """(stimuli, trials, model features): 4 repetitions, 14 IT sites of varied reliability, two time bins
    (``time_bin_id`` 0 is 70-170 ms)."""
    rng = np.random.default_rng(2402)
    stimuli = igustibagus2024_stimuli()
    n = len(stimuli["stimulus_id"])
    label_index = np.array([CATEGORIES.index(label) for label in stimuli["object_label"]])
    latent = np.eye(10)[label_index] + 0.5 * rng.normal(size=(n, 10))
    signal = latent @ rng.normal(size=(10, 14))
    values = _trials(signal, 4, np.r_[np.full(9, 0.4), np.full(5, 6.0)], rng)
    late = values + rng.normal(size=values.shape)
    coords = _repeated(stimuli, 4)
    coords.update(neuroid_id=("neuroid", [f"site{i:02d}" for i in range(14)]), region=("neuroid", ["IT"] * 14),
                  animal=("neuroid", ["Oleo"] * 7 + ["Pico"] * 7), time_bin_id=("time_bin", [0, 1]),
                  time_bin_start=("time_bin", [70, 170]), time_bin_end=("time_bin", [170, 270]))
    trials = {"values": np.stack([values, late], axis=2), "dims": ["presentation", "neuroid", "time_bin"],
              "coords": coords, "attrs": {}}
    return stimuli, trials, features(stimuli, 24, 2403, latent, 0.7)


# -- Li2026 -----------------------------------------------------------------------------------------------------------
def li2026():
    """(stimuli, assembly, model features): 40 NSD-like images; 64 units (V1: animals M1, M2; IT: M3, M4, M5), a
    quarter below the 0.4 reliability threshold; 120 model features (more than the training images: dual form)."""
    rng = np.random.default_rng(2601)
    stimuli = {"stimulus_id": [f"nsd_{i:05d}" for i in rng.choice(73000, 40, replace=False)],
               "nsd_id": list(range(40))}
    latent = rng.normal(size=(40, 6))
    regions = ["V1"] * 24 + ["IT"] * 40
    animals = ["M1"] * 12 + ["M2"] * 12 + ["M3"] * 14 + ["M4"] * 13 + ["M5"] * 13
    reliability = rng.uniform(0.1, 0.95, 64)
    values = latent @ rng.normal(size=(6, 64)) + rng.normal(scale=1.5, size=(40, 64)) * (1.2 - reliability)
    coords = {name: ("presentation", list(column)) for name, column in stimuli.items()}
    coords.update(neuroid_id=("neuroid", [f"{a}_ses01_unit{i:04d}" for i, a in enumerate(animals)]),
                  region=("neuroid", regions), animal=("neuroid", animals),
                  reliability=("neuroid", list(np.clip(reliability + rng.normal(scale=0.05, size=64), 0, 1))),
                  reliability_window=("neuroid", list(reliability)), unittype=("neuroid", list(rng.integers(1, 4, 64))),
                  time_bin_start=("time_bin", [70]), time_bin_end=("time_bin", [170]))
    assembly = {"values": values[:, :, None], "dims": ["presentation", "neuroid", "time_bin"], "coords": coords,
                "attrs": {}}
    return stimuli, assembly, features(stimuli, 120, 2602, latent, 0.8)


# -- region benchmarks: Rajalingham2020, Sanghavi2020, MajajHong2015 --------------------------------------------------
def region_trials(seed: int, n_images: int, repetitions: int, *, regions=("V4", "IT"), per_region: int = 5,
                  time_bin_ids: bool = False, objects: int = 4):
    """(stimuli, trials, model features): ``n_images`` images of ``objects`` objects (``object_name``), trials of
    ``per_region`` sites per region."""
    rng = np.random.default_rng(seed)
    stimuli = {"stimulus_id": _ids("r", n_images), "object_name": [f"o{i % objects}" for i in range(n_images)]}
    latent = rng.normal(size=(n_images, 5))
    n = per_region * len(regions)
    values = _trials(latent @ rng.normal(size=(5, n)), repetitions, rng.uniform(0.5, 1.5, n), rng)
    coords = _repeated(stimuli, repetitions)
    coords.update(neuroid_id=("neuroid", [f"site{i}" for i in range(n)]),
                  region=("neuroid", [region for region in regions for _ in range(per_region)]),
                  animal=("neuroid", ["Chabo" if i % 2 else "Tito" for i in range(n)]),
                  arr=("neuroid", ["A" if i < n // 2 else "P" for i in range(n)]))
    if time_bin_ids:
        coords.update(time_bin_id=("time_bin", [0, 1]), time_bin_start=("time_bin", [70, 170]),
                      time_bin_end=("time_bin", [170, 270]))
        values = np.stack([values, values + rng.normal(size=values.shape)], axis=2)
    else:
        coords.update(time_bin_start=("time_bin", [70]), time_bin_end=("time_bin", [170]))
        values = values[:, :, None]
    trials = {"values": values, "dims": ["presentation", "neuroid", "time_bin"], "coords": coords, "attrs": {}}
    return stimuli, trials, features(stimuli, 30, seed + 1, latent, 0.7)


# -- FreemanZiemba2013 (private) --------------------------------------------------------------------------------------
def freemanziemba2013():
    """(stimuli, trials, model features): 32 images (``texture_type`` texture / noise) x 2 repetitions, 3 V1 and 3 V2
    neurons, 1-ms bins from 40 to 210 ms."""
    rng = np.random.default_rng(1301)
    stimuli = {"stimulus_id": _ids("t", 32), "texture_type": ["texture" if i % 2 else "noise" for i in range(32)],
               "texture_family": [i % 5 for i in range(32)]}
    latent = rng.normal(size=(32, 4))
    rates = _trials(latent @ rng.normal(size=(4, 6)), 2, rng.uniform(0.5, 1.0, 6), rng)
    starts = np.arange(40, 210)
    values = rates[:, :, None] + rng.normal(scale=2.0, size=(64, 6, len(starts)))
    coords = _repeated(stimuli, 2)
    coords.update(neuroid_id=("neuroid", [f"n{i}" for i in range(6)]), region=("neuroid", ["V1"] * 3 + ["V2"] * 3),
                  time_bin_start=("time_bin", list(starts)), time_bin_end=("time_bin", list(starts + 1)))
    trials = {"values": values, "dims": ["presentation", "neuroid", "time_bin"], "coords": coords, "attrs": {}}
    return stimuli, trials, features(stimuli, 25, 1302, latent, 0.7)


# -- Rajalingham2018 (private) ----------------------------------------------------------------------------------------
def rajalingham2018():
    """(stimuli, human trials, model probabilities): 16 images of 4 objects, 1,500 match-to-sample trials."""
    rng = np.random.default_rng(1801)
    objects = ["bear", "car", "dog", "face"]
    images = _ids("m", 16)
    truth = {image: objects[i % 4] for i, image in enumerate(images)}
    accuracy = dict(zip(images, rng.uniform(0.55, 0.95, size=16), strict=True))
    rows = []
    for _ in range(1500):
        image = images[int(rng.integers(16))]
        distractor = str(rng.choice([o for o in objects if o != truth[image]]))
        rows.append((image, truth[image], distractor, truth[image] if rng.random() < accuracy[image] else distractor))
    ids, samples, distractors, choices = (list(column) for column in zip(*rows, strict=True))
    humans = {"values": np.asarray(choices, dtype=object), "dims": ["presentation"],
              "coords": {"stimulus_id": ("presentation", ids), "truth": ("presentation", samples),
                         "sample_obj": ("presentation", samples), "dist_obj": ("presentation", distractors),
                         "choice": ("presentation", choices)}, "attrs": {}}
    logits = rng.normal(size=(16, 4))
    logits[np.arange(16), [objects.index(truth[i]) for i in images]] += 4 * np.array(list(accuracy.values()))
    probabilities = {"values": np.exp(logits) / np.exp(logits).sum(1, keepdims=True), "dims": ["presentation", "choice"],
                     "coords": {"stimulus_id": ("presentation", images), "image_label": ("presentation", [truth[i] for i in images]),
                                "choice": ("choice", objects)}, "attrs": {}}
    stimuli = {"stimulus_id": images, "image_label": [truth[i] for i in images]}
    return stimuli, humans, probabilities


# -- Kar2019 ----------------------------------------------------------------------------------------------------------
def kar2019():
    """(stimuli, measured OSTs, temporal model features): 180 images of 6 objects (one image listed twice, as in
    Brain-Score's file); the model's object signal rises at an image-specific onset over the 18 bins of 10 ms from
    70 ms, the measured OSTs (``decoder x presentation``: svm, logistic) are that onset plus noise, with the primates'
    ``i1`` thresholds."""
    rng = np.random.default_rng(1901)
    labels = [f"obj{k}" for k in range(6) for _ in range(30)]
    n = len(labels)
    ids = [f"k{i:03d}" for i in rng.permutation(n)]
    stimuli = {"stimulus_id": ids, "image_label": labels}
    starts = np.arange(70, 250, 10)
    onset = rng.uniform(80, 200, n)
    centers = rng.normal(size=(6, 20))
    gain = 1 / (1 + np.exp(-(starts[None, :] - onset[:, None]) / 15))
    values = (centers[np.repeat(np.arange(6), 30)][:, :, None] * 6 * gain[:, None, :]
              + rng.normal(size=(n, 20, len(starts))))
    rows = list(range(n)) + [7]
    osts = np.stack([onset + rng.normal(0, 10, n), onset + rng.normal(0, 15, n)])[:, rows]
    osts[0, [5, 17]] = np.nan
    coords = {"stimulus_id": ("presentation", [ids[i] for i in rows]),
              "image_label": ("presentation", [labels[i] for i in rows]),
              "i1": ("presentation", list(rng.uniform(-0.5, 1.0, n)[rows])), "decoder": ("decoder", ["svm", "logistic"])}
    measured = {"values": osts, "dims": ["decoder", "presentation"], "coords": coords, "attrs": {}}
    # a model's recordings carry the stimulus set's columns, ``truth`` included (the benchmark sets it)
    recordings = {"values": values, "dims": ["presentation", "neuroid", "time_bin"], "attrs": {},
                  "coords": {"stimulus_id": ("presentation", ids), "image_label": ("presentation", labels),
                             "truth": ("presentation", labels), "neuroid_id": ("neuroid", [f"f{i}" for i in range(20)]),
                             "time_bin_start": ("time_bin", list(starts)), "time_bin_end": ("time_bin", list(starts + 10))}}
    return stimuli, measured, recordings


def cadena2017_mask_features():
    """A convolutional layer's recordings of the Cadena2017 stand-in images for ``mask_regression``: 4 channels on a
    5 x 5 grid (neuroid coordinates ``channel``, ``channel_x``, ``channel_y``)."""
    stimuli, _, _ = cadena2017()
    rng = np.random.default_rng(1703)
    n = len(stimuli["stimulus_id"])
    channel, x, y = np.meshgrid(np.arange(4), np.arange(5), np.arange(5), indexing="ij")
    values = rng.normal(size=(n, channel.size))
    coords = {name: ("presentation", list(column)) for name, column in stimuli.items()}
    coords.update(neuroid_id=("neuroid", [f"f{i}" for i in range(channel.size)]),
                  channel=("neuroid", list(channel.ravel())), channel_x=("neuroid", list(x.ravel())),
                  channel_y=("neuroid", list(y.ravel())))
    return {"values": values, "dims": ["presentation", "neuroid"], "coords": coords, "attrs": {}}
