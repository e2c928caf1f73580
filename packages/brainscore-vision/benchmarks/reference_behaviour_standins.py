"""Synthetic stand-ins of Ferguson2024, Malania2007, Islam2021, ImageNet-C and ObjectNet, in the schema of
Brain-Score's data plugins, and the stand-in models that answer them.

Plain numpy and pandas only: ``benchmarks/reference_behaviour_families.py`` builds Brain-Score's assemblies from them
in Brain-Score's venv, ``tests/test_behaviour_families.py`` builds ours, and both score the same numbers. Each
generator is seeded; nothing here reads a file.
"""

from __future__ import annotations

import zlib

import numpy as np
import pandas as pd
from scipy.stats import norm

# ------------------------------------------------------------------------------------------------- Ferguson2024
FERGUSON_EXPERIMENTS = ("color", "juncture")  # the lowest and a high lapse rate (0.0578, 0.3715)


def ferguson_stimuli(experiment: str) -> pd.DataFrame:
    """The 48 test stimuli: ``stimulus_id`` ``'<block>_block_<n>'``, ``image_number`` 0-23, ``block``."""
    rows = [{"stimulus_id": f"{block}_block_{number}", "image_number": number, "block": block}
            for block in ("first", "second") for number in range(24)]
    return pd.DataFrame(rows)


def ferguson_fitting_stimuli(experiment: str) -> pd.DataFrame:
    """40 training stimuli (Brain-Score's are 1,920), same columns."""
    rows = [{"stimulus_id": f"train_{block}_block_{number}", "image_number": number, "block": block}
            for block in ("first", "second") for number in range(20)]
    return pd.DataFrame(rows)


def ferguson_distractors(image_numbers) -> np.ndarray:
    few, some = (0, 1, 6, 7, 12, 13, 18, 19), (2, 3, 8, 9, 14, 15, 20, 21)  # Brain-Score's table
    numbers = np.asarray(image_numbers).astype(int)
    return np.where(np.isin(numbers, few), "1.0", np.where(np.isin(numbers, some), "5.0", "11.0"))


def ferguson_trials(experiment: str) -> pd.DataFrame:
    """Human trials: 7 participants x 48 stimuli x 2 repetitions, plus a few warm-up trials (dropped by the
    benchmark); the second block is harder with more distractors (an asymmetry to integrate)."""
    rng = np.random.default_rng(zlib.crc32(experiment.encode()))
    stimuli = ferguson_stimuli(experiment)
    frames = []
    for participant in range(7):
        for _ in range(2):
            frame = stimuli.copy()
            frame["participant_id"] = f"p{participant}"
            frames.append(frame)
    trials = pd.concat(frames, ignore_index=True)
    distractors = ferguson_distractors(trials["image_number"])
    difficulty = np.select([distractors == "1.0", distractors == "5.0"], [0.0, 0.08], 0.15)
    p_correct = 0.92 - difficulty * (trials["block"].to_numpy() == "second") * 2 - 0.03 * rng.random(len(trials))
    trials["correct"] = (rng.random(len(trials)) < p_correct).astype(int)
    trials["distractor_nums"] = distractors
    trials["target_present"] = (trials["image_number"] % 2 == 0).astype(int)
    trials["trial_type"] = "normal"
    trials.loc[rng.choice(len(trials), 10, replace=False), "trial_type"] = "warmup"
    trials["keypress_response"] = np.where(rng.random(len(trials)) < 0.5, "f", "j")
    return trials


def ferguson_probabilities(stimulus_ids, image_labels) -> np.ndarray:
    """The stand-in model's (oddball, same) probabilities: right on most stimuli, by a fixed hash of the id."""
    values = []
    for stimulus_id, label in zip(stimulus_ids, image_labels, strict=True):
        right = zlib.crc32(str(stimulus_id).encode()) % 5 != 0
        odd = (0.8 if right else 0.3) if label == "oddball" else (0.25 if right else 0.6)
        values.append([odd, 1 - odd])
    return np.asarray(values)


def rounding_inputs() -> list[float]:
    """Values like the integrals (-5..5), small ones (|x| < 0.01, fewer digits kept) and a few hand-picked ones."""
    rng = np.random.default_rng(38)
    return [float(v) for v in rng.uniform(-5, 5, 300)] + [float(v) for v in rng.uniform(-0.01, 0.01, 100)] + [
        -2.30780029, 0.00012, -5.679828156229111e-05, 0.12345, 10.5, -0.05, 3.0]


# -------------------------------------------------------------------------------------------------- Malania2007
MALANIA_CONDITIONS = ("short2", "short4", "short6", "short8", "short16", "equal2", "long2", "equal16", "long16")
MALANIA_SUBJECTS = ("s1", "s2", "s3", "s4", "s5", "s6")
MALANIA_LABELS = tuple(float(v) for v in range(1, 11))  # numeric, so Brain-Score's fit over image_label can run


def malania_thresholds(condition: str) -> np.ndarray:
    """Human thresholds of the 6 subjects (NaN where a subject did not do the condition)."""
    rng = np.random.default_rng(zlib.crc32(condition.encode()))
    values = rng.uniform(8, 20, len(MALANIA_SUBJECTS)) * (1 if condition == "vernier_only" else rng.uniform(1.2, 2.5))
    if condition != "vernier_only":
        values[rng.integers(len(values))] = np.nan
    return values


