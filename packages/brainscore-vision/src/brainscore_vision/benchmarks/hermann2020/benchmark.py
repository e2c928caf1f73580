"""Hermann et al. (2020) shape bias and shape match on the Geirhos cue-conflict images (shipped):
``Hermann2020cueconflict-shape_bias``, ``Hermann2020cueconflict-shape_match``.

As Brain-Score defines them: the model performs the ``label`` task over the 16 classes of the stimulus set's ``truth``
(sorted) and looks at all 1,280 ``Geirhos2021_cue-conflict`` images once, as they are (no ``place_on_screen``).
Over the 1,200 images whose shape and texture classes differ:

* ``shape_match`` = the fraction labelled with the shape class (Brain-Score's ``original_image_category``, here
  ``shape_category``), the ``accuracy`` metric against it;
* ``texture_match`` = the fraction labelled with the texture class (``conflict_image_category``, here
  ``texture_category``);
* ``shape_bias`` = shape_match / (shape_match + texture_match).

Ceiling 1 (the score is not normalised); version 1; parent ``Hermann2020``. Unlike ``Geirhos2021cueconflict-
shape_bias`` (our extra benchmark, whose images are placed on the screen at 3 degrees) the images are shown
unscaled, as Brain-Score's Hermann benchmarks show them, so the two can differ for a model whose visual field is not
3 degrees.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_metric, load_stimulus_set
from brainscore_vision.benchmarks.geirhos2021.benchmark import labelled_trials
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "Hermann2020ShapeBias", "Hermann2020ShapeMatch", "cue_conflict_labels"]

BIBTEX = """@article{hermann2020origins,
  title = {The origins and prevalence of texture bias in convolutional neural networks},
  author = {Hermann, Katherine and Chen, Ting and Kornblith, Simon},
  journal = {Advances in Neural Information Processing Systems}, volume = {33}, pages = {19000--19015}, year = {2020}
}"""
PARENT = "Hermann2020"
STIMULUS_SET = "Geirhos2021_cue-conflict"
#: Brain-Score's column name -> the column of our cue-conflict stimulus set
COLUMNS = {"original_image_category": "shape_category", "conflict_image_category": "texture_category"}


def cue_conflict_labels(candidate: BrainModel, stimuli):
    """The model's label for every image, and the stimulus rows of the conflicting images in label order."""
    choices = sorted(set(stimuli["truth"].astype(str)))
    candidate.start_task(BrainModel.Task.label, choices)
    labels = labelled_trials(candidate.look_at(stimuli, number_of_trials=1), stimuli)
    rows = stimuli.set_index(stimuli["stimulus_id"].astype(str)).loc[np.asarray(labels["stimulus_id"].values)]
    conflicting = (rows["shape_category"].astype(str) != rows["texture_category"].astype(str)).to_numpy()
    return labels.isel(presentation=np.flatnonzero(conflicting)), rows[conflicting]


class _Hermann2020(BenchmarkBase):
    """``stimulus_set`` (default None: all of ``Geirhos2021_cue-conflict``) may restrict the images, e.g. in tests."""

    def __init__(self, identifier: str, stimulus_set=None):
        self._stimuli = LazyLoad(lambda: load_stimulus_set(STIMULUS_SET)) if stimulus_set is None else stimulus_set
        self._metric = load_metric("accuracy")
        super().__init__(identifier=identifier, ceiling_func=lambda: Score(1.0), version=1, parent=PARENT,
                         bibtex=BIBTEX)

    region = "behavior"

    def stimulus_count(self) -> int:
        return len(resolve(self._stimuli))

    def _match(self, labels, rows, column: str) -> Score:
        from brainio.assemblies import BehavioralAssembly

        target = BehavioralAssembly(rows[COLUMNS[column]].astype(str).to_numpy(),
                                    coords={"stimulus_id": ("presentation", np.asarray(labels["stimulus_id"].values))},
                                    dims=["presentation"])
        return self._metric(labels, target)


class Hermann2020ShapeMatch(_Hermann2020):
    """``Hermann2020cueconflict-shape_match``: fraction of conflicting images labelled with their shape class."""

    def __init__(self, stimulus_set=None):
        super().__init__("Hermann2020cueconflict-shape_match", stimulus_set)

    def __call__(self, candidate: BrainModel) -> Score:
        labels, rows = cue_conflict_labels(candidate, resolve(self._stimuli))
        score = self._match(labels, rows, "original_image_category")
        score.attrs.update(raw=Score(float(score)), ceiling=self.ceiling, normalization="none (ceiling 1)",
                           bibtex=self.bibtex)
        return score


class Hermann2020ShapeBias(_Hermann2020):
    """``Hermann2020cueconflict-shape_bias``: shape_match / (shape_match + texture_match)."""

    def __init__(self, stimulus_set=None):
        super().__init__("Hermann2020cueconflict-shape_bias", stimulus_set)

    def __call__(self, candidate: BrainModel) -> Score:
        labels, rows = cue_conflict_labels(candidate, resolve(self._stimuli))
        shape = float(self._match(labels, rows, "original_image_category"))
        texture = float(self._match(labels, rows, "conflict_image_category"))
        bias = shape / (shape + texture) if shape + texture > 0 else float("nan")
        score = Score(bias)
        score.attrs.update(raw=Score(bias), ceiling=self.ceiling, shape_match=shape, texture_match=texture,
                           normalization="none (ceiling 1)", bibtex=self.bibtex)
        return score
