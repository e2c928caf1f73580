"""numpy's stimulus Gram matrix over feature blocks: ``Z Z'`` of the centred columns (or rows) of a source, float64.

Two ways, chosen by ``n`` (the number of stimuli) alone, so that the bits never depend on the number of workers:

* **a block per task** for float32 products while one block's n x n float32 product fits :data:`BLOCK_SCRATCH_BYTES`
  (n up to 2,048): each feature block is gathered, centred and multiplied by one single-threaded BLAS ``syrk`` into its own
  n x n scratch, the blocks on the plan's workers, and the products are added to the float64 result in block order.
  A worker takes the next block when it finishes one (no wait at the end of a block), centring runs on the workers
  too, and at most :func:`_window` blocks are in flight (each holds its buffers).
* **row panels** beyond, and for float64 products (whose n x n scratch would be the size of the result): every block
  is gathered and centred once (by tiles of :data:`CENTRING_ROWS` rows on the workers), then its product is added to
  the lower triangle in panels of :data:`~brainscore_metrics.backend._numpy_tiles.TILE_ROWS` rows on the workers
  (``chunk[rows] chunk[:stop]'`` plus the diagonal block's ``syrk``: the multiply-adds of one ``syrk``, no n x n
  scratch).

Column means are taken block by block (each block is read while it is in cache); a float32 block is centred as
``x - hi - lo`` (the float64 means as a float32 pair: ``x - hi`` is exact for x near the mean by Sterbenz's lemma,
``- lo`` rounds once).
"""

from __future__ import annotations

import queue

import numpy as np

from brainscore_metrics.backend._numpy_sources import RowStack
from brainscore_metrics.backend._numpy_tiles import add_lower_products, mirror_lower_triangle

__all__ = ["BLOCK_SCRATCH_BYTES", "CENTRING_ROWS", "FLIGHT_BYTES", "PANEL_ROWS", "stimulus_gram_blocks"]

#: largest n x n float32 scratch of one block's product for the block-per-task way (16 MiB: n up to 2,048)
BLOCK_SCRATCH_BYTES = 16 * 2 ** 20
#: rows per panel of float32 products in the row-panel way (float64 products: half as many)
PANEL_ROWS = 512
#: scratch of all blocks in flight together, at most (at least two blocks are in flight with two or more workers)
FLIGHT_BYTES = 64 * 2 ** 20
#: rows per tile when a block is gathered and centred on the workers (the row-panel way)
CENTRING_ROWS = 256


def _width(columns) -> int:
    return columns.stop - columns.start if isinstance(columns, slice) else len(columns)


class _Centring:
    """How one block of columns of ``X`` becomes its centred values (``chunk``) under ``center`` and the precision."""

    def __init__(self, X, blocks: list, center: str, float32: bool):
        self.X, self.center, self.float32 = X, center, float32
        self.dtype = np.float32 if float32 else np.float64
        # blocks of kept columns (int index arrays) are gathered into a buffer (of an ndarray, or of each row block of
        # a RowStack)
        parts = X.parts if isinstance(X, RowStack) else [X]
        self.gather = (isinstance(X, (np.ndarray, RowStack)) and bool(blocks) and not isinstance(blocks[0], slice)
                       and all(isinstance(part, np.ndarray) and part.dtype == X.dtype for part in parts))
        self.row_means = np.mean(X, axis=1, dtype=np.float64)[:, None] if center == "rows" else None
        if float32 and self.row_means is not None:  # the means as a float32 pair hi + lo: centring stays in float32
            self.high = self.row_means.astype(np.float32)
            self.low = (self.row_means - self.high).astype(np.float32)

    def buffers(self, widest: int) -> dict:
        n = self.X.shape[0]
        return {"chunk": np.empty(n * widest, dtype=self.dtype),
                "gathered": np.empty(n * widest, dtype=self.X.dtype) if self.gather else None}

    def values(self, columns, buffers: dict, plan=None):
        """The block's values, uncentred (a view, or gathered into the buffer; by tiles of rows on the ``plan``'s
        workers when given)."""
        if buffers["gathered"] is None:
            return self.X[:, columns]
        n = self.X.shape[0]
        gathered = buffers["gathered"][:n * len(columns)].reshape(n, len(columns))
        start = 0
        for part in self.X.parts if isinstance(self.X, RowStack) else [self.X]:
            rows_of_part = gathered[start:start + part.shape[0]]
            # mode='clip' (the positions are valid): numpy buffers ``out`` under the default 'raise', 3x slower
            _by_row_tiles(plan, part.shape[0], lambda rows, part=part, out=rows_of_part: np.take(
                part[rows], columns, axis=1, out=out[rows], mode="clip"))
            start += part.shape[0]
        return gathered

    def centred(self, columns, buffers: dict, plan=None) -> np.ndarray:
        """The block's centred values in ``buffers['chunk']`` (or the values themselves when nothing changes).

        With a ``plan``, the gathering and the subtraction run by tiles of rows on its workers: elementwise, so the
        same bits; the column means are taken as without (one pass, the same order of sums)."""
        values = self.values(columns, buffers, plan)
        if self.center == "none" and values.dtype == self.dtype:
            return values
        n = values.shape[0]
        chunk = buffers["chunk"][:n * values.shape[1]].reshape(n, values.shape[1])
        if self.center == "columns":
            means = np.mean(values, axis=0, dtype=np.float64)
            if self.float32:
                column_high = means.astype(np.float32)
                column_low = (means - column_high).astype(np.float32)

        def subtract(rows: slice) -> None:
            part, out = values[rows], chunk[rows]
            if self.center == "columns" and self.float32:
                np.subtract(part, column_high, out=out, dtype=np.float32)
                out -= column_low
            elif self.center == "columns":
                np.subtract(part, means, out=out, dtype=np.float64)
            elif self.center == "rows" and self.float32:
                np.subtract(part, self.high[rows], out=out, dtype=np.float32)
                out -= self.low[rows]
            elif self.center == "rows":
                np.subtract(part, self.row_means[rows], out=out, dtype=np.float64)
            else:
                np.copyto(out, part, casting="same_kind")

        _by_row_tiles(plan, n, subtract)
        return chunk


