"""Brain-Score"s import path ``brainscore_vision.benchmarks.marques2020.benchmarks.devalois1982b_benchmark``: the DeValois1982b
benchmarks" factories, property function and constants, re-exported (one implementation each)."""

from brainscore_vision.benchmarks.marques2020.benchmark import BIBTEX as _BIBTEX
from brainscore_vision.benchmarks.marques2020.benchmark import TIMEBINS
from brainscore_vision.benchmarks.marques2020.factories import (
    MarquesDeValois1982V1PeakSpatialFrequency,
)
from brainscore_vision.benchmarks.marques2020.properties import DEVALOIS1982B_PROPERTIES as PROPERTY_NAMES
from brainscore_vision.benchmarks.marques2020.properties import RESPONSE_THRESHOLD, devalois1982b_properties

ASSEMBLY_NAME = "DeValois1982b"
REGION = "V1"
PARENT = "V1-spatial_frequency"
BIBTEX = _BIBTEX[ASSEMBLY_NAME]

__all__ = ["ASSEMBLY_NAME", "BIBTEX", "MarquesDeValois1982V1PeakSpatialFrequency", "PARENT", "PROPERTY_NAMES", "REGION", "RESPONSE_THRESHOLD", "TIMEBINS", "devalois1982b_properties"]
