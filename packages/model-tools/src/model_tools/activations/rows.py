"""Where one extraction pass puts its rows: a :class:`RowTarget` fed by the layer hooks, and the
:class:`BackgroundRowWriter` that copies batches of finished rows into a cache entry's file.

The extractor's batch loop only says when a batch starts and ends (:meth:`RowTarget.start_batch`,
:meth:`RowTarget.end_batch`); everything that depends on the layers' widths (allocation, column ranges, the cache
entry, double buffering) lives here.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from model_tools.activations.cache import ActivationsCache, EntryWriter, RowContent
from model_tools.digest import CACHE_FORMAT_VERSION

__all__ = ["BackgroundRowWriter", "RowTarget"]


def _row_parts(rows: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` contiguous (start, stop) ranges covering ``range(rows)``, none empty."""
    bounds = np.linspace(0, rows, min(parts, rows) + 1).round().astype(int).tolist()
    return list(zip(bounds[:-1], bounds[1:]))


class BackgroundRowWriter:
    """Writes batches of whole rows into a new cache entry from background threads, with two row buffers.

    The hooks fill :attr:`buffer`; :meth:`hand_over` submits its rows as ``parts`` positioned writes and moves
    on to the other buffer, first waiting for the oldest write when both buffers are in flight.

    Parameters
    ----------
    entry : EntryWriter
        The entry being filled (``write_rows`` is thread-safe: positioned writes of disjoint rows).
    rows : int
        Rows per buffer (the batch size, at most the number of presentations).
    parts : int
        Positioned writes per batch, run by as many threads.
    """

    def __init__(self, entry: EntryWriter, rows: int, parts: int):
        self.entry = entry
        self.parts = parts
        self._threads = ThreadPoolExecutor(parts)
        self._spares: deque[np.ndarray] = deque(np.empty((rows, entry.shape[1]), dtype=np.float32) for _ in range(2))
        self._pending: deque[tuple[np.ndarray, list[Future]]] = deque()
        self.buffer = self._spares.popleft()

    def hand_over(self, start: int, stop: int) -> None:
        """Write the buffer's first ``stop - start`` rows to rows ``start:stop`` of the entry; fill the other."""
        filled = self.buffer
        self._pending.append((filled, [self._threads.submit(self.entry.write_rows, start + first, filled[first:last])
                                       for first, last in _row_parts(stop - start, self.parts)]))
        if not self._spares:
            self._finish_oldest()
        self.buffer = self._spares.popleft()

    def wait(self) -> None:
        """Return once every handed-over row is written (raising a write's error)."""
        while self._pending:
            self._finish_oldest()

    def close(self) -> None:
        """Stop the threads, after the writes they have started."""
        self._threads.shutdown(wait=True)

    def _finish_oldest(self) -> None:
        buffer, jobs = self._pending.popleft()
        for job in jobs:
            job.result()
        self._spares.append(buffer)


