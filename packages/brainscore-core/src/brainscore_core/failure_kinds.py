"""Why a pair failed, in one word stored with its row (``failure_kind``): ``oom``, ``timeout``, ``deterministic`` or
``transient``.

* ``oom``: the pair needed more memory than it had. It raised :class:`MemoryError` (our preflight's
  :class:`~brainscore_core.errors.MemoryBudgetError` is one), or its worker was killed for its memory: by Dask's nanny
  at the worker's memory limit, by the kernel's OOM killer, or by Slurm's memory limit (job state ``OUT_OF_MEMORY``).
* ``timeout``: it raised :class:`TimeoutError`, or its Slurm job reached its time limit (``TIMEOUT``, ``DEADLINE``)
  while it ran.
* ``deterministic``: it raised the same error (type and first line) on two attempts.
* ``transient``: anything that may pass when run again: a second attempt raised another error, or its worker was
  lost for another reason (the job cancelled or preempted, the node failed) more often than the grid retries.

A pair is tried a second time in the same process before a raised error is classified (:func:`classify_repeat`); a
lost worker is classified by the grid (:mod:`brainscore_core.grid_deaths`) from what the worker's nanny and the
scheduler report.
"""

from __future__ import annotations

__all__ = ["FAILURE_KINDS", "classify_repeat", "error_kind", "slurm_state_kind"]

FAILURE_KINDS = ("oom", "timeout", "deterministic", "transient")

#: Slurm job states that end a job's workers, and the failure kind of a pair that was running on one
_SLURM_STATES = {"OUT_OF_MEMORY": "oom", "TIMEOUT": "timeout", "DEADLINE": "timeout"}


def error_kind(error: BaseException) -> str | None:
    """``'oom'`` for a :class:`MemoryError`, ``'timeout'`` for a :class:`TimeoutError`; None when one attempt cannot
    tell (the pair is tried again, then :func:`classify_repeat` decides)."""
    if isinstance(error, MemoryError):
        return "oom"
    if isinstance(error, TimeoutError):
        return "timeout"
    return None


def _signature(error_type: str | None, message: str | None) -> tuple[str, str]:
    first = (message or "").strip().splitlines()
    return str(error_type or ""), first[0] if first else ""


def classify_repeat(first: tuple[str | None, str | None], second: tuple[str | None, str | None]) -> str:
    """The kind of a pair whose two attempts failed with ``(error_type, message)`` ``first`` and ``second``:
    ``'deterministic'`` when both are the same error (type and first line), else ``'transient'``."""
    return "deterministic" if _signature(*first) == _signature(*second) else "transient"


def slurm_state_kind(state: str | None) -> str:
    """The kind of a pair whose Slurm job ended in ``state`` (``scontrol``'s ``JobState``) while it ran: ``'oom'``
    for ``OUT_OF_MEMORY``, ``'timeout'`` for ``TIMEOUT`` / ``DEADLINE``, else ``'transient'`` (``CANCELLED``,
    ``PREEMPTED``, ``NODE_FAIL``, a state no longer known)."""
    return _SLURM_STATES.get((state or "").upper(), "transient")
