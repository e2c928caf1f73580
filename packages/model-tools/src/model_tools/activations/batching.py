"""Model input batches: images decoded by worker threads into reused batch buffers, in one of two schedules.

* overlapped (when cores are left over after torch's intra-op threads): worker threads decode the next batches
  while the model runs;
* phased (when torch's threads already occupy every core): each batch is decoded between two forward passes,
  its images split over all worker threads. Decoding alongside a forward pass that uses every core would stall
  it: torch's threads wait for each other at the end of every parallel operation, so a core taken for decoding
  holds all of them up, and each second of decoding costs about a second of wall time. Between passes, the
  cores decode side by side instead.

A batch of 64 images at 224 px is a 9.6 MB ``uint8`` array and a 38.5 MB float32 tensor. Allocating both
afresh for every batch costs more than the arithmetic that fills them (every new page is zeroed by the
kernel on first touch), so :func:`input_batches` cycles a few preallocated buffer pairs: a buffer goes back
into use only after the model has returned from the batch it held.
"""

from __future__ import annotations

import inspect
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from model_tools.activations.inputs import Stimuli
from model_tools.errors import StimulusError

#: Batches decoded ahead of the one the model is running on (overlapped schedule).
PREFETCH_BATCHES = 2


def usable_cores() -> int:
    """CPUs this process may run on (its affinity mask where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cores_left_by_torch() -> int:
    """Usable cores beyond torch's intra-op thread count (0: torch keeps every core busy)."""
    import torch

    return max(0, usable_cores() - torch.get_num_threads())


class BatchBuffers:
    """A reusable pair: decoded ``uint8`` images (batch, H, W, C) and the model input tensor (batch, C, H, W).

    Both are allocated on first use, from the shape of the first decoded image; a partial (last) batch uses
    leading rows of them. Only images that :meth:`ImagePreprocessing.decode` returns (one shape) fit.
    """

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.images: np.ndarray | None = None
        self.inputs: Any = None

    def decoded(self, first: np.ndarray, rows: int) -> np.ndarray:
        """The leading ``rows`` of the image buffer, allocated to fit images shaped like ``first``."""
        if self.images is None or self.images.shape[1:] != first.shape or self.images.dtype != first.dtype:
            self.images = np.empty((self.capacity, *first.shape), dtype=first.dtype)
            self.inputs = None
        return self.images[:rows]

    def tensor(self, rows: int):
        """The leading ``rows`` of the float32 input tensor, shape (rows, C, H, W)."""
        import torch

        if self.inputs is None:
            count, height, width, channels = self.images.shape
            self.inputs = torch.empty((count, channels, height, width), dtype=torch.float32)
        return self.inputs[:rows]


def _accepts_out(to_tensor: Any) -> bool:
    try:
        return "out" in inspect.signature(to_tensor).parameters
    except (TypeError, ValueError):
        return False


def _decode_rows(preprocessor: Any, items: list, rows: range, images: np.ndarray, first: np.ndarray,
                 offset: int) -> None:
    """Decode ``items[row]`` into ``images[row]`` for ``row`` in ``rows``; every image must be shaped like ``first``."""
    for row in rows:
        item = items[row]
        image = preprocessor.decode(item)
        if image.shape != first.shape:
            name = repr(item) if isinstance(item, str) else f"number {offset + row}"
            raise StimulusError(f"stimulus {name} decodes to shape {image.shape}, the first image of its batch "
                                f"to {first.shape}: the preprocessing must give every image one shape")
        images[row] = image


