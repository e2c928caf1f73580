"""Memory plan of a (model, benchmark) pair, from shapes, before it runs.

The estimate of a pair's peak memory (bytes) is ``baseline + max(forward, working) + activations + overhead``, where

* ``baseline``: what the process holds before scoring, with the model and the benchmark's data loaded (its
  resident set, read from ``/proc/self/statm``);
* ``forward``: the extraction's forward pass, ``FORWARD_FACTOR x min(batch_size, n_stimuli) x`` the bytes one image
  holds at the pass's peak (``model.forward_bytes_per_image(region)``: the module outputs alive at once, measured on
  a blank image; model-tools models report it, with ``model.batch_size``). The factor covers what the module outputs
  do not show: the convolutions' reordered copies of their inputs and outputs (oneDNN), freed blocks the allocator
  keeps;
* ``activations``: ``n_stimuli x n_features x 4`` (float32 activations of the recorded layer), where
  ``benchmark.stimulus_count()`` and ``model.feature_count(region)`` give the shapes;
* ``working``: the metric's working set, ``2 x activations`` (a float64 block of the source and its
  centred/standardised copy) plus ``2 x n_stimuli^2 x 8`` (stimulus Gram matrices and RDMs);
* ``overhead``: :data:`SCORING_OVERHEAD_BYTES` for what scoring holds besides (the stimuli placed on the screen and
  decoded, the benchmark's intermediate assemblies).

The forward pass and the metric come one after the other, and the metric's arrays reuse what the forward pass freed
(model-tools keeps freed memory in the process for reuse): the larger of the two counts, not their sum; the
activations stay through both.

Measured against the peak resident set of fresh processes scoring 10 pairs of different shapes (regression, RSA,
behaviour; pixels to VGG-16), it is never below the peak and at most 1.5 times it
(``packages/brainscore-vision/tests/test_memory_plan.py``; the figures are in brainscore-core's README).

The grid (:mod:`brainscore_core.grid`) refuses a pair whose estimate exceeds the worker's memory budget (the
message gives the estimate), and annotates Dask tasks with it where workers declare a ``MEMORY`` resource. For that
annotation the shapes come from the workers (:func:`benchmark_shape`, :func:`model_shape`, one task per model and
per benchmark, each released after it answers) and :func:`estimate_from_shapes` combines them in the submitting
process, which loads nothing. Models or benchmarks without ``feature_count`` / ``stimulus_count`` get no estimate
(None): nothing is refused.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["PairEstimate", "benchmark_region", "benchmark_shape", "estimate_from_shapes",
           "estimate_pair", "estimates_from_shapes", "format_bytes", "job_memory", "memory_budget", "model_shape",
           "parse_size", "resident_bytes"]

TERMINATE_FRACTION = 0.95
"""Dask's nanny restarts a worker above this fraction of its memory limit (``distributed.worker.memory.terminate``)."""
WORKER_OVERHEAD_BYTES = 256 * 2**20
"""What a Dask worker process holds beyond the planning process (distributed, its comms)."""
DEFAULT_JOB_BYTES = 4 * 2**30
"""A Slurm job's memory when no pair of the grid has an estimate."""
FORWARD_FACTOR = 2.2
"""Peak memory of a forward pass over the module outputs alive at once (measured: 1.0 for AlexNet, 1.8 for the
ResNets, 2.0 for VGG-16 on CPU torch, whose convolutions reorder their inputs and outputs)."""
SCORING_OVERHEAD_BYTES = 64 * 2**20
"""What scoring holds besides activations and metric (measured: 25-60 MB for 24-640 stimuli)."""


@dataclass(frozen=True)
class PairEstimate:
    """A pair's estimated peak memory and its parts (see the module docstring), in bytes."""

    n_stimuli: int
    n_features: int
    baseline_bytes: int
    activations_bytes: int
    working_bytes: int
    forward_bytes: int = 0
    overhead_bytes: int = SCORING_OVERHEAD_BYTES

    @property
    def peak_bytes(self) -> int:
        return (self.baseline_bytes + max(self.forward_bytes, self.working_bytes) + self.activations_bytes
                + self.overhead_bytes)

    def as_dict(self) -> dict[str, int]:
        return {**asdict(self), "peak_bytes": self.peak_bytes}

    def describe(self) -> str:
        """``'estimated peak 2.6 GB (640 stimuli x 200,704 features: process 474.1 MB + max(forward pass 1.6 GB,
        metric 986.2 MB) + activations 490.0 MB + 64.0 MB)'``."""
        step = (f"max(forward pass {format_bytes(self.forward_bytes)}, metric {format_bytes(self.working_bytes)})"
                if self.forward_bytes else f"metric {format_bytes(self.working_bytes)}")
        return (f"estimated peak {format_bytes(self.peak_bytes)} ({self.n_stimuli:,} stimuli x {self.n_features:,} "
                f"features: process {format_bytes(self.baseline_bytes)} + {step} + activations "
                f"{format_bytes(self.activations_bytes)} + {format_bytes(self.overhead_bytes)})")


