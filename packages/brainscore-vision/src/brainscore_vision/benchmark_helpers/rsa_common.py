"""RSA benchmarks: the model's representational dissimilarity matrix against each subject's.

The brain side is a set of RDMs (one per subject, optionally several sessions each), as measured; the
model side is computed from the model's recordings of the same stimuli. The raw score is the mean over
subjects of the Spearman correlation between the strict upper triangles of the model RDM and the subject
RDM (metric ``rdm``); it is divided by the RSA ceiling over subjects (``rsa_ceiling``: how well each
subject's RDM matches the mean RDM of all subjects).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_core.normalization import ceil_score
from brainscore_vision.benchmark_helpers._timebins import BenchmarkDataError, squeeze_time_bin
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import resolve

__all__ = ["RSABenchmark", "patterns_of", "rdm_of", "rsa_ceiling", "subject_rdms_of"]


def patterns_of(activations, stimulus_ids) -> np.ndarray:
    """The response patterns of ``stimulus_ids``, one row per stimulus in that order.

    Parameters
    ----------
    activations : NeuroidAssembly
        Dims ``presentation x neuroid[...]``, ``presentation`` carrying ``stimulus_id`` (one row per stimulus).
    stimulus_ids : sequence of str
        Every id must be in ``activations``.

    Returns
    -------
    float64 ndarray of shape (n_stimuli, n_features)
    """
    activations = activations.transpose("presentation", ...)
    ids = [str(s) for s in activations["stimulus_id"].values]
    index = {stimulus_id: row for row, stimulus_id in enumerate(ids)}
    missing = [s for s in stimulus_ids if s not in index]
    if missing:
        raise BenchmarkDataError(f"model recordings lack stimuli {missing[:5]} ({len(missing)} in all)")
    values = np.asarray(activations.values, dtype=np.float64).reshape(len(ids), -1)
    return values[[index[s] for s in stimulus_ids]]


def rdm_of(activations, stimulus_ids) -> np.ndarray:
    """``1 - Pearson r`` between the response patterns of ``stimulus_ids`` (rows and columns in that order).

    The RDM the ``rdm`` metric computes (:func:`brainscore_metrics.rdm.metric_rdm`), reordered.

    Returns
    -------
    ndarray of shape (n_stimuli, n_stimuli)
    """
    from brainscore_metrics.rdm import metric_rdm

    patterns_of(activations, stimulus_ids)  # every id must be recorded (a BenchmarkDataError naming them)
    return _in_order(metric_rdm(_only(activations, stimulus_ids)), stimulus_ids)


def _only(activations, stimulus_ids):
    """``activations`` restricted to the presentations of ``stimulus_ids``."""
    wanted = set(stimulus_ids)
    keep = [str(s) in wanted for s in activations["stimulus_id"].values]
    return activations if all(keep) else activations.isel(presentation=np.flatnonzero(keep))


def _in_order(rdm, stimulus_ids) -> np.ndarray:
    """The values of an RDM assembly (rows/columns in sorted id order) in the order of ``stimulus_ids``."""
    sorted_ids = [str(s) for s in rdm["stimulus_id"].values]
    position = {stimulus_id: index for index, stimulus_id in enumerate(sorted_ids)}
    order = [position[str(s)] for s in stimulus_ids]
    return np.asarray(rdm.values)[np.ix_(order, order)]


def subject_rdms_of(rdm_assembly, average_sessions: bool = True):
    """``subject x stimulus_row x stimulus_column`` RDMs, sessions averaged (when there is a session dim)."""
    rdm_assembly = resolve(rdm_assembly)
    for dim in ("subject", "stimulus_row", "stimulus_column"):
        if dim not in rdm_assembly.dims:
            raise BenchmarkDataError(f"RDM assembly {rdm_assembly.attrs.get('identifier')!r} has no {dim!r} dim "
                                     f"(dims {rdm_assembly.dims})")
    if "session" in rdm_assembly.dims:
        if not average_sessions:
            raise BenchmarkDataError("average_sessions=False needs RDMs without a 'session' dim")
        rdm_assembly = rdm_assembly.mean("session", keep_attrs=True)
    return rdm_assembly.transpose("subject", "stimulus_row", "stimulus_column")


def rsa_ceiling(rdm_assembly) -> Score:
    """The RSA noise ceiling over subjects (``load_ceiling('rsa_ceiling')``, sessions averaged per subject).

    With a single subject no inter-subject ceiling exists: the ceiling is 1 (the score equals the raw
    similarity), with ``attrs['lower_bound_loo'] = NaN`` and a ``note``.
    """
    rdm_assembly = resolve(rdm_assembly)
    if rdm_assembly.sizes.get("subject", 1) < 2:
        ceiling = Score(1.0)
        ceiling.attrs["lower_bound_loo"] = float("nan")
        ceiling.attrs["note"] = "a single RDM: no inter-subject ceiling can be estimated; ceiling set to 1"
        return ceiling
    from brainscore_vision import load_ceiling

    return load_ceiling("rsa_ceiling")(rdm_assembly)


class RSABenchmark(BenchmarkBase):
    """Compare the model's RDM with per-subject RDMs of one region.

    Parameters
    ----------
    identifier : str
        E.g. ``'Kriegeskorte2008.hIT-rdm'``.
    rdm_assembly : DataAssembly or LazyLoad
        Dims ``subject x [session x] stimulus_row x stimulus_column``, coordinates ``subject``,
        ``stimulus_id_row`` (and ``stimulus_id_column``, same order).
    stimulus_set : StimulusSet or LazyLoad
        The stimuli of the RDMs (a superset is fine).
    visual_degrees : float
        Size of the stimuli in the experiment, in degrees of visual angle.
    region : str
        Region to record from (``'IT'``).
    timebins : list of (int, int)
        Time bins to record, in ms after stimulus onset.
    number_of_trials : int, default=1
    similarity_metric : Metric or None, default=None
        ``metric(model_activations, subject_rdms) -> Score`` with per-subject values in ``attrs['raw']``;
        None loads ``load_metric('rdm')`` (Spearman of upper triangles, one value per subject).
    ceiling_func : callable or None, default=None
        ``ceiling_func() -> Score``; None uses :func:`rsa_ceiling` on the subject RDMs (cached on disk,
        keyed by their content).
    version : int, default=1
    parent, bibtex : str or None, default=None

    The returned Score is raw / ceiling with ``attrs``: ``raw`` (mean similarity, with ``per_subject``),
    ``ceiling``, ``error``, ``model_rdm`` (2-D list), ``subject_rdms`` (list of 2-D lists),
    ``rdm_subjects`` (subject labels), ``rdm_stimulus_ids``, ``n_stimuli``, ``n_subjects`` and
    ``bibtex`` (when given).
    """

    def __init__(self, identifier: str, rdm_assembly, stimulus_set, visual_degrees: float, *, region: str,
                 timebins: list[tuple[int, int]], number_of_trials: int = 1,
                 similarity_metric=None, ceiling_func: Callable[[], Score] | None = None, version: int = 1,
                 parent: str | None = None, bibtex: str | None = None):
        self._rdm_assembly = rdm_assembly
        self._stimulus_set = stimulus_set
        self._visual_degrees = visual_degrees
        self._region = region
        self._timebins = list(timebins)
        self._number_of_trials = number_of_trials
        self._similarity_metric = similarity_metric
        if ceiling_func is None:
            ceiling_func = self._data_ceiling
        super().__init__(identifier=identifier, ceiling_func=ceiling_func, version=version, parent=parent,
                         bibtex=bibtex, ceiling_data=lambda: resolve(self._rdm_assembly))

    @property
    def region(self) -> str:
        return self._region

    @property
    def timebins(self) -> list[tuple[int, int]]:
        return list(self._timebins)

    def stimulus_count(self) -> int:
        """How many stimuli a model is shown (the rows of the RDMs; the grid's memory plan reads it)."""
        return int(resolve(self._rdm_assembly).sizes.get("stimulus_row", 0)) or len(resolve(self._stimulus_set))

    def subject_rdms(self):
        """The subjects' RDMs (sessions averaged): ``subject x stimulus_row x stimulus_column``."""
        return subject_rdms_of(self._rdm_assembly)

    def _data_ceiling(self) -> Score:
        return rsa_ceiling(self._rdm_assembly)

    def __call__(self, candidate: BrainModel) -> Score:
        rdms = self.subject_rdms()
        stimulus_ids = [str(s) for s in rdms["stimulus_id_row"].values]
        stimulus_set = resolve(self._stimulus_set)
        stimulus_set = stimulus_set[stimulus_set["stimulus_id"].isin(stimulus_ids)]
        candidate.start_recording(self._region, time_bins=self._timebins)
        placed = place_on_screen(stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                                 source_visual_degrees=self._visual_degrees)
        activations = squeeze_time_bin(candidate.look_at(placed, number_of_trials=self._number_of_trials))
        from brainscore_metrics.rdm import RDMMetric, metric_rdm

        metric = self._similarity_metric
        if metric is None:
            from brainscore_vision import load_metric

            metric = load_metric("rdm")
        if type(metric) is RDMMetric and metric.neuroid_dim == "neuroid" and metric.comparison_coord == "stimulus_id":
            # the model RDM is computed once: the metric reads back exactly its triangle (same score to the bit)
            model_rdm = metric_rdm(activations, precision=metric.precision, backend=metric.backend)
            raw = metric(model_rdm, rdms)
        else:  # another metric may not compute an RDM at all; the report's RDM is computed for the report
            raw = metric(activations, rdms)
            model_rdm = metric_rdm(activations)
        subjects = [str(s) for s in rdms["subject"].values]
        ceiling = self.ceiling
        score = ceil_score(raw, ceiling)
        if len(subjects) < 2 and float(ceiling) == 1.0:  # a single RDM (rsa_ceiling): nothing is normalised
            score.attrs["normalization"] = "none (ceiling 1)"
        # for reports: the model's RDM in the subjects' stimulus order, and the subjects' RDMs
        score.attrs["model_rdm"] = _in_order(model_rdm, stimulus_ids).tolist()
        score.attrs["subject_rdms"] = [rdm.tolist() for rdm in np.asarray(rdms.values, dtype=np.float64)]
        score.attrs["rdm_subjects"] = subjects
        score.attrs["rdm_stimulus_ids"] = stimulus_ids
        score.attrs["n_stimuli"] = len(stimulus_ids)
        score.attrs["n_subjects"] = len(subjects)
        if self.bibtex:
            score.attrs["bibtex"] = self.bibtex
        return score
