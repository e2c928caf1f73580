"""Numeric kernels of representational similarity: pattern correlations, RDM upper triangles, ranks.

Plain ndarray in, ndarray out (no labels): :mod:`brainscore_metrics.rdm` and
:mod:`brainscore_metrics.rsa_ceiling` wrap them for assemblies. Gram matrices come from
:func:`brainscore_metrics._gram.stimulus_gram` (float64 sums over column blocks) under the caller's plan; the RDM
of activations is packed into its strict upper triangle inside the Gram matrix's own buffer
(:func:`correlation_distance_triangle`); ranks are average ranks (as ``scipy.stats.rankdata``) computed with bounded
scratch memory.
"""

from __future__ import annotations

import numpy as np

__all__ = ["correlation_distance_triangle", "pair_indices", "pattern_correlations",
           "spearman_matrix", "triangle_mask", "upper_triangles"]


def pattern_correlations(values: np.ndarray, *, plan=None) -> np.ndarray:
    """Pearson correlation between every pair of rows (stimulus patterns), from float64 products.

    Parameters
    ----------
    values : ndarray of shape (n_stimuli, n_neuroids)
    plan : ComputePlan or None, default=None
        The caller's plan (its backend and workers); None: a plan of this call's own
        (:func:`brainscore_metrics._gram.gram_plan`).

    Returns
    -------
    ndarray of shape (n_stimuli, n_stimuli)
        Rows of constant values correlate as NaN (as ``numpy.corrcoef``); the diagonal is exactly 1
        otherwise.
    """
    from brainscore_metrics._gram import gram_plan, stimulus_gram_as_numpy

    if plan is None:
        with gram_plan(None, values, precision="float64") as own:
            return pattern_correlations(values, plan=own)
    gram = stimulus_gram_as_numpy(plan.with_precision("float64"), values, center="rows")
    norms = np.sqrt(np.diag(gram)).copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        gram /= norms[:, None]
        gram /= norms[None, :]
    np.fill_diagonal(gram, np.where(norms > 0, 1.0, np.nan))
    return gram


