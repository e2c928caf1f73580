"""Representational dissimilarity matrices (RDMs) and RSA similarity (reference section 5.4).

RDM = 1 - Pearson correlation between the response patterns of two stimuli (Kriegeskorte et al. 2008).
Similarity of two RDMs = Spearman correlation of their strict upper triangles after sorting rows and
columns by ``stimulus_id``.

Both metrics accept, as source and as target, either activations (``presentation x neuroid``) or
precomputed RDMs (last two dims = stimulus dims, any leading dims such as ``subject x session``; see
:mod:`brainscore_metrics._alignment_representational`). Every source RDM is compared with every target
RDM in one call: each upper triangle is rank-transformed once. The RDM of activations is accumulated
block-wise straight into its sorted upper triangle (the n x n matrix is never formed), and
cross-validation derives each split's ranks from one global sort per triangle. The array kernels live in
:mod:`brainscore_metrics._rdm_kernels` and are re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import xarray as xr

from brainscore_core.metrics import Metric, Score
from brainscore_metrics._alignment_representational import (
    RDM_DIMS,
    RDMFormatError,
    RDMStack,
    check_same_stimuli,
    is_activation_assembly,
    make_test_only_splitter,
    split_frame,
    unwrap_activations,
    unwrap_rdms,
)
from brainscore_metrics._rdm_kernels import (
    _average_ranks,
    _correlate_ranks,
    _has_ties_along,
    correlation_distance_triangle,
    pair_indices,
    pattern_correlations,
    triangle_mask,
    upper_triangles,
)
from brainscore_metrics.bootstrap import bootstrap_confidence_interval
from brainscore_metrics.splits import aggregate_splits

__all__ = ["RDM", "RDMCrossValidated", "RDMMetric", "RDMSimilarity", "correlation_distance_triangle", "metric_rdm",
           "pair_indices", "pattern_correlations", "upper_triangles"]


@dataclass
class _Triangles:
    """Strict upper triangles of one or more RDMs over sorted stimulus ids (plus leading labels)."""

    values: np.ndarray  # (n_rdms, n_pairs)
    stimulus_ids: np.ndarray
    leading_dims: tuple = ()
    leading_shape: tuple = ()
    leading_coords: dict = field(default_factory=dict)

    def ranks(self, pairs: np.ndarray | None = None) -> list[np.ndarray]:
        """Average ranks of every RDM's triangle, or of its entries ``pairs`` (repeats allowed)."""
        return [_average_ranks(row if pairs is None else row[pairs]) for row in self.values]

    def prepare_subsets(self, *, keep_values: bool = False) -> None:
        """Sort each triangle once (int32 orders) for :meth:`subset_ranks`; without ties or NaN, and
        unless ``keep_values``, the triangle values are released (ranks of subsets need only the order)."""
        orders = [np.argsort(row) for row in self.values]
        exact = [not (np.isnan(row).any() or _has_ties_along(row, order))
                 for row, order in zip(self.values, orders, strict=True)]
        if all(exact) and not keep_values:
            self.values = np.empty((len(orders), 0))  # released before the int32 copies of the orders exist
        for index, order in enumerate(orders):
            if len(order) < 2 ** 31:
                orders[index] = order.astype(np.int32)
            del order
        self._orders, self._exact = orders, exact

    def subset_ranks(self, selected: np.ndarray) -> list[np.ndarray]:
        """Ranks, among themselves and in triangle order, of the entries where ``selected`` (a boolean
        mask over the triangle) is True.

        Counting the selected entries along each triangle's one global order gives their ranks in linear
        time per subset; with ties or NaN the subset is ranked by itself.
        """
        if not hasattr(self, "_orders"):
            self.prepare_subsets(keep_values=True)
        count = int(np.count_nonzero(selected))
        out = []
        for index, (order, exact) in enumerate(zip(self._orders, self._exact, strict=True)):
            if not exact:  # NaN or tied values: rank the subset itself
                out.append(_average_ranks(self.values[index][selected]))
                continue
            dtype = np.float32 if count < 2 ** 23 else np.float64  # float32 holds these integers exactly
            rank_at = np.empty(len(order), dtype=dtype)
            rank_at[order[selected[order]]] = np.arange(1, count + 1, dtype=dtype)
            out.append(rank_at[selected])
            del rank_at
        return out


def _from_stack(stack: RDMStack) -> _Triangles:
    return _Triangles(upper_triangles(stack.values), stack.stimulus_ids, stack.leading_dims, stack.leading_shape,
                      stack.leading_coords)


