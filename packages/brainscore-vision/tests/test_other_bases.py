"""PropertiesBenchmark and BehavioralBenchmark call flows on synthetic data (hand-computed expectations)."""

import numpy as np
import pandas as pd
import pytest

from brainio.assemblies import BehavioralAssembly, DataAssembly, NeuroidAssembly
from brainio.stimuli import StimulusSet
from brainscore_core.metrics import Metric, Score
from brainscore_vision.benchmark_helpers.behavioral_common import BehavioralBenchmark
from brainscore_vision.benchmark_helpers.properties_common import PropertiesBenchmark
from brainscore_vision.benchmark_helpers.test_helper import PrecomputedFeatures
from brainscore_vision.model_interface import BrainModel

IDS = [f"s{i}" for i in range(6)]


def stimuli(identifier="toy"):
    stimulus_set = StimulusSet(pd.DataFrame({"stimulus_id": IDS, "truth": ["cat", "dog"] * 3}))
    stimulus_set.stimulus_paths = {i: f"/never/{i}.png" for i in IDS}
    stimulus_set.identifier = identifier
    return stimulus_set


class MeanDifference(Metric):
    def __call__(self, model_values, data_values):
        return Score(1 - abs(float(model_values.values.mean()) - float(data_values.values.mean())))


def test_properties_benchmark_flow():
    features = NeuroidAssembly(np.arange(12.0).reshape(6, 2) / 10,
                               coords={"stimulus_id": ("presentation", IDS), "neuroid_id": ("neuroid", ["a", "b"])},
                               dims=["presentation", "neuroid"])
    measured = DataAssembly(np.array([0.2, 0.4, 0.3]), coords={"neuroid_id": ("neuroid", ["x", "y", "z"])},
                            dims=["neuroid"])
    measured.attrs["stimulus_set"] = stimuli()

    def peak_response(responses):
        return DataAssembly(responses.values.max(axis=0), coords={"neuroid_id": ("neuroid", ["a", "b"])},
                            dims=["neuroid"])

    benchmark = PropertiesBenchmark("Toy-peak", measured, peak_response, MeanDifference(), [(70, 170)],
                                    ceiling_func=lambda data: Score(0.8), region="V1",
                                    receptive_field_mapping=False)
    model = PrecomputedFeatures(features)
    score = benchmark(model)
    assert model.recordings == [("V1", [(70, 170)])]
    expected_raw = 1 - abs(np.mean([1.0, 1.1]) - 0.3)  # peaks of the two model units vs the data mean
    assert float(score.attrs["raw"]) == pytest.approx(expected_raw)
    assert float(score) == pytest.approx(expected_raw / 0.8)


class LabelModel(BrainModel):
    identifier = "labeller"

    def __init__(self):
        self.tasks = []

    def visual_degrees(self):
        return 8

    def start_task(self, task, fitting_stimuli=None):
        self.tasks.append((task, fitting_stimuli))

    def start_recording(self, recording_target, time_bins):
        raise NotImplementedError

    def look_at(self, stimuli, number_of_trials=1):
        labels = ["cat"] * len(stimuli)  # right on half of the stimuli
        return BehavioralAssembly([labels], coords={"choice": ("choice", [0]),
                                                    "stimulus_id": ("presentation", stimuli["stimulus_id"].values)},
                                  dims=["choice", "presentation"])


class Accuracy(Metric):
    def __call__(self, model_choices, truth):
        return Score(float(np.mean(np.asarray(model_choices.values).ravel() == np.asarray(truth.values))))


@pytest.mark.parametrize("bound", [False, True])
def test_behavioral_benchmark_flow(bound):
    truth = BehavioralAssembly(["cat", "dog"] * 3, coords={"stimulus_id": ("presentation", IDS)}, dims=["presentation"])
    truth.attrs["stimulus_set"] = stimuli()
    benchmark = BehavioralBenchmark("Toy-accuracy", truth, Accuracy(), BrainModel.Task.label, visual_degrees=8,
                                    number_of_trials=1, ceiling_func=lambda: Score(0.4),
                                    fitting_stimuli=["cat", "dog"], bound=bound)
    model = LabelModel()
    score = benchmark(model)
    assert model.tasks == [(BrainModel.Task.label, ["cat", "dog"])]
    assert float(score.attrs["raw"]) == pytest.approx(0.5)
    assert float(score) == pytest.approx(1.0 if bound else 0.5 / 0.4)  # 1.25, clamped to 1 when bound