def _prepare(stimuli: Stimuli, preprocessor: Any, start: int, stop: int, buffers: BatchBuffers | None,
             split: ThreadPoolExecutor | None = None, parts: int = 1):
    """The input tensor of stimuli ``start:stop``: decoded image by image into ``buffers`` if given.

    With ``split``, the images after the first are decoded in ``parts`` interleaved groups on that pool.
    """
    import torch

    chunk = stimuli.items[start:stop]
    if not (hasattr(preprocessor, "decode") and hasattr(preprocessor, "to_tensor")):
        batch = preprocessor(chunk)
        if isinstance(batch, torch.Tensor):
            return batch
        if isinstance(batch, np.ndarray | list | tuple):
            array = np.asarray(batch)
            if array.dtype.kind in "biuf":  # numbers: the model's input tensor
                return torch.as_tensor(array)
        return batch  # anything else (a dict of tensors, paths for a function model) goes to the model as it is
    if buffers is None:
        return preprocessor.to_tensor(np.stack([preprocessor.decode(item) for item in chunk]))
    first = preprocessor.decode(chunk[0])
    images = buffers.decoded(first, len(chunk))
    images[0] = first
    if split is None or parts <= 1 or len(chunk) <= 2:
        _decode_rows(preprocessor, chunk, range(1, len(chunk)), images, first, start)
    else:
        groups = [range(1 + part, len(chunk), parts) for part in range(parts)]
        jobs = [split.submit(_decode_rows, preprocessor, chunk, rows, images, first, start) for rows in groups]
        for job in jobs:  # all finish before the buffer is used; the first error is raised
            job.result()
    return preprocessor.to_tensor(images, out=buffers.tensor(len(chunk)))


def input_batches(stimuli: Stimuli, preprocessor: Any, batch_size: int, pool: ThreadPoolExecutor | None = None,
                  workers: int = 0, *, phased: bool = False) -> Iterator[tuple[int, int, Any]]:
    """Yield ``(start, stop, input tensor)`` for consecutive batches of ``stimuli``.

    Parameters
    ----------
    stimuli : Stimuli
        A tensor is sliced as is; paths and images go through ``preprocessor``.
    preprocessor : ImagePreprocessing or callable
        With ``decode`` and ``to_tensor(batch, out=...)`` (as :class:`ImagePreprocessing`) images are decoded
        one by one into reused buffers; any other callable gets each batch's items and returns its input.
    batch_size : int
    pool : ThreadPoolExecutor, default=None
        Worker threads. None decodes each batch in the calling thread when it is asked for.
    workers : int, default=0
        Threads of ``pool``.
    phased : bool, default=False
        False: ``pool`` decodes ``max(PREFETCH_BATCHES, workers)`` batches ahead of the consumer (overlapped).
        True: nothing is decoded ahead; each batch is decoded when asked for, its images split over the
        ``workers`` threads of ``pool`` (see the module docstring).

    The tensor of a batch may be reused once the consumer asks for the next batch: use it (run the model)
    before advancing the iterator, and do not keep it.
    """
    count, size = len(stimuli), max(1, int(batch_size))
    starts = list(range(0, count, size))
    if stimuli.is_tensor:
        for start in starts:
            yield start, min(start + size, count), stimuli.items[start:start + size]
        return
    reuse = hasattr(preprocessor, "decode") and _accepts_out(getattr(preprocessor, "to_tensor", None))
    if phased or pool is None:
        buffers = BatchBuffers(min(size, count)) if reuse else None
        for start in starts:
            stop = min(start + size, count)
            yield start, stop, _prepare(stimuli, preprocessor, start, stop, buffers, pool if phased else None, workers)
        return
    ahead = max(PREFETCH_BATCHES, workers)
    free = deque(BatchBuffers(min(size, count)) for _ in range(ahead + 1)) if reuse else None
    pending: deque = deque()  # (buffers, future) in order

    def submit(start: int) -> None:
        buffers = free.popleft() if free is not None else None
        stop = min(start + size, count)
        pending.append((buffers, pool.submit(_prepare, stimuli, preprocessor, start, stop, buffers)))

    for start in starts[:ahead]:
        submit(start)
    for index, start in enumerate(starts):
        if index + ahead < len(starts):
            submit(starts[index + ahead])
        buffers, job = pending.popleft()
        yield start, min(start + size, count), job.result()
        if free is not None:  # the consumer is done with this batch: its buffers can be filled again
            free.append(buffers)
