"""RSA on recordings of several subjects: Brain-Score's ``neural_common.RSABenchmark`` (Allen2022, LAION-fMRI).

The neural assembly is ``presentation x neuroid`` with a ``subject`` coordinate on the neuroids (each subject's
voxels are its own). The model looks at the assembly's stimuli once; its RDM (1 - Pearson r between stimulus
patterns) is compared with each subject's RDM by the Spearman correlation of their upper triangles, and the raw
score is the mean over subjects. The ceiling is ``ceiler(assembly)`` (default ``rsa_ceiling``: each subject's RDM
against the mean RDM of all subjects, Nili et al. 2014); the score is raw / ceiling, not explained variance.

The model RDM is formed once, and the subjects' RDMs come from one pattern-correlation kernel call each; the
comparison of all subjects is one call of the ``rdm`` metric on their stacked RDMs. Custom ``rdm`` / ``similarity``
callables (Brain-Score's parameters: e.g. ``rdm=identity, similarity=load_metric('cka')`` to compare the
representations directly) run per subject as Brain-Score runs them: ``similarity(rdm(model), rdm(subject))``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_core.normalization import ceil_score
from brainscore_vision.benchmark_helpers._timebins import squeeze_time_bin, timebins_of
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import resolve

__all__ = ["RSABenchmark", "subject_rdm_stack"]


def _subjects(assembly) -> np.ndarray:
    if "subject" not in assembly.coords:
        raise BenchmarkDataError(f"assembly {assembly.attrs.get('identifier')!r} has no 'subject' coordinate on its "
                                 f"neuroids: RSA over subjects forms one RDM per subject")
    return np.asarray(assembly["subject"].values)


def subject_rdm_stack(assembly):
    """One RDM per subject, ``subject x presentation x presentation_right`` (rows in sorted stimulus order)."""
    import xarray as xr

    from brainscore_metrics.rdm import metric_rdm

    subjects = _subjects(assembly)
    rdms = [metric_rdm(assembly.isel(neuroid=np.flatnonzero(subjects == subject)), precision="float64")
            for subject in np.unique(subjects)]
    stack = xr.concat(rdms, dim="subject").assign_coords(subject=("subject", np.unique(subjects)))
    return type(rdms[0])(stack)


class RSABenchmark(BenchmarkBase):
    """Brain-Score's RSA benchmark over subjects (its ``neural_common.RSABenchmark`` signature).

    Parameters
    ----------
    identifier : str
        E.g. ``'Allen2022_fmri.IT-rdm'``.
    version : int
    assembly : NeuroidAssembly or LazyLoad
        ``presentation x neuroid`` with ``subject`` on the neuroids and ``attrs['stimulus_set']``; repetitions
        averaged.
    region : str
        Region the model records from.
    visual_degrees : float
    number_of_trials : int
    bibtex : str
    ceiler : callable or None, default=None
        ``ceiler(assembly) -> Score``; None is ``load_ceiling('rsa_ceiling')``.
    parent : str or None, default=None
        None is ``region``.
    rdm, similarity : callable or None, default=None
        Brain-Score's per-subject form (see the module docstring); None is the RDM kernel and the ``rdm`` metric.

    Returns (from ``__call__``)
    ---------------------------
    Score (0-d) raw / ceiling with attrs ``raw`` (mean over subjects, ``attrs['subject_scores']``), ``ceiling``.
    """

    def __init__(self, identifier: str, version: int, assembly, region: str, visual_degrees: float,
                 number_of_trials: int, bibtex: str, ceiler: Callable | None = None, parent: str | None = None,
                 rdm: Callable | None = None, similarity: Callable | None = None):
        self._assembly = assembly
        self.region = region
        self._visual_degrees = visual_degrees
        self._number_of_trials = number_of_trials
        self._rdm = rdm
        self._similarity = similarity
        self._ceiler = ceiler
        super().__init__(identifier=identifier, ceiling_func=self._data_ceiling, version=version,
                         parent=parent or region, bibtex=bibtex, ceiling_data=lambda: resolve(self._assembly))

    @property
    def timebins(self) -> list[tuple[int, int]]:
        return timebins_of(resolve(self._assembly), default=[(70, 170)])

    def stimulus_count(self) -> int:
        return len({str(s) for s in resolve(self._assembly)["stimulus_id"].values})

    def _data_ceiling(self) -> Score:
        ceiler = self._ceiler
        if ceiler is None:
            from brainscore_vision import load_ceiling

            ceiler = load_ceiling("rsa_ceiling")
        return ceiler(resolve(self._assembly))

    def _model_activations(self, candidate: BrainModel):
        assembly = resolve(self._assembly)
        candidate.start_recording(self.region, time_bins=self.timebins)
        stimuli = place_on_screen(assembly.stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                                  source_visual_degrees=self._visual_degrees)
        return squeeze_time_bin(candidate.look_at(stimuli, number_of_trials=self._number_of_trials)), assembly

    def __call__(self, candidate: BrainModel) -> Score:
        activations, assembly = self._model_activations(candidate)
        subjects = _subjects(assembly)
        if self._rdm is None and self._similarity is None:
            from brainscore_metrics.rdm import metric_rdm
            from brainscore_vision import load_metric

            result = load_metric("rdm")(metric_rdm(activations), subject_rdm_stack(assembly))
            per_subject = [float(v) for v in np.asarray(result.attrs["raw"].values).ravel()]
        else:
            rdm = self._rdm or (lambda x: x)
            model = rdm(activations)
            per_subject = [float(self._similarity(model, rdm(assembly.isel(neuroid=np.flatnonzero(subjects == s)))))
                           for s in np.unique(subjects)]
        raw = Score(float(np.mean(per_subject)))
        raw.attrs["subject_scores"] = per_subject
        score = ceil_score(raw, self.ceiling)
        if self.bibtex:
            score.attrs["bibtex"] = self.bibtex
        return score
