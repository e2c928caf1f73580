"""Shared by the tests of Ferguson2024, Malania2007, Islam2021, ImageNet-C and ObjectNet: the stand-in generators
(``benchmarks/reference_behaviour_standins.py``), Brain-Score's numbers on them
(``tests/data/reference_behaviour_families.json``, written by ``benchmarks/reference_behaviour_families.py`` with
brainscore-vision 2.4.2, commit c642dbe4) and the stand-in model in our types."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
EXPECTED = json.loads((HERE / "data" / "reference_behaviour_families.json").read_text())
_spec = importlib.util.spec_from_file_location("reference_behaviour_standins",
                                               HERE.parent / "benchmarks" / "reference_behaviour_standins.py")
STANDINS = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(STANDINS)


def stimulus_set(frame, identifier: str, paths: dict | None = None):
    from brainio.stimuli import StimulusSet

    stimuli = StimulusSet(frame.copy())
    stimuli.identifier = identifier
    stimuli.stimulus_paths = dict(paths or {})
    return stimuli


def presentation(stimuli, repeat: int = 1) -> dict:
    return {column: ("presentation", np.repeat(stimuli[column].to_numpy(), repeat)) for column in stimuli.columns}


class StandInModel:
    """A BrainModel whose answers ``answer(stimuli, trials)`` gives (the same as Brain-Score's stand-in model)."""

    def __init__(self, degrees: float, answer):
        self._degrees, self._answer = degrees, answer
        self.tasks: list = []

    def visual_degrees(self) -> float:
        return self._degrees

    def start_task(self, task, fitting_stimuli=None, **kwargs) -> None:
        self.tasks.append((str(getattr(task, "value", task)), kwargs))

    def start_recording(self, region, time_bins=None) -> None:
        self.tasks.append(("recording", region, time_bins))

    def look_at(self, stimuli, number_of_trials: int = 1, require_variance: bool = False):
        return self._answer(stimuli, number_of_trials if require_variance else 1)
