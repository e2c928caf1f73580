"""Example inputs of every kind a metric or ceiling of this package takes, for the battery
(:mod:`brainscore_metrics.testing`): small, seeded, with signal, built with brainio's assembly classes.

Each builder returns the positional inputs of one call: ``(source, target)`` for a metric, ``(data,)`` for a ceiling.
:data:`CLASS_EXAMPLES` says, for each metric class of this package, which kind it takes and which constructor
arguments the battery passes (as scikit-learn's test suite keeps the parameters of estimators that need some); a
class not listed takes a ``'neural'`` pair and no arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from brainscore_metrics._frozen import frozen

__all__ = ["BATTERY_WAIVERS", "CEILING_KINDS", "CLASS_EXAMPLES", "EXAMPLE_KINDS", "IDENTIFIER_EXAMPLES", "KIND_DIMS", "KIND_PERMUTE",
           "example_inputs"]


def _neuroids(values: np.ndarray, ids, prefix: str = "n", **presentation_coords):
    from brainio.assemblies import NeuroidAssembly

    coords = {"stimulus_id": ("presentation", list(ids)),
              **{name: ("presentation", list(values_)) for name, values_ in presentation_coords.items()},
              "neuroid_id": ("neuroid", [f"{prefix}{i}" for i in range(values.shape[1])]),
              "region": ("neuroid", ["IT"] * values.shape[1])}
    return NeuroidAssembly(values, coords=coords, dims=["presentation", "neuroid"])


def _signal(rng: np.random.Generator, n: int = 80, p: int = 40, q: int = 30):
    """Source features (n x p), a target (n x q) linearly related to them with noise, ids and object labels."""
    source = rng.normal(size=(n, p))
    target = source[:, :6] @ rng.normal(size=(6, q)) + 0.5 * rng.normal(size=(n, q))
    ids = [f"stim{i:03d}" for i in range(n)]
    objects = [f"obj{i % 4}" for i in range(n)]
    return source, target, ids, objects


def neural(rng):
    source, target, ids, objects = _signal(rng)
    return (_neuroids(source, ids, "unit", object_name=objects), _neuroids(target, ids, object_name=objects))


def neural_split(rng):
    source, target = neural(rng)
    train, test = np.arange(60), np.arange(60, 80)
    return (source.isel(presentation=train), source.isel(presentation=test),
            target.isel(presentation=train), target.isel(presentation=test))


def neural_time(rng):
    import xarray as xr

    source, target = neural(rng)
    bins = xr.concat([target, target * 1.1 + 0.1], dim="time_bin").transpose("presentation", "neuroid", "time_bin")
    bins = bins.assign_coords(time_bin_start=("time_bin", [70, 170]), time_bin_end=("time_bin", [170, 270]))
    return source, bins


def labels(rng):
    from brainio.assemblies import BehavioralAssembly

    ids = [f"stim{i:02d}" for i in range(40)]
    truth = rng.choice(["dog", "cat", "car"], size=40)
    model = np.where(rng.random(40) < 0.7, truth, "car")
    return tuple(BehavioralAssembly(list(values), coords={"stimulus_id": ("presentation", ids)}, dims=["presentation"])
                 for values in (model, truth))


def _trials(rng, n_stimuli: int, subjects: list[str], accuracy: float):
    """Two-way choices of each subject on each stimulus of 2 conditions (truth, choice, subject, condition)."""
    from brainio.assemblies import BehavioralAssembly

    columns = {"stimulus_id": [], "truth": [], "subject": [], "condition": []}
    choices = []
    for subject in subjects:
        for i in range(n_stimuli):
            truth = ("cat", "dog")[i % 2]
            correct = rng.random() < accuracy - 0.1 * (i % 3)
            choices.append(truth if correct else ("dog" if truth == "cat" else "cat"))
            columns["stimulus_id"].append(f"stim{i:02d}")
            columns["truth"].append(truth)
            columns["subject"].append(subject)
            columns["condition"].append(f"c{i % 2}")
    return BehavioralAssembly(choices, coords={name: ("presentation", values) for name, values in columns.items()},
                              dims=["presentation"])


def trials(rng):
    """Model choices (one subject) and human choices (four subjects) on the same stimuli."""
    model = _trials(rng, 24, ["model"], 0.8)
    return model, _trials(rng, 24, ["s1", "s2", "s3", "s4"], 0.8)


def probabilities(rng):
    """Model choice probabilities (presentation x choice) and human two-alternative trials (I1n, I2n)."""
    from brainio.assemblies import BehavioralAssembly, DataAssembly

    objects, images = ["bear", "car", "dog", "face"], [f"im{i:02d}" for i in range(16)]
    truth = {image: objects[i % 4] for i, image in enumerate(images)}
    logits = rng.normal(size=(16, 4)) + 2 * np.eye(4)[[i % 4 for i in range(16)]]
    source = DataAssembly(np.exp(logits) / np.exp(logits).sum(1, keepdims=True),
                          coords={"stimulus_id": ("presentation", images), "choice": ("choice", objects)},
                          dims=["presentation", "choice"])
    rows = {"stimulus_id": [], "truth": [], "sample_obj": [], "dist_obj": []}
    choices = []
    for _ in range(800):
        image = images[int(rng.integers(16))]
        distractor = str(rng.choice([o for o in objects if o != truth[image]]))
        choices.append(truth[image] if rng.random() < 0.75 else distractor)
        for name, value in zip(rows, (image, truth[image], truth[image], distractor), strict=True):
            rows[name].append(value)
    target = BehavioralAssembly(choices, coords={name: ("presentation", values) for name, values in rows.items()},
                                dims=["presentation"])
    return source, target


def scalars(rng):
    return float(rng.uniform(0, 1)), float(rng.uniform(0, 1))


def threshold(rng):
    return float(rng.uniform(1, 3)), list(rng.uniform(1, 3, size=6))


def threshold_elevation(rng):
    from brainio.assemblies import PropertyAssembly

    baseline = rng.uniform(1, 2, size=6)
    return float(rng.uniform(1, 2)), {"baseline_assembly": PropertyAssembly(baseline),
                                      "condition_assembly": PropertyAssembly(baseline * rng.uniform(1, 2, size=6))}


def _properties(values: np.ndarray, name: str = "surround_suppression_index"):
    from brainio.assemblies import PropertyAssembly

    assembly = PropertyAssembly(values[:, None], coords={
        "neuroid_id": ("neuroid", [f"n{i}" for i in range(len(values))]),
        "neuronal_property": ("neuronal_property", [name])}, dims=["neuroid", "neuronal_property"])
    assembly.attrs[f"{name}_bins"] = np.linspace(0, 1, 11)
    return assembly


def properties(rng):
    return _properties(rng.beta(2, 5, size=60)), _properties(rng.beta(2, 4, size=80))


def feature_maps(rng):
    """A ``neural`` pair whose source is a feature map: 10 channels x 2 x 2 positions (neuroid coordinates
    ``channel``, ``channel_x``, ``channel_y``), as ``mask_regression`` reads it."""
    source, target = neural(rng)
    channel, x, y = np.unravel_index(np.arange(source.sizes["neuroid"]), (10, 2, 2))
    return source.assign_coords(channel=("neuroid", channel), channel_x=("neuroid", x), channel_y=("neuroid", y)), target


def broken_configurations(rng):
    """Model labels for whole ('w') and broken ('f') images of 4 animals, and human correctness per trial of 6
    subjects (numbered 1..6), as ``baker_accuracy_delta`` takes them."""
    from brainio.assemblies import BehavioralAssembly

    animals = ["bear", "cat", "dog", "owl"]
    rows = [(animal, kind, animal if rng.random() < accuracy else animals[int(rng.integers(4))])
            for kind, accuracy in (("w", 0.85), ("f", 0.5)) for animal in animals for _ in range(5)]
    source = BehavioralAssembly([[label for *_, label in rows]], dims=["choice", "presentation"], coords={
        "animal": ("presentation", [row[0] for row in rows]), "image_type": ("presentation", [row[1] for row in rows]),
        "choice": ("choice", ["label"])})
    trials = [(subject, kind, int(rng.random() < accuracy)) for subject in range(1, 7)
              for kind, accuracy in (("w", 0.9), ("f", 0.6)) for _ in range(12)]
    target = BehavioralAssembly([correct for *_, correct in trials], dims=["presentation"], coords={
        "subject": ("presentation", [row[0] for row in trials]),
        "image_type": ("presentation", [row[1] for row in trials])})
    return source, target


def factor_views(rng):
    """Two views (sample x neuron) of 10 paired samples for each of the factors 'color' and 'shape'."""
    from brainio.assemblies import DataAssembly

    factors = np.repeat(["color", "shape"], 10)
    shared = rng.normal(size=(20, 16)) * np.where(factors == "shape", 0.5, 1.0)[:, None]
    return tuple(DataAssembly(shared + 0.8 * rng.normal(size=shared.shape), coords={"factor": ("sample", factors)},
                              dims=["sample", "neuron"]) for _ in range(2))


def task_confusions(rng):
    """Model choice probabilities over 4 categories on images of 3 conditions, and human trials of the 3 matching
    tasks (true label, chosen label, task), as ``confusion_similarity`` and ``tasks_consistency`` take them."""
    from brainio.assemblies import BehavioralAssembly

    categories = ["bird", "car", "dog", "lamp"]
    conditions = {"control": ("control", "control"), "clutter_heavy": ("clutter", "heavy"),
                  "scrambling_lowpass": ("phasescrambling", "lowpass")}
    rows, probabilities = [], []
    for hardness, condition in zip((0.3, 1.0, 2.0), conditions.values(), strict=True):
        for category in range(4):
            for _ in range(4):
                logits = rng.normal(0, hardness, 4)
                logits[category] += 2.0
                probabilities.append(np.exp(logits) / np.exp(logits).sum())
                rows.append((*condition, categories[category]))
    source = BehavioralAssembly(np.array(probabilities), dims=["presentation", "choice"], coords={
        "manipulation": ("presentation", [row[0] for row in rows]),
        "manipulation_details": ("presentation", [row[1] for row in rows]),
        "image_label": ("presentation", [row[2] for row in rows]), "choice": ("choice", categories)})
    trials = []
    for position, task in enumerate(conditions):
        for _ in range(30):
            truth = int(rng.integers(4))
            choice = truth if rng.random() < 0.9 - 0.15 * position else (truth + int(rng.integers(1, 4))) % 4
            trials.append((categories[truth], categories[choice], task))
    target = BehavioralAssembly([row[1] for row in trials], dims=["presentation"], coords={
        "image_label": ("presentation", [row[0] for row in trials]),
        "prediction": ("presentation", [row[1] for row in trials]), "task": ("presentation", [row[2] for row in trials])})
    return source, target


def solution_times(rng):
    """Responses (image x neuroid x 10-ms bin) whose object signal rises at an image-specific onset, and measured
    solution times (that onset plus noise) with the primates' I1 per image, as ``ost`` takes them."""
    from brainio.assemblies import DataAssembly, NeuroidAssembly

    n_objects, per_object, n_neuroids = 4, 10, 8
    starts = np.arange(70, 190, 20)
    labels = np.repeat([f"obj{k}" for k in range(n_objects)], per_object)
    onset = rng.uniform(80, 160, len(labels))
    gain = 1 / (1 + np.exp(-(starts[None, :] - onset[:, None]) / 15))
    centers = rng.normal(size=(n_objects, n_neuroids))[np.repeat(np.arange(n_objects), per_object)]
    values = centers[:, :, None] * 6 * gain[:, None, :] + rng.normal(size=(len(labels), n_neuroids, len(starts)))
    ids = [f"img{i:03d}" for i in range(len(labels))]
    source = NeuroidAssembly(values, dims=["presentation", "neuroid", "time_bin"], coords={
        "stimulus_id": ("presentation", ids), "image_label": ("presentation", labels), "truth": ("presentation", labels),
        "neuroid_id": ("neuroid", np.arange(n_neuroids)), "time_bin_start": ("time_bin", starts),
        "time_bin_end": ("time_bin", starts + 20)})
    target = DataAssembly(onset + rng.normal(0, 10, len(labels)), dims=["presentation"], coords={
        "stimulus_id": ("presentation", ids), "i1": ("presentation", rng.uniform(-0.5, 1.0, len(labels)))})
    return source, target


