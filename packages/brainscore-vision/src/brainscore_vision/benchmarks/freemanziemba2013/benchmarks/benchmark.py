"""Brain-Score's import path ``brainscore_vision.benchmarks.freemanziemba2013.benchmarks.benchmark``: its loader,
constants and the private-data benchmarks (registered by the ``private_core`` plugin).
"""

from brainscore_vision.benchmarks.private_core.benchmark import (
    MovshonFreemanZiemba2013V1PLS,
    MovshonFreemanZiemba2013V2PLS,
)
from brainscore_vision.benchmarks.public_reference.benchmark import load_freemanziemba2013 as load_assembly
from brainscore_vision.data_helpers.bibtex import FREEMANZIEMBA_BIBTEX as BIBTEX

VISUAL_DEGREES = 4
NUMBER_OF_TRIALS = 20

__all__ = ["BIBTEX", "MovshonFreemanZiemba2013V1PLS", "MovshonFreemanZiemba2013V2PLS", "NUMBER_OF_TRIALS", "VISUAL_DEGREES", "load_assembly"]
