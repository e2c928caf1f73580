"""Brain-Score's behavioural benchmarks of issue 38 (part 1) on synthetic stand-ins: the expected values of
``tests/test_behavioral_families.py``.

Run with Brain-Score's released code (brainscore-vision 2.4.2; its benchmark and metric files of these families are
byte-identical to brain-score/vision at commit c642dbe42aae3ed064bc0b66f70a80b264021164)::

    RESULTCACHING_DISABLE=1 /work/venvs/bsref/bin/python benchmarks/reference_behavioral_families.py \\
        > tests/data/reference_behavioral_families.json

The stand-ins come from ``behavioral_standins.py`` (beside this file), which the tests import too. Brain-Score's
benchmark classes are built as its registry builds them; only their data loaders are replaced (the module-level
``load_assembly`` / ``load_dataset`` / ``load_stimulus_set`` names each benchmark module calls), and the candidate is
a ``BrainModel`` whose answers are :mod:`behavioral_standins`' deterministic functions of the stimuli. Its visual
degrees equal each benchmark's, so ``place_on_screen`` returns the stimulus set unchanged (no image is read).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import behavioral_standins as standins

REFERENCE_COMMIT = "c642dbe42aae3ed064bc0b66f70a80b264021164"
TRUTH_COLUMNS = ("truth", "animal", "object_class", "image_label")


def _stimulus_set(identifier, columns):
    from brainscore_core.supported_data_standards.brainio.stimuli import StimulusSet

    stimuli = StimulusSet(pd.DataFrame(columns))
    stimuli.identifier = identifier
    stimuli.stimulus_paths = {}
    return stimuli


def _assembly(data, stimulus_sets, cls_name="BehavioralAssembly"):
    from brainscore_core.supported_data_standards.brainio import assemblies

    cls = getattr(assemblies, cls_name)
    assembly = cls(data["values"], coords={name: ("presentation", values) for name, values in data["coords"].items()},
                   dims=["presentation"])
    if data["stimulus_set"] is not None:
        assembly.attrs["stimulus_set"] = stimulus_sets[data["stimulus_set"]]
        assembly.attrs["stimulus_set_identifier"] = data["stimulus_set"]
    return assembly


def build(family):
    stimulus_sets = {name: _stimulus_set(name, columns) for name, columns in family["stimulus_sets"].items()}
    assemblies = {name: _assembly(data, stimulus_sets) for name, data in family["assemblies"].items()}
    return stimulus_sets, assemblies


class StandinModel:
    """A BrainModel answering with :mod:`behavioral_standins`' functions of the stimuli it is shown."""

    def __init__(self, degrees):
        from brainscore_vision.model_interface import BrainModel

        self._degrees = degrees
        self.Task = BrainModel.Task
        self.task, self.choices = None, None

    @property
    def identifier(self):
        return "standin"

    def visual_degrees(self):
        return self._degrees

    def start_task(self, task, fitting_stimuli=None, *args, **kwargs):
        self.task = task
        if task == self.Task.label:
            self.choices = list(fitting_stimuli)
        elif task == self.Task.probabilities:
            self.choices = sorted(set(fitting_stimuli["image_label"].values))

    def look_at(self, stimuli, number_of_trials=1, require_variance=False):
        from brainscore_core.supported_data_standards.brainio.assemblies import BehavioralAssembly

        ids = list(stimuli["stimulus_id"].values)
        coords = {column: ("presentation", stimuli[column].values) for column in stimuli.columns}
        if self.task == self.Task.odd_one_out:
            triplets = np.asarray(ids).reshape(-1, 3)
            answers = standins.odd_one_out_answers(triplets.tolist())
            labels = ["|".join(map(str, triplet)) for triplet in triplets]
            return BehavioralAssembly([answers], coords={"stimulus_id": ("presentation", labels)},
                                      dims=["choice", "presentation"])
        truth = next(column for column in TRUTH_COLUMNS if column in stimuli.columns)
        if self.task == self.Task.label:
            image_types = stimuli["image_type"].values if "image_type" in stimuli.columns else None
            answers = standins.label_answers(ids, stimuli[truth].values, self.choices, image_types)
            return BehavioralAssembly([answers], coords=coords, dims=["choice", "presentation"])
        values = standins.probability_answers(ids, stimuli[truth].values, self.choices)
        return BehavioralAssembly(values, coords={**coords, "choice": ("choice", self.choices)},
                                  dims=["presentation", "choice"])


