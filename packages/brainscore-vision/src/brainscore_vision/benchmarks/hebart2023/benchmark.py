"""Hebart et al. (2023), THINGS odd-one-out: ``Hebart2023-match`` (Brain-Score's identifier, version 1, parent
``behavior_vision``).

Each human trial shows three THINGS concepts (``image_1``, ``image_2``, ``image_3``; the third is the one the subject
chose as the odd one out). The model performs the ``odd_one_out`` task on the same triplets (images shown at
**8 degrees**, one trial) and the raw score is the fraction of triplets where it picks the third image. The ceiling
is Brain-Score's constant **0.6767** (the mean agreement of participants on the same triplet, from the paper).
Score = (raw - 1/3) / (ceiling - 1/3), chance (1/3) mapped to 0, clamped to [0, 1].

Stimuli are selected by ``stimulus_id`` (Brain-Score selects them with ``stimulus_set.loc[ids]``, i.e. by the set's
row labels, which are the stimulus ids when the ids number the rows, as in its file); each distinct image is placed
on the screen once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_dataset, load_stimulus_set
from brainscore_vision.benchmark_helpers.behavioral_tasks import as_text, ceiled, on_screen
from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "CEILING", "VISUAL_DEGREES", "Hebart2023Match"]

VISUAL_DEGREES = 8
#: Brain-Score's constant: the mean fraction of participants making the same choice on a triplet
CEILING = 0.6767
CHANCE = 1 / 3
BIBTEX = """@article{10.7554/eLife.82580,
  author = {Hebart, Martin N and Contier, Oliver and Teichmann, Lina and Rockter, Adam H and Zheng, Charles Y and
            Kidder, Alexis and Corriveau, Anna and Vaziri-Pashkam, Maryam and Baker, Chris I},
  title = {THINGS-data, a multimodal collection of large-scale datasets for investigating object representations in
           human brain and behavior}, journal = {eLife}, volume = {12}, pages = {e82580}, year = {2023}
}"""


class Hebart2023Match(BenchmarkBase):
    region = "behavior"

    def __init__(self):
        self._visual_degrees = VISUAL_DEGREES
        self._number_of_trials = 1
        self._assembly = LazyLoad(lambda: load_dataset("Hebart2023"))
        self._stimulus_set = LazyLoad(lambda: load_stimulus_set("Hebart2023"))
        self._number_of_triplets: int | None = None
        super().__init__(identifier="Hebart2023-match", version=1, ceiling=Score(CEILING), parent="behavior_vision",
                         bibtex=BIBTEX)

    def set_number_of_triplets(self, n: int) -> None:
        """Score only the first ``n`` triplets (Brain-Score's switch for quick runs)."""
        self._number_of_triplets = int(n)

    def _triplets(self):
        assembly = resolve(self._assembly)
        return assembly if self._number_of_triplets is None else assembly.isel(
            presentation=slice(0, self._number_of_triplets))

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = self._triplets()
        triplets = np.stack([as_text(assembly[name].values) for name in ("image_1", "image_2", "image_3")], axis=1)
        stimuli = resolve(self._stimulus_set)
        rows = pd.Index(as_text(stimuli["stimulus_id"])).get_indexer(triplets.ravel())
        if (rows < 0).any():
            raise BenchmarkDataError(f"Hebart2023: triplets name stimuli {sorted(set(triplets.ravel()[rows < 0]))[:5]} "
                                     "that stimulus set 'Hebart2023' lacks")
        candidate.start_task(BrainModel.Task.odd_one_out)
        placed = on_screen(candidate, stimuli, self._visual_degrees)  # each distinct image placed once
        choices = candidate.look_at(placed.iloc[rows], number_of_trials=self._number_of_trials)
        chosen = as_text(np.asarray(choices.values).ravel())
        raw = Score(float(np.mean(chosen == triplets[:, 2])))
        score = ceiled(Score(float(raw) - CHANCE), Score(CEILING - CHANCE), bound=True, bibtex=self.bibtex,
                       normalization="(raw - 1/3) / (ceiling - 1/3)")
        score.attrs.update(raw=raw, ceiling=self.ceiling)
        return score
