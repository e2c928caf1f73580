"""Brain-Score"s import path ``brainscore_vision.benchmarks.marques2020.benchmarks.freemanZiemba2013_benchmark``: the FreemanZiemba2013_V1_properties
benchmarks" factories, property function and constants, re-exported (one implementation each)."""

from brainscore_vision.benchmarks.marques2020.benchmark import BIBTEX as _BIBTEX
from brainscore_vision.benchmarks.marques2020.benchmark import TIMEBINS
from brainscore_vision.benchmarks.marques2020.factories import (
    MarquesFreemanZiemba2013V1AbsoluteTextureModulationIndex,
    MarquesFreemanZiemba2013V1MaxNoise,
    MarquesFreemanZiemba2013V1MaxTexture,
    MarquesFreemanZiemba2013V1TextureModulationIndex,
    MarquesFreemanZiemba2013V1TextureSelectivity,
    MarquesFreemanZiemba2013V1TextureSparseness,
    MarquesFreemanZiemba2013V1VarianceRatio,
)
from brainscore_vision.benchmarks.marques2020.properties import FREEMANZIEMBA2013_PROPERTIES as PROPERTY_NAMES
from brainscore_vision.benchmarks.marques2020.properties import (
    RESPONSE_THRESHOLD,
    freemanziemba2013_properties,
)

ASSEMBLY_NAME = "FreemanZiemba2013_V1_properties"
REGION = "V1"
PARENT_TEXTURE_MODULATION = "V1-texture_modulation"
PARENT_SELECTIVITY = "V1-response_selectivity"
PARENT_MAGNITUDE = "V1-response_magnitude"
BIBTEX = _BIBTEX[ASSEMBLY_NAME]

__all__ = ["ASSEMBLY_NAME", "BIBTEX", "MarquesFreemanZiemba2013V1AbsoluteTextureModulationIndex", "MarquesFreemanZiemba2013V1MaxNoise", "MarquesFreemanZiemba2013V1MaxTexture", "MarquesFreemanZiemba2013V1TextureModulationIndex", "MarquesFreemanZiemba2013V1TextureSelectivity", "MarquesFreemanZiemba2013V1TextureSparseness", "MarquesFreemanZiemba2013V1VarianceRatio", "PARENT_MAGNITUDE", "PARENT_SELECTIVITY", "PARENT_TEXTURE_MODULATION", "PROPERTY_NAMES", "REGION", "RESPONSE_THRESHOLD", "TIMEBINS", "freemanziemba2013_properties"]