def _as_triangles(assembly, *, neuroid_dim: str, comparison_coord: str, what: str,
                  precision: str = "mixed", backend=None) -> _Triangles:
    """Upper triangles from activations (computed without n x n matrices) or from precomputed RDMs."""
    if not is_activation_assembly(assembly, neuroid_dim):
        return _from_stack(unwrap_rdms(assembly, comparison_coord=comparison_coord, what=what))
    matrix = unwrap_activations(assembly, neuroid_dim=neuroid_dim, comparison_coord=comparison_coord, what=what)
    return _Triangles(correlation_distance_triangle(matrix.values, matrix.order, precision=precision,
                                                    backend=backend)[None],
                      matrix.stimulus_ids)


def _leading_raw(values: np.ndarray, parts: list[_Triangles], extra_dims: tuple = (), extra_coords=None) -> Score:
    """Wrap per-RDM-pair values into a Score whose dims are the inputs' leading dims."""
    dims, coords = list(extra_dims), dict(extra_coords or {})
    shape = list(values.shape[:len(extra_dims)])
    for part in parts:
        clash = set(part.leading_dims) & set(dims)
        if clash:
            raise RDMFormatError(f"source and target RDMs share leading dims {sorted(clash)}; rename one of them")
        dims += list(part.leading_dims)
        shape += list(part.leading_shape)
        coords.update(part.leading_coords)
    return Score(values.reshape(shape), coords=coords, dims=dims)


def _bootstrap_attrs(score: Score, source: _Triangles, target: _Triangles, *, n_bootstrap: int | None,
                     random_state: int, confidence: float = 0.95) -> None:
    """Percentile CI over stimuli: resample stimuli, drop pairs of a stimulus with its own copy."""
    if n_bootstrap is None:
        return
    n = len(source.stimulus_ids)
    rows, columns = np.triu_indices(n, k=1)

    def compute(indices):
        first, second = indices[rows], indices[columns]
        distinct = first != second
        first, second = first[distinct], second[distinct]
        pairs = pair_indices(np.minimum(first, second), np.maximum(first, second), n)
        return float(np.mean(_correlate_ranks(source.ranks(pairs), target.ranks(pairs))))

    low, high, _ = bootstrap_confidence_interval(compute, n, n_bootstrap=n_bootstrap, confidence=confidence,
                                                 random_state=random_state)
    score.attrs["ci_low"], score.attrs["ci_high"] = low, high
    score.attrs["ci_confidence"] = confidence


def metric_rdm(activations, *, neuroid_dim: str = "neuroid", comparison_coord: str = "stimulus_id",
               precision: str = "mixed", backend=None):
    """The RDM that :class:`RDMMetric` computes from ``activations`` (same kernel, same numbers), as an assembly.

    Handing it to the metric in place of the activations gives the same score to the last bit (the metric reads
    back exactly these upper-triangle entries), so a caller that also needs the RDM (a report) computes it once.

    Parameters
    ----------
    activations : assembly of dims presentation x neuroid
    neuroid_dim, comparison_coord, precision, backend
        As :class:`RDMMetric`.

    Returns
    -------
    DataAssembly of shape (n_stimuli, n_stimuli), dims ``('presentation', 'presentation_right')``, rows and
    columns in sorted ``comparison_coord`` order (coordinates ``<comparison_coord>`` and
    ``<comparison_coord>_right``); 1 - Pearson r, diagonal 0, NaN for pairs with a constant pattern.
    """
    from brainio.assemblies import DataAssembly

    triangles = _as_triangles(activations, neuroid_dim=neuroid_dim, comparison_coord=comparison_coord,
                              what="activations", precision=precision, backend=backend)
    n = len(triangles.stimulus_ids)
    matrix = np.zeros((n, n))
    rows, columns = np.triu_indices(n, k=1)  # row-major: the order of the triangle
    matrix[rows, columns] = triangles.values[0]
    matrix[columns, rows] = triangles.values[0]
    row_dim, column_dim = RDM_DIMS
    ids = np.asarray(triangles.stimulus_ids)
    return DataAssembly(matrix, dims=list(RDM_DIMS), coords={comparison_coord: (row_dim, ids),
                                                             f"{comparison_coord}_right": (column_dim, ids)})