def format_bytes(count: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(count) < 1024 or unit == "GB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count:.1f} GB"


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Bytes of ``'5GB'``, ``'500 MB'``, ``'1.5g'``, ``'2GiB'``, ``'1024'`` (powers of 1024); ValueError otherwise."""
    match = _SIZE.match(str(text))
    if not match:
        raise ValueError(f"{text!r} is not a size (examples: 500MB, 5GB, 1.5TB)")
    return int(float(match.group(1)) * 1024 ** " kmgt".index(match.group(2).lower() or " "))


def resident_bytes() -> int:
    """This process's resident set size (Linux ``/proc/self/statm``; 0 where unavailable)."""
    try:
        with open("/proc/self/statm") as file:
            return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def memory_budget() -> int | None:
    """The memory this process may use: :data:`TERMINATE_FRACTION` of its Dask worker's ``memory_limit`` when it is
    one (above it the nanny restarts the worker), else the machine's physical memory (None where unknown)."""
    distributed = sys.modules.get("distributed")  # a worker has imported it; importing it here would cost 0.5 s
    if distributed is not None:
        try:
            limit = distributed.get_worker().memory_manager.memory_limit
            if limit:  # the nanny restarts the worker above this fraction of its limit
                return int(limit * TERMINATE_FRACTION)
        except (ValueError, AttributeError):
            pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def benchmark_region(benchmark: Any) -> str:
    """The region a benchmark records (``benchmark.region``), ``'behavior'`` for a behavioural one."""
    return str(getattr(benchmark, "region", None) or "behavior")


def estimate_from_shapes(n_stimuli: int | None, n_features: int | None, baseline_bytes: int,
                         forward_per_image: int | None = None, batch_size: int | None = None) -> PairEstimate | None:
    """The estimate of a pair from its shapes (see the module docstring); None when a shape is unknown or 0.
    ``forward_per_image`` and ``batch_size`` (default 64): the extraction's forward pass, 0 when not given."""
    if not n_stimuli or not n_features:
        return None
    activations = int(n_stimuli) * int(n_features) * 4
    working = 2 * activations + 2 * int(n_stimuli) ** 2 * 8
    forward = int(FORWARD_FACTOR * min(int(batch_size or 64), int(n_stimuli)) * int(forward_per_image or 0))
    return PairEstimate(int(n_stimuli), int(n_features), int(baseline_bytes), activations, working, forward)


def estimate_pair(model: Any, benchmark: Any) -> PairEstimate | None:
    """The estimate of scoring ``model`` on ``benchmark`` (see the module docstring); None without the shapes."""
    count, features = getattr(benchmark, "stimulus_count", None), getattr(model, "feature_count", None)
    if not callable(count) or not callable(features):
        return None
    region = benchmark_region(benchmark)
    n_stimuli, n_features = count(), features(region)
    forward = getattr(model, "forward_bytes_per_image", None)
    return estimate_from_shapes(n_stimuli, n_features, resident_bytes(),
                                forward(region) if callable(forward) else None, getattr(model, "batch_size", None))


def estimates_from_shapes(pairs: Iterable[tuple[str, str]], benchmark_shapes: dict[str, dict],
                          model_shapes: dict[str, dict]) -> dict[tuple[str, str], PairEstimate | None]:
    """Each pair's estimate from what :func:`benchmark_shape` and :func:`model_shape` reported (with the resident
    memory before loading, ``before_bytes``, and what loading took, ``loaded_bytes``): the baseline is the larger
    ``before`` plus both loads. None for a pair whose model or benchmark gave no shape (it failed to load)."""
    estimates: dict[tuple[str, str], PairEstimate | None] = {}
    for model, benchmark in pairs:
        model_info, benchmark_info = model_shapes.get(model) or {}, benchmark_shapes.get(benchmark) or {}
        if not model_info or not benchmark_info:
            estimates[(model, benchmark)] = None
            continue
        baseline = (max(model_info["before_bytes"], benchmark_info["before_bytes"]) + model_info["loaded_bytes"]
                    + benchmark_info["loaded_bytes"])
        region = benchmark_info["region"]
        estimates[(model, benchmark)] = estimate_from_shapes(
            benchmark_info["stimulus_count"], model_info["feature_counts"].get(region), baseline,
            model_info.get("forward_per_image", {}).get(region), model_info.get("batch_size"))
    return estimates


def job_memory(estimates: Iterable[PairEstimate | None]) -> int:
    """The memory of a job (a worker's limit) that runs every pair of ``estimates``: the largest estimate over
    :data:`TERMINATE_FRACTION` plus :data:`WORKER_OVERHEAD_BYTES`, rounded up to 256 MiB; :data:`DEFAULT_JOB_BYTES`
    when no pair has an estimate."""
    peaks = [estimate.peak_bytes for estimate in estimates if estimate is not None]
    if not peaks:
        return DEFAULT_JOB_BYTES
    need = max(peaks) / TERMINATE_FRACTION + WORKER_OVERHEAD_BYTES
    step = 256 * 2**20
    return int(-(-need // step) * step)


def benchmark_shape(benchmark: Any) -> dict[str, Any]:
    """What a pair's estimate needs from a benchmark: ``{'stimulus_count': int or None, 'region': str}``."""
    count = getattr(benchmark, "stimulus_count", None)
    return {"stimulus_count": int(count()) if callable(count) else None, "region": benchmark_region(benchmark)}


def model_shape(model: Any, regions: list[str]) -> dict[str, Any]:
    """What a pair's estimate needs from a model: ``{'feature_counts': {region: int or None}, 'forward_per_image':
    {region: int or None}, 'batch_size': int or None}``."""
    features = getattr(model, "feature_count", None)
    forward = getattr(model, "forward_bytes_per_image", None)
    return {"feature_counts": {region: (features(region) if callable(features) else None) for region in regions},
            "forward_per_image": {region: (forward(region) if callable(forward) else None) for region in regions},
            "batch_size": getattr(model, "batch_size", None)}
