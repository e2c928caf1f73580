"""Optional dimensionality reduction of a layer's features to ``n_components``.

Layers with at most ``n_components`` features are left untouched (as the reference does for its PCA).
"""

from __future__ import annotations

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


def _file_of(array: Any) -> tuple[str, int] | None:
    """``(file, byte offset of element [0, 0])`` of a 2-d array that is a numpy memory map (or a view of one) whose
    rows are contiguous, else None."""
    base = array
    while base is not None and not isinstance(base, np.memmap):
        base = getattr(base, "base", None)
    # a slice of a memory map is a np.memmap too, with the file offset of the map it was cut from: go up to the map
    # that maps the file itself (its base is the mmap object), whose first byte is at that offset
    while isinstance(getattr(base, "base", None), np.memmap):
        base = base.base
    if base is None or getattr(base, "filename", None) is None or array.ndim != 2 or (
            array.shape[1] > 1 and array.strides[1] != array.itemsize):
        return None
    start = array.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return str(base.filename), int(base.offset) + int(start)


def _column_blocks(features: Any, step: int):
    """Blocks of ``step`` columns of ``features`` as float32/float64 arrays of shape (n, <= step). A memory-mapped
    layer (the activation cache's) is read row segment by row segment from its file (``os.pread``), so its pages are
    never mapped into this process: reading it all leaves the resident set where it was."""
    import os

    n, width = features.shape
    located = _file_of(features)
    if located is None:
        for start in range(0, width, step):
            yield np.asarray(features[:, start:start + step])
        return
    path, origin = located
    row_bytes, item = features.strides[0], features.itemsize
    descriptor = os.open(path, os.O_RDONLY)
    try:
        for start in range(0, width, step):
            stop = min(width, start + step)
            block = np.empty((n, stop - start), dtype=features.dtype)
            for row in range(n):
                wanted = (stop - start) * item
                data = os.pread(descriptor, wanted, origin + row * row_bytes + start * item)
                block[row] = np.frombuffer(data, dtype=features.dtype, count=stop - start)
            yield block
    finally:
        os.close(descriptor)


def pca_scores(features: Any, n_components: int, *, block_bytes: int = 64 * 2**20) -> np.ndarray:
    """The principal-component scores of ``features`` (array of shape (n_samples, n_features), any float dtype, a
    memory map welcome): exactly scikit-learn's ``PCA(n_components).fit_transform`` with its full solver, signs
    included, without holding more than a block of columns in float64 (a memory-mapped layer, the activation
    cache's, is read from its file block by block and never mapped whole: :func:`_column_blocks`).

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
        for block in _column_blocks(features, step):
            block = block.astype(np.float64)
            yield block - block.mean(axis=0)

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