class RowTarget:
    """The destination of one pass's features: ``sink(layer, output)`` is the hooks' callback.

    Until every layer's width is known the features are held: the first batch as copies when the reduction
    streams (or there is none), every full layer otherwise. Then one float32 array of shape
    (presentation, neuroid) is allocated, layers side by side in request order; with a cache it is a new cache
    entry instead, filled through a :class:`BackgroundRowWriter` (streaming) or through the entry's memory map.

    Parameters
    ----------
    layers : sequence of str
        The recorded layers, in column order.
    count : int
        Number of presentations (rows).
    identifier : str
        The model's identifier (errors, the entry's attributes).
    reduction : object or None, default=None
        ``transform_batch`` per batch when ``reduction.streaming``, else ``transform_full`` on whole layers.
    batch_size : int, default=64
        Rows per buffer of the background writer.
    write_parts : int, default=1
        Positioned writes (and threads) per batch.
    cache : ActivationsCache or None, default=None
        Write a new entry of this cache (keyed by ``base``, indexed by ``keys``) instead of returning an array.
    base : str or None, default=None
    keys : dict of str -> str or None, default=None
    content : RowContent or None, default=None
        What the rows show (per-layer content keys and per-row stimulus digests), recorded with the entry so that
        requests sharing stimuli with it can read its rows.
    """

    def __init__(self, layers: Sequence[str], count: int, *, identifier: str, reduction: Any = None,
                 batch_size: int = 64, write_parts: int = 1, cache: ActivationsCache | None = None,
                 base: str | None = None, keys: dict[str, str] | None = None, content: RowContent | None = None):
        self.layers = list(layers)
        self.content = content
        self.count = count
        self.identifier = identifier
        self.reduction = reduction
        self.streaming = reduction is None or reduction.streaming
        self.batch_size = batch_size
        self.write_parts = write_parts
        self.cache = cache
        self.base = base
        self.keys = keys
        self._rows = slice(0, 0)  # the presentations of the batch in the forward pass
        self._held: dict[str, np.ndarray] = {}
        self._values: np.ndarray | None = None  # the array rows go to, once allocated
        self._columns: dict[str, tuple[int, int]] | None = None
        self._entry: EntryWriter | None = None
        self._background: BackgroundRowWriter | None = None

    # -- the batch loop's calls ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def writing(self) -> Iterator[RowTarget]:
        """The block in which batches run; the background writer's threads stop when it ends."""
        try:
            yield self
        finally:
            if self._background is not None:
                self._background.close()

    def start_batch(self, start: int, stop: int, *, wait_for_writes: bool = False) -> None:
        """The next forward pass records presentations ``start:stop``; ``wait_for_writes``: the previous batch's
        rows are written first (they were written while this batch was decoded)."""
        if wait_for_writes and self._background is not None:
            self._background.wait()
        self._rows = slice(start, stop)

    def sink(self, layer: str, output: Any) -> None:
        """Take one layer's output of the current batch (a tensor whose first axis is the batch)."""
        import torch

        features = output.detach().reshape(output.shape[0], -1)
        if self.reduction is not None and self.streaming:
            features = self.reduction.transform_batch(features)
        features = features.to("cpu", torch.float32).numpy()
        if self._columns is not None:
            self._place(layer, self._rows, features)
        elif self.streaming:
            self._held[layer] = features.copy()  # a copy: later modules may change the output in place
        else:
            if layer not in self._held:
                self._held[layer] = np.empty((self.count, features.shape[1]), dtype=np.float32)
            self._held[layer][self._rows] = features

    def end_batch(self) -> None:
        """After the forward pass: allocate on the first batch (streaming), hand the rows to the writer."""
        if self.streaming and self._columns is None:
            self._check_recorded()
            self._allocate({layer: self._held[layer].shape[1] for layer in self.layers})
            for layer in self.layers:
                self._place(layer, self._rows, self._held.pop(layer))
        if self._background is not None:
            self._background.hand_over(self._rows.start, self._rows.stop)

    def wait_for_writes(self) -> None:
        """Every row is in the entry's file (call before the :meth:`writing` block ends)."""
        if self._background is not None:
            self._background.wait()

    def finish(self) -> tuple[np.ndarray | None, dict[str, int]]:
        """After the pass: reduce whole layers (non-streaming), commit the cache entry.

        Returns the array of shape (presentation, neuroid), or None when a cache entry was committed (read it
        back), and {layer: n_features}.
        """
        if not self.streaming:
            self._check_recorded()
            reduced = {layer: self.reduction.transform_full(self._held.pop(layer)) for layer in self.layers}
            self._allocate({layer: array.shape[1] for layer, array in reduced.items()})
            for layer, array in reduced.items():
                self._place(layer, slice(0, self.count), array)
        values, self._values = self._values, None
        widths = {layer: stop - start for layer, (start, stop) in self._columns.items()}
        if self._entry is None:
            return values, widths
        del values  # the entry's map is the only one left; commit drops it
        self._background = None
        content = None if self.content is None else RowContent({layer: self.content.keys[layer] for layer in self.layers},
                                                              self.content.digests)
        self.cache.commit(self._entry, self.keys, {"model": self.identifier, "activations_key": self.base},
                          content=content)
        self._entry = None
        return None, widths

    def discard(self) -> None:
        """Remove an entry that was not committed (after an error); nothing happens after :meth:`finish`."""
        if self.cache is not None:
            self.cache.discard(self._entry)
        self._entry = None

    # -- internals -------------------------------------------------------------------------------------------
    def _check_recorded(self) -> None:
        missing = [layer for layer in self.layers if layer not in self._held]
        if missing:
            raise RuntimeError(f"layers {missing} of model {self.identifier!r} produced no output "
                               "(are they called in forward?)")

    def _allocate(self, widths: dict[str, int]) -> None:
        if self.cache is None:
            bounds = np.cumsum([0, *widths.values()]).tolist()
            self._values = np.empty((self.count, bounds[-1]), dtype=np.float32)
            self._columns = {layer: (bounds[i], bounds[i + 1]) for i, layer in enumerate(widths)}
            return
        attrs = {"model_identifier": self.identifier, "activations_key": self.base,
                 "cache_format": CACHE_FORMAT_VERSION}
        self._entry = self.cache.new_entry(self.base, self.count, widths, attrs)
        self._columns = self._entry.columns
        if self.streaming:  # batches of whole rows in memory, written to the entry in the background
            rows = min(self.count, max(1, int(self.batch_size)))
            self._background = BackgroundRowWriter(self._entry, rows, self.write_parts)
        else:
            self._values = self._entry.values

    def _place(self, layer: str, rows: slice, features: np.ndarray) -> None:
        start, stop = self._columns[layer]
        if self._background is not None:
            self._background.buffer[:rows.stop - rows.start, start:stop] = features
        else:
            self._values[rows, start:stop] = features
