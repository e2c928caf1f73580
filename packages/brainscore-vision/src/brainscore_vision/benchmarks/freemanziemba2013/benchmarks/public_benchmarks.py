"""Brain-Score's import path ``brainscore_vision.benchmarks.freemanziemba2013.benchmarks.public_benchmarks``.
"""

from brainscore_vision.benchmarks.public_reference.benchmark import (
    FreemanZiembaV1PublicBenchmark,
    FreemanZiembaV2PublicBenchmark,
)
from brainscore_vision.benchmarks.public_reference.benchmark import load_freemanziemba2013 as load_assembly
from brainscore_vision.data_helpers.bibtex import FREEMANZIEMBA_BIBTEX as BIBTEX

VISUAL_DEGREES = 4
NUMBER_OF_TRIALS = 20

__all__ = ["BIBTEX", "FreemanZiembaV1PublicBenchmark", "FreemanZiembaV2PublicBenchmark", "NUMBER_OF_TRIALS", "VISUAL_DEGREES", "load_assembly"]
