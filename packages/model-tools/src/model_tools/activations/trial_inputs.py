"""The model inputs of one look's microsaccade trials, decoded once.

Brain-Score's microsaccades show every stimulus once per trial, each trial shifting the same input by its own offset
(:mod:`model_tools.activations.microsaccades`). Each trial is its own extraction (its own cache entry), and each
used to decode and convert every image again: Malania2007's ten benchmarks decode 14,000 inputs for 5,000 images.
:class:`TrialInputs` keeps the input batches the first computed trial made (decoded, resized, normalised: the
tensors before the shift) for the trials after it, as long as they fit in a memory budget; a look whose inputs do
not fit decodes them per trial, as before.

The kept tensors are copies made before the model sees a batch, so a model that changes its input in place cannot
change what the next trial gets; the trials after the first only shift them (a shift makes a new tensor).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["TRIAL_INPUTS_BUDGET_BYTES", "TrialInputs"]

#: the most bytes of input tensors one look keeps (1 GiB: 1,780 inputs of 3 x 224 x 224 float32)
TRIAL_INPUTS_BUDGET_BYTES = 1 << 30


class TrialInputs:
    """Input batches shared by the trials of one look (one stimulus set, one preprocessing, one batch size).

    Parameters
    ----------
    budget_bytes : int, default=TRIAL_INPUTS_BUDGET_BYTES
        Once the batches of a pass add up to more, none are kept and every trial decodes its own.
    """

    def __init__(self, budget_bytes: int = TRIAL_INPUTS_BUDGET_BYTES):
        self.budget_bytes = budget_bytes
        self._kept: list[tuple[int, int, Any]] = []
        self._bytes = 0
        self._complete = False
        self._given_up = False

    @property
    def complete(self) -> bool:
        """Whether a whole pass's batches are kept (the next trial decodes nothing)."""
        return self._complete

    def batches(self, make: Callable[[], Iterator[tuple[int, int, Any]]]) -> Iterator[tuple[int, int, Any]]:
        """``(start, stop, input tensor)`` for one pass: the kept batches when a whole pass is kept, else the batches
        ``make()`` yields, keeping copies of them (before the consumer uses each) while they fit."""
        if self._complete:
            yield from self._kept
            return
        self._kept.clear()  # what an interrupted pass kept
        self._bytes = 0
        keeping = not self._given_up
        for start, stop, batch in make():
            if keeping:
                keeping = self._keep(start, stop, batch)
            yield start, stop, batch
        self._complete = keeping and bool(self._kept)
        if not self._complete:
            self._forget()

    def _keep(self, start: int, stop: int, batch: Any) -> bool:
        import torch

        if not isinstance(batch, torch.Tensor) or batch.device.type != "cpu":
            self._forget()
            return False
        size = batch.element_size() * batch.nelement()
        if self._bytes + size > self.budget_bytes:
            self._forget()
            return False
        self._kept.append((start, stop, batch.clone()))  # the batch's buffer is reused for a later batch
        self._bytes += size
        return True

    def _forget(self) -> None:
        self._kept.clear()
        self._bytes = 0
        self._given_up = True
