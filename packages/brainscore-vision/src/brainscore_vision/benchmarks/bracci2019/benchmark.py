"""``Bracci2019.anteriorVTC-rdm``: RSA of a model's IT against human anterior ventral temporal cortex (Bracci et al.
2019, fMRI, 12 subjects, 27 images), as Brain-Score defines it.

The model records IT at 70-170 ms, looking once at the images at 8 degrees. The human voxels of the region are
centred per voxel (each voxel's mean over the images subtracted), then voxels of the same ``voxels`` number are
averaged over the subjects; the raw score is the ``rdm`` metric (Spearman r of the two RDMs, 1 - Pearson r between
images) of the model against that average. The ceiling is computed in the call, from the same centred data: each
subject's RDM against the mean RDM of the other subjects (Spearman r of the off-diagonal triangle), averaged over
subjects. The score is raw / that ceiling, with attrs ``raw`` and ``ceiling``; ``benchmark.ceiling`` is 1, as in
Brain-Score (the data ceiling is the one in the score's attrs).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision.benchmark_helpers._timebins import squeeze_time_bin
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.data.bracci2019 import BIBTEX
from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "Bracci2019RSA", "ROI_MAP", "human_ceiling", "subject_centered", "voxels_averaged_over_subjects"]

#: region of interest -> (value of the ``roi`` coordinate, region the model records)
ROI_MAP = {"V1": (0, "V1"), "posteriorVTC": (1, "IT"), "anteriorVTC": (2, "IT")}
VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 1
TIME_BINS = [(70, 170)]
_PRESENTATION_COORDS = ("stimulus_id", "stimulus_name", "exemplar_number", "image_label", "image_group")


def subject_centered(assembly, roi: int):
    """The voxels of ``roi`` (``presentation x neuroid``), each minus its mean over the presentations, subjects in
    sorted order (Brain-Score's per-subject concatenation)."""
    rois = np.asarray(assembly["roi"].values)
    region = assembly.isel(neuroid=np.flatnonzero(rois == roi)).transpose("presentation", "neuroid")
    subjects = np.asarray(region["subject"].values)
    order = np.concatenate([np.flatnonzero(subjects == subject) for subject in np.unique(subjects)])
    region = region.isel(neuroid=order)
    values = np.asarray(region.values, dtype=float)
    return region.copy(data=values - values.mean(axis=0, keepdims=True))


def voxels_averaged_over_subjects(centered):
    """``presentation x neuroid``: for every ``voxels`` number (sorted), the mean over the subjects' voxels of that
    number; the presentation coordinates Brain-Score keeps, and ``voxels`` = 0..n-1."""
    from brainio.assemblies import NeuroidAssembly

    voxel_numbers = np.asarray(centered["voxels"].values)
    groups, inverse = np.unique(voxel_numbers, return_inverse=True)
    sums = np.zeros((centered.sizes["presentation"], len(groups)))
    np.add.at(sums.T, inverse, np.asarray(centered.values).T)
    averaged = sums / np.bincount(inverse, minlength=len(groups))
    coords = {name: ("presentation", np.asarray(centered[name].values)) for name in _PRESENTATION_COORDS
              if name in centered.coords}
    coords["voxels"] = ("neuroid", np.arange(len(groups)))
    return NeuroidAssembly(averaged, coords=coords, dims=["presentation", "neuroid"])


def human_ceiling(centered) -> float:
    """Mean over subjects of the Spearman r between a subject's RDM and the mean RDM of the other subjects."""
    from brainscore_metrics.rdm import correlation_distance_triangle
    from brainscore_metrics.rsa_ceiling import rsa_noise_ceiling

    subjects = np.asarray(centered["subject"].values)
    names = np.unique(subjects)
    values = np.asarray(centered.values, dtype=float)
    triangles = np.stack([correlation_distance_triangle(values[:, subjects == name], precision="float64")
                          for name in names])
    _, leave_one_out = rsa_noise_ceiling(triangles, names)
    return float(np.mean(leave_one_out))


class Bracci2019RSA(BenchmarkBase):
    """``Bracci2019.<region>-rdm`` for ``region`` in :data:`ROI_MAP` (Brain-Score registers ``anteriorVTC``)."""

    def __init__(self, region: str):
        if region not in ROI_MAP:
            raise BenchmarkDataError(f"Bracci2019 has no region {region!r}: choose one of {sorted(ROI_MAP)}")
        from brainscore_vision import load_dataset, load_metric, load_stimulus_set

        self._region = region
        self._metric = load_metric("rdm")
        self._stimulus_set = LazyLoad(lambda: load_stimulus_set("Bracci2019"))
        self._human_assembly = LazyLoad(lambda: load_dataset("Bracci2019"))
        super().__init__(identifier=f"Bracci2019.{region}-rdm", version=1, ceiling_func=lambda: Score(1),
                         parent="Bracci2019", bibtex=BIBTEX)

    def stimulus_count(self) -> int:
        return len(resolve(self._stimulus_set))

    def __call__(self, candidate) -> Score:
        roi, recording_region = ROI_MAP[self._region]
        candidate.start_recording(recording_region, time_bins=TIME_BINS)
        stimuli = place_on_screen(resolve(self._stimulus_set), target_visual_degrees=candidate.visual_degrees(),
                                  source_visual_degrees=VISUAL_DEGREES)
        activations = squeeze_time_bin(candidate.look_at(stimuli, number_of_trials=NUMBER_OF_TRIALS))
        centered = subject_centered(resolve(self._human_assembly), roi)
        ceiling = human_ceiling(centered)
        raw = float(self._metric(activations, voxels_averaged_over_subjects(centered)))
        score = Score(raw / ceiling)
        score.attrs["raw"] = raw
        score.attrs["ceiling"] = ceiling
        score.attrs["bibtex"] = BIBTEX
        return score