def malania_stimuli(condition: str, fit: bool = False) -> pd.DataFrame:
    """50 test stimuli (5 per label value) or 60 fitting stimuli, with the columns of Brain-Score's sets."""
    count = 6 if fit else 5
    rows = []
    for label in MALANIA_LABELS:
        for k in range(count):
            rows.append({"stimulus_id": f"{condition}{'_fit' if fit else ''}_{int(label)}_{k}",
                         "image_label": label, "vernier_offset_arcsec": label * 12.0,
                         "num_flankers": 0 if condition == "vernier_only" else int("".join(filter(str.isdigit,
                                                                                                  condition)))})
    return pd.DataFrame(rows)


def malania_probabilities(identifier: str, labels, number_of_trials: int, centre: float | None) -> np.ndarray:
    """Per stimulus and trial (stimulus-major), probabilities over :data:`MALANIA_LABELS`: the right label with a
    probability rising with its value around ``centre`` (None: chance), else a wrong one; seeded by ``identifier``."""
    rng = np.random.default_rng(zlib.crc32(identifier.encode()))
    rows = []
    for label in labels:
        p_right = 0.5 if centre is None else 0.5 + 0.47 * norm.cdf((float(label) - centre) / 1.2)
        for _ in range(number_of_trials):
            right = rng.random() < p_right
            chosen = MALANIA_LABELS.index(float(label)) if right else int(rng.integers(len(MALANIA_LABELS)))
            if not right and chosen == MALANIA_LABELS.index(float(label)):
                chosen = (chosen + 1) % len(MALANIA_LABELS)
            row = np.full(len(MALANIA_LABELS), 0.02)
            row[chosen] = 1.0
            rows.append(row / row.sum())
    return np.asarray(rows)


def malania_centre(identifier: str) -> float:
    """Where the stand-in model's accuracy rises: later with flankers (a threshold elevation)."""
    return 3.5 if "vernier_only" in identifier else 5.0


# ---------------------------------------------------------------------------------------------------- Islam2021
def islam_stimuli() -> pd.DataFrame:
    """20 shapes x 2 originals x 5 textures = 200 stimuli (Brain-Score's: 4,369 originals, 21,845 images)."""
    rows = []
    for shape in range(20):
        for original in range(2):
            for texture in range(5):
                rows.append({"stimulus_id": f"im_{shape}_{original}_{texture}", "shape": f"shape{shape:02d}",
                             "texture": f"texture{texture}", "original_image_id": f"orig_{shape}_{original}"})
    return pd.DataFrame(rows)


def islam_features(stimuli: pd.DataFrame, n_features: int = 30) -> np.ndarray:
    """(stimulus, feature) responses: a shape part, a weaker texture part and noise."""
    rng = np.random.default_rng(21)
    shapes = {name: rng.normal(size=n_features) for name in sorted(set(stimuli["shape"]))}
    textures = {name: 0.6 * rng.normal(size=n_features) for name in sorted(set(stimuli["texture"]))}
    return np.stack([shapes[s] + textures[t] + 0.5 * rng.normal(size=n_features)
                     for s, t in zip(stimuli["shape"], stimuli["texture"], strict=True)])


# ------------------------------------------------------------------------------------------ ImageNet-C, ObjectNet
IMAGENET_C_TYPES = {"noise": ("gaussian_noise", "shot_noise", "impulse_noise"),
                    "blur": ("glass_blur", "motion_blur", "zoom_blur", "defocus_blur")}


def imagenet_c_table(category: str) -> pd.DataFrame:
    """Brain-Score's table of a category: every image x corruption x severity 1-5 (12 images here), plus rows of a
    severity and a corruption the benchmark leaves out; image ids as ``image_id`` (the legacy column)."""
    rows = []
    for kind in (*IMAGENET_C_TYPES[category], "other_corruption"):
        for level in (0, 1, 2, 3, 4, 5):
            for image in range(12):
                rows.append({"image_id": f"{kind}_{level}_{image:03d}", "synset": f"n{image % 4:08d}",
                             "noise_type": kind, "noise_level": level,
                             "filename": f"{kind}/{level}/ILSVRC2012_val_{image:08d}.JPEG"})
    return pd.DataFrame(rows)


def objectnet_table() -> pd.DataFrame:
    """40 images of 4 single-synset classes and one class with two synsets (never matched exactly)."""
    rows = [{"image_id": str(i), "synset": ("n00000001;n00000002" if i % 5 == 4 else f"n{i % 5:08d}"),
             "filepath": f"images_no_border/class{i % 5}/{i}.png", "filename": f"class{i % 5}/{i}.png"}
            for i in range(40)]
    return pd.DataFrame(rows)


def imagenet_labels(stimulus_ids, synsets) -> np.ndarray:
    """The stand-in model's labels: the synset (its first, when there are several) except on ids whose hash is 0
    mod 3."""
    return np.asarray([synset.split(";")[0] if zlib.crc32(str(stimulus_id).encode()) % 3 else "n99999999"
                       for stimulus_id, synset in zip(stimulus_ids, synsets, strict=True)])
