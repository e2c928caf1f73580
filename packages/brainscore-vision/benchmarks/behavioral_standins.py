"""Synthetic stand-ins of the behavioural families of issue 38 (part 1), following each data plugin's schema.

Plain numpy and pandas only, so that the same inputs are built in Brain-Score's venv
(``reference_behavioral_families.py``), in our tests (``tests/test_behavioral_families.py``) and in model-tools'
end-to-end benchmark (``bench_end_to_end.py --families``). Every function returns plain data:

* a stimulus set is ``{column: list}`` (one row per stimulus, ``stimulus_id`` first);
* an assembly is ``{"values": array, "coords": {name: array on presentation}, "stimulus_set": identifier or None}``;
* a family is ``{"stimulus_sets": {identifier: columns}, "assemblies": {identifier: assembly}}``, keyed by the
  identifiers Brain-Score's data plugins register (the bucket identifiers of ``BMD2024.<cond>`` are
  ``BMD_2024_<cond>``; the test side maps them).

The columns and coordinates are those Brain-Score's packaging scripts write (brain-score/vision c642dbe4,
``data/<family>/``): Baker2022 (``animal``, ``image_type``, ``orientation``; subjects numbered from 1, values 0/1
correctness), BMD2024 (``truth``, ``condition``; values the answer), Lonnqvist2024 (``truth``, ``image_label``,
``curve_length``, ``n_cross``), Maniquet2024 (``manipulation``, ``manipulation_details``, ``image_label``; humans
``subject_id``, ``prediction``, ``task``), Scialom2024 (integer stimulus ids, ``condition``, ``percentage_elements``;
the composites ``<kind>-all`` are the union of rgb, contours and that kind's nine sets), Coggan2024 behaviour
(``object_class``, ``occluder_type``, ``occluder_color``, ``visibility``; ``human_accuracy``) and Hebart2023
(triplets ``image_1``, ``image_2``, ``image_3``, the third the odd one the subject chose; integer stimulus ids equal
to their row, as Brain-Score's ``.loc`` selection needs).

The "model" answers are deterministic functions of a stimulus's id and metadata (:func:`label_answers`,
:func:`probability_answers`, :func:`odd_one_out_answers`), so both sides see the same behaviour.
"""

from __future__ import annotations

import hashlib

import numpy as np

BAKER_ANIMALS = ("bear", "bunny", "cat", "elephant", "frog", "lizard", "tiger", "turtle", "wolf")
BMD_CATEGORIES = ("airplane", "bear", "bicycle", "bird", "bottle", "car", "cat", "chair", "elephant", "knife")
BMD_CONDITIONS = ("texture_1", "texture_2", "dotted_1", "dotted_2")
LONNQVIST_DATASETS = ("inlab-instructions", "inlab-no-instructions", "online-no-instructions")
SCIALOM_CATEGORIES = ("Banana", "Beanie", "Binoculars", "Boot", "Bowl", "Cup", "Glasses", "Lamp", "Pan",
                      "Sewing machine", "Shovel", "Truck")
SCIALOM_PERCENTAGES = (12, 16, 21, 27, 35, 46, 59, 77, 100)
SCIALOM_SINGLE = ("rgb", "contours", *(f"{kind}-{p}" for kind in ("phosphenes", "segments")
                                       for p in SCIALOM_PERCENTAGES))
SCIALOM_COMPOSITES = ("phosphenes-all", "segments-all")
SCIALOM_DATASETS = SCIALOM_SINGLE + SCIALOM_COMPOSITES
MANIQUET_CATEGORIES = ("bird", "car", "chair", "dog", "house", "lamp")
MANIQUET_CONDITIONS = (("control", "control", "control"), ("clutter", "heavy", "clutter_heavy"),
                       ("clutter", "light", "clutter_light"),
                       ("occluder", "fewlarge-high", "occlusion_few_large_blobs_high"),
                       ("occluder", "manysmall-low", "occlusion_many_small_deletion_low"),
                       ("phasescrambling", "highpass", "scrambling_highpass"),
                       ("phasescrambling", "lowpass", "scrambling_lowpass"))
