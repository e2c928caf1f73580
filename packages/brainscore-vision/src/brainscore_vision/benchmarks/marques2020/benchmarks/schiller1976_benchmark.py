"""Brain-Score"s import path ``brainscore_vision.benchmarks.marques2020.benchmarks.schiller1976_benchmark``: the Schiller1976c
benchmarks" factories, property function and constants, re-exported (one implementation each)."""

from brainscore_vision.benchmarks.marques2020.benchmark import BIBTEX as _BIBTEX
from brainscore_vision.benchmarks.marques2020.benchmark import TIMEBINS
from brainscore_vision.benchmarks.marques2020.factories import (
    MarquesSchiller1976V1SpatialFrequencyBandwidth,
    MarquesSchiller1976V1SpatialFrequencySelective,
)
from brainscore_vision.benchmarks.marques2020.properties import RESPONSE_THRESHOLD, schiller1976_properties
from brainscore_vision.benchmarks.marques2020.properties import SCHILLER1976_PROPERTIES as PROPERTY_NAMES

ASSEMBLY_NAME = "Schiller1976c"
REGION = "V1"
PARENT = "V1-spatial_frequency"
BIBTEX = _BIBTEX[ASSEMBLY_NAME]

__all__ = ["ASSEMBLY_NAME", "BIBTEX", "MarquesSchiller1976V1SpatialFrequencyBandwidth", "MarquesSchiller1976V1SpatialFrequencySelective", "PARENT", "PROPERTY_NAMES", "REGION", "RESPONSE_THRESHOLD", "TIMEBINS", "schiller1976_properties"]