def upper_triangles(matrices: np.ndarray) -> np.ndarray:
    """Strict upper triangles, row-major (the order of ``scipy.spatial.distance.squareform``).

    Parameters
    ----------
    matrices : ndarray of shape (n_rdms, n_stimuli, n_stimuli)

    Returns
    -------
    ndarray of shape (n_rdms, n_stimuli * (n_stimuli - 1) / 2)
    """
    n_rdms, n = matrices.shape[0], matrices.shape[-1]
    if n <= 1024:
        rows, columns = np.triu_indices(n, k=1)
        return matrices[:, rows, columns]
    out = np.empty((n_rdms, n * (n - 1) // 2))
    position = 0
    for row in range(n - 1):  # row slices avoid two int64 index arrays of n^2/2 entries
        width = n - 1 - row
        out[:, position:position + width] = matrices[:, row, row + 1:]
        position += width
    return out


_CHUNK = 1 << 18


def _average_ranks(vector) -> np.ndarray:
    """Ranks 1..n with ties averaged (as ``scipy.stats.rankdata``), all NaN if ``vector`` has a NaN.

    Quicksort (ties are averaged, so stability is not needed) and chunked tie detection keep the
    scratch memory to one index array plus memory proportional to the number of ties; ranks are
    float32 where that is exact (n < 2**23, halves included). ``vector`` may be passed inside a
    one-element list, which is emptied as soon as the values are no longer needed (so that the
    caller's last reference is dropped before the ranks are allocated).
    """
    box = vector if isinstance(vector, list) else [vector]
    values = box[0]
    n = len(values)
    dtype = np.float32 if n < 2 ** 23 else np.float64
    if np.isnan(values).any():
        box.clear()
        return np.full(n, np.nan, dtype=dtype)
    order = np.argsort(values)
    tie_positions = []  # sorted positions k whose value equals that at k - 1
    for start in range(0, n, _CHUNK):
        ordered = values[order[start:start + _CHUNK + 1]]
        tie_positions.append(start + 1 + np.flatnonzero(ordered[1:] == ordered[:-1]))
    box.clear()
    del values, ordered
    ranks = np.empty(n, dtype=dtype)
    for start in range(0, n, _CHUNK):
        positions = np.arange(start, min(start + _CHUNK, n))
        ranks[order[positions]] = positions + 1
    ties = np.concatenate(tie_positions)
    if len(ties):  # average the ranks of each run of equal values
        breaks = np.flatnonzero(np.diff(ties) != 1)
        first = ties[np.r_[0, breaks + 1]] - 1  # a run starts one before its first tied position
        last = ties[np.r_[breaks, len(ties) - 1]]
        lengths = last - first + 1
        offsets = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        positions = np.repeat(first, lengths) + offsets
        ranks[order[positions]] = np.repeat((first + last) / 2 + 1, lengths)
    return ranks


def _has_ties_along(values: np.ndarray, order: np.ndarray) -> bool:
    """Whether ``values`` taken in ``order`` (its ascending sort) has two equal neighbours; chunked, so
    no sorted copy of ``values`` is made."""
    for start in range(0, len(order), _CHUNK):
        ordered = values[order[start:start + _CHUNK + 1]]
        if (ordered[1:] == ordered[:-1]).any():
            return True
    return False


def _rank_correlation(ranks1: np.ndarray, ranks2: np.ndarray) -> float:
    """Pearson correlation of two rank vectors, accumulated in float64 over chunks."""
    n = len(ranks1)
    mean = (n + 1) / 2  # mean of any average-rank vector of length n
    cross = sum1 = sum2 = 0.0
    for start in range(0, n, _CHUNK):
        a = ranks1[start:start + _CHUNK].astype(np.float64) - mean
        b = ranks2[start:start + _CHUNK].astype(np.float64) - mean
        cross += float(a @ b)
        sum1 += float(a @ a)
        sum2 += float(b @ b)
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(np.float64(cross) / np.sqrt(np.float64(sum1) * sum2))


def spearman_matrix(vectors1: np.ndarray, vectors2: np.ndarray) -> np.ndarray:
    """Spearman correlation of every row of ``vectors1`` with every row of ``vectors2``.

    Each row is rank-transformed once (ties get average ranks, as ``scipy.stats.spearmanr``); a row
    containing NaN gives NaN correlations.

    Parameters
    ----------
    vectors1 : ndarray of shape (n1, n_entries)
    vectors2 : ndarray of shape (n2, n_entries)

    Returns
    -------
    ndarray of shape (n1, n2)
    """
    ranks1 = [_average_ranks(row) for row in np.atleast_2d(vectors1)]
    ranks2 = [_average_ranks(row) for row in np.atleast_2d(vectors2)]
    return _correlate_ranks(ranks1, ranks2)


def _correlate_ranks(ranks1: list, ranks2: list) -> np.ndarray:
    return np.array([[_rank_correlation(a, b) for b in ranks2] for a in ranks1]).reshape(len(ranks1), len(ranks2))


def _row_starts(n: int) -> np.ndarray:
    """Offset of entry (i, i + 1) in the row-major strict upper triangle of an n x n matrix."""
    rows = np.arange(n, dtype=np.int64)
    return rows * (2 * n - rows - 1) // 2


def triangle_mask(positions: np.ndarray, n: int) -> np.ndarray:
    """Boolean mask over the row-major strict upper triangle of an n x n matrix: True at the pairs of
    ``positions`` (distinct row indices, any order). Built row by row, without pair index arrays."""
    chosen = np.zeros(n, dtype=bool)
    chosen[np.asarray(positions)] = True
    starts = _row_starts(n)
    mask = np.zeros(n * (n - 1) // 2, dtype=bool)
    for row in np.flatnonzero(chosen[:-1]):
        mask[starts[row]:starts[row] + n - 1 - row] = chosen[row + 1:]
    return mask


def pair_indices(rows: np.ndarray, columns: np.ndarray, n: int) -> np.ndarray:
    """Positions of entries ``(rows[k], columns[k])`` (rows < columns) in a strict upper triangle."""
    return _row_starts(n)[rows] + columns - rows - 1


def correlation_distance_triangle(values: np.ndarray, order: np.ndarray | None = None, *, precision: str = "mixed",
                                  backend=None, plan=None) -> np.ndarray:
    """Strict upper triangle of the RDM (1 - Pearson r between rows), rows taken in ``order``.

    The Gram matrix of the row-centred patterns is formed once (:func:`brainscore_metrics._gram.
    stimulus_gram`: feature blocks, float64 sums, no centred or float64 copy of ``values``); its rows and columns
    are put in ``order`` in place, and the triangle, scaled by the row norms, is packed into the front of the Gram
    matrix's own buffer, which then shrinks to it. Extra memory: the n x n Gram matrix and one row (a Gram matrix
    this function does not own, e.g. one shared with a torch tensor, is read into a separate triangle instead).

    Parameters
    ----------
    values : ndarray of shape (n_stimuli, n_neuroids)
    order : ndarray of shape (n_stimuli,) or None, default=None
        Row order of the result (e.g. the permutation that sorts stimulus ids); None keeps the order.
    precision : {'mixed', 'float64'}, default='mixed'
        Block products of a float32 source in float32 ('mixed') or float64; see :mod:`brainscore_metrics._gram`.
    backend : {'numpy', 'torch', 'torch_cuda'} or None, default=None
        Where the Gram matrix is formed (:func:`brainscore_metrics._gram.stimulus_gram_as_numpy`).
    plan : ComputePlan or None, default=None
        The caller's plan, whose backend and precision then rule (``precision`` and ``backend`` are not read); None:
        a plan of this call's own (:func:`brainscore_metrics._gram.gram_plan`).

    Returns
    -------
    ndarray of shape (n_stimuli * (n_stimuli - 1) / 2,)
        Row-major (``scipy.spatial.distance.squareform`` order); NaN for pairs with a constant row.
    """
    from brainscore_metrics._gram import gram_plan, stimulus_gram_as_numpy

    if plan is None:
        with gram_plan(backend, values, precision=precision) as own:
            return correlation_distance_triangle(values, order, plan=own)
    n = values.shape[0]
    order = np.arange(n) if order is None else np.asarray(order)
    gram = stimulus_gram_as_numpy(plan, values, center="rows")
    if not (gram.flags.owndata and gram.flags.c_contiguous and gram.dtype == np.float64):
        return _triangle_copy(gram, order)
    from brainscore_metrics.backend.numpy import permute_symmetric_in_place

    permute_symmetric_in_place(gram, order)
    norms = np.sqrt(np.diagonal(gram).copy())
    starts = _row_starts(n)
    flat = gram.reshape(-1)  # a view: the same buffer
    with np.errstate(invalid="ignore", divide="ignore"):
        for row in range(n - 1):  # row r's triangle part lands at or before its own place: rows > r stay intact
            segment = flat[starts[row]:starts[row] + n - 1 - row]
            np.divide(gram[row, row + 1:], norms[row] * norms[row + 1:], out=segment)  # overlap: numpy buffers
    del flat
    size = n * (n - 1) // 2
    gram.resize((size,), refcheck=False)  # realloc: the buffer shrinks to the triangle
    np.subtract(1.0, gram, out=gram)
    return gram


def _triangle_copy(gram: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The triangle of :func:`correlation_distance_triangle` read from ``gram`` into a new array."""
    n = gram.shape[0]
    norms = np.sqrt(np.diagonal(gram))[order]
    starts = _row_starts(n)
    triangle = np.empty(n * (n - 1) // 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        for row in range(n - 1):
            segment = triangle[starts[row]:starts[row] + n - 1 - row]
            np.take(gram[order[row]], order[row + 1:], out=segment)
            segment /= norms[row] * norms[row + 1:]
    np.subtract(1.0, triangle, out=triangle)
    return triangle
