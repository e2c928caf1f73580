"""Array backends: the same flat set of functions over numpy and torch.

``numpy`` is the default. Select another for a block with ``with use_backend("torch"):`` or per call
with a metric's ``backend=`` parameter. Kernels receive the backend module (``xp``) and only call its
functions, so the same code runs on numpy arrays and on torch tensors (CPU or CUDA). torch is imported
only by :mod:`brainscore_metrics.backend.torch`, and only when that backend is requested.

Each metric call (and each public array function) decides its backend, precision, worker threads and scratch budget
once, at its entry, in a :class:`~brainscore_metrics.backend.plan.ComputePlan` that it passes down
(:func:`compute_plan`); :func:`use_threads` fixes the worker threads for a block.
"""

from __future__ import annotations

from brainscore_metrics.backend._selection import (
           AVAILABLE_BACKENDS,
           get_backend,
           resolve_backend,
           use_backend,
)
from brainscore_metrics.backend.plan import SMALL_PROBLEM_FLOPS, ComputePlan, compute_plan, use_threads
from brainscore_metrics.errors import UnknownBackendError

__all__ = ["AVAILABLE_BACKENDS", "SMALL_PROBLEM_FLOPS", "ComputePlan", "UnknownBackendError", "compute_plan",
           "get_backend", "resolve_backend", "use_backend", "use_threads"]
