"""Optional dimensionality reduction of a layer's features to ``n_components``.

Layers with at most ``n_components`` features are left untouched (as the reference does for its PCA).
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np


class RandomProjection:
    """Gaussian random projection, applied per batch (memory stays at n_stimuli x n_components).

    Parameters
    ----------
    n_components : int, default=1000
    random_state : int, default=0
        Seed of the projection matrix; the same layer width gives the same matrix in every run.

    Notes
    -----
    The matrix of shape (n_features, n_components) has entries N(0, 1 / n_components) and is held in memory
    (4 bytes per entry).
    """

    streaming = True

    def __init__(self, n_components: int = 1000, *, random_state: int = 0):
        self.n_components = n_components
        self.random_state = random_state

    def cache_fields(self) -> dict[str, Any]:
        return {"kind": "RandomProjection", "n_components": int(self.n_components),
                "random_state": int(self.random_state)}

    def matrix(self, n_features: int):
        """Projection matrix of shape (n_features, n_components), float32 torch tensor."""
        import torch

        cached = getattr(self, "_matrices_", {})
        if n_features not in cached:
            generator = torch.Generator().manual_seed(int(self.random_state))
            cached[n_features] = torch.randn(n_features, int(self.n_components), generator=generator,
                                             dtype=torch.float32) / float(np.sqrt(self.n_components))
            self._matrices_ = cached
        return cached[n_features]

    def output_size(self, n_features: int) -> int:
        return n_features if n_features <= self.n_components else int(self.n_components)

    def transform_batch(self, features):
        """Float tensor (batch, n_features) -> (batch, n_components), or unchanged if narrow enough."""
        if features.shape[1] <= self.n_components:
            return features
        return features.to(self.matrix(features.shape[1]).dtype) @ self.matrix(features.shape[1])


def _mapping_of(array: Any) -> Any:
    """The ``mmap.mmap`` behind a numpy memory map (or a view of one), else None."""
    import mmap

    while array is not None:
        if isinstance(array, mmap.mmap):
            return array
        found = getattr(array, "_mmap", None)
        if isinstance(found, mmap.mmap):
            return found
        array = getattr(array, "base", None)
    return None


def _drop_pages(array: Any) -> None:
    """Let go of the pages of a memory-mapped array read so far (they stay in the page cache, not in this process's
    resident set): a layer read column block by column block never becomes resident as a whole."""
    import mmap

    mapping = _mapping_of(array)
    if mapping is not None and hasattr(mmap, "MADV_DONTNEED"):
        with contextlib.suppress(OSError, ValueError):  # a closed map: nothing left to drop
            mapping.madvise(mmap.MADV_DONTNEED)


def pca_scores(features: Any, n_components: int, *, block_bytes: int = 64 * 2**20) -> np.ndarray:
    """The principal-component scores of ``features`` (array of shape (n_samples, n_features), any float dtype, a
    memory map welcome): exactly scikit-learn's ``PCA(n_components).fit_transform`` with its full solver, signs
    included, without holding more than a block of columns in float64.

    The scores of the fitted samples are ``U S`` of the centred data ``X = U S V^T``: the eigenvectors ``U`` and
    eigenvalues ``S^2`` of the n x n Gram matrix ``X X^T``, summed over blocks of columns (each centred by its own
    column means, which a block holds entirely). scikit-learn flips each component so that the largest entry (in
    absolute value) of its row of ``V^T = S^-1 U^T X`` is positive; a second pass over the blocks finds that entry.
    Memory: n^2 + n x block float64 (``block_bytes``), against n x n_features twice for an SVD of the whole layer.

    Returns float32 scores of shape (n_samples, min(n_components, n_samples, n_features)).
    """
    n, width = features.shape
    k = max(1, min(int(n_components), n, width))
    step = max(1, int(block_bytes) // (8 * max(n, 1)))

    def blocks():
        for start in range(0, width, step):
            block = np.asarray(features[:, start:start + step], dtype=np.float64)
            yield block - block.mean(axis=0)
            _drop_pages(features)

    gram = np.zeros((n, n))
    for block in blocks():
        gram += block @ block.T
    values, vectors = np.linalg.eigh(gram)  # ascending
    values, vectors = np.clip(values[::-1][:k], 0, None), vectors[:, ::-1][:, :k]
    largest, signs = np.full(k, -1.0), np.ones(k)
    for block in blocks():  # signs: the entry of largest magnitude of each row of U^T X (V^T up to S) is positive
        rows = vectors.T @ block
        where = np.argmax(np.abs(rows), axis=1)
        entries = rows[np.arange(k), where]
        better = np.abs(entries) > largest  # strictly: the first of equal maxima wins, as numpy's argmax
        largest[better], signs[better] = np.abs(entries[better]), np.where(entries[better] < 0, -1.0, 1.0)
    return (vectors * (np.sqrt(values) * signs)).astype(np.float32)


class PCAReduction:
    """PCA fitted on the extracted stimuli themselves: exact (scikit-learn's full solver, signs included), computed
    from the layer block by block of columns (:func:`pca_scores`), so a layer on disk (the activation cache) is never
    resident as a whole.

    Parameters
    ----------
    n_components : int, default=1000
        Capped at min(n_stimuli, n_features).
    random_state : int, default=0
        Kept in the cache key (the solver is exact and draws nothing).
    """

    streaming = False

    def __init__(self, n_components: int = 1000, *, random_state: int = 0):
        self.n_components = n_components
        self.random_state = random_state

    def cache_fields(self) -> dict[str, Any]:
        return {"kind": "PCAReduction", "n_components": int(self.n_components),
                "random_state": int(self.random_state)}

    def transform_full(self, features: np.ndarray) -> np.ndarray:
        """Array (presentation, n_features) -> (presentation, min(n_components, n_presentations)): scikit-learn's
        full-solver PCA scores, block by block (:func:`pca_scores`); a layer this narrow already is unchanged."""
        if features.shape[1] <= self.n_components:
            return features
        return pca_scores(features, int(self.n_components))
