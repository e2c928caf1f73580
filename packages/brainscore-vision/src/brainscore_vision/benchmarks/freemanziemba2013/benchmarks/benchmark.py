"""Brain-Score's import path ``brainscore_vision.benchmarks.freemanziemba2013.benchmarks.benchmark``: its loader and
constants (the private-data benchmarks are not here).
"""

from brainscore_vision.benchmarks.public_reference.benchmark import FREEMANZIEMBA_BIBTEX as BIBTEX
from brainscore_vision.benchmarks.public_reference.benchmark import load_freemanziemba2013 as load_assembly

VISUAL_DEGREES = 4
NUMBER_OF_TRIALS = 20

__all__ = ["BIBTEX", "NUMBER_OF_TRIALS", "VISUAL_DEGREES", "load_assembly"]