COGGAN_CLASSES = ("bear", "bison", "elephant", "hare", "jeep", "lamp", "sportsCar", "teapot")


def unit(*parts) -> float:
    """A number in [0, 1) fixed by ``parts`` (sha1 of their text): the same on every machine and venv."""
    digest = hashlib.sha1("|".join(str(part) for part in parts).encode()).hexdigest()
    return int(digest[:12], 16) / float(16 ** 12)


def ease(stimulus_id) -> float:
    """How easy a stimulus is, in [0, 1): shared by the model and the subjects, so that their errors correlate."""
    return unit("ease", stimulus_id)


def _answer(truth: str, choices, p_correct: float, stimulus_id, *key) -> str:
    """``truth`` with probability ``p_correct + 0.4 * (ease - 0.5)`` (decided by ``key``), else another of
    ``choices``."""
    if unit("correct", stimulus_id, *key) < p_correct + 0.4 * (ease(stimulus_id) - 0.5):
        return truth
    others = [choice for choice in choices if choice != truth]
    return others[int(unit("wrong", stimulus_id, *key) * len(others))]


#: the model is better on whole silhouettes than on broken ones (Baker2022's ``image_type``)
MODEL_ACCURACY_BY_IMAGE_TYPE = {"w": 0.85, "f": 0.55, "o": 0.75}


# ------------------------------------------------------------------------------------------------ the model
def label_answers(stimulus_ids, truths, choices, image_types=None, *, p_correct: float = 0.6) -> list[str]:
    """The model's label per stimulus: its truth or another choice, decided by the stimulus (:func:`_answer`);
    with ``image_types`` (Baker2022) the base accuracy is :data:`MODEL_ACCURACY_BY_IMAGE_TYPE`'s."""
    image_types = [None] * len(stimulus_ids) if image_types is None else list(image_types)
    return [_answer(str(truth), [str(c) for c in choices], MODEL_ACCURACY_BY_IMAGE_TYPE.get(kind, p_correct),
                    stimulus_id, "model")
            for stimulus_id, truth, kind in zip(stimulus_ids, truths, image_types, strict=True)]


def probability_answers(stimulus_ids, truths, choices) -> np.ndarray:
    """Probabilities over ``choices`` (presentation x choice): a softmax of id-fixed logits, the truth boosted by
    the stimulus's ease."""
    rows = []
    for stimulus_id, truth in zip(stimulus_ids, truths, strict=True):
        logits = np.array([2.0 * unit("logit", stimulus_id, choice) for choice in choices])
        logits[[str(c) for c in choices].index(str(truth))] += 1.6 * ease(stimulus_id)
        rows.append(np.exp(logits) / np.exp(logits).sum())
    return np.array(rows)


def odd_one_out_answers(triplets) -> list:
    """The odd stimulus per triplet ``(image_1, image_2, image_3)``: the third (the humans' choice) with
    probability 0.55 (fixed per triplet), else the first or the second."""
    answers = []
    for first, second, third in triplets:
        u = unit("odd", first, second, third)
        answers.append(third if u < 0.55 else first if u < 0.8 else second)
    return answers


