"""Brain-Score"s import path ``brainscore_vision.benchmarks.marques2020.benchmarks.ringach2002_benchmark``: the Ringach2002
benchmarks" factories, property function and constants, re-exported (one implementation each)."""

from brainscore_vision.benchmarks.marques2020.benchmark import BIBTEX as _BIBTEX
from brainscore_vision.benchmarks.marques2020.benchmark import TIMEBINS
from brainscore_vision.benchmarks.marques2020.factories import (
    MarquesRingach2002V1Bandwidth,
    MarquesRingach2002V1CircularVariance,
    MarquesRingach2002V1CircularVarianceBandwidthRatio,
    MarquesRingach2002V1MaxDC,
    MarquesRingach2002V1ModulationRatio,
    MarquesRingach2002V1OrientationSelective,
    MarquesRingach2002V1OrthogonalPreferredRatio,
    MarquesRingach2002V1OrthogonalPrefferredRatioCircularVarianceDifference,
)
from brainscore_vision.benchmarks.marques2020.properties import RESPONSE_THRESHOLD, ringach2002_properties
from brainscore_vision.benchmarks.marques2020.properties import RINGACH2002_PROPERTIES as PROPERTY_NAMES

ASSEMBLY_NAME = "Ringach2002"
REGION = "V1"
PARENT_ORIENTATION = "V1-orientation"
PARENT_MAGNITUDE = "V1-response_magnitude"
PARENT_SELECTIVITY = "V1-response_selectivity"
BIBTEX = _BIBTEX[ASSEMBLY_NAME]

__all__ = ["ASSEMBLY_NAME", "BIBTEX", "MarquesRingach2002V1Bandwidth", "MarquesRingach2002V1CircularVariance", "MarquesRingach2002V1CircularVarianceBandwidthRatio", "MarquesRingach2002V1MaxDC", "MarquesRingach2002V1ModulationRatio", "MarquesRingach2002V1OrientationSelective", "MarquesRingach2002V1OrthogonalPreferredRatio", "MarquesRingach2002V1OrthogonalPrefferredRatioCircularVarianceDifference", "PARENT_MAGNITUDE", "PARENT_ORIENTATION", "PARENT_SELECTIVITY", "PROPERTY_NAMES", "REGION", "RESPONSE_THRESHOLD", "TIMEBINS", "ringach2002_properties"]