def _number(value):
    value = float(np.asarray(value))
    return None if np.isnan(value) else value


def _result(benchmark, score, ceiling=None):
    ceiling = benchmark.ceiling if ceiling is None else ceiling
    return {"identifier": benchmark.identifier, "version": benchmark.version, "parent": benchmark.parent,
            "bibtex": benchmark.bibtex, "score": _number(score), "raw": _number(score.attrs["raw"]),
            "ceiling": _number(ceiling)}


def baker():
    from brainscore_vision.benchmarks.baker2022 import benchmark as module

    _, assemblies = build(standins.baker2022())
    module.load_assembly = lambda dataset: assemblies[f"Baker2022_{dataset}_distortion"]
    out = {}
    for name, factory in (("Baker2022frankenstein-accuracy_delta", module.Baker2022AccuracyDeltaFrankenstein),
                          ("Baker2022fragmented-accuracy_delta", module.Baker2022AccuracyDeltaFragmented),
                          ("Baker2022inverted-accuracy_delta", module.Baker2022InvertedAccuracyDelta)):
        benchmark = factory()
        score = benchmark(StandinModel(8.8))
        # Brain-Score's `benchmark.ceiling` raises here (its `_ceiling` attribute, the split-half ceiling, hides
        # BenchmarkBase's cached `_ceiling` method); its test calls `benchmark._ceiling(assembly)`, as __call__ does
        out[name] = _result(benchmark, score, score.attrs["ceiling"])
    return out


def bmd():
    from brainscore_vision.benchmarks.bmd2024 import benchmark as module

    _, assemblies = build(standins.bmd2024())
    module.load_assembly = lambda dataset: assemblies[f"BMD2024.{dataset}"]
    out = {}
    for condition in standins.BMD_CONDITIONS:
        benchmark = module.BMD2024AccuracyDistance(condition)
        out[f"BMD2024.{condition}Behavioral-accuracy_distance"] = _result(benchmark, benchmark(StandinModel(8)))
    return out


def lonnqvist():
    from brainscore_vision.benchmarks.lonnqvist2024 import benchmark as module

    stimulus_sets, assemblies = build(standins.lonnqvist2024())
    module.load_stimulus_set = stimulus_sets.__getitem__
    module.load_dataset = assemblies.__getitem__
    out = {}
    for key, cls in (("Lonnqvist2024_InlabInstructionsBehavioralAccuracyDistance",
                      module._Lonnqvist2024BehavioralAccuracyDistanceInlabInstructions),
                     ("Lonnqvist2024_InlabNoInstructionsBehavioralAccuracyDistance",
                      module._Lonnqvist2024BehavioralAccuracyDistanceInlabNoInstructions),
                     ("Lonnqvist2024_OnlineNoInstructionsBehavioralAccuracyDistance",
                      module._Lonnqvist2024BehavioralAccuracyDistanceOnlineNoInstructions),
                     ("Lonnqvist2024_EngineeringAccuracy", module._Lonnqvist2024EngineeringAccuracy)):
        benchmark = cls()
        out[key] = _result(benchmark, benchmark(StandinModel(17.70753)))
    return out


def maniquet():
    from brainscore_vision.benchmarks.maniquet2024 import benchmark as module

    stimulus_sets, assemblies = build(standins.maniquet2024())
    module.load_stimulus_set = stimulus_sets.__getitem__
    module.load_dataset = assemblies.__getitem__
    out = {}
    for key, factory in (("Maniquet2024-confusion_similarity", module.Maniquet2024ConfusionSimilarity),
                         ("Maniquet2024-tasks_consistency", module.Maniquet2024TasksConsistency)):
        benchmark = factory()
        out[key] = _result(benchmark, benchmark(StandinModel(8)))
    return out