# -- ceilings ---------------------------------------------------------------------------------------------------
def repetitions(rng, time: bool = False):
    """Trials of 40 stimuli x 12 neuroids, 4 repetitions (signal + noise), optionally 2 time bins."""
    signal = rng.normal(size=(40, 12))
    values = np.concatenate([signal + 0.7 * rng.normal(size=signal.shape) for _ in range(4)])
    ids = [f"stim{i:02d}" for i in range(40)] * 4
    assembly = _neuroids(values, ids, repetition=np.repeat(np.arange(4), 40))
    if not time:
        return (assembly,)
    import xarray as xr

    binned = xr.concat([assembly, assembly * 0.9], dim="time_bin").transpose("presentation", "neuroid", "time_bin")
    return (binned.assign_coords(time_bin_start=("time_bin", [70, 170]), time_bin_end=("time_bin", [170, 270])),)


def subject_rdms(rng):
    """RDMs of 5 subjects (stimulus x stimulus) sharing a structure, as RSACeiling takes them."""
    from brainio.assemblies import DataAssembly

    shared = rng.normal(size=(24, 16))
    rdms = np.stack([1 - np.corrcoef(shared + rng.normal(scale=1.5, size=shared.shape)) for _ in range(5)])
    ids = [f"stim{i:02d}" for i in range(24)]
    return (DataAssembly(rdms, coords={"subject": ("subject", [f"s{i}" for i in range(5)]),
                                       "stimulus_id": ("presentation", ids),
                                       "stimulus_id_right": ("presentation_right", ids)},
                         dims=["subject", "presentation", "presentation_right"]),)


