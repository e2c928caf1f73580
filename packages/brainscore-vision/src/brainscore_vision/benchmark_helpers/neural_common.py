"""Neural benchmarks: model activations against recordings, normalised by a noise ceiling.

:class:`NeuralBenchmark` runs the standard call flow (start_recording -> place_on_screen -> look_at ->
metric -> explained variance over the ceiling). :class:`TrainTestNeuralBenchmark` does the same with
separate train and test stimuli and a split metric.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from brainio import average_repetition
from brainio.assemblies import DataAssembly
from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Metric, Score
from brainscore_core.normalization import explained_variance
from brainscore_vision.benchmark_helpers._slices import score_by_slices
from brainscore_vision.benchmark_helpers._timebins import (
    flatten_timebins_into_neuroids,
    region_of,
    squeeze_time_bin,
    timebins_of,
)
from brainscore_vision.benchmark_helpers.ceiling_mapping import normalization_for
from brainscore_vision.benchmark_helpers.neuroid_wise import neuroid_wise_explained_var
from brainscore_vision.benchmark_helpers.rsa_subjects import RSABenchmark
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = [
    "NeuralBenchmark",
    "RSABenchmark",
    "TrainTestNeuralBenchmark",
    "average_repetition",
    "ceiling_data_of",
    "explained_variance",
    "filter_reliable_neuroids",
    "flatten_timebins_into_neuroids",
    "neuroid_wise_explained_var",
    "timebins_from_assembly",
]

timebins_from_assembly = timebins_of


def filter_reliable_neuroids(assembly: DataAssembly, reliability_threshold: float,
                             reliability_coordinate: str) -> DataAssembly:
    """The neuroids of ``assembly`` whose ``reliability_coordinate`` exceeds ``reliability_threshold``.

    Parameters
    ----------
    assembly : DataAssembly
        Any assembly with a ``neuroid`` dim carrying ``reliability_coordinate``.
    reliability_threshold : float
        Neuroids with a value strictly greater are kept.
    reliability_coordinate : str
        Name of the per-neuroid reliability coordinate, e.g. ``'reliability'``.
    """
    if reliability_coordinate not in assembly.coords:
        raise KeyError(f"assembly {assembly.attrs.get('identifier')!r} has no coordinate {reliability_coordinate!r}")
    keep = np.asarray(assembly[reliability_coordinate].values) > reliability_threshold
    return assembly.isel(neuroid=np.flatnonzero(keep))


def prepare_split_assembly(assembly: DataAssembly, *, average_repetitions: bool,
                           stimulus_set: Any = None) -> DataAssembly:
    """The last steps of loading one split of a train/test benchmark (Allen2022, THINGS): the first time bin (where
    ``assembly`` has a ``time_bin`` dim), the repetitions averaged when ``average_repetitions``, and ``stimulus_set``
    attached (when not None). Not one of Brain-Score's names."""
    if "time_bin" in assembly.dims:
        assembly = assembly.isel(time_bin=0)
    if average_repetitions:
        assembly = average_repetition(assembly)
    if stimulus_set is not None:
        assembly.attrs["stimulus_set"] = stimulus_set
    return assembly


def ceiling_data_of(ceiling_func: Callable | None) -> Any:
    """The assemblies a ceiling function closes over, to key the ceiling cache by their content.

    ``ceiling_func=lambda: ceiler(assembly_repetition)`` (the tutorials' form) hides its data; this
    looks into the closure (and into ``functools.partial`` arguments) for assemblies or LazyLoads. None
    when there are none, in which case the ceiling is cached in memory only.
    """
    found = []
    cells = getattr(ceiling_func, "__closure__", None) or ()
    for cell in cells:
        try:
            value = cell.cell_contents
        except ValueError:  # empty cell
            continue
        if isinstance(value, DataAssembly | LazyLoad):
            found.append(value)
    for value in getattr(ceiling_func, "args", ()):
        if isinstance(value, DataAssembly | LazyLoad):
            found.append(value)
    if not found:
        return None
    return _CeilingData(found)


class _CeilingData:
    """Several assemblies that together identify a ceiling; resolved (and digested) only when needed."""

    def __init__(self, assemblies):
        self.assemblies = assemblies

    def __call__(self):
        resolved = [resolve(a) for a in self.assemblies]
        return resolved[0] if len(resolved) == 1 else resolved


