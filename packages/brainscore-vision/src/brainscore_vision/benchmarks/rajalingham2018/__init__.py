"""Brain-Score's import path ``brainscore_vision.benchmarks.rajalingham2018``: the public match-to-sample I2n benchmark.
The private-data one (``DicarloRajalingham2018I2n``) is not here. Nothing is registered here: the benchmarks register through the ``public_reference`` plugin's entry point.
"""

from brainscore_vision.benchmarks.public_reference.benchmark import RajalinghamMatchtosamplePublicBenchmark
from brainscore_vision.benchmarks.public_reference.benchmark import load_rajalingham2018 as load_assembly
from brainscore_vision.data_helpers.bibtex import RAJALINGHAM_BIBTEX as BIBTEX

__all__ = ["BIBTEX", "RajalinghamMatchtosamplePublicBenchmark", "load_assembly"]