class RDM:
    """Representational dissimilarity matrix of activations: 1 - Pearson r between stimulus patterns.

    Parameters
    ----------
    neuroid_dim : str, default='neuroid'
    comparison_coord : str, default='stimulus_id'
        Coordinate copied onto the column dim as ``<comparison_coord>_right``.

    Returns (from ``__call__``)
    ---------------------------
    DataAssembly of dims ``('presentation', 'presentation_right')``, in the input's stimulus order; the
    row dim carries every coordinate of the input's stimulus dim.
    """

    def __init__(self, *, neuroid_dim: str = "neuroid", comparison_coord: str = "stimulus_id"):
        self.neuroid_dim = neuroid_dim
        self.comparison_coord = comparison_coord

    def __call__(self, assembly):
        from brainio.assemblies import DataAssembly

        matrix = unwrap_activations(assembly, neuroid_dim=self.neuroid_dim, comparison_coord=self.comparison_coord)
        rdm = pattern_correlations(matrix.values)
        np.subtract(1.0, rdm, out=rdm)
        row_dim, column_dim = RDM_DIMS
        coords = {name: (row_dim, np.asarray(coord.values)) for name, coord in assembly.coords.items()
                  if tuple(coord.dims) == (matrix.stimulus_dim,) and name != matrix.stimulus_dim}
        coords[f"{self.comparison_coord}_right"] = (column_dim, np.asarray(assembly[self.comparison_coord].values))
        return DataAssembly(rdm, coords=coords, dims=list(RDM_DIMS), attrs=dict(assembly.attrs))


class RDMSimilarity:
    """Spearman correlation of the strict upper triangles of two RDMs (or stacks of RDMs).

    Parameters
    ----------
    comparison_coord : str, default='stimulus_id'

    Returns (from ``__call__(rdm1, rdm2)``)
    -------------------------------------
    float when both are single RDMs, else a DataArray over the leading dims of both.
    """

    def __init__(self, *, comparison_coord: str = "stimulus_id"):
        self.comparison_coord = comparison_coord

    def __call__(self, rdm_assembly1, rdm_assembly2):
        first = unwrap_rdms(rdm_assembly1, comparison_coord=self.comparison_coord, what="rdm_assembly1")
        second = unwrap_rdms(rdm_assembly2, comparison_coord=self.comparison_coord, what="rdm_assembly2")
        check_same_stimuli(first.stimulus_ids, second.stimulus_ids, coord=self.comparison_coord,
                           names=("rdm_assembly1", "rdm_assembly2"))
        first, second = _from_stack(first), _from_stack(second)
        values = _correlate_ranks(first.ranks(), second.ranks())
        if values.size == 1 and not first.leading_dims and not second.leading_dims:
            return float(values[0, 0])
        return xr.DataArray(_leading_raw(values, [first, second]))


class RDMMetric(Metric):
    """RSA: Spearman similarity between the source RDM(s) and every target RDM.

    Parameters
    ----------
    neuroid_dim : str, default='neuroid'
    comparison_coord : str, default='stimulus_id'
    bootstrap : int or None, default=None
        Number of bootstrap resamples of stimuli for a percentile confidence interval
        (``attrs['ci_low']``, ``attrs['ci_high']``); None computes none.
    random_state : int, default=0
        Seed of the bootstrap.
    precision : {'mixed', 'float64'}, default='mixed'
        Pattern correlations of a float32 source from float32 block products summed in float64 ('mixed',
        about twice as fast) or from float64 products; float64 sources always use float64. See the README
        for the measured differences.
    backend : {'numpy', 'torch', 'torch_cuda'} or None, default=None
        Where the pattern Gram matrix of activations (the n x n x p product) is formed; numpy when None.
        Ranking and correlating the triangles stay in numpy.

    Returns (from ``__call__(source, target)``)
    -----------------------------------------
    Score (0-d): mean similarity over all (source RDM, target RDM) pairs. ``attrs['raw']`` holds one
    value per pair with the leading dims of both (e.g. ``subject x session``); ``attrs['error']`` is
    the standard error over those pairs (population std / sqrt(n)), NaN for a single pair.
    """

    def __init__(self, *, neuroid_dim: str = "neuroid", comparison_coord: str = "stimulus_id",
                 bootstrap: int | None = None, random_state: int = 0, precision: str = "mixed", backend=None):
        self.neuroid_dim = neuroid_dim
        self.comparison_coord = comparison_coord
        self.bootstrap = bootstrap
        self.random_state = random_state
        self.precision = precision
        self.backend = backend

    def _triangles(self, source, target) -> tuple[_Triangles, _Triangles]:
        first = _as_triangles(source, neuroid_dim=self.neuroid_dim, comparison_coord=self.comparison_coord,
                              what="source", precision=self.precision, backend=self.backend)
        second = _as_triangles(target, neuroid_dim=self.neuroid_dim, comparison_coord=self.comparison_coord,
                               what="target", precision=self.precision, backend=self.backend)
        check_same_stimuli(first.stimulus_ids, second.stimulus_ids, coord=self.comparison_coord)
        return first, second

    def _ranked(self, assembly, what: str) -> tuple[_Triangles, list[np.ndarray]]:
        """Triangles and their ranks; without a bootstrap only the ranks are needed afterwards, so each
        triangle is released while it is ranked (bounds peak memory at MajajHong2015 scale)."""
        triangles = _as_triangles(assembly, neuroid_dim=self.neuroid_dim, comparison_coord=self.comparison_coord,
                                  what=what, precision=self.precision, backend=self.backend)
        if self.bootstrap is not None:
            return triangles, triangles.ranks()
        rows = list(triangles.values)
        triangles.values = np.empty((len(rows), 0))
        ranks = []
        while rows:
            ranks.append(_average_ranks([rows.pop(0)]))
        return triangles, ranks

    def __call__(self, source, target) -> Score:
        first, source_ranks = self._ranked(source, "source")
        second, target_ranks = self._ranked(target, "target")
        check_same_stimuli(first.stimulus_ids, second.stimulus_ids, coord=self.comparison_coord)
        values = _correlate_ranks(source_ranks, target_ranks)
        score = Score(float(np.mean(values)))
        score.attrs["raw"] = _leading_raw(values, [first, second])
        score.attrs["error"] = float(np.std(values) / np.sqrt(values.size)) if values.size > 1 else float("nan")
        _bootstrap_attrs(score, first, second, n_bootstrap=self.bootstrap, random_state=self.random_state)
        return score