class _RecordingBenchmark(BenchmarkBase):
    """What :class:`NeuralBenchmark` and :class:`TrainTestNeuralBenchmark` share: the recording setup
    (region, time bins, visual degrees, trials), the ceiling-cache key and the normalization of the raw
    score, which also records the data size and the reference in the Score's attrs."""

    def __init__(self, identifier: str, similarity_metric: Metric, ceiling_func: Callable[[], Score] | None,
                 visual_degrees: float, number_of_trials: int, version: int, parent: str | None,
                 bibtex: str | None, *, timebins, region, ceiling_data, normalization: str):
        if ceiling_data is None:
            ceiling_data = ceiling_data_of(ceiling_func)
        if normalization is None:  # the rule of this version (Brain-Score #2169: old versions keep their number)
            normalization = normalization_for(identifier, version)
        super().__init__(identifier=identifier, ceiling_func=ceiling_func, version=version, parent=parent,
                         bibtex=bibtex, ceiling_data=ceiling_data)
        self._similarity_metric = similarity_metric
        self._visual_degrees = visual_degrees
        self._number_of_trials = number_of_trials
        self._timebins = timebins
        self._region = region
        self._normalization = normalization

    def _reference_assembly(self) -> DataAssembly:
        """The recordings that carry the ``region`` and ``time_bin`` coordinates."""
        raise NotImplementedError

    @property
    def region(self) -> str:
        return self._region or region_of(self._reference_assembly())

    @property
    def timebins(self) -> list[tuple[int, int]]:
        if self._timebins is not None:
            return list(self._timebins)
        return timebins_of(self._reference_assembly())

    def stimulus_count(self) -> int:
        """How many distinct stimuli a model is shown (the grid's memory plan reads it)."""
        return sum(len({str(s) for s in resolve(a)["stimulus_id"].values}) for a in self._shown_assemblies())

    def _shown_assemblies(self) -> list:
        return [self._reference_assembly()]

    def _normalize(self, raw_score: Score, *assemblies: DataAssembly) -> Score:
        """Explained variance over the ceiling, with attrs ``n_stimuli`` (distinct ``stimulus_id`` over
        ``assemblies``), ``n_neuroids`` and ``bibtex``."""
        return self._describe(explained_variance(raw_score, self.ceiling, rule=self._normalization), *assemblies)

    def _describe(self, score: Score, *assemblies: DataAssembly) -> Score:
        """``score`` with attrs ``n_stimuli``, ``n_neuroids`` and ``bibtex``."""
        stimulus_ids = set()
        for assembly in assemblies:
            stimulus_ids.update(str(s) for s in assembly["stimulus_id"].values)
        score.attrs["n_stimuli"] = len(stimulus_ids)
        score.attrs["n_neuroids"] = int(assemblies[0].sizes["neuroid"])
        if self.bibtex:
            score.attrs["bibtex"] = self.bibtex
        return score


class NeuralBenchmark(_RecordingBenchmark):
    """Compare a model's recordings with neural recordings of one region.

    Parameters
    ----------
    identifier : str
        Benchmark identifier, ``<data>.<region>-<metric>`` (e.g. ``'Cowley2023.V4-pls'``).
    assembly : NeuroidAssembly or LazyLoad
        Repetition-averaged recordings, dims ``presentation x neuroid`` (``x time_bin``), with a single
        ``region`` and an ``attrs['stimulus_set']``.
    similarity_metric : Metric
        ``metric(model_assembly, neural_assembly) -> Score``, e.g. ``load_metric('pls')``.
    visual_degrees : float
        Size of the stimuli in the experiment, in degrees of visual angle.
    number_of_trials : int
        Presentations per stimulus in the experiment (passed to ``look_at``).
    ceiling_func : callable
        ``ceiling_func() -> Score``, typically ``lambda: load_ceiling('internal_consistency')(trials)``.
    version : int, default=1
    parent : str or None, default=None
        Leaderboard parent, e.g. ``'V4'``.
    bibtex : str or None, default=None
    timebins : list of (int, int) or None, default=None
        Time bins to record; None reads them from the assembly (``[(70, 170)]`` without coordinates).
    region : str or None, default=None
        Region to record from; None reads the assembly's ``region`` coordinate.
    ceiling_data : object or None, default=None
        What the ceiling is computed from (the repetition assembly); its content digest keys the ceiling
        cache. None looks for assemblies in ``ceiling_func``'s closure.
    normalization : str or None, default=None
        ``'r2_over_ceiling'`` (raw^2 / ceiling) or ``'legacy_squared'`` ((raw / ceiling)^2); None is the rule of
        ``version`` (:func:`~brainscore_vision.benchmark_helpers.ceiling_mapping.normalization_for`: the corrected
        rule, except for versions older than Brain-Score's correction of the family).
    """

    def __init__(self, identifier: str, assembly, similarity_metric: Metric, visual_degrees: float,
                 number_of_trials: int, ceiling_func: Callable[[], Score] | None = None, version: int = 1,
                 parent: str | None = None, bibtex: str | None = None, *, timebins=None, region=None,
                 ceiling_data=None, normalization: str | None = None):
        super().__init__(identifier, similarity_metric, ceiling_func, visual_degrees, number_of_trials, version,
                         parent, bibtex, timebins=timebins, region=region, ceiling_data=ceiling_data,
                         normalization=normalization)
        self._assembly = assembly

    @property
    def assembly(self) -> DataAssembly:
        """The (repetition-averaged) neural recordings, loaded on first use."""
        return resolve(self._assembly)

    def _reference_assembly(self) -> DataAssembly:
        return self.assembly

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = self.assembly
        candidate.start_recording(self.region, time_bins=self.timebins)
        stimulus_set = place_on_screen(assembly.stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                                       source_visual_degrees=self._visual_degrees)
        source_assembly = candidate.look_at(stimulus_set, number_of_trials=self._number_of_trials)
        raw_score = self._similarity_metric(squeeze_time_bin(source_assembly), squeeze_time_bin(assembly))
        return self._normalize(raw_score, assembly)


