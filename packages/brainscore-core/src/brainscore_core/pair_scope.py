"""Memory that lives as long as one scored pair (one model on one benchmark), and no longer.

Steps of one pair repeat work whose answer cannot change in between unless something visibly changes: model-tools
hashes a model's weights for the pair's stored digest and again for each activations-cache key of the pair (2-3
times per pair, 0.13 s each for AlexNet's 244 MB). The scoring paths (:func:`brainscore_core.scoring.score_pair`, the
grid's tasks) run each pair inside :func:`pair_scope`; a step may remember an answer in :func:`pair_memo` together
with what it depends on, and the memory is dropped when the pair ends, so nothing remembered outlives a pair
(a model changed between two pairs is always hashed again). Outside a pair, :func:`pair_memo` is None: nothing is
remembered.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

__all__ = ["pair_memo", "pair_scope"]

_MEMO: ContextVar[dict[Any, Any] | None] = ContextVar("brainscore_pair_memo", default=None)


@contextlib.contextmanager
def pair_scope() -> Iterator[dict[Any, Any]]:
    """A fresh memo for the steps of one pair (yielded; also :func:`pair_memo`), dropped at the end."""
    memo: dict[Any, Any] = {}
    token = _MEMO.set(memo)
    try:
        yield memo
    finally:
        _MEMO.reset(token)
        memo.clear()


def pair_memo() -> dict[Any, Any] | None:
    """The memo of the pair being scored in this context, or None outside one."""
    return _MEMO.get()
