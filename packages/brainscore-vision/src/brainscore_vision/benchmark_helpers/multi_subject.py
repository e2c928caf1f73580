"""Benchmarks made of child benchmarks: one per subject, or one per fold (Brain-Score's
``benchmark_helpers.multi_subject``, from its LAION-fMRI plugin).

:class:`MultiSubjectNeuralBenchmark` builds, runs and releases one child benchmark per subject (each on that
subject's own presentations and neuroids, e.g. a :class:`~.neural_common.TrainTestNeuralBenchmark`) and reports the
mean of their ceiled scores; :class:`KFoldNeuralBenchmark` does the same over folds. Children are built on demand
from a factory and dropped after use, so only one child's data is held at a time. The Score carries, as Brain-Score's
does: ``raw`` (mean of the children's raw scores, a scalar Score), ``raw_subjects`` / ``raw_folds`` (the children's
ceiled scores), ``sem_subjects`` / ``sem_folds``, ``ceiling`` (mean of the children's ceilings, with its own
``raw_*`` and ``error``), each child's Score (``attrs[subject]``, or ``attrs['folds']``), and ``error`` from 200
bootstrap resamples of the children (:func:`~brainscore_metrics.bootstrap.attach_error`), NaN
with a reason for a single child.

:func:`block_diagonal_concat` stitches per-subject slices with disjoint neuroids into one assembly, NaN off the
diagonal blocks.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_metrics.bootstrap import attach_error, declare_no_error
from brainscore_vision.errors import BenchmarkDataError

__all__ = ["WRAPPER_N_BOOTSTRAP", "KFoldNeuralBenchmark", "MultiSubjectNeuralBenchmark", "block_diagonal_concat"]

#: bootstrap resamples of the children for the wrappers' error (Brain-Score's value)
WRAPPER_N_BOOTSTRAP = 200


def _release(child) -> None:
    """Drop a child's data and cached ceiling so that it is freed before the next child is built."""
    for name in ("_assembly", "_train_assembly", "_test_assembly", "_similarity_metric", "_ceiling_func", "_ceiling"):
        if name in getattr(child, "__dict__", {}):
            setattr(child, name, None)


def _child_raw_scalar(child_score: Score) -> float:
    """The mean of a child's ``attrs['raw']`` (NaN without one)."""
    raw = child_score.attrs.get("raw")
    if raw is None:
        return float("nan")
    values = np.asarray(getattr(raw, "values", raw), dtype=float)
    return float(values.mean()) if values.size else float("nan")