# --------------------------------------------------------------------------------------------- the families
def baker2022(*, images_per_type=3, subjects: tuple[int, int] = (8, 6),
              shown: tuple[float, float] = (0.75, 0.75)) -> dict:
    """``Baker2022_normal_distortion`` (image types w, f, o) and ``Baker2022_inverted_distortion`` (w, f):
    ``images_per_type`` per animal and type (a number, or one per orientation); each subject sees a fraction
    ``shown`` of the images (upright, inverted)."""
    counts = images_per_type if isinstance(images_per_type, tuple | list) else (images_per_type, images_per_type)
    family = {"stimulus_sets": {}, "assemblies": {}}
    conditions = {"w": "whole", "f": "Frankenstein", "o": "fragmented"}
    for orientation, types, n_subjects, fraction, count in (("normal", "wfo", subjects[0], shown[0], counts[0]),
                                                            ("inverted", "wf", subjects[1], shown[1], counts[1])):
        identifier = f"Baker2022_{orientation}_distortion"
        rows = [{"stimulus_id": f"{orientation}_{animal}_{image_type}{number}", "animal": animal,
                 "image_type": image_type, "image_number": number, "orientation": orientation}
                for animal in BAKER_ANIMALS for image_type in types for number in range(count)]
        family["stimulus_sets"][identifier] = _columns(rows)
        # whole images are recognised more often than broken ones, humans more than the model
        accuracy = {"w": 0.9, "f": 0.55, "o": 0.7}
        trials = [(subject, row) for subject in range(1, n_subjects + 1) for row in rows
                  if unit("shown", identifier, subject, row["stimulus_id"]) < fraction]
        correct = [int(unit("human", identifier, subject, row["stimulus_id"])
                       < accuracy[row["image_type"]] - 0.03 * (subject % 3) + 0.3 * (ease(row["stimulus_id"]) - 0.5))
                   for subject, row in trials]
        family["assemblies"][identifier] = {
            "values": np.array(correct), "stimulus_set": identifier,
            "coords": {"subject": np.array([subject for subject, _ in trials]),
                       "stimulus_id": np.array([row["stimulus_id"] for _, row in trials]),
                       "animal": np.array([row["animal"] for _, row in trials]),
                       "truth": np.array([row["animal"] for _, row in trials]),
                       "image_type": np.array([row["image_type"] for _, row in trials]),
                       "condition": np.array([conditions[row["image_type"]] for _, row in trials]),
                       "orientation": np.array([orientation for _ in trials]),
                       "correct": np.array(correct)}}
    return family


def _subject_trials(identifier: str, rows: list[dict], subjects, truth_column: str, choices, p_correct) -> dict:
    """Every subject answers every stimulus: answer, truth and the stimulus columns on presentation."""
    trials = [(subject, row) for subject in subjects for row in rows]
    answers = [_answer(str(row[truth_column]), choices, p_correct(subject, row), row["stimulus_id"], identifier, subject)
               for subject, row in trials]
    coords = {"subject": np.array([subject for subject, _ in trials])}
    for column in rows[0]:
        coords[column] = np.array([row[column] for _, row in trials])
    return {"values": np.array(answers), "coords": coords, "stimulus_set": identifier}


def bmd2024(*, images_per_category: int = 3, n_subjects: int = 5) -> dict:
    """``BMD2024.<condition>`` (assembly and stimulus set), 10 categories."""
    family = {"stimulus_sets": {}, "assemblies": {}}
    for index, condition in enumerate(BMD_CONDITIONS):
        identifier = f"BMD2024.{condition}"
        rows = [{"stimulus_id": f"{category.capitalize()}_{number}_{condition}", "truth": category,
                 "condition": condition}
                for category in BMD_CATEGORIES for number in range(images_per_category)]
        family["stimulus_sets"][identifier] = _columns(rows)
        assembly = _subject_trials(identifier, rows, [f"subj{s:02d}" for s in range(n_subjects)], "truth",
                                   BMD_CATEGORIES, lambda subject, row, i=index: 0.85 - 0.1 * i)
        assembly["coords"]["subject_answer"] = assembly["values"].copy()
        family["assemblies"][identifier] = assembly
    return family


