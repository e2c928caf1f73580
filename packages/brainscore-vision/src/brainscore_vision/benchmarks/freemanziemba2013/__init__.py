"""Brain-Score's import path ``brainscore_vision.benchmarks.freemanziemba2013``: the public FreemanZiemba2013
benchmarks (data from Brain-Score's public bucket). The private-data ones (``MovshonFreemanZiemba2013{V1,V2}PLS``) are
not here. Nothing is registered here: the benchmarks register through the ``public_reference`` plugin's entry point.
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
