"""fMRI RSA benchmarks of Coggan & Tong (2024): ``tong.Coggan2024_fMRI.{V1,V2,V4,IT}-rdm``.

Nine subjects saw 24 images (8 objects, each complete and behind two complementary occluders); for each region
the data hold one 24 x 24 similarity matrix per subject. The benchmark follows Brain-Score's call flow:

1. The model records the region (one trial, time bin 0-250 ms) while it looks at the images at **9 degrees**.
2. :func:`model_similarity_matrix` reduces the model's units the way the fMRI analysis selected voxels: units with
   zero variance across the images are dropped; of the rest, only units whose absolute mean response exceeds 3.1
   times the standard deviation (over units) of the unit means are kept; each kept unit is z-scored across images;
   the model matrix is the Pearson correlation between the image patterns.
3. Only the 552 off-diagonal cells (both triangles: the measured matrices are not symmetric) are compared. The raw
   score is the mean over subjects of the Pearson correlation between the model's cells and the subject's cells
   (:func:`subject_correlations`).
4. The ceiling is the mean over subjects of the correlation between one subject's cells and the mean matrix of
   the other eight (:func:`leave_one_subject_out_ceiling`).
5. The score is ``(raw / ceiling) ** 2``, clipped to [0, 1] (:func:`squared_ceiled_score`). The square treats the
   ratio as a correlation normalised by the data's reliability and turns it into a fraction of explainable
   variance (``r(model, subject) / r(subject, subject)``, with the subject-subject correlation standing in for the
   model's own reliability, as in Yamins et al. 2014). Because it is a square, a model whose similarity structure
   is *anti*-correlated with the brain's gets the same positive score as a correlated one; ``attrs['raw']`` keeps
   the sign.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_core.normalization import bound_score
from brainscore_vision import load_dataset, load_stimulus_set
from brainscore_vision.benchmark_helpers._timebins import BenchmarkDataError, squeeze_time_bin
from brainscore_vision.benchmark_helpers.rsa_common import patterns_of
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.data.coggan2024_fMRI import BIBTEX, IDENTIFIER
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "REGIONS", "RSA", "SELECTION_THRESHOLD", "TIME_BINS", "VISUAL_DEGREES", "Coggan2024_IT",
           "Coggan2024_V1", "Coggan2024_V2", "Coggan2024_V4", "Coggan2024fMRIRSA", "ceiler", "get_ceiling", "get_score",
           "leave_one_subject_out_ceiling", "model_similarity_matrix", "off_diagonal", "selected_units",
           "squared_ceiled_score", "subject_correlations", "subject_matrices"]

REGIONS = ("V1", "V2", "V4", "IT")
VISUAL_DEGREES = 9
TIME_BINS = [(0, 250)]
SELECTION_THRESHOLD = 3.1
"""Units are kept when ``|mean response| > SELECTION_THRESHOLD * std over units of the unit means``."""


def off_diagonal(matrices: np.ndarray) -> np.ndarray:
    """The off-diagonal cells of square matrices, row-major: ``(..., n, n) -> (..., n * (n - 1))``."""
    n = matrices.shape[-1]
    keep = ~np.eye(n, dtype=bool)
    return matrices[..., keep]


def _pearson_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson correlation of matching rows of ``a`` and ``b`` (broadcast), shape ``(..., k) -> (...)``."""
    a = a - a.mean(axis=-1, keepdims=True)
    b = b - b.mean(axis=-1, keepdims=True)
    return (a * b).sum(-1) / np.sqrt((a * a).sum(-1) * (b * b).sum(-1))


def selected_units(patterns: np.ndarray, threshold: float = SELECTION_THRESHOLD) -> np.ndarray:
    """The columns (units) of ``patterns`` (stimuli x units) that the fMRI-style selection keeps: non-zero variance
    across stimuli, and ``|mean| > threshold x`` the standard deviation over units of the unit means."""
    patterns = patterns[:, patterns.std(axis=0) != 0]
    unit_means = patterns.mean(axis=0)
    return patterns[:, np.abs(unit_means) > threshold * unit_means.std()]


