"""Comparisons of RDMs as rsatoolbox defines them (``rsatoolbox.rdm.compare``): Spearman, Pearson, cosine, whitened
Pearson and cosine (``corr_cov``, ``cosine_cov``) and Kendall's tau-a, every RDM of one stack against every RDM of
the other.

Plain arrays in: RDM upper triangles (one vector, or a stack of shape (n_rdms, n_pairs)) or stacks of square RDMs
(n_rdms, n, n). As in rsatoolbox, a pair position that is NaN in any RDM is left out of every comparison (the two
stacks must agree on those positions), and a vector of zero norm (after centring, where the method centres) compares
as 0.

* ``'spearman'``: Pearson r of the average ranks (ties averaged), each vector ranked once;
* ``'pearson'`` (rsatoolbox: ``'corr'``), ``'cosine'``: one matrix product of the (centred) stacks;
* ``'corr_cov'``, ``'cosine_cov'`` (Diedrichsen et al. 2021): the cosine of the dissimilarities after whitening by
  their covariance under i.i.d. pattern noise, which rsatoolbox computes as the Frobenius cosine of the double-centred
  second-moment matrices ``G = -H D H / 2`` (D: the square RDM; ``corr_cov`` subtracts the vector's mean first);
  with pattern variances ``sigma_k`` (a diagonal pattern covariance), ``G_ij / sqrt(sigma_i sigma_j)``;
* ``'tau_a'`` (rsatoolbox: ``'tau-a'``): ``(concordant - discordant) / (n (n - 1) / 2)``, from scipy's O(n log n)
  Kendall tau-b and the tie counts of each vector (counted once per vector): ``tau_a = tau_b sqrt((n0 - t_x)(n0 -
  t_y)) / n0``.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._frozen import frozen
from brainscore_metrics.errors import InvalidParameterError

__all__ = ["RDM_COMPARISONS", "compare_rdm_vectors", "rdm_vectors"]

#: method -> the name it is computed under (rsatoolbox's spellings accepted)
RDM_COMPARISONS = frozen({"spearman": "spearman", "pearson": "pearson", "corr": "pearson", "cosine": "cosine",
                   "corr_cov": "corr_cov", "cosine_cov": "cosine_cov", "tau_a": "tau_a", "tau-a": "tau_a"})


def rdm_vectors(rdms, what: str = "rdms") -> np.ndarray:
    """A stack of upper-triangle vectors (n_rdms, n_pairs), float64, from a vector, a stack of vectors or a stack of
    square RDMs (n_rdms, n, n; their strict upper triangles, row-major)."""
    from brainscore_metrics._rdm_kernels import upper_triangles
    from brainscore_metrics._rdm_methods import _as_numpy

    values = np.asarray(_as_numpy(rdms), dtype=np.float64)
    if values.ndim == 1:
        return values[None]
    if values.ndim == 2:
        return values
    if values.ndim == 3 and values.shape[1] == values.shape[2]:
        return upper_triangles(values)
    raise InvalidParameterError(f"{what}: expected a vector, a stack of vectors (n_rdms, n_pairs) or square RDMs "
                                f"(n_rdms, n, n), got shape {values.shape}")


def _n_conditions(n_pairs: int) -> int:
    n = int(round((1 + np.sqrt(1 + 8 * n_pairs)) / 2))
    if n * (n - 1) // 2 != n_pairs:
        raise InvalidParameterError(f"{n_pairs} entries are not the upper triangle of a square RDM")
    return n


def _cosine(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Cosine of every row of ``first`` with every row of ``second``; 0 where a norm is 0 (rsatoolbox)."""
    norms1 = np.sqrt(np.einsum("ij,ij->i", first, first))
    norms2 = np.sqrt(np.einsum("ij,ij->i", second, second))
    products = first @ second.T
    with np.errstate(invalid="ignore", divide="ignore"):
        out = products / norms1[:, None] / norms2[None, :]
    out[~((norms1 > 0)[:, None] & (norms2 > 0)[None, :])] = 0.0
    return out


def _centred(vectors: np.ndarray) -> np.ndarray:
    return vectors - vectors.mean(axis=1, keepdims=True)


def _centred_ranks(vectors: np.ndarray) -> np.ndarray:
    from brainscore_metrics._rdm_kernels import _average_ranks

    mean = (vectors.shape[1] + 1) / 2  # the mean of every average-rank vector of this length
    return np.stack([_average_ranks(row).astype(np.float64) - mean for row in vectors])