class TrainTestNeuralBenchmark(_RecordingBenchmark):
    """Like :class:`NeuralBenchmark`, with separate train and test stimuli and a split metric.

    Parameters
    ----------
    identifier : str
    train_assembly, test_assembly : NeuroidAssembly or LazyLoad
        Recordings (dims ``presentation x neuroid`` (``x time_bin``)) of the train and test stimuli,
        each with ``attrs['stimulus_set']``. Train may keep repetitions; test is repetition-averaged.
    similarity_metric : Metric
        ``metric(source_train, source_test, target_train, target_test) -> Score``, e.g.
        ``load_metric('ridgecv_split')``.
    ceiling_func : callable
        ``ceiling_func() -> Score`` on the test repetitions.
    visual_degrees : float
    number_of_trials : int
    version : int, default=1
    parent, bibtex : str or None, default=None
    timebins, region, ceiling_data, normalization : see :class:`NeuralBenchmark`.
    alpha_coord : str or None, default=None
        A neuroid coordinate (e.g. ``'subject'``): one mapping is fitted per value, each ceiled by the ceiling of
        its neuroids, and the score is the mean over values (:mod:`brainscore_vision.benchmark_helpers._slices`).
    per_voxel_ceilings : bool, default=False
        Ceil every neuroid by its own ceiling before aggregating
        (:func:`~brainscore_vision.benchmark_helpers.neuroid_wise.neuroid_wise_explained_var`) instead of ceiling
        the aggregate.
    """

    def __init__(self, identifier: str, train_assembly, test_assembly, similarity_metric: Metric,
                 ceiling_func: Callable[[], Score] | None, visual_degrees: float, number_of_trials: int,
                 version: int = 1, parent: str | None = None, bibtex: str | None = None, *, timebins=None,
                 region=None, ceiling_data=None, normalization: str | None = None,
                 alpha_coord: str | None = None, per_voxel_ceilings: bool = False):
        super().__init__(identifier, similarity_metric, ceiling_func, visual_degrees, number_of_trials, version,
                         parent, bibtex, timebins=timebins, region=region, ceiling_data=ceiling_data,
                         normalization=normalization)
        self._train_assembly = train_assembly
        self._test_assembly = test_assembly
        self.alpha_coord = alpha_coord
        self.per_voxel_ceilings = per_voxel_ceilings

    def _reference_assembly(self) -> DataAssembly:
        return resolve(self._test_assembly)

    def _shown_assemblies(self) -> list:
        return [self._train_assembly, self._test_assembly]

    def __call__(self, candidate: BrainModel) -> Score:
        train, test = resolve(self._train_assembly), resolve(self._test_assembly)
        candidate.start_recording(self.region, time_bins=self.timebins)
        degrees = candidate.visual_degrees()
        sources = []
        for assembly in (train, test):
            stimulus_set = place_on_screen(assembly.stimulus_set, target_visual_degrees=degrees,
                                           source_visual_degrees=self._visual_degrees)
            recordings = candidate.look_at(stimulus_set, number_of_trials=self._number_of_trials)
            sources.append(squeeze_time_bin(recordings))
        train, test = squeeze_time_bin(train), squeeze_time_bin(test)
        if self.alpha_coord is None and not self.per_voxel_ceilings:
            return self._normalize(self._similarity_metric(sources[0], sources[1], train, test), train, test)

        def score_slice(train_slice, test_slice):
            return self._similarity_metric(sources[0], sources[1], train_slice, test_slice)

        ceil = neuroid_wise_explained_var if self.per_voxel_ceilings else self._explained_variance
        if self.alpha_coord is None:
            score = ceil(score_slice(train, test), self.ceiling)
        else:
            score = score_by_slices(score_slice, train, test, self.ceiling, self.alpha_coord, ceil)
        return self._describe(score, train, test)

    def _explained_variance(self, raw: Score, ceiling: Score) -> Score:
        return explained_variance(raw, ceiling, rule=self._normalization)