def model_similarity_matrix(activations, stimulus_ids, *, threshold: float = SELECTION_THRESHOLD) -> np.ndarray:
    """The model's similarity matrix over ``stimulus_ids``, with the fMRI-style unit selection.

    Parameters
    ----------
    activations : NeuroidAssembly
        Dims ``presentation x neuroid``, ``presentation`` carrying ``stimulus_id`` (one row per stimulus).
    stimulus_ids : sequence of str
        Order of the rows and columns.
    threshold : float, default=3.1
        Selection threshold in standard deviations of the unit means.

    Returns
    -------
    ndarray of shape (n_stimuli, n_stimuli)
        Pearson correlations between the z-scored patterns of the selected units (symmetric, diagonal 1).

    Raises
    ------
    BenchmarkDataError
        When a stimulus is missing from the recordings, or when no unit passes the selection.
    """
    patterns = selected_units(patterns_of(activations, stimulus_ids), threshold)
    if not patterns.shape[1]:
        raise BenchmarkDataError(
            f"no model unit has |mean response| above {threshold} x the standard deviation of the unit means: "
            "the fMRI-style unit selection keeps nothing")
    patterns = (patterns - patterns.mean(axis=0)) / patterns.std(axis=0)
    return np.corrcoef(patterns)


def subject_matrices(assembly, region: str):
    """``(subjects, matrices, stimulus_ids)`` of one region: labels, array ``(n_subjects, n, n)``, order."""
    assembly = resolve(assembly)
    regions = np.asarray(assembly["region"].values).astype(str)
    if region not in set(regions):
        raise BenchmarkDataError(f"assembly {assembly.attrs.get('identifier', IDENTIFIER)!r} has no region "
                                 f"{region!r}; it has {sorted(set(regions.tolist()))}")
    selected = assembly.isel(neuroid=np.flatnonzero(regions == region))
    selected = selected.transpose("neuroid", "stimulus_row", "stimulus_column")
    subjects = [str(s) for s in selected["subject"].values]
    stimulus_ids = [str(s) for s in selected["stimulus_id_row"].values]
    return subjects, np.asarray(selected.values, dtype=np.float64), stimulus_ids


def subject_correlations(model_matrix: np.ndarray, matrices: np.ndarray) -> np.ndarray:
    """Pearson r between the model's off-diagonal cells and each subject's: ``(n, n), (s, n, n) -> (s,)``."""
    return _pearson_rows(off_diagonal(model_matrix)[None, :], off_diagonal(matrices))


def leave_one_subject_out_ceiling(matrices: np.ndarray, subjects=None) -> Score:
    """Mean over subjects of r(subject's off-diagonal cells, mean of the other subjects' cells).

    Parameters
    ----------
    matrices : ndarray of shape (n_subjects, n, n)
    subjects : sequence of str, optional
        Labels stored in ``attrs['subjects']``.

    Returns
    -------
    Score
        0-d mean; ``attrs['raw']`` holds the per-subject correlations (list of float).
    """
    cells = off_diagonal(np.asarray(matrices, dtype=np.float64))  # (s, k)
    n_subjects = cells.shape[0]
    if n_subjects < 2:
        raise BenchmarkDataError(f"a leave-one-subject-out ceiling needs at least 2 subjects, got {n_subjects}")
    others = (cells.sum(axis=0, keepdims=True) - cells) / (n_subjects - 1)
    per_subject = _pearson_rows(cells, others)
    ceiling = Score(float(per_subject.mean()))
    ceiling.attrs[Score.RAW_VALUES_KEY] = per_subject.tolist()
    if subjects is not None:
        ceiling.attrs["subjects"] = [str(s) for s in subjects]
    return ceiling