def lonnqvist2024(*, n_train: int = 12, n_test: int = 24, subjects=(4, 4, 6)) -> dict:
    """``Lonnqvist2024_train`` / ``_test`` and the three human data sets (answers ``same`` / ``diff``)."""
    def rows(split, count, offset):
        return [{"stimulus_id": str(offset + i), "curve_length": 20 + 10 * (i % 19), "n_cross": 1 + i % 7,
                 "image_path": f"images/{split}/{offset + i}.png", "truth": "same" if unit(split, i) < 0.5 else "diff",
                 "image_label": None} for i in range(count)]

    train, test = rows("train", n_train, 0), rows("test", n_test, 1000)
    for row in train + test:
        row["image_label"] = row["truth"]
    family = {"stimulus_sets": {"Lonnqvist2024_train": _columns(train), "Lonnqvist2024_test": _columns(test)},
              "assemblies": {}}
    for dataset, n_subjects, base in zip(LONNQVIST_DATASETS, subjects, (0.9, 0.75, 0.65), strict=True):
        identifier = f"Lonnqvist2024_{dataset}"
        assembly = _subject_trials(identifier, test, [f"s{s}" for s in range(n_subjects)], "truth", ("diff", "same"),
                                   lambda subject, row, b=base: b - 0.02 * row["n_cross"])
        coords = assembly["coords"]
        coords.update(visual_degrees=np.full(len(assembly["values"]), 17.70753),
                      image_duration=np.full(len(assembly["values"]), 0.2),
                      is_correct=(assembly["values"] == coords["truth"]).astype(int),
                      subject_answer=assembly["values"].copy())
        assembly["stimulus_set"] = "Lonnqvist2024_test"
        family["assemblies"][identifier] = assembly
    return family


def maniquet2024(*, images_per_cell: int = 1, trials_per_task: int = 30, n_subjects: int = 6) -> dict:
    """``Maniquet2024-train`` / ``-test`` (model stimuli) and the human trials ``Maniquet2024`` (no stimulus set
    attached, as Brain-Score's plugin loads it)."""
    def rows(split, conditions):
        return [{"stimulus_id": f"{number}_{kind}_{detail}_{category}_{split}", "manipulation": kind,
                 "manipulation_details": detail, "image_label": category, "exemplar_number": str(number)}
                for kind, detail, _ in conditions for category in MANIQUET_CATEGORIES
                for number in range(images_per_cell)]

    train = rows("train", MANIQUET_CONDITIONS[:1]) + rows("train2", MANIQUET_CONDITIONS[:1])
    test = rows("test", MANIQUET_CONDITIONS)
    label, prediction, task, subject, accuracy = [], [], [], [], []
    for task_index, (_, _, task_name) in enumerate(MANIQUET_CONDITIONS):
        for trial in range(trials_per_task):
            truth = MANIQUET_CATEGORIES[int(unit("truth", task_name, trial) * len(MANIQUET_CATEGORIES))]
            answer = _answer(truth, MANIQUET_CATEGORIES, 0.9 - 0.08 * task_index, f"{task_name}{trial}", "human")
            label.append(truth)
            prediction.append(answer)
            task.append(task_name)
            subject.append(f"sub{trial % n_subjects}")
            accuracy.append(int(answer == truth))
    humans = {"values": np.array(accuracy), "stimulus_set": None,
              "coords": {"stimulus_id": np.array([f"h{i}" for i in range(len(label))]),
                         "image_label": np.array(label), "prediction": np.array(prediction),
                         "subject_id": np.array(subject), "task": np.array(task)}}
    return {"stimulus_sets": {"Maniquet2024-train": _columns(train), "Maniquet2024-test": _columns(test)},
            "assemblies": {"Maniquet2024": humans}}


