"""Brain-Score"s import path ``brainscore_vision.benchmarks.marques2020.benchmarks.cavanaugh2002a_benchmark``: the Cavanaugh2002a
benchmarks" factories, property function and constants, re-exported (one implementation each)."""

from brainscore_vision.benchmarks.marques2020.benchmark import BIBTEX as _BIBTEX
from brainscore_vision.benchmarks.marques2020.benchmark import TIMEBINS
from brainscore_vision.benchmarks.marques2020.factories import (
    MarquesCavanaugh2002V1GratingSummationField,
    MarquesCavanaugh2002V1SurroundDiameter,
    MarquesCavanaugh2002V1SurroundSuppressionIndex,
)
from brainscore_vision.benchmarks.marques2020.properties import CAVANAUGH2002_PROPERTIES as PROPERTY_NAMES
from brainscore_vision.benchmarks.marques2020.properties import RESPONSE_THRESHOLD, cavanaugh2002_properties

ASSEMBLY_NAME = "Cavanaugh2002a"
REGION = "V1"
PARENT_SURROUND = "V1-surround_modulation"
PARENT_RECEPTIVE_FIELD = "V1-receptive_field_size"
BIBTEX = _BIBTEX[ASSEMBLY_NAME]

__all__ = ["ASSEMBLY_NAME", "BIBTEX", "MarquesCavanaugh2002V1GratingSummationField", "MarquesCavanaugh2002V1SurroundDiameter", "MarquesCavanaugh2002V1SurroundSuppressionIndex", "PARENT_RECEPTIVE_FIELD", "PARENT_SURROUND", "PROPERTY_NAMES", "REGION", "RESPONSE_THRESHOLD", "TIMEBINS", "cavanaugh2002_properties"]