def squared_ceiled_score(raw: Score, ceiling: Score) -> Score:
    """``(raw / ceiling) ** 2`` clipped to [0, 1]; attrs ``raw``, ``ceiling``, ``unbounded`` and
    ``normalization``. The square makes an anti-correlated model score like a correlated one."""
    score = ceiler(raw, ceiling)
    score.attrs["normalization"] = "(raw / ceiling)^2"
    return bound_score(score)


# -- Brain-Score's helper names and signatures (its tutorial's Coggan2024 example calls them) ----------------------
def RSA(assembly, neuroid_dim: str = "neuroid"):
    """The model's similarity matrix as an assembly ``presentation x presentation`` in the recordings' order, with
    the fMRI-style unit selection (:func:`model_similarity_matrix`). Built, as Brain-Score builds it, from the
    recordings' coordinates minus ``neuroid_dim`` (brainio's coordinates rule leaves the neuroid coordinates out).
    ``neuroid_dim`` defaults to ``'neuroid'`` (Brain-Score passes ``Defaults.neuroid_dim``)."""
    from brainio.assemblies import DataAssembly

    assembly = squeeze_time_bin(assembly)
    if neuroid_dim not in assembly.dims:
        raise BenchmarkDataError(f"RSA: neuroid_dim {neuroid_dim!r} is not among the dims {assembly.dims}")
    stimulus_dim = next(dim for dim in assembly.dims if dim != neuroid_dim)
    matrix = model_similarity_matrix(assembly, [str(s) for s in assembly["stimulus_id"].values])
    coords = {name: value for name, value in assembly.coords.items() if name != neuroid_dim}
    return DataAssembly(matrix, coords=coords, dims=[stimulus_dim, stimulus_dim])


def _subject_stack(target_rsm) -> np.ndarray:
    """``(n_subjects, n, n)`` from one region's matrices (two stimulus dims and one dim along ``subject``)."""
    target_rsm = resolve(target_rsm)
    subject_dim = target_rsm["subject"].dims[0]
    return np.asarray(target_rsm.transpose(subject_dim, ...).values, dtype=np.float64)


def get_score(source_rsm, target_rsm) -> Score:
    """Mean over subjects of the Pearson r between the off-diagonal cells of ``source_rsm`` (n x n) and each subject's
    matrix of ``target_rsm`` (one region: ``n x n x subjects``); ``attrs['raw']`` the per-subject r. Brain-Score pairs
    the cells by position; here the model's rows are put in the data's stimulus order first when both carry ids (the
    same numbers whenever the orders already agree)."""
    model = np.asarray(source_rsm.values, dtype=np.float64)
    target_rsm = resolve(target_rsm)
    if "stimulus_id" in source_rsm.coords and "stimulus_id_row" in target_rsm.coords:  # the data's order, by id
        order = [str(s) for s in target_rsm["stimulus_id_row"].values]
        position = {str(s): i for i, s in enumerate(source_rsm["stimulus_id"].values)}
        missing = [s for s in order if s not in position]
        if missing:
            raise BenchmarkDataError(f"get_score: the model's matrix lacks stimuli {missing[:5]}")
        rows = [position[s] for s in order]
        model = model[np.ix_(rows, rows)]
    per_subject = subject_correlations(model, _subject_stack(target_rsm))
    score = Score(float(per_subject.mean()))
    score.attrs[Score.RAW_VALUES_KEY] = per_subject.tolist()
    return score


def get_ceiling(assembly) -> Score:
    """The leave-one-subject-out ceiling of one region's matrices (:func:`leave_one_subject_out_ceiling`)."""
    return leave_one_subject_out_ceiling(_subject_stack(assembly))


def ceiler(score: Score, ceiling: Score) -> Score:
    """``(score / ceiling) ** 2``, unclipped (Brain-Score bounds it in the benchmark), attrs ``raw``, ``ceiling`` and,
    if the score has one, ``error``."""
    ceiled = Score((float(score) / float(ceiling)) ** 2)
    if "error" in score.attrs:
        ceiled.attrs["error"] = score.attrs["error"]
    ceiled.attrs[Score.RAW_VALUES_KEY] = score
    ceiled.attrs["ceiling"] = ceiling
    return ceiled


