"""Brain-Score"s import path ``brainscore_vision.benchmarks.marques2020.benchmarks.devalois1982a_benchmark``: the DeValois1982a
benchmarks" factories, property function and constants, re-exported (one implementation each)."""

from brainscore_vision.benchmarks.marques2020.benchmark import BIBTEX as _BIBTEX
from brainscore_vision.benchmarks.marques2020.benchmark import TIMEBINS
from brainscore_vision.benchmarks.marques2020.factories import (
    MarquesDeValois1982V1PreferredOrientation,
)
from brainscore_vision.benchmarks.marques2020.properties import DEVALOIS1982A_PROPERTIES as PROPERTY_NAMES
from brainscore_vision.benchmarks.marques2020.properties import (
    ORIENTATION_BIN_LIM,
    RESPONSE_THRESHOLD,
    devalois1982a_properties,
)

ASSEMBLY_NAME = "DeValois1982a"
REGION = "V1"
PARENT = "V1-orientation"
BIBTEX = _BIBTEX[ASSEMBLY_NAME]

__all__ = ["ASSEMBLY_NAME", "BIBTEX", "MarquesDeValois1982V1PreferredOrientation", "ORIENTATION_BIN_LIM", "PARENT", "PROPERTY_NAMES", "REGION", "RESPONSE_THRESHOLD", "TIMEBINS", "devalois1982a_properties"]