def scialom2024(*, images_per_set: int = 8, subjects: tuple[int, int] = (6, 4), composite_subjects: int = 3,
                datasets=SCIALOM_DATASETS) -> dict:
    """``Scialom2024_<dataset>`` for the 20 single data sets and the 2 composites (``<kind>-all`` = rgb + contours
    + that kind's nine sets, the same images and stimulus ids as in those sets). Stimulus ids are integers unique
    across the family; categories cycle through the 12."""
    def percentage(dataset):
        return {"rgb": "RGB", "contours": "contours"}.get(dataset, dataset.rsplit("-", 1)[-1])

    def rows(dataset):
        start = SCIALOM_SINGLE.index(dataset) * images_per_set
        return [{"stimulus_id": start + i, "image_height": 224, "image_width": 224, "num_channels": 3,
                 "dataset": dataset, "object_id": i % len(SCIALOM_CATEGORIES) + 1,
                 "truth": SCIALOM_CATEGORIES[i % len(SCIALOM_CATEGORIES)], "percentage_elements": percentage(dataset),
                 "condition": percentage(dataset)} for i in range(images_per_set)]

    def difficulty(dataset):
        if dataset in ("rgb", "contours"):
            return 0.95 if dataset == "rgb" else 0.8
        return 0.3 + 0.006 * int(percentage(dataset))

    family = {"stimulus_sets": {}, "assemblies": {}}
    for dataset in datasets:
        identifier = f"Scialom2024_{dataset}"
        if dataset in SCIALOM_COMPOSITES:
            kind = dataset.split("-")[0]
            parts = ["rgb", "contours"] + [f"{kind}-{p}" for p in SCIALOM_PERCENTAGES]
            table = []
            for part in parts:
                for row in rows(part):
                    group = {"rgb": "RGB", "contours": "contours"}.get(part, kind)
                    table.append({**row, "dataset": dataset, "condition": group, "_difficulty": difficulty(part)})
            n_subjects = composite_subjects
        else:
            table = [{**row, "_difficulty": difficulty(dataset)} for row in rows(dataset)]
            n_subjects = subjects[0] if dataset in ("rgb", "contours") else subjects[1]
        stimuli = [{key: value for key, value in row.items() if not key.startswith("_")} for row in table]
        family["stimulus_sets"][identifier] = _columns(stimuli)
        assembly = _subject_trials(identifier, table, [f"{dataset}-s{s}" for s in range(n_subjects)], "truth",
                                   SCIALOM_CATEGORIES, lambda subject, row: row["_difficulty"])
        coords = assembly["coords"]
        del coords["_difficulty"]
        for name in ("image_height", "image_width", "num_channels", "dataset", "object_id"):
            del coords[name]
        count = len(assembly["values"])
        coords.update(subject_group=coords["condition"].copy(), visual_degrees=np.full(count, 8),
                      image_duration=np.full(count, 0.2), subject_answer=assembly["values"].copy(),
                      is_correct=(assembly["values"] == coords["truth"]).astype(int),
                      percentage_elements=coords["percentage_elements"].astype(str),
                      condition=coords["condition"].astype(str))
        family["assemblies"][identifier] = assembly
    return family


def coggan2024_behavior(*, n_subjects: int = 4, classes: int = 4, occluders: int = 3, colours: int = 2,
                        n_fitting: int = 16, visibilities=(0.2, 0.6, 1.0)) -> dict:
    """``Coggan2024_behavior`` (one stimulus per subject and trial; visibility 1.0 is the unoccluded control) and
    ``Coggan2024_behavior_fitting`` (labelled images of the same classes)."""
    object_classes = COGGAN_CLASSES[:classes]
    occluder_types = [f"occluder{k}" for k in range(occluders)]
    occluder_colours = ["black", "white", "grey"][:colours]
    rows, values, accuracy = [], [], []
    for subject in range(n_subjects):
        trial = 0
        for object_class in object_classes:
            for occluder in occluder_types:
                for colour in occluder_colours:
                    for visibility in visibilities:
                        stimulus_id = f"{len(rows):05d}_sub-{subject:02d}_trial-{trial:03d}"
                        rows.append({"stimulus_id": stimulus_id, "subject": f"sub-{subject:02d}", "trial": trial,
                                     "object_class": object_class, "occluder_type": occluder,
                                     "occluder_color": colour, "visibility": visibility, "repetition": 0})
                        p = 0.3 + 0.6 * visibility - 0.1 * occluder_types.index(occluder) + 0.05 * (subject % 2)
                        answer = _answer(object_class, object_classes, p, stimulus_id, "human")
                        values.append(answer)
                        accuracy.append(int(answer == object_class))
                        trial += 1
    fitting = [{"stimulus_id": f"{i:04d}_fit", "image_label": object_classes[i % classes],
                "imagenet_path": f"val/{i}.JPEG"} for i in range(n_fitting)]
    coords = {name: np.array([row[name] for row in rows]) for name in rows[0]}
    coords["human_accuracy"] = np.array(accuracy)
    return {"stimulus_sets": {"Coggan2024_behavior": _columns(rows), "Coggan2024_behavior_fitting": _columns(fitting)},
            "assemblies": {"Coggan2024_behavior": {"values": np.array(values), "coords": coords,
                                                   "stimulus_set": "Coggan2024_behavior"}}}


