"""1.x ``brainscore.benchmarks``: benchmark base classes.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "Benchmark": ("brainscore_vision.benchmarks.Benchmark",
             "brainscore_vision.benchmarks:Benchmark"),
    "BenchmarkBase": ("brainscore_vision.benchmarks.BenchmarkBase",
             "brainscore_vision.benchmarks:BenchmarkBase"),
    "ceil_score": ("brainscore_vision.benchmarks.ceil_score",
             "brainscore_vision.benchmarks:ceil_score"),
    "bound_score": ("brainscore_vision.benchmarks.bound_score",
             "brainscore_vision.benchmarks:bound_score"),
    "explained_variance": ("brainscore_vision.benchmarks.explained_variance",
             "brainscore_vision.benchmarks:explained_variance"),
    "benchmark_pool": ("brainscore_vision.benchmark_registry (and load_benchmark)",
             "brainscore_vision:benchmark_registry"),
})
