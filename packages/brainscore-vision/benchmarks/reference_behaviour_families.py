"""Brain-Score's own Ferguson2024, Malania2007, Islam2021, ImageNet-C and ObjectNet benchmarks on the stand-ins of
``reference_behaviour_standins.py``: the expected values of ``tests/test_behaviour_families.py``.

Run in a throwaway venv with brainscore-vision 2.4.2 (its files of these five benchmarks and of the ``threshold``,
``value_delta`` and ``dimensionality`` metrics are byte-identical to brain-score/vision at commit
c642dbe42aae3ed064bc0b66f70a80b264021164)::

    /work/venvs/bsref/bin/python benchmarks/reference_behaviour_families.py > tests/data/reference_behaviour_families.json

The benchmarks' data loaders are pointed at the stand-ins (``monkeypatch``-style attribute assignments); everything
else is Brain-Score's code.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference_behaviour_standins as standins

REFERENCE_COMMIT = "c642dbe42aae3ed064bc0b66f70a80b264021164"


def _stimulus_set(frame, identifier):
    from brainscore_core.supported_data_standards.brainio.stimuli import StimulusSet

    stimuli = StimulusSet(frame.copy())
    stimuli.identifier = identifier
    stimuli.stimulus_paths = {}
    return stimuli


class _Model:
    """A stand-in BrainModel: ``answer(stimuli, number_of_trials)`` gives its BehavioralAssembly."""

    def __init__(self, degrees, answer):
        self._degrees, self._answer = degrees, answer

    def visual_degrees(self):
        return self._degrees

    def start_task(self, task, fitting_stimuli=None, **kwargs):
        self.task = task

    def start_recording(self, region, time_bins=None):
        pass

    def look_at(self, stimuli, number_of_trials=1, require_variance=False):
        return self._answer(stimuli, number_of_trials if require_variance else 1)


def _presentation(stimuli, repeat=1):
    return {column: ("presentation", np.repeat(stimuli[column].values, repeat)) for column in stimuli.columns}


def ferguson():
    from brainscore_core.supported_data_standards.brainio.assemblies import BehavioralAssembly
    from brainscore_vision.benchmarks.ferguson2024 import benchmark as module

    out = {}
    for experiment in standins.FERGUSON_EXPERIMENTS:
        trials = standins.ferguson_trials(experiment)
        stimuli = _stimulus_set(standins.ferguson_stimuli(experiment), f"Ferguson2024_{experiment}")
        humans = BehavioralAssembly(trials["correct"].values, coords={
            column: ("presentation", trials[column].values) for column in trials.columns}, dims=["presentation"])
        humans.attrs["stimulus_set"] = stimuli
        module.load_dataset = lambda identifier, humans=humans: humans
        module.load_stimulus_set = lambda identifier, e=experiment: _stimulus_set(
            standins.ferguson_fitting_stimuli(e), identifier)

        def answer(shown, trials):
            values = standins.ferguson_probabilities(shown["stimulus_id"].values, shown["image_label"].values)
            return BehavioralAssembly(values, coords={**_presentation(shown), "choice": ["oddball", "same"]},
                                      dims=["presentation", "choice"])

        benchmark = module.Ferguson2024ValueDelta(experiment)
        score = benchmark(_Model(8, answer))
        out[experiment] = {"human_integral": float(module.get_integral_data(humans, experiment)["integral"]),
                           "raw": float(score.attrs["raw"]), "ceiling": float(score.attrs["ceiling"]),
                           "score": float(score)}
    return out


def malania():
    import brainscore_vision
    from brainscore_core.supported_data_standards.brainio.assemblies import (
        BehavioralAssembly,
        PropertyAssembly,
    )
    from brainscore_vision.benchmarks.malania2007 import benchmark as module
    from brainscore_vision.metrics.threshold.metric import Threshold

    def human(identifier):
        condition = identifier.split(".", 1)[1]
        return PropertyAssembly(standins.malania_thresholds(condition),
                                coords={"subject": ("subject", list(standins.MALANIA_SUBJECTS))}, dims=["subject"])

    def stimuli(identifier):
        name = identifier.split(".", 1)[1]
        fit = name.endswith("_fit")
        return _stimulus_set(standins.malania_stimuli(name[:-4] if fit else name, fit), identifier)

    brainscore_vision.load_dataset, brainscore_vision.load_stimulus_set = human, stimuli

    def model(centred):
        def answer(shown, trials):
            centre = standins.malania_centre(shown.identifier) if centred else None
            values = standins.malania_probabilities(shown.identifier, shown["image_label"].values, trials, centre)
            return BehavioralAssembly(values, coords={**_presentation(shown, trials),
                                                      "choice": list(standins.MALANIA_LABELS)},
                                      dims=["presentation", "choice"])
        return _Model(2.986667, answer)

    out = {"elevation": {}}
    for condition in standins.MALANIA_CONDITIONS:
        benchmark = module._Malania2007Base(condition)
        ceiling = benchmark.ceiling
        fitted, chance = benchmark(model(True)), benchmark(model(False))
        out["elevation"][condition] = {"identifier": benchmark.identifier, "ceiling": float(ceiling),
                                       "ceiling_error": float(ceiling.attrs["error"]),
                                       "raw": float(fitted.attrs["raw"]), "score": float(fitted),
                                       "chance_score": float(chance)}
    acuity = module._Malania2007VernierAcuity()
    out["acuity"] = {"ceiling": float(acuity.ceiling), "ceiling_error": float(acuity.ceiling.attrs["error"]),
                     "chance_score": float(acuity(model(False)))}
    try:  # its benchmark hands the metric {'baseline_assembly': ..., 'condition_assembly': ...} as the target
        acuity(model(True))
        out["acuity"]["fitted_error"] = None
    except TypeError as error:
        out["acuity"]["fitted_error"] = f"TypeError: {error}"
    # what the benchmark means to score: Brain-Score's threshold metric against each condition's baseline subjects
    metric = Threshold("image_label", threshold_accuracy=0.75)
    responses = model(True).look_at(stimuli("Malania2007.vernier_only"), 10, True)
    raws = [metric(responses, acuity._assemblies[condition]["baseline_assembly"])
            for condition in acuity.conditions]
    out["acuity"]["raws_by_metric"] = [float(raw) for raw in raws]
    out["acuity"]["errors_by_metric"] = [float(raw.attrs["error"]) for raw in raws]
    # words as image labels: the fit over 'image_label' cannot run
    words = BehavioralAssembly(np.tile([[0.9, 0.1], [0.1, 0.9]], (50, 1)), coords={
        "image_label": ("presentation", np.tile(["left", "right"], 50)),
        "stimulus_id": ("presentation", [f"s{i}" for i in range(100)]), "choice": ["left", "right"]},
        dims=["presentation", "choice"])
    try:
        Threshold("image_label", threshold_accuracy=0.75)(words, [1.0, 2.0])
        out["words_error"] = None
    except TypeError as error:
        out["words_error"] = type(error).__name__
    return out


def islam():
    from brainscore_core.supported_data_standards.brainio.assemblies import DataAssembly
    from brainscore_vision.benchmarks.islam2021 import benchmark as module

    frame = standins.islam_stimuli()
    module.load_stimulus_set = lambda identifier: _stimulus_set(frame, "Islam2021")
    features = standins.islam_features(frame)
    out = {}
    for layout in ("neuroid_presentation", "presentation_neuroid"):  # its test's layout, its models' layout
        values = features.T if layout == "neuroid_presentation" else np.tile(features, (1, 8))

        def answer(shown, trials, values=values, layout=layout):
            presentation = {"stimulus_id": ("presentation", frame["stimulus_id"].values)}
            neuroids = {"neuroid_id": ("neuroid", [f"n{i}" for i in range(values.shape[0 if layout[0] == "n" else 1])])}
            dims = ["neuroid", "presentation"] if layout == "neuroid_presentation" else ["presentation", "neuroid"]
            return DataAssembly(values, coords={**presentation, **neuroids}, dims=dims)

        out[layout] = {}
        for region in ("V1", "IT"):
            for factor in ("shape", "texture"):
                benchmark = module._Islam2021Dimensionality(region, factor)
                out[layout][f"{region}_{factor}"] = {"identifier": benchmark.identifier,
                                                     "score": float(benchmark(_Model(8, answer)))}
    return out


def top1():
    from brainscore_core.supported_data_standards.brainio.assemblies import BehavioralAssembly
    from brainscore_vision.benchmarks.imagenet_c import benchmark as imagenet_c
    from brainscore_vision.benchmarks.objectnet import benchmark as objectnet

    def answer(shown, trials):
        labels = standins.imagenet_labels(shown["stimulus_id"].values, synsets[shown["stimulus_id"].values])
        return BehavioralAssembly([labels], coords={**_presentation(shown), "choice": ["dummy"]},
                                  dims=["choice", "presentation"])

    out = {}
    with tempfile.TemporaryDirectory() as root:
        for category in standins.IMAGENET_C_TYPES:
            folder = Path(root) / f"stimulus_imagenet_c_{category}"
            table = standins.imagenet_c_table(category)
            for filename in table["filename"]:
                (folder / filename).parent.mkdir(parents=True, exist_ok=True)
                (folder / filename).write_bytes(b"")
            table.to_csv(folder / f"stimulus_imagenet_c_{category}.csv", index=False)
            synsets = table.set_index("image_id")["synset"]
            imagenet_c.LOCAL_STIMULUS_DIRECTORY = root
            score = imagenet_c.Imagenet_C_Category(category)(_Model(8, answer))
            out[f"imagenet_c_{category}"] = {"score": float(score), "error": float(score.attrs["error"]),
                                             "count": int(score.attrs["raw"].size)}
    frame = standins.objectnet_table()
    synsets = frame.set_index("image_id")["synset"]
    objectnet.load_stimulus_set = lambda identifier: _stimulus_set(frame.assign(stimulus_id=frame["image_id"]),
                                                                   "BarbuMayo2019")
    benchmark = objectnet.Objectnet()
    out["objectnet"] = {"identifier": benchmark.identifier, "score": float(benchmark(_Model(8, answer)))}
    return out


def rounding():
    """Ferguson2024's integrals are rounded as sympy Floats (``round(Float, 4)``): value -> Brain-Score's result."""
    import sympy

    values = standins.rounding_inputs()
    return [[value, float(round(sympy.Float(value), 4))] for value in values]


def main():
    import brainscore_vision

    out = {"reference_commit": REFERENCE_COMMIT, "brainscore_vision": brainscore_vision.__version__
           if hasattr(brainscore_vision, "__version__") else "2.4.2", "date": datetime.date.today().isoformat()}
    with contextlib.redirect_stdout(sys.stderr):  # Brain-Score's code prints its fit failures
        out.update(ferguson=ferguson(), rounding=rounding(), malania=malania(), islam=islam(), top1=top1())
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
