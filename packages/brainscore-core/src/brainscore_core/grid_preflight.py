"""A grid's memory plan before anything is scored: each pair's estimated peak, from the shapes each model and
benchmark reports (:mod:`brainscore_core.memory_plan`).

:func:`preflight` runs one :func:`shape_task` per benchmark and per model, in this process or on a Dask client's
workers; each loads one thing, reads its shapes and the resident memory it took, and releases it. The estimates feed
``brainscore score --dry-run``, the memory of Slurm jobs (:func:`~brainscore_core.memory_plan.job_memory`) and the
``MEMORY`` resource annotations of Dask tasks where workers declare that resource.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brainscore_core.grid_task import domain_of
from brainscore_core.memory_plan import (
    benchmark_region,
    benchmark_shape,
    estimates_from_shapes,
    model_shape,
    resident_bytes,
)

__all__ = ["memory_resources", "preflight", "shape_task", "workers_declare_memory"]


def shape_task(domain: Any, kind: str, identifier: str, regions: Sequence[str] = ()) -> dict[str, Any]:
    """Load one benchmark (``kind='benchmark'``) or model, read what a memory estimate needs
    (:func:`~brainscore_core.memory_plan.benchmark_shape` / :func:`~brainscore_core.memory_plan.model_shape` for
    ``regions``) and the resident memory before and after loading, then release it. A failure gives ``{}``: the pair's
    own task records why loading fails."""
    domain, before = domain_of(domain), resident_bytes()
    try:
        if kind == "benchmark-region":  # the region alone: the benchmark is built, its data are not loaded
            return {"region": benchmark_region(domain.load_benchmark(identifier))}
        if kind == "benchmark":
            shape = benchmark_shape(domain.load_benchmark(identifier))
        else:
            shape = model_shape(domain.load_model(identifier), list(regions))
    except Exception:
        return {}
    return {**shape, "before_bytes": before, "loaded_bytes": max(0, resident_bytes() - before)}


def preflight(domain: Any, pairs: Sequence[tuple[str, str]], client: Any = None) -> dict[tuple[str, str], Any]:
    """Each pair's memory estimate (:class:`~brainscore_core.memory_plan.PairEstimate`, None without shapes), from
    the shapes each benchmark and model reports: one :func:`shape_task` per benchmark and per model, in this process
    or on ``client``'s workers, each loading one thing and releasing it. Nothing is scored."""
    benchmarks = list(dict.fromkeys(benchmark for _, benchmark in pairs))
    models = list(dict.fromkeys(model for model, _ in pairs))

    def run(kind: str, identifiers: list[str], regions: Sequence[str] = ()) -> dict[str, dict]:
        if client is None:
            return {identifier: shape_task(domain, kind, identifier, regions) for identifier in identifiers}
        futures = [client.submit(shape_task, domain, kind, identifier, regions, pure=False)
                   for identifier in identifiers]
        return dict(zip(identifiers, client.gather(futures), strict=True))

    # regions first (benchmarks built, no data loaded), then the models' widths there, then the stimulus counts of
    # only the benchmarks some model of theirs reports a width for: a model without shapes loads no benchmark's data
    regions_of = run("benchmark-region", benchmarks)
    regions = sorted({shape["region"] for shape in regions_of.values() if shape})
    model_shapes = run("model", models, regions)
    needed = [benchmark for benchmark in benchmarks if regions_of.get(benchmark) and any(
        (model_shapes.get(model) or {}).get("feature_counts", {}).get(regions_of[benchmark]["region"]) is not None
        for model, paired in pairs if paired == benchmark)]
    return estimates_from_shapes(pairs, run("benchmark", needed), model_shapes)


def workers_declare_memory(client: Any) -> bool:
    """Whether every worker declares a ``MEMORY`` resource (``dask worker --resources MEMORY=64e9``): only then
    may tasks ask for it (a task asking for a resource no worker has would never run)."""
    workers = client.scheduler_info().get("workers", {}).values()
    return bool(workers) and all("MEMORY" in (worker.get("resources") or {}) for worker in workers)


def memory_resources(client: Any, domain: Any, pairs: Sequence[tuple[str, str]]) -> dict[tuple[str, str], dict]:
    """Each pair's estimated peak as a Dask resource annotation ``{'MEMORY': bytes}`` when every worker declares
    that resource (:func:`workers_declare_memory`), from shapes the workers report (:func:`preflight` on ``client``;
    this process loads nothing); else ``{}``. A pair without an estimate gets no annotation (its task still checks
    its estimate against its worker's budget)."""
    if not workers_declare_memory(client):
        return {}
    return {pair: {"MEMORY": float(estimate.peak_bytes)}
            for pair, estimate in preflight(domain, pairs, client).items() if estimate is not None}