def scialom():
    from brainscore_vision.benchmarks import scialom2024 as registration  # noqa: F401  (the registry keys)
    from brainscore_vision.benchmarks.scialom2024 import benchmark as module

    _, assemblies = build(standins.scialom2024())
    module.load_assembly = lambda dataset: assemblies[f"Scialom2024_{dataset}"]
    out = {}
    for dataset in standins.SCIALOM_DATASETS:
        kinds = [("BehavioralAccuracyDistance", module._Scialom2024BehavioralAccuracyDistance)]
        if dataset in standins.SCIALOM_COMPOSITES:
            kinds.append(("BehavioralErrorConsistency", module._Scialom2024BehavioralErrorConsistency))
        else:
            kinds.append(("EngineeringAccuracy", module._Scialom2024EngineeringAccuracy))
        for suffix, cls in kinds:
            benchmark = cls(dataset)
            out[f"Scialom2024_{dataset}{suffix}"] = _result(benchmark, benchmark(StandinModel(8)))
    return out


def coggan():
    from brainscore_vision.benchmarks.coggan2024_behavior import benchmark as module

    stimulus_sets, assemblies = build(standins.coggan2024_behavior())
    module.load_stimulus_set = stimulus_sets.__getitem__
    module.load_dataset = assemblies.__getitem__
    benchmark = module.Coggan2024_behavior_ConditionWiseAccuracySimilarity()
    score = benchmark(StandinModel(10))
    raw = score.attrs["raw"]
    return {"tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity": {
        "identifier": benchmark.identifier, "version": benchmark.version, "parent": benchmark.parent,
        "bibtex": benchmark.bibtex, "score": _number(score), "raw": _number(raw),
        "raw_per_subject": [float(v) for v in np.asarray(raw.attrs["raw"])],
        "ceiling": _number(score.attrs["ceiling"]),
        "ceiling_per_subject": [float(v) for v in score.attrs["ceiling"].attrs["raw"]],
        "ceiling_error": float(score.attrs["ceiling"].attrs["error"])}}


def hebart():
    from brainscore_vision.benchmarks.hebart2023 import benchmark as module

    stimulus_sets, assemblies = build(standins.hebart2023())
    module.load_dataset = lambda name: assemblies[name]
    module.load_stimulus_set = lambda name: stimulus_sets[name]
    benchmark = module.Hebart2023Match()
    return {"Hebart2023-match": _result(benchmark, benchmark(StandinModel(8)))}


def accuracy_distance_units():
    """Brain-Score's own unit values of ``accuracy_distance`` (its metrics/accuracy_distance/test.py data)."""
    from brainscore_core.supported_data_standards.brainio.assemblies import BehavioralAssembly
    from brainscore_vision import load_metric

    data = standins.accuracy_distance_unit_data()
    assembly = BehavioralAssembly(data["values"], coords={k: ("presentation", v) for k, v in data["coords"].items()},
                                  dims=["presentation"])
    metric = load_metric("accuracy_distance")
    whole = metric(assembly.sel(subject="A"), assembly)
    return {"whole_A": float(whole), "raw_A": float(whole.raw.sel(subject="A")),
            "condition_C": float(metric(assembly.sel(subject="C"), assembly, ("condition",))),
            "condition_animacy_C": float(metric(assembly.sel(subject="C"), assembly, ("condition", "animacy"))),
            "ceiling": float(metric.ceiling(assembly))}


def main():
    if os.environ.get("RESULTCACHING_DISABLE") != "1":
        raise SystemExit("set RESULTCACHING_DISABLE=1: Brain-Score caches ceilings by benchmark identifier only")
    import brainscore_vision

    out = {"reference_commit": REFERENCE_COMMIT, "brainscore_vision": brainscore_vision.__version__
           if hasattr(brainscore_vision, "__version__") else "2.4.2",
           "date": pd.Timestamp.now("UTC").strftime("%Y-%m-%d")}
    for name, function in (("Baker2022", baker), ("BMD2024", bmd), ("Lonnqvist2024", lonnqvist),
                           ("Maniquet2024", maniquet), ("Scialom2024", scialom), ("Coggan2024_behavior", coggan),
                           ("Hebart2023", hebart)):
        out[name] = function()
    out["accuracy_distance_units"] = accuracy_distance_units()
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
