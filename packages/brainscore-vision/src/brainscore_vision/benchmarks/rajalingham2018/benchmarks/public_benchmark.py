"""Brain-Score's import path ``brainscore_vision.benchmarks.rajalingham2018.benchmarks.public_benchmark``.
"""

from brainscore_vision.benchmarks.public_reference.benchmark import (
    RajalinghamMatchtosamplePublicBenchmark,
    load_rajalingham2018,
)

__all__ = ["RajalinghamMatchtosamplePublicBenchmark", "load_rajalingham2018"]
