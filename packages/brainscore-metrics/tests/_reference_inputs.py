"""Seeded synthetic inputs (plain numpy) for the metrics ported from Brain-Score's families without public data here.

The same functions built the inputs on which Brain-Score's own metric code (brain-score/vision c642dbe4, in a
throwaway virtual environment with brainscore-core 2.5.0 from PyPI and TensorFlow 2.21.0) computed the expected
numbers recorded in ``test_ported_metrics.py``; the script that ran it imported this module, so inputs are shared by
construction. Only numpy is imported here.
"""

from __future__ import annotations

import numpy as np

SUBJECTS = 12
ANIMALS = [f"animal{k}" for k in range(9)]


def baker_inputs(seed: int = 3) -> dict:
    """Baker2022-shaped data: model labels for whole ('w') and Frankenstein ('f') silhouettes of 9 animals, and human
    correctness per trial for subjects numbered 1..12 (as Baker2022's are)."""
    rng = np.random.default_rng(seed)
    animals, types, labels = [], [], []
    for image_type, accuracy in (("w", 0.8), ("f", 0.55)):
        for animal in ANIMALS:
            for _ in range(4):
                animals.append(animal)
                types.append(image_type)
                labels.append(animal if rng.random() < accuracy else ANIMALS[rng.integers(len(ANIMALS))])
    subjects, human_types, correct = [], [], []
    for subject in range(1, SUBJECTS + 1):
        skill = rng.uniform(-0.1, 0.1)
        for image_type, accuracy in (("w", 0.85), ("f", 0.6)):
            for _ in range(18):
                subjects.append(subject)
                human_types.append(image_type)
                correct.append(int(rng.random() < accuracy + skill))
    return {"animal": np.array(animals), "image_type": np.array(types), "labels": np.array(labels),
            "subject": np.array(subjects), "human_image_type": np.array(human_types), "correct": np.array(correct)}


def dimensionality_inputs(seed: int = 4) -> dict:
    """Paired samples of two views for the factors 'color' and 'shape' (12 pairs each, 40 neurons): shared
    factor signal plus view noise."""
    rng = np.random.default_rng(seed)
    factors = np.repeat(["color", "shape"], 12)
    shared = rng.normal(size=(len(factors), 40))
    shared[factors == "shape"] *= 0.4
    first = shared + 0.8 * rng.normal(size=shared.shape)
    second = shared + 0.8 * rng.normal(size=shared.shape)
    return {"factor": factors, "values1": first, "values2": second}


TASKS = ["control", "clutter_heavy", "clutter_light", "occlusion_few_large_blobs_high",
         "occlusion_many_small_deletion_low", "occlusion_few_large_partial_viewing_low", "scrambling_highpass",
         "scrambling_lowpass"]
CATEGORIES = ["bird", "car", "chair", "dog", "house", "lamp"]


def maniquet_inputs(seed: int = 5) -> dict:
    """Maniquet2024-shaped data: model probabilities over 6 categories for images of 8 conditions, and human
    trials (true label, chosen label, task, subject)."""
    rng = np.random.default_rng(seed)
    conditions = [("control", "control"), ("clutter", "heavy"), ("clutter", "light"), ("occluder", "fewlarge-high"),
                  ("occluder", "manysmall-low"), ("occluder", "fewlarge-low"), ("phasescrambling", "highpass"),
                  ("phasescrambling", "lowpass")]
    difficulty = np.linspace(0.2, 2.0, len(conditions))
    manipulation, details, image_label, probabilities = [], [], [], []
    for (kind, detail), hardness in zip(conditions, difficulty, strict=True):
        for category in range(len(CATEGORIES)):
            for _ in range(5):
                logits = rng.normal(0, hardness, len(CATEGORIES))
                logits[category] += 2.0
                probabilities.append(np.exp(logits) / np.exp(logits).sum())
                manipulation.append(kind)
                details.append(detail)
                image_label.append(CATEGORIES[category])
    human_label, human_choice, task, subject = [], [], [], []
    for task_index, task_name in enumerate(TASKS):
        for trial in range(60):
            truth = rng.integers(len(CATEGORIES))
            right = rng.random() < 0.9 - 0.08 * task_index
            choice = truth if right else (truth + rng.integers(1, 3)) % len(CATEGORIES)
            human_label.append(CATEGORIES[truth])
            human_choice.append(CATEGORIES[choice])
            task.append(task_name)
            subject.append(f"sub{trial % 6}")
    return {"probabilities": np.array(probabilities), "choices": np.array(CATEGORIES),
            "manipulation": np.array(manipulation), "manipulation_details": np.array(details),
            "image_label": np.array(image_label), "human_image_label": np.array(human_label),
            "prediction": np.array(human_choice), "task": np.array(task), "subject_id": np.array(subject)}


def ost_inputs(seed: int = 29) -> dict:
    """Kar2019-shaped data: responses (image x neuroid x 10-ms bin from 70 ms) whose object signal rises at an
    image-specific onset, measured OSTs (that onset plus noise) and primate I1 thresholds."""
    rng = np.random.default_rng(seed)
    n_objects, per_object, n_neuroids = 6, 30, 20
    starts = np.arange(70, 250, 10)
    n = n_objects * per_object
    labels = np.repeat([f"obj{k}" for k in range(n_objects)], per_object)
    onset = rng.uniform(80, 200, n)
    centers = rng.normal(size=(n_objects, n_neuroids))
    gain = 1 / (1 + np.exp(-(starts[None, :] - onset[:, None]) / 15))
    values = (centers[np.repeat(np.arange(n_objects), per_object)][:, :, None] * 6 * gain[:, None, :]
              + rng.normal(size=(n, n_neuroids, len(starts))))
    ids = np.array([f"img{i:03d}" for i in rng.permutation(n)])
    osts = onset + rng.normal(0, 10, n)
    thresholds = rng.uniform(-0.5, 1.0, n)
    return {"values": values, "ids": ids, "labels": labels, "starts": starts, "osts": osts, "thresholds": thresholds}


def i1_inputs(seed: int = 6) -> dict:
    """Objectome-shaped match-to-sample data: 8 objects x 5 images, 1,600 human trials (sample, distractor, choice)
    and model choice probabilities over the 8 objects."""
    rng = np.random.default_rng(seed)
    objects = np.array([f"object{k}" for k in range(8)])
    truth = np.repeat(np.arange(8), 5)
    ids = np.array([f"image{i:02d}" for i in range(40)])
    difficulty = rng.uniform(0.55, 0.95, 40)
    image, distractor, choice = [], [], []
    for _ in range(1600):
        i = rng.integers(40)
        other = (truth[i] + rng.integers(1, 8)) % 8
        image.append(i)
        distractor.append(other)
        choice.append(truth[i] if rng.random() < difficulty[i] else other)
    logits = rng.normal(size=(40, 8))
    logits[np.arange(40), truth] += 3 * difficulty
    probabilities = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    image = np.array(image)
    return {"ids": ids, "objects": objects, "probabilities": probabilities, "truth": objects[truth],
            "trial_image": ids[image], "trial_truth": objects[truth[image]], "trial_distractor": objects[distractor],
            "trial_choice": objects[choice]}
