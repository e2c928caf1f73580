"""``Kar2019-ost``: object solution times of macaque IT (Kar et al. 2019), as Brain-Score defines them.

The model records IT in 18 bins of 10 ms from 70 to 250 ms, looking at the images at 8 degrees (44 trials). The
``ost`` metric reads the image's object out of each bin (a softmax readout of ``image_label``), finds per image the
first bin where its I1 reaches the primates', and correlates those times (Spearman) with the times measured by the
SVM decoder (``decoder='svm'``). The ceiling is Brain-Score's constant 0.79 (computed offline by the data's authors),
known without data; the score is raw / 0.79.

A model without time (its recordings of the first image are the same in every bin, or have no ``time_bin`` dimension
at all: every static model) scores NaN without looking at the other images, as Brain-Score scores it: a model that
does not change over time cannot predict solution times. A temporal model is scored per bin.

The data: duplicate images dropped (the first row of each ``stimulus_id``, in sorted id order, as Brain-Score's
``np.unique``), ``truth`` set from ``image_label`` on the assembly and on its stimulus set.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_core.normalization import ceil_score
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.data.kar2019 import BIBTEX
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "CEILING", "DicarloKar2019OST", "NUMBER_OF_TRIALS", "TIME_BINS", "VISUAL_DEGREES",
           "kar2019_assembly", "temporally_varying"]

VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 44
TIME_BINS = [(start, start + 10) for start in range(70, 250, 10)]
#: Brain-Score's ceiling of Kar2019-ost, a constant computed offline by Kohitij Kar
CEILING = 0.79


def kar2019_assembly(assembly=None):
    """The measured OSTs of the SVM decoder, one presentation per image (sorted ids), with ``truth``."""
    from brainscore_vision import load_dataset

    assembly = load_dataset("Kar2019") if assembly is None else assembly
    stimulus_set = assembly.attrs.get("stimulus_set")
    _, first = np.unique(np.asarray(assembly["stimulus_id"].values), return_index=True)
    assembly = assembly.isel(presentation=first)
    if "decoder" in assembly.dims:
        assembly = assembly.sel(decoder="svm")
    assembly = assembly.assign_coords(truth=("presentation", np.asarray(assembly["image_label"].values)))
    if stimulus_set is not None:
        stimulus_set = stimulus_set.drop_duplicates("stimulus_id")
        stimulus_set["truth"] = stimulus_set["image_label"]
        assembly.attrs["stimulus_set"] = stimulus_set
    return assembly


def temporally_varying(recordings) -> bool:
    """Whether any response of ``recordings`` (presentation x neuroid x time_bin) differs from its first time bin;
    False without a ``time_bin`` dimension."""
    if "time_bin" not in recordings.dims or recordings.sizes["time_bin"] < 2:
        return False
    values = np.asarray(recordings.transpose("presentation", "neuroid", "time_bin").values)
    return bool(np.any(values != values[:, :, :1]))


class DicarloKar2019OST(BenchmarkBase):
    """``Kar2019-ost`` (version 2, parent IT). Nothing is loaded before it is scored: the ceiling is a constant."""

    def __init__(self):
        from brainscore_vision import load_metric

        self._assembly = LazyLoad(kar2019_assembly)
        self._similarity_metric = load_metric("ost")
        self._visual_degrees = VISUAL_DEGREES
        self._number_of_trials = NUMBER_OF_TRIALS
        self._time_bins = TIME_BINS
        super().__init__(identifier="Kar2019-ost", version=2, ceiling_func=lambda: Score(CEILING), parent="IT",
                         bibtex=BIBTEX)

    def stimulus_count(self) -> int:
        return len(resolve(self._assembly).stimulus_set)

    def __call__(self, candidate) -> Score:
        assembly = resolve(self._assembly)
        candidate.start_recording("IT", time_bins=self._time_bins)
        stimulus_set = place_on_screen(assembly.stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                                       source_visual_degrees=self._visual_degrees)
        # a model that does not vary over time is told apart on one image before the whole set is recorded
        first = stimulus_set[:1]
        first.identifier = None
        if not temporally_varying(candidate.look_at(first, number_of_trials=self._number_of_trials)):
            raw = Score(np.nan)
        else:
            recordings = candidate.look_at(stimulus_set, number_of_trials=self._number_of_trials)
            raw = self._similarity_metric(recordings, assembly)
        score = ceil_score(raw, self.ceiling)
        score.attrs["bibtex"] = BIBTEX
        return score
