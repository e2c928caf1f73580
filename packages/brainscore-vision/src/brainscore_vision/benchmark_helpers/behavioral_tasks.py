"""The steps Brain-Score's behavioural benchmark families share: the choices a model is offered, its labels or
probabilities on a stimulus set (placed on its screen or shown as they are), its choices from probabilities, and the
ceiled Score.

Each family's module (``benchmarks/<family>/benchmark.py``) composes these in Brain-Score's order; nothing here loads
data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from brainscore_core.metrics import Score
from brainscore_core.normalization import bound_score, ceil_score
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.model_interface import BrainModel

__all__ = ["argmax_choices", "ceiled", "choices_of", "on_screen", "probabilities_of", "labels_of"]


def choices_of(values) -> list[str]:
    """The sorted distinct labels of ``values`` (the choices Brain-Score offers: ``sorted(set(truth))``)."""
    return sorted({str(value) for value in np.asarray(values).ravel()})


def on_screen(candidate: BrainModel, stimulus_set, visual_degrees: float | None):
    """``stimulus_set`` placed on the candidate's screen from ``visual_degrees``; None: shown as it is (the
    benchmarks Brain-Score runs without ``place_on_screen``)."""
    if visual_degrees is None:
        return stimulus_set
    return place_on_screen(stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                           source_visual_degrees=visual_degrees)


def labels_of(candidate: BrainModel, stimulus_set, choices, *, visual_degrees: float | None,
              number_of_trials: int = 1):
    """The candidate's labels (``label`` task over ``choices``) on ``stimulus_set``, placed from ``visual_degrees``
    (None: not placed): what its ``look_at`` returns."""
    candidate.start_task(BrainModel.Task.label, list(choices))
    return candidate.look_at(on_screen(candidate, stimulus_set, visual_degrees), number_of_trials=number_of_trials)


def probabilities_of(candidate: BrainModel, fitting_stimuli, stimulus_set, *, visual_degrees: float):
    """The candidate's ``probabilities`` (presentation x choice) on ``stimulus_set`` after fitting on
    ``fitting_stimuli``, both placed on its screen from ``visual_degrees``."""
    candidate.start_task(BrainModel.Task.probabilities, on_screen(candidate, fitting_stimuli, visual_degrees))
    return candidate.look_at(on_screen(candidate, stimulus_set, visual_degrees), number_of_trials=1)


def argmax_choices(probabilities):
    """The most probable choice per presentation, as a BehavioralAssembly on ``presentation`` that keeps the
    presentation coordinates (Brain-Score's ``convert_proba_to_choices``; the first choice on ties)."""
    from brainio.assemblies import BehavioralAssembly

    probabilities = probabilities.transpose("presentation", "choice")
    chosen = np.asarray(probabilities["choice"].values)[np.argmax(np.asarray(probabilities.values), axis=1)]
    coords = {name: ("presentation", np.asarray(coord.values)) for name, coord in probabilities.coords.items()
              if coord.dims == ("presentation",)}
    return BehavioralAssembly(chosen, coords=coords, dims=["presentation"])


def ceiled(raw: Score, ceiling: Score, *, bound: bool, bibtex: str | None, normalization: str = "raw / ceiling"
           ) -> Score:
    """``raw / ceiling`` with attrs ``raw``, ``ceiling``, ``error`` (the raw error in ceiled units, when the raw
    score has one), ``normalization`` and ``bibtex``; ``bound``: clamped to [0, 1], the value before in
    ``attrs['unbounded']``."""
    score = ceil_score(raw, ceiling)
    score.attrs.update(normalization=normalization, bibtex=bibtex)
    return bound_score(score) if bound else score


def as_text(values: Any) -> np.ndarray:
    """``values`` as an array of text (stimulus ids of either side compare as text)."""
    return np.asarray(values).astype(str)