def _sem(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else 0.0


def _labelled(values, dim: str, labels) -> Score:
    return Score(np.asarray(values, dtype=float), coords={dim: list(labels)}, dims=[dim])


class _ChildrenBenchmark(BenchmarkBase):
    """Shared by both wrappers: build a child per key, run it, release it, aggregate."""

    _dim = "subject"

    def __init__(self, identifier: str, keys: Sequence, factory: Callable, peak_aggregation: float,
                 parent_of_sample: bool = True):
        self._keys = list(keys)
        self._factory = factory
        self._peak_aggregation = float(peak_aggregation)
        sample = factory(self._keys[0])  # metadata from one child, then released
        region, version, bibtex = sample.region, getattr(sample, "version", 1), getattr(sample, "bibtex", None)
        _release(sample)
        del sample
        super().__init__(identifier=identifier, ceiling_func=self._compute_ceiling, version=version, parent=region,
                         bibtex=bibtex)
        self.region = region

    @property
    def timebins(self):
        """The first child's time bins (read when asked: a child may need its data to know them)."""
        child = self._factory(self._keys[0])
        try:
            return getattr(child, "timebins", None)
        finally:
            _release(child)

    def _each_child(self):
        for key in self._keys:
            child = self._factory(key)
            try:
                yield key, child
            finally:
                _release(child)
                del child
                gc.collect()

    def _compute_ceiling(self) -> Score:
        values = np.array([float(child.ceiling) for _, child in self._each_child()])
        ceiling = Score(float(values.mean()))
        ceiling.attrs[f"raw_{self._dim}s"] = _labelled(values, self._dim, self._labels())
        return ceiling

    def _labels(self) -> list:
        return self._keys

    def __call__(self, candidate) -> Score:
        scores, ceilings, raws = [], [], []
        for _, child in self._each_child():
            child_score = child(candidate)
            scores.append(child_score)
            ceilings.append(float(child.ceiling))
            raws.append(_child_raw_scalar(child_score))
        values, ceilings = np.array([float(s) for s in scores]), np.array(ceilings)
        per_child = _labelled(values, self._dim, self._labels())
        per_child.name = f"{self.identifier}_per_{self._dim}"
        score = Score(float(values.mean()))
        score.attrs["raw"] = Score(float(np.nanmean(raws)))
        score.attrs[f"raw_{self._dim}s"] = per_child
        score.attrs[f"sem_{self._dim}s"] = _sem(values)
        ceiling = Score(float(ceilings.mean()))
        ceiling.attrs[f"raw_{self._dim}s"] = _labelled(ceilings, self._dim, self._labels())
        ceiling.attrs["sem"] = ceiling.attrs["error"] = _sem(ceilings)
        score.attrs["ceiling"] = ceiling
        self._keep_children(score, scores)
        if len(values) > 1:
            return attach_error(score, per_child, over=[self._dim], n_bootstrap=WRAPPER_N_BOOTSTRAP)
        return declare_no_error(score, reason=f"a single {self._dim}: nothing to resample at this layer")

    def _keep_children(self, score: Score, scores: list) -> None:
        for key, child_score in zip(self._keys, scores, strict=True):
            score.attrs[str(key)] = child_score


class MultiSubjectNeuralBenchmark(_ChildrenBenchmark):
    """One child benchmark per subject, the mean of their ceiled scores.

    Parameters
    ----------
    identifier : str
    subjects : sequence of str
        At least one.
    per_subject_factory : callable
        ``factory(subject) -> benchmark`` (a benchmark with ``region``, ``ceiling`` and ``__call__``).
    peak_aggregation : float, default=1.0
        How many children's data a run holds at its peak (Brain-Score's memory hint; kept for it).
    """

    _dim = "subject"

    def __init__(self, identifier: str, subjects: Sequence[str], per_subject_factory: Callable,
                 peak_aggregation: float = 1.0):
        if not subjects:
            raise BenchmarkDataError(f"{identifier}: MultiSubjectNeuralBenchmark needs at least one subject")
        self._subjects = list(subjects)
        super().__init__(identifier, subjects, per_subject_factory, peak_aggregation)

    def _compute_ceiling(self) -> Score:
        ceiling = super()._compute_ceiling()
        values = np.asarray(ceiling.attrs["raw_subjects"].values)
        ceiling.attrs["sem"] = ceiling.attrs["error"] = _sem(values)
        return ceiling


class KFoldNeuralBenchmark(_ChildrenBenchmark):
    """One child benchmark per fold (``fold_factory(k)`` for k in 0..n_folds-1), the mean of their ceiled scores.

    Parameters
    ----------
    identifier : str
    n_folds : int
        At least 1.
    fold_factory : callable
        ``fold_factory(k) -> benchmark``.
    peak_aggregation : float, default=1.0
    """

    _dim = "fold"

    def __init__(self, identifier: str, n_folds: int, fold_factory: Callable, peak_aggregation: float = 1.0):
        if n_folds < 1:
            raise BenchmarkDataError(f"{identifier}: KFoldNeuralBenchmark needs at least one fold, got {n_folds}")
        self._n_folds = int(n_folds)
        super().__init__(identifier, range(self._n_folds), fold_factory, peak_aggregation)

    def _keep_children(self, score: Score, scores: list) -> None:
        score.attrs["folds"] = scores


def block_diagonal_concat(slices, presentation_coords=("stimulus_id", "subject_id_pres", "repetition"),
                          neuroid_coords=("subject_id", "region", "roi", "voxel_index_in_brain_mask", "nc_4rep",
                                          "nc_12rep", "nc_allrep")):
    """Per-subject ``presentation x neuroid`` slices stitched block-diagonally; NaN off the blocks.

    Subject ``i`` occupies its own presentations and its own neuroids. Of ``presentation_coords`` and
    ``neuroid_coords`` (defaults: the LAION-fMRI names), those present in every slice are concatenated along their
    dim; the others are left out. Float data keep their dtype, other data become float32.

    Returns
    -------
    NeuroidAssembly of shape (sum of presentations, sum of neuroids)
    """
    from brainio.assemblies import NeuroidAssembly

    presentations = [s.sizes["presentation"] for s in slices]
    neuroids = [s.sizes["neuroid"] for s in slices]
    dtype = slices[0].dtype if slices[0].dtype.kind == "f" else np.float32
    data = np.full((sum(presentations), sum(neuroids)), np.nan, dtype=dtype)
    row, column = 0, 0
    for piece, n_rows, n_columns in zip(slices, presentations, neuroids, strict=True):
        data[row:row + n_rows, column:column + n_columns] = np.asarray(piece.transpose("presentation", "neuroid"))
        row, column = row + n_rows, column + n_columns
    coords = {}
    for dim, names in (("presentation", presentation_coords), ("neuroid", neuroid_coords)):
        for name in names:
            if all(name in piece.coords for piece in slices):
                coords[name] = (dim, np.concatenate([np.asarray(piece[name].values) for piece in slices]))
    return NeuroidAssembly(data, coords=coords, dims=["presentation", "neuroid"])