class RDMCrossValidated(RDMMetric):
    """RSA on test-only cross-validation splits: per split, the similarity over the test stimuli.

    Defaults follow the reference: 10 shuffle splits, ``test_size=0.9`` (the train part is unused),
    stratified on ``object_name`` when the target has it, seed 1. Splits are drawn from the target's
    stimulus order as stored (rows of a target RDM). RDMs are computed once on all stimuli and
    sub-selected per split, which equals recomputing them per split (a correlation between two
    stimulus patterns does not depend on the other stimuli).

    Parameters
    ----------
    crossvalidation_kwargs : dict or None, default=None
        Overrides of :class:`brainscore_metrics.splits.StimulusSplitter` arguments.
    neuroid_dim, comparison_coord, bootstrap, random_state, precision, backend
        As :class:`RDMMetric`; the bootstrap interval is that of the whole-set similarity.

    Returns (from ``__call__``)
    ---------------------------
    Score (0-d): mean over splits; ``attrs['error']`` = population std over splits / sqrt(n_splits);
    ``attrs['raw']`` of dims ``split`` x leading dims.
    """

    def __init__(self, *, crossvalidation_kwargs: dict | None = None, neuroid_dim: str = "neuroid",
                 comparison_coord: str = "stimulus_id", bootstrap: int | None = None, random_state: int = 0,
                 precision: str = "mixed", backend=None):
        super().__init__(neuroid_dim=neuroid_dim, comparison_coord=comparison_coord, bootstrap=bootstrap,
                         random_state=random_state, precision=precision, backend=backend)
        self.crossvalidation_kwargs = crossvalidation_kwargs

    def __call__(self, source, target) -> Score:
        keep_values = self.bootstrap is not None
        first = _as_triangles(source, neuroid_dim=self.neuroid_dim, comparison_coord=self.comparison_coord,
                              what="source", precision=self.precision, backend=self.backend)
        first.prepare_subsets(keep_values=keep_values)  # before the second triangle exists: bounds memory
        second = _as_triangles(target, neuroid_dim=self.neuroid_dim, comparison_coord=self.comparison_coord,
                               what="target", precision=self.precision, backend=self.backend)
        second.prepare_subsets(keep_values=keep_values)
        check_same_stimuli(first.stimulus_ids, second.stimulus_ids, coord=self.comparison_coord)
        splitter = make_test_only_splitter(self.crossvalidation_kwargs, self.comparison_coord)
        split_values, splits = splitter.split_values(split_frame(target, self.comparison_coord, self.neuroid_dim,
                                                                 splitter.stratification_coord))
        n = len(first.stimulus_ids)
        per_split = []
        for _, test in splits:
            selected = triangle_mask(np.searchsorted(first.stimulus_ids, split_values[test]), n)
            per_split.append(_correlate_ranks(first.subset_ranks(selected), second.subset_ranks(selected)))
            del selected
        per_split = np.stack(per_split)
        center, error = aggregate_splits(per_split.reshape(len(per_split), -1).mean(axis=1))
        score = Score(center)
        score.attrs["error"] = error
        score.attrs["raw"] = _leading_raw(per_split, [first, second], extra_dims=("split",),
                                          extra_coords={"split": np.arange(len(per_split))})
        _bootstrap_attrs(score, first, second, n_bootstrap=self.bootstrap, random_state=self.random_state)
        return score
