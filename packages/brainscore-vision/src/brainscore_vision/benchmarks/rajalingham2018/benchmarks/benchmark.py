"""Brain-Score's import path ``brainscore_vision.benchmarks.rajalingham2018.benchmarks.benchmark``: its loader.
"""

from brainscore_vision.benchmarks.public_reference.benchmark import RAJALINGHAM_BIBTEX as BIBTEX
from brainscore_vision.benchmarks.public_reference.benchmark import load_rajalingham2018 as load_assembly

__all__ = ["BIBTEX", "load_assembly"]