def property_data(rng):
    return (_properties(rng.beta(2, 5, size=80)),)


#: kind -> builder of one call's inputs (``rng -> tuple``)
EXAMPLE_KINDS: Mapping[str, Callable[[np.random.Generator], tuple]] = frozen({
    "neural": neural, "neural_split": neural_split, "neural_time": neural_time, "feature_maps": feature_maps,
    "labels": labels, "trials": trials, "probabilities": probabilities, "scalars": scalars, "threshold": threshold,
    "threshold_elevation": threshold_elevation, "properties": properties,
    "broken_configurations": broken_configurations, "factor_views": factor_views,
    "task_confusions": task_confusions, "solution_times": solution_times,
    "repetitions": repetitions, "repetitions_time": lambda rng: repetitions(rng, time=True),
    "subject_rdms": subject_rdms, "property_data": property_data})
#: the kinds whose objects are ceilings (called on one assembly) rather than metrics (called on two)
CEILING_KINDS = frozenset({"repetitions", "repetitions_time", "subject_rdms", "property_data"})
#: the inputs (by name: 'source' is the first, 'target' the second) whose presentation order the battery shuffles,
#: per kind; kinds not listed have no order that may be shuffled (fixed splits, paired samples, plain numbers)
KIND_PERMUTE: Mapping[str, tuple[str, ...]] = frozen(dict.fromkeys(
    ("neural", "neural_time", "feature_maps", "labels", "trials", "probabilities", "broken_configurations",
     "task_confusions", "solution_times"), ("source",)))
