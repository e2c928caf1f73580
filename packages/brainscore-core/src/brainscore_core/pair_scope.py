"""Memory that lives as long as one scored pair (one model on one benchmark), and no longer.

Steps of one pair repeat work whose answer cannot change in between unless something visibly changes: model-tools
hashes a model's weights for the pair's stored digest and again for each activations-cache key of the pair (2-3
times per pair, 0.13 s each for AlexNet's 244 MB). The scoring paths (:func:`brainscore_core.scoring.score_pair`, the
grid's tasks) run each pair inside :func:`pair_scope`; a step may remember an answer in :func:`pair_memo` together
with what it depends on, and the memory is dropped when the pair ends, so nothing remembered outlives a pair
(a model changed between two pairs is always hashed again). Outside a pair, :func:`pair_memo` is None: nothing is
remembered.

One exception, owned by the grid: when the grid scores one model on several benchmarks in a row it keeps the model
it loaded (by identifier, so no user code holds it) for the next pair, and marks that pair's memo with
:data:`KEPT_MODEL`. Only then may a step reuse what it remembered about the model from the previous pair (model-tools'
weights digest does, after checking every tensor's stamp and a sample of its values). A model object a user passes
to ``score()`` is never marked: each of its pairs hashes it again. A resource a step holds for the model's runs
(:func:`call_at_model_release`: model-tools' malloc tuning) stays with a kept model in the same way, and is released
with it.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from typing import Any

__all__ = ["KEPT_MODEL", "call_at_model_release", "call_at_pair_end", "give_model_releases", "pair_memo", "pair_scope",
           "run_released", "take_model_releases"]

KEPT_MODEL = "model kept by the grid since its previous pair"
"""Key of a pair memo: True when the pair's model is one the grid loaded and kept from the previous pair."""

_MEMO: ContextVar[dict[Any, Any] | None] = ContextVar("brainscore_pair_memo", default=None)
_AT_END = "callbacks run when the pair ends"  # a memo key: the list of call_at_pair_end's callbacks
_AT_RELEASE = "callbacks run when the pair's model is released"  # a memo key: {key: callback}, call_at_model_release


@contextlib.contextmanager
def pair_scope() -> Iterator[dict[Any, Any]]:
    """A fresh memo for the steps of one pair (yielded; also :func:`pair_memo`), dropped at the end."""
    memo: dict[Any, Any] = {}
    token = _MEMO.set(memo)
    failed = False
    try:
        yield memo
    except BaseException:
        failed = True
        raise
    finally:
        _MEMO.reset(token)
        callbacks = memo.pop(_AT_END, [])
        released = memo.pop(_AT_RELEASE, {})  # not taken by the grid for a kept model: released with the pair
        memo.clear()
        _run_all([*reversed(callbacks), *reversed(released.values())], raise_first=not failed)


def _run_all(callbacks, *, raise_first: bool, after: str = "the pair failed") -> None:
    """Call each callback; every one runs even when an earlier one raises. The first error is raised after them, or
    only warned about (``raise_first=False``: while the pair's own error is on its way out, that one is the error to
    see; ``after`` says when it happened)."""
    first_error = None
    for callback in callbacks:
        try:
            callback()
        except Exception as error:  # the others still run; the first error is raised below
            first_error = first_error or error
    if first_error is None:
        return
    if raise_first:
        raise first_error
    warnings.warn(f"a step's end-of-pair callback failed after {after}: {first_error!r}", RuntimeWarning,
                  stacklevel=3)


def call_at_pair_end(callback: Callable[[], None]) -> bool:
    """Call ``callback`` when the pair being scored in this context ends (after its steps, also after an error; the
    last registered first). Returns False, calling nothing, outside a pair.

    For a step that holds a resource across the pair's steps instead of taking and releasing it at each (model-tools
    keeps its malloc tuning for CPU forward passes until the pair ends)."""
    memo = _MEMO.get()
    if memo is None:
        return False
    memo.setdefault(_AT_END, []).append(callback)
    return True


def call_at_model_release(key: Hashable, callback: Callable[[], None]) -> bool:
    """Call ``callback`` when the model of the pair being scored is released: when the pair ends, or, when the grid
    keeps the model for its next pair (:data:`KEPT_MODEL`), when the grid lets the model go (another model takes its
    place, a pair is tried again, or the grid ends). Returns False, keeping nothing, outside a pair or when ``key`` is
    already registered for this model, by this pair or by an earlier pair of the same kept model.

    For a step that holds a resource while a model runs, across the pairs of a grid that scores it on several
    benchmarks in a row (model-tools keeps its malloc tuning so that each pair's forward passes reuse the memory of
    the ones before, instead of returning it and faulting it in again). Callbacks run after the pair's
    :func:`call_at_pair_end` ones, the last registered first."""
    memo = _MEMO.get()
    if memo is None:
        return False
    registered = memo.setdefault(_AT_RELEASE, {})
    if key in registered:
        return False
    registered[key] = callback
    return True


def take_model_releases() -> dict[Hashable, Callable[[], None]]:
    """The current pair's :func:`call_at_model_release` callbacks, removed from it (the grid keeps them with the model
    it keeps for its next pair); empty outside a pair."""
    memo = _MEMO.get()
    return {} if memo is None else memo.pop(_AT_RELEASE, {})


def give_model_releases(callbacks: dict[Hashable, Callable[[], None]]) -> None:
    """Hand a kept model's callbacks (:func:`take_model_releases`) to the pair now running it: they run when that
    pair's model is released. Outside a pair they run at once."""
    memo = _MEMO.get()
    if memo is None:
        run_released(callbacks)
        return
    memo.setdefault(_AT_RELEASE, {}).update(callbacks)


def run_released(callbacks: dict[Hashable, Callable[[], None]]) -> None:
    """Run a released model's callbacks (the last registered first); a failing one is warned about, the others
    still run."""
    _run_all(reversed(list(callbacks.values())), raise_first=False, after="its model was released")


def pair_memo() -> dict[Any, Any] | None:
    """The memo of the pair being scored in this context, or None outside one."""
    return _MEMO.get()