def _second_moments(vectors: np.ndarray, sigma_k) -> np.ndarray:
    """Flattened whitened double-centred second-moment matrices ``-H D H / 2`` (n_rdms, n * n)."""
    n = _n_conditions(vectors.shape[1])
    rows, columns = np.triu_indices(n, k=1)
    if sigma_k is not None:
        sigma_k = np.asarray(sigma_k, dtype=np.float64)
        if sigma_k.shape != (n,):
            # rsatoolbox solves a full pattern covariance iteratively (conjugate gradients to 1e-5) on the n_pairs^2
            # covariance of the dissimilarities; only the closed form of a diagonal one is offered here
            raise InvalidParameterError(f"sigma_k must be the pattern variances, shape ({n},), got {sigma_k.shape}")
        scale = 1.0 / np.sqrt(sigma_k)
    out = np.empty((len(vectors), n * n))
    for index, vector in enumerate(vectors):
        moment = np.zeros((n, n))
        moment[rows, columns] = -0.5 * vector
        moment[columns, rows] = -0.5 * vector
        row_means = moment.mean(axis=1)
        moment -= row_means[:, None]
        moment -= row_means[None, :]
        moment += row_means.mean()
        if sigma_k is not None:
            moment *= scale[:, None] * scale[None, :]
        out[index] = moment.reshape(-1)
    return out


def _tie_pairs(vector: np.ndarray) -> int:
    """Number of pairs of equal entries."""
    _, counts = np.unique(vector, return_counts=True)
    return int((counts * (counts - 1) // 2).sum())


def _tau_a_matrix(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    from scipy.stats import kendalltau

    n = first.shape[1]
    total = n * (n - 1) // 2
    ties1 = [_tie_pairs(row) for row in first]
    ties2 = [_tie_pairs(row) for row in second]
    out = np.zeros((len(first), len(second)))
    for i, (row1, tie1) in enumerate(zip(first, ties1, strict=True)):
        for j, (row2, tie2) in enumerate(zip(second, ties2, strict=True)):
            if tie1 == total or tie2 == total:  # a constant vector: as many concordant as discordant pairs (0)
                continue
            tau_b = kendalltau(row1, row2, method="asymptotic").statistic
            out[i, j] = min(1.0, max(-1.0, tau_b * np.sqrt(float(total - tie1) * float(total - tie2)) / total))
    return out


def compare_rdm_vectors(rdms1, rdms2, method: str = "spearman", *, sigma_k=None) -> np.ndarray:
    """Similarity of every RDM of ``rdms1`` with every RDM of ``rdms2`` (module docstring).

    Parameters
    ----------
    rdms1, rdms2 : arrays of shape (n_pairs,), (n_rdms, n_pairs) or (n_rdms, n, n); numpy or torch
    method : {'spearman', 'pearson', 'cosine', 'corr_cov', 'cosine_cov', 'tau_a'}, default='spearman'
        rsatoolbox's names 'corr' and 'tau-a' are accepted too.
    sigma_k : array of shape (n,) or None, default=None
        Pattern variances of 'corr_cov' and 'cosine_cov' (None: i.i.d. patterns).

    Returns
    -------
    ndarray of shape (n_rdms1, n_rdms2), float64
    """
    try:
        kind = RDM_COMPARISONS[method]
    except (KeyError, TypeError):
        raise InvalidParameterError(f"unknown RDM comparison {method!r}; available: {sorted(RDM_COMPARISONS)}") \
            from None
    first, second = rdm_vectors(rdms1, "rdms1"), rdm_vectors(rdms2, "rdms2")
    if first.shape[1] != second.shape[1]:
        raise InvalidParameterError(f"rdms1 and rdms2 must have the same number of pairs, got {first.shape[1]} and "
                                    f"{second.shape[1]}")
    kept = ~np.isnan(first).any(axis=0)
    if not np.array_equal(kept, ~np.isnan(second).any(axis=0)):
        raise InvalidParameterError("rdms1 and rdms2 have NaN at different pair positions")
    if not kept.all():
        if kind in ("corr_cov", "cosine_cov"):
            raise InvalidParameterError(f"{method}: RDMs with NaN entries are not supported; fill or drop the "
                                        f"conditions ({int((~kept).sum())} NaN pairs)")
        first, second = first[:, kept], second[:, kept]
    if kind == "spearman":
        return _cosine(_centred_ranks(first), _centred_ranks(second))
    if kind == "pearson":
        return _cosine(_centred(first), _centred(second))
    if kind == "cosine":
        return _cosine(first, second)
    if kind == "tau_a":
        return _tau_a_matrix(first, second)
    if kind == "corr_cov":
        first, second = _centred(first), _centred(second)
    return _cosine(_second_moments(first, sigma_k), _second_moments(second, sigma_k))