#: the dims of the Score per kind (0-d when not listed)
KIND_DIMS: Mapping[str, tuple[str, ...]] = frozen({"neural_time": ("time_bin",), "repetitions_time": ("time_bin",)})

#: metric class name -> how the battery builds and feeds it: ``kind`` (of :data:`EXAMPLE_KINDS`), the constructor
#: keyword arguments ``params`` and, where the kind's default is wrong for the class, ``permute``; a class not
#: listed takes a ``'neural'`` pair (``'repetitions'`` for a ceiling) and no arguments
CLASS_EXAMPLES: Mapping[str, Mapping[str, Any]] = frozen({
    "SplitRegressedCorrelation": {"kind": "neural_split"},
    "DualRidgeSplitCorrelation": {"kind": "neural_split"},
    "ReversePredictivitySplit": {"kind": "neural_split"},
    # reverse predictivity swaps the pair, so its splits come from the source's presentation order
    "ReversePredictivity": {"kind": "neural", "permute": ("target",)},
    "SpanTimeCrossRegressedCorrelation": {"kind": "neural_time"},
    "Accuracy": {"kind": "labels"},
    "ErrorConsistency": {"kind": "trials"},
    "AccuracyDistance": {"kind": "trials"},
    "I1": {"kind": "probabilities"},
    "I1n": {"kind": "probabilities"},
    "I2n": {"kind": "probabilities"},
    "ValueDelta": {"kind": "scalars"},
    "Threshold": {"kind": "threshold", "params": {"independent_variable": "vernier_offset"}},
    "ThresholdElevation": {"kind": "threshold_elevation", "params": {
        "independent_variable": "vernier_offset", "baseline_condition": "short-2", "test_condition": "equal-16"}},
    "KSSimilarity": {"kind": "properties", "params": {"property_name": "surround_suppression_index"}},
    "BakerAccuracyDelta": {"kind": "broken_configurations", "params": {"image_types": ["w", "f"]}},
    "Dimensionality": {"kind": "factor_views", "params": {"factor": "color"}},
    "ConfusionSimilarity": {"kind": "task_confusions"},
    "TasksConsistency": {"kind": "task_confusions"},
    "OSTCorrelation": {"kind": "solution_times", "params": {"n_splits": 3, "test_size": 0.25}},
    "InternalConsistency": {"kind": "repetitions"},
    "InternalConsistencyTemporal": {"kind": "repetitions_time"},
    "RSACeiling": {"kind": "subject_rdms"},
    "PropertyCeiling": {"kind": "property_data", "params": {"similarity_metric": "surround_suppression_index"}},
})