def hebart2023(*, n_images: int = 12, n_triplets: int = 90) -> dict:
    """``Hebart2023``: ``n_images`` stimuli (ids 0..n-1, as their rows) and ``n_triplets`` human triplets."""
    rows = [{"stimulus_id": i, "unique_id": f"concept{i:02d}", "filename": f"concept{i:02d}.jpg",
             "WordNet_ID": f"n{i:08d}"} for i in range(n_images)]
    # each triplet: three different images fixed by the triplet's number
    triplets = []
    for k in range(n_triplets):
        first = int(unit("triplet", k, 1) * n_images)
        second = (first + 1 + int(unit("triplet", k, 2) * (n_images - 1))) % n_images
        third = next(i for i in ((first + 1 + int(unit("triplet", k, 3, step) * (n_images - 1))) % n_images
                                 for step in range(100)) if i != second)
        triplets.append([first, second, third])
    triplets = np.array(triplets)
    assembly = {"values": triplets[:, 2].copy(), "stimulus_set": "Hebart2023",
                "coords": {"stimulus_id": triplets[:, 2].copy(), "triplet_id": np.array([f"triplet_{k}"
                                                                                       for k in range(n_triplets)]),
                           "image_1": triplets[:, 0], "image_2": triplets[:, 1], "image_3": triplets[:, 2]}}
    return {"stimulus_sets": {"Hebart2023": _columns(rows)}, "assemblies": {"Hebart2023": assembly}}


def accuracy_distance_unit_data() -> dict:
    """The toy data of Brain-Score's unit tests of ``accuracy_distance`` (metrics/accuracy_distance/test.py): three
    subjects answer the same nine stimuli (truth dog, cat, chair repeating; conditions 1, 2, 3 by threes; animacy
    animate, animate, inanimate repeating); A is right on 5, B on 4, C on all 9."""
    answers = {"A": "dog cat chair cat dog dog dog dog chair", "B": "cat cat chair cat dog cat chair cat cat",
               "C": "dog cat chair dog cat chair dog cat chair"}
    values = [word for subject in "ABC" for word in answers[subject].split()]
    return {"values": np.array(values), "stimulus_set": None,
            "coords": {"stimulus_id": np.tile(np.arange(9), 3), "truth": np.resize(["dog", "cat", "chair"], 27),
                       "condition": np.resize([1, 1, 1, 2, 2, 2, 3, 3, 3], 27),
                       "animacy": np.resize(["animate", "animate", "inanimate"], 27),
                       "subject": np.repeat(["A", "B", "C"], 9)}}


FAMILIES = {"Baker2022": baker2022, "BMD2024": bmd2024, "Lonnqvist2024": lonnqvist2024, "Maniquet2024": maniquet2024,
            "Scialom2024": scialom2024, "Coggan2024_behavior": coggan2024_behavior, "Hebart2023": hebart2023}


def _columns(rows: list[dict]) -> dict[str, list]:
    return {name: [row[name] for row in rows] for name in rows[0]}