class Coggan2024fMRIRSA(BenchmarkBase):
    """One region of Coggan & Tong (2024): the model's similarity matrix against each subject's.

    Parameters
    ----------
    region : {'V1', 'V2', 'V4', 'IT'}
        The region whose matrices are compared; also the region the model records from.
    assembly : DataAssembly or LazyLoad, optional
        ``stimulus_row x stimulus_column x neuroid`` matrices (neuroid coords ``region``, ``subject``);
        default the ``Coggan2024_fMRI`` data.
    stimulus_set : StimulusSet or LazyLoad, optional
        Default the ``Coggan2024_fMRI`` stimulus set.

    The Score is ``(raw / ceiling)^2`` clipped to [0, 1], with ``attrs``: ``raw`` (mean over subjects, with the
    per-subject correlations in its own ``attrs['raw']``), ``ceiling``, ``unbounded``, ``normalization``,
    ``n_units_selected`` and ``bibtex``.
    """

    def __init__(self, region: str, assembly=None, stimulus_set=None):
        if region not in REGIONS:
            raise ValueError(f"unknown Coggan2024 region {region!r}; choose one of {REGIONS}")
        self._region = region
        self._assembly = assembly if assembly is not None else LazyLoad(lambda: load_dataset(IDENTIFIER))
        self._stimulus_set = (stimulus_set if stimulus_set is not None
                              else LazyLoad(lambda: load_stimulus_set(IDENTIFIER)))
        super().__init__(identifier=f"tong.Coggan2024_fMRI.{region}-rdm", version=1, parent=region, bibtex=BIBTEX,
                         ceiling_func=self._data_ceiling, ceiling_data=lambda: self._region_matrices()[1])

    @property
    def region(self) -> str:
        return self._region

    def stimulus_count(self) -> int:
        """The 24 images a model is shown (the grid's memory plan reads it)."""
        return len(resolve(self._stimulus_set))

    def _region_matrices(self):
        return subject_matrices(self._assembly, self._region)

    def _data_ceiling(self) -> Score:
        subjects, matrices, _ = self._region_matrices()
        return leave_one_subject_out_ceiling(matrices, subjects)

    def __call__(self, candidate: BrainModel) -> Score:
        subjects, matrices, stimulus_ids = self._region_matrices()
        stimulus_set = resolve(self._stimulus_set)
        stimulus_set = stimulus_set[stimulus_set["stimulus_id"].isin(stimulus_ids)]
        placed = place_on_screen(stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                                 source_visual_degrees=VISUAL_DEGREES)
        candidate.start_recording(self._region, time_bins=TIME_BINS)
        activations = squeeze_time_bin(candidate.look_at(placed, number_of_trials=1))
        model_matrix = model_similarity_matrix(activations, stimulus_ids)
        per_subject = subject_correlations(model_matrix, matrices)
        raw = Score(float(per_subject.mean()))
        raw.attrs[Score.RAW_VALUES_KEY] = per_subject.tolist()
        raw.attrs["subjects"] = subjects
        score = squared_ceiled_score(raw, self.ceiling)
        score.attrs["n_units_selected"] = int(_n_selected(activations))
        score.attrs["bibtex"] = self.bibtex
        return score


def Coggan2024_V1() -> Coggan2024fMRIRSA:
    return Coggan2024fMRIRSA("V1")


def Coggan2024_V2() -> Coggan2024fMRIRSA:
    return Coggan2024fMRIRSA("V2")


def Coggan2024_V4() -> Coggan2024fMRIRSA:
    return Coggan2024fMRIRSA("V4")


def Coggan2024_IT() -> Coggan2024fMRIRSA:
    return Coggan2024fMRIRSA("IT")


def _n_selected(activations, threshold: float = SELECTION_THRESHOLD) -> int:
    values = np.asarray(activations.transpose("presentation", ...).values, dtype=np.float64)
    return int(selected_units(values.reshape(values.shape[0], -1), threshold).shape[1])