def _by_row_tiles(plan, n: int, function) -> None:
    """``function(rows)`` over tiles of :data:`CENTRING_ROWS` rows on the ``plan``'s workers (one call over all rows
    without a plan)."""
    if plan is None or plan.threads <= 1 or n <= CENTRING_ROWS:
        function(slice(0, n))
        return
    plan.map(function, [slice(start, min(start + CENTRING_ROWS, n)) for start in range(0, n, CENTRING_ROWS)])


def _window(plan, set_bytes: int) -> int:
    """Blocks in flight: one more than the workers (a finished block waits for its turn to be added), within
    :data:`FLIGHT_BYTES`, at least two with two or more workers."""
    if plan.threads <= 1:
        return 1
    return max(2, min(plan.threads + 1, FLIGHT_BYTES // max(set_bytes, 1)))


def _by_blocks(plan, centring: _Centring, blocks: list, n: int) -> np.ndarray:
    """The block-per-task way (module docstring)."""
    from brainscore_metrics.backend._nogil_blas import ssyrk_upper

    widest = max(_width(columns) for columns in blocks)
    window = _window(plan, n * widest * 4 * (2 if centring.gather else 1) + n * n * 4)
    free = queue.SimpleQueue()  # buffer sets not in use: a task takes one, the adding loop gives it back
    for _ in range(window):
        # zeros: syrk writes one triangle of the Fortran scratch (the lower one of its C-ordered transpose); the
        # other stays 0, is added to gram's upper triangle and overwritten by the mirror at the end
        free.put({**centring.buffers(widest), "scratch": np.zeros((n, n), dtype=np.float32, order="F")})

    def product(columns) -> dict:
        buffers = free.get()
        chunk = centring.centred(columns, buffers)
        buffers["scratch"] = ssyrk_upper(chunk, buffers["scratch"])  # without the GIL: the workers run together
        return buffers

    gram = np.empty((n, n))
    gram.fill(0.0)  # the output's pages written once before the first sum
    for buffers in plan.imap(product, blocks, window):  # in block order: the same sums for any number of workers
        np.add(gram, buffers["scratch"].T, out=gram)
        free.put(buffers)
    mirror_lower_triangle(gram)
    return gram


def stimulus_gram_blocks(plan, X, blocks: list, center: str, float32: bool) -> np.ndarray:
    """``Z Z'`` over the column ``blocks`` of ``X`` centred by ``center`` (:func:`brainscore_metrics._gram.
    stimulus_gram` decides the blocks and the precision), float64, symmetric.

    Parameters
    ----------
    plan : ComputePlan
    X : ndarray or RowStack of shape (n, p), float32 or float64
    blocks : list of slices or int index arrays
    center : {'columns', 'rows', 'none'}
    float32 : bool
        Multiply float32 blocks (``'mixed'`` precision of a float32 source), else float64 ones.
    """
    n = X.shape[0]
    centring = _Centring(X, blocks, center, float32)
    if blocks and float32 and 4 * n * n <= BLOCK_SCRATCH_BYTES:
        return _by_blocks(plan, centring, blocks, n)
    gram = np.empty((n, n))  # its lower triangle accumulates the products
    gram.fill(0.0)
    buffers = centring.buffers(max((_width(columns) for columns in blocks), default=0))
    rows = PANEL_ROWS if float32 else max(1, PANEL_ROWS // 2)  # the same bytes per panel of float64 products
    for columns in blocks:
        add_lower_products(plan, gram, centring.centred(columns, buffers, plan), rows)
    mirror_lower_triangle(gram)
    return gram
