"""Brain-Score's import path ``brainscore_vision.benchmarks.rajalingham2018.benchmarks.benchmark``: its loader and the private-data benchmark
(registered by the ``private_core`` plugin).
"""

from brainscore_vision.benchmarks.private_core.benchmark import DicarloRajalingham2018I2n
from brainscore_vision.benchmarks.public_reference.benchmark import load_rajalingham2018 as load_assembly
from brainscore_vision.data_helpers.bibtex import RAJALINGHAM_BIBTEX as BIBTEX

__all__ = ["BIBTEX", "DicarloRajalingham2018I2n", "load_assembly"]