#: registered identifier -> its example where its class's is wrong for it (the class serves several regressions)
IDENTIFIER_EXAMPLES: Mapping[str, Mapping[str, Any]] = frozen({
    "mask_regression": {"kind": "feature_maps"},  # reads the source's feature-map layout
})

#: registered metric identifier -> (the check it is let off, why): the ONE list of registered metrics that do not
#: pass the whole battery. 'attrs': the Score carries no ``error`` / ``raw`` (Brain-Score's metric returns a bare
#: value, and ours keeps its form). tests/test_common.py shows each entry still fails the check it is let off, so
#: the list can only shrink.
BATTERY_WAIVERS: Mapping[str, tuple[str, str]] = frozen({
    "confusion_similarity": ("attrs", "one Pearson r over the confusion cells, no splits: Brain-Score's "
                                      "ConfusionSimilarity returns it without error or raw"),
    "tasks_consistency": ("attrs", "one Pearson r over the tasks, no splits: Brain-Score's TasksConsistency returns "
                                   "it without error or raw (the per-task accuracies are in attrs)"),
    "factor_dimensionality": ("attrs", "a share of dimensions, no splits: Brain-Score's Dimensionality returns it "
                                       "without error or raw (every factor's share is in attrs['dimensions'])"),
})


def example_inputs(kind: str, random_state: int = 0) -> tuple:
    """The inputs of one call for ``kind`` (a key of :data:`EXAMPLE_KINDS`), seeded by ``random_state``."""
    return EXAMPLE_KINDS[kind](np.random.default_rng(random_state))
