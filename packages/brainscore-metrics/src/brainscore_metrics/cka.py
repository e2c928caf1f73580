"""Linear centered kernel alignment (CKA; Kornblith et al. 2019), reference section 5.5.

* ``cka`` (default): **unbiased** linear CKA. HSIC is the U-statistic of Song et al. (2012) on Gram
  matrices with zeroed diagonals::

      HSIC_u(K, L) = [tr(K~ L~) + 1'K~1 * 1'L~1 / ((n-1)(n-2)) - 2/(n-2) * 1'K~ L~1] / (n(n-3))

  CKA_u = HSIC_u(K, L) / (sqrt(HSIC_u(K, K) HSIC_u(L, L)) + 1e-12), and 0 when
  HSIC_u(K, K) HSIC_u(L, L) <= 0. Needs at least 4 stimuli.
* ``cka_biased``: classic linear CKA with double-centred Gram matrices,
  <HKH, HLH>_F / (||HKH||_F ||HLH||_F).

Rows are aligned on ``stimulus_id``. For two feature matrices the statistic is computed without
forming n x n matrices where the feature space is smaller (``||X'X||_F``, ``||X'Y||_F``): with centred
columns every term of HSIC_u reduces to these Frobenius norms and the squared row norms. Where a
stimulus count is smaller than a feature count the Gram matrix is formed with BLAS ``syrk``.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Metric, Score
from brainscore_metrics._alignment_representational import (
    ActivationMatrix,
    RDMFormatError,
    check_same_stimuli,
    is_activation_assembly,
    make_test_only_splitter,
    split_frame,
    unwrap_activations,
)
from brainscore_metrics._gram import check_precision, stimulus_gram_as_numpy
from brainscore_metrics._rdm_kernels import centered_gram
from brainscore_metrics.bootstrap import bootstrap_confidence_interval
from brainscore_metrics.errors import TooFewStimuliError
from brainscore_metrics.splits import aggregate_splits

__all__ = ["CKACrossValidated", "CKAMetric", "linear_cka", "linear_cka_from_grams", "unbiased_hsic_from_grams"]

#: added to the denominator of unbiased CKA (reference behaviour)
EPSILON = 1e-12


# --------------------------------------------------------------------------------------------- kernels
_BLOCK_BYTES = 64 * 2 ** 20


def _gram(values: np.ndarray, precision: str, backend=None) -> np.ndarray:
    return stimulus_gram_as_numpy(values, center="columns", precision=precision, backend=backend)


def _column_stats(values: np.ndarray, precision: str = "mixed", backend=None) -> tuple[float, np.ndarray]:
    """``||Kc||_F^2`` and ``diag(Kc)`` of the linear Gram matrix of column-centred ``values``.

    ``||Kc||_F = ||Xc' Xc||_F``: formed through whichever of the two products is smaller, in blocks,
    without a centred copy of ``values``.
    """
    n, p = values.shape
    if n <= p:
        gram = _gram(values, precision, backend)
        return float(np.vdot(gram, gram)), np.diagonal(gram).copy()
    upper = centered_gram(values.T, center="rows", symmetric=False).T  # rows of X' = columns of X
    covariance_frobenius = 2 * float(np.vdot(upper, upper)) - float(np.diagonal(upper) @ np.diagonal(upper))
    del upper
    means = values.mean(axis=0, dtype=np.float64)
    diagonal = np.empty(n)
    block = max(1, _BLOCK_BYTES // (8 * max(p, 1)))
    for start in range(0, n, block):
        rows = np.asarray(values[start:start + block], dtype=np.float64) - means
        diagonal[start:start + block] = np.einsum("ij,ij->i", rows, rows)
    return covariance_frobenius, diagonal


def _cross_frobenius(values1: np.ndarray, values2: np.ndarray) -> float:
    """``<K1c, K2c>_F = ||X1c' X2c||_F^2``; ``X1' X2c = X1c' X2c`` because ``X2c`` has zero column sums,
    so only the smaller matrix is centred (as a float64 copy) and the larger is read in column blocks."""
    if values1.size < values2.size:
        values1, values2 = values2, values1
    small = np.asarray(values2, dtype=np.float64) - values2.mean(axis=0, dtype=np.float64)
    block = max(1, _BLOCK_BYTES // 4 // (8 * max(values1.shape[0], 1)))
    total = 0.0
    for start in range(0, values1.shape[1], block):
        product = np.asarray(values1[:, start:start + block], dtype=np.float64).T @ small
        total += float(np.vdot(product, product))
    return total


def linear_cka(source: np.ndarray, target: np.ndarray, *, unbiased: bool = True, precision: str = "mixed",
               backend=None) -> float:
    """Linear CKA between two row-aligned feature matrices.

    When the larger matrix has at least as many features as stimuli, its stimulus Gram matrix ``G`` is
    formed once (:func:`brainscore_metrics._gram.stimulus_gram`) and every statistic comes from it:
    ``<K1c, K2c>_F = sum((G Yc) * Yc)`` with ``Yc`` the (smaller, float64) centred other matrix.

    Parameters
    ----------
    source : ndarray of shape (n_stimuli, n_features_source)
    target : ndarray of shape (n_stimuli, n_features_target)
    unbiased : bool, default=True
        U-statistic HSIC (Song et al. 2012) instead of the plug-in (biased) estimator.
    precision : {'mixed', 'float64'}, default='mixed'
        Block products of a float32 source in float32, summed in float64 ('mixed'), or in float64.
    backend : {'numpy', 'torch', 'torch_cuda'} or None, default=None
        Where the stimulus Gram matrix of a wide source is formed (the n x n x p product); numpy when None.

    Returns
    -------
    float
    """
    check_precision(precision)
    n = source.shape[0]
    big, small = (source, target) if source.size >= target.size else (target, source)
    if n <= big.shape[1] and small.shape[1] < n:
        gram = _gram(big, precision, backend)
        xx, dx = float(np.vdot(gram, gram)), np.diagonal(gram).copy()
        centred = np.asarray(small, dtype=np.float64) - small.mean(axis=0, dtype=np.float64)
        xy = float(np.vdot(gram @ centred, centred))
        del gram
        yy, dy = _column_stats(small, precision, backend)
    else:
        xy = _cross_frobenius(source, target)
        xx, dx = _column_stats(source, precision, backend)
        yy, dy = _column_stats(target, precision, backend)
    if not unbiased:
        denominator = np.sqrt(xx * yy)
        return float(xy / denominator) if denominator > 0 else float("nan")

    def hsic(frobenius: float, d1: np.ndarray, d2: np.ndarray) -> float:
        # centred columns: K1 = 0, so 1'K~1 = -sum(d) and K~1 = -d (see module docstring)
        trace = frobenius - d1 @ d2
        return (trace + d1.sum() * d2.sum() / ((n - 1) * (n - 2)) - 2.0 / (n - 2) * (d1 @ d2)) / (n * (n - 3))

    return _unbiased_ratio(hsic(xy, dx, dy), hsic(xx, dx, dx), hsic(yy, dy, dy))


def _unbiased_ratio(hxy: float, hxx: float, hyy: float) -> float:
    product = hxx * hyy
    if not product > 0:
        return 0.0
    return float(hxy / (np.sqrt(product) + EPSILON))


def unbiased_hsic_from_grams(gram1: np.ndarray, gram2: np.ndarray) -> float:
    """U-statistic HSIC of two Gram matrices (their diagonals are ignored, i.e. treated as 0).

    Parameters
    ----------
    gram1, gram2 : ndarray of shape (n_stimuli, n_stimuli), symmetric

    Returns
    -------
    float
    """
    n = gram1.shape[0]
    d1, d2 = np.diagonal(gram1), np.diagonal(gram2)
    trace = float(np.vdot(gram1, gram2)) - float(d1 @ d2)
    rows1, rows2 = gram1.sum(axis=1) - d1, gram2.sum(axis=1) - d2
    total = rows1.sum() * rows2.sum() / ((n - 1) * (n - 2))
    return (trace + total - 2.0 / (n - 2) * float(rows1 @ rows2)) / (n * (n - 3))


def _u_center(gram: np.ndarray) -> np.ndarray:
    """U-centring (Szekely & Rizzo 2014): ``(1 / (n(n-3))) sum_ij U(K)_ij U(L)_ij = HSIC_u(K, L)``."""
    n = gram.shape[0]
    zeroed = gram.copy()
    np.fill_diagonal(zeroed, 0.0)
    rows = zeroed.sum(axis=1)
    centered = zeroed - rows[:, None] / (n - 2) - rows[None, :] / (n - 2) + rows.sum() / ((n - 1) * (n - 2))
    np.fill_diagonal(centered, 0.0)
    return centered


def _double_center(gram: np.ndarray) -> np.ndarray:
    rows = gram.mean(axis=1)
    return gram - rows[:, None] - rows[None, :] + rows.mean()


def linear_cka_from_grams(gram1: np.ndarray, gram2: np.ndarray, *, unbiased: bool = True) -> float:
    """Linear CKA from two linear-kernel Gram matrices over the same stimuli.

    Parameters
    ----------
    gram1, gram2 : ndarray of shape (n_stimuli, n_stimuli)
    unbiased : bool, default=True

    Returns
    -------
    float
    """
    if unbiased:
        return _unbiased_ratio(unbiased_hsic_from_grams(gram1, gram2), unbiased_hsic_from_grams(gram1, gram1),
                               unbiased_hsic_from_grams(gram2, gram2))
    centered1, centered2 = _double_center(gram1), _double_center(gram2)
    denominator = np.sqrt(float(np.vdot(centered1, centered1)) * float(np.vdot(centered2, centered2)))
    return float(np.vdot(centered1, centered2) / denominator) if denominator > 0 else float("nan")


# ------------------------------------------------------------------------------------ labelled layer
class CKAMetric(Metric):
    """Linear CKA between two ``presentation x neuroid`` assemblies, rows aligned on stimulus id.

    Parameters
    ----------
    unbiased : bool, default=True
        Unbiased (U-statistic) HSIC, the current default (``cka``); False gives classic CKA
        (``cka_biased``).
    neuroid_dim : str, default='neuroid'
    comparison_coord : str, default='stimulus_id'
    bootstrap : int or None, default=None
        Number of bootstrap resamples of stimuli for ``attrs['ci_low']``/``attrs['ci_high']``.
    random_state : int, default=0
        Seed of the bootstrap.
    precision : {'mixed', 'float64'}, default='mixed'
        Gram matrices of a float32 source from float32 block products summed in float64 ('mixed', about
        twice as fast; the reference forms them in float32 throughout) or from float64 products.
    backend : {'numpy', 'torch', 'torch_cuda'} or None, default=None
        Where stimulus Gram matrices (the n x n x p products) are formed; numpy when None. The rest of
        the work is on n x n matrices, in numpy.

    Returns (from ``__call__(source, target)``)
    -----------------------------------------
    Score (0-d) with ``attrs['raw']`` (the same value) and ``attrs['error']`` (NaN: one comparison).

    Raises
    ------
    TooFewStimuliError
        Fewer than 4 stimuli (unbiased) or 2 stimuli (biased).
    StimulusAlignmentError, NonFiniteValuesError, RDMFormatError
        From input validation (missing/duplicate ids, NaN activations, not stimulus x neuroid).
    """

    def __init__(self, *, unbiased: bool = True, neuroid_dim: str = "neuroid", comparison_coord: str = "stimulus_id",
                 bootstrap: int | None = None, random_state: int = 0, precision: str = "mixed", backend=None):
        self.unbiased = unbiased
        self.neuroid_dim = neuroid_dim
        self.comparison_coord = comparison_coord
        self.bootstrap = bootstrap
        self.random_state = random_state
        self.precision = precision
        self.backend = backend

    def _aligned(self, source, target) -> tuple[np.ndarray, np.ndarray, ActivationMatrix]:
        """Source and target matrices with matching rows: the larger keeps its stored row order and the
        smaller is permuted to it; the returned ActivationMatrix describes that stored order."""
        matrices = []
        for assembly, what in ((source, "source"), (target, "target")):
            if not is_activation_assembly(assembly, self.neuroid_dim):
                raise RDMFormatError(f"{what}: CKA needs activations with a {self.neuroid_dim!r} dim, "
                                     f"got dims {tuple(assembly.dims)}")
            matrices.append(unwrap_activations(assembly, neuroid_dim=self.neuroid_dim,
                                               comparison_coord=self.comparison_coord, what=what))
        first, second = matrices
        check_same_stimuli(first.stimulus_ids, second.stimulus_ids, coord=self.comparison_coord)
        minimum = 4 if self.unbiased else 2
        if len(first.stimulus_ids) < minimum:
            raise TooFewStimuliError(f"{'unbiased' if self.unbiased else 'biased'} CKA needs at least {minimum} "
                                     f"stimuli ({self.comparison_coord!r}), got {len(first.stimulus_ids)}")
        if first.values.size < second.values.size:  # copy (permute) the smaller matrix only
            first, second = second, first
            swapped = True
        else:
            swapped = False
        rank_in_first = np.empty_like(first.order)
        rank_in_first[first.order] = np.arange(len(first.order))
        aligned = second.values[second.order[rank_in_first]]
        return (aligned, first.values, first) if swapped else (first.values, aligned, first)

    def _bootstrap(self, score: Score, source: np.ndarray, target: np.ndarray) -> None:
        """Percentile CI over stimuli with the centring of the full sample kept fixed.

        A resample with multiplicities ``w`` gives ``w'(C1*C2)w / sqrt(w'(C1*C1)w w'(C2*C2)w)`` with
        ``C`` the U-centred (unbiased) or double-centred (biased) Gram matrices, leaving out pairs made
        of two copies of one stimulus; with every stimulus drawn once this is exactly the statistic
        itself. Re-centring a resample instead would pair duplicated rows with themselves and bias
        CKA upwards.
        """
        if self.bootstrap is None:
            return
        centre = _u_center if self.unbiased else _double_center
        gram1 = centre(_gram(source, self.precision, self.backend))
        gram2 = centre(_gram(target, self.precision, self.backend))
        cross, self1, self2 = gram1 * gram2, gram1 * gram1, gram2 * gram2
        del gram1, gram2
        n = source.shape[0]

        def compute(indices):
            weights = np.bincount(indices, minlength=n).astype(float)
            repeats = weights * weights - weights  # pairs of two copies of one stimulus are left out
            xy, xx, yy = (float(weights @ matrix @ weights - repeats @ np.diagonal(matrix))
                          for matrix in (cross, self1, self2))
            if self.unbiased:
                return _unbiased_ratio(xy, xx, yy)
            return xy / np.sqrt(xx * yy) if xx * yy > 0 else float("nan")

        low, high, _ = bootstrap_confidence_interval(compute, n, n_bootstrap=self.bootstrap,
                                                     random_state=self.random_state)
        score.attrs["ci_low"], score.attrs["ci_high"], score.attrs["ci_confidence"] = low, high, 0.95

    def __call__(self, source, target) -> Score:
        source_values, target_values, _ = self._aligned(source, target)
        value = linear_cka(source_values, target_values, unbiased=self.unbiased, precision=self.precision,
                           backend=self.backend)
        score = Score(value)
        score.attrs["raw"] = Score(value)
        score.attrs["error"] = float("nan")
        self._bootstrap(score, source_values, target_values)
        return score


class CKACrossValidated(CKAMetric):
    """CKA on test-only cross-validation splits (10 splits, test_size 0.9, stratified, seed 1).

    Gram matrices are formed once over all stimuli and sub-selected per split (the biased estimator
    re-centres each sub-matrix, which equals centring the features on the split's stimuli).

    Parameters
    ----------
    unbiased : bool, default=True
    crossvalidation_kwargs : dict or None, default=None
        Overrides of :class:`brainscore_metrics.splits.StimulusSplitter` arguments.
    neuroid_dim, comparison_coord, bootstrap, random_state, precision, backend
        As :class:`CKAMetric`; the bootstrap interval is that of the whole-set CKA.

    Returns (from ``__call__``)
    ---------------------------
    Score (0-d): mean over splits, ``attrs['error']`` = population std / sqrt(n_splits),
    ``attrs['raw']`` of dim ``split``.
    """

    def __init__(self, *, unbiased: bool = True, crossvalidation_kwargs: dict | None = None,
                 neuroid_dim: str = "neuroid", comparison_coord: str = "stimulus_id", bootstrap: int | None = None,
                 random_state: int = 0, precision: str = "mixed", backend=None):
        super().__init__(unbiased=unbiased, neuroid_dim=neuroid_dim, comparison_coord=comparison_coord,
                         bootstrap=bootstrap, random_state=random_state, precision=precision, backend=backend)
        self.crossvalidation_kwargs = crossvalidation_kwargs

    def __call__(self, source, target) -> Score:
        source_values, target_values, first = self._aligned(source, target)
        splitter = make_test_only_splitter(self.crossvalidation_kwargs, self.comparison_coord)
        split_values, pairs = splitter.split_values(split_frame(target, self.comparison_coord, self.neuroid_dim,
                                                                splitter.stratification_coord))
        gram1 = _gram(source_values, self.precision, self.backend)
        gram2 = _gram(target_values, self.precision, self.backend)
        per_split = []
        for _, test in pairs:
            rows = np.sort(first.order[np.searchsorted(first.stimulus_ids, split_values[test])])
            cells = np.ix_(rows, rows)
            per_split.append(linear_cka_from_grams(gram1[cells], gram2[cells], unbiased=self.unbiased))
        center, error = aggregate_splits(per_split)
        score = Score(center)
        score.attrs["error"] = error
        score.attrs["raw"] = Score(np.asarray(per_split), coords={"split": np.arange(len(per_split))}, dims=["split"])
        self._bootstrap(score, source_values, target_values)
        return score
