"""Brain-Score's factory function of each Marques2020 benchmark, by its name there.

Each builds the registered benchmark (:func:`~brainscore_vision.benchmarks.marques2020.benchmark.marques2020_benchmark`);
Brain-Score's modules ``benchmarks.marques2020.benchmarks.<study>_benchmark`` re-export them.
"""

from __future__ import annotations

from brainscore_vision.benchmarks.marques2020.benchmark import marques2020_benchmark

#: Brain-Score's factory name -> benchmark identifier
FACTORY_NAMES = {
    "MarquesRingach2002V1CircularVariance": "Marques2020_Ringach2002-circular_variance",
    "MarquesRingach2002V1Bandwidth": "Marques2020_Ringach2002-or_bandwidth",
    "MarquesRingach2002V1OrthogonalPreferredRatio": "Marques2020_Ringach2002-orth_pref_ratio",
    "MarquesRingach2002V1OrientationSelective": "Marques2020_Ringach2002-or_selective",
    "MarquesRingach2002V1CircularVarianceBandwidthRatio": "Marques2020_Ringach2002-cv_bandwidth_ratio",
    "MarquesRingach2002V1OrthogonalPrefferredRatioCircularVarianceDifference": "Marques2020_Ringach2002-opr_cv_diff",
    "MarquesRingach2002V1MaxDC": "Marques2020_Ringach2002-max_dc",
    "MarquesRingach2002V1ModulationRatio": "Marques2020_Ringach2002-modulation_ratio",
    "MarquesCavanaugh2002V1GratingSummationField": "Marques2020_Cavanaugh2002-grating_summation_field",
    "MarquesCavanaugh2002V1SurroundDiameter": "Marques2020_Cavanaugh2002-surround_diameter",
    "MarquesCavanaugh2002V1SurroundSuppressionIndex": "Marques2020_Cavanaugh2002-surround_suppression_index",
    "MarquesDeValois1982V1PreferredOrientation": "Marques2020_DeValois1982-pref_or",
    "MarquesDeValois1982V1PeakSpatialFrequency": "Marques2020_DeValois1982-peak_sf",
    "MarquesSchiller1976V1SpatialFrequencyBandwidth": "Marques2020_Schiller1976-sf_bandwidth",
    "MarquesSchiller1976V1SpatialFrequencySelective": "Marques2020_Schiller1976-sf_selective",
    "MarquesFreemanZiemba2013V1TextureModulationIndex": "Marques2020_FreemanZiemba2013-texture_modulation_index",
    "MarquesFreemanZiemba2013V1AbsoluteTextureModulationIndex":
        "Marques2020_FreemanZiemba2013-abs_texture_modulation_index",
    "MarquesFreemanZiemba2013V1TextureSelectivity": "Marques2020_FreemanZiemba2013-texture_selectivity",
    "MarquesFreemanZiemba2013V1TextureSparseness": "Marques2020_FreemanZiemba2013-texture_sparseness",
    "MarquesFreemanZiemba2013V1VarianceRatio": "Marques2020_FreemanZiemba2013-texture_variance_ratio",
    "MarquesFreemanZiemba2013V1MaxTexture": "Marques2020_FreemanZiemba2013-max_texture",
    "MarquesFreemanZiemba2013V1MaxNoise": "Marques2020_FreemanZiemba2013-max_noise",
}


def _named_factory(name: str, identifier: str):
    def build():
        return marques2020_benchmark(identifier)

    build.__name__ = build.__qualname__ = name
    build.__doc__ = f"The benchmark {identifier!r} (Brain-Score's factory {name})."
    return build


MarquesRingach2002V1CircularVariance = _named_factory(
    "MarquesRingach2002V1CircularVariance", FACTORY_NAMES["MarquesRingach2002V1CircularVariance"])
MarquesRingach2002V1Bandwidth = _named_factory(
    "MarquesRingach2002V1Bandwidth", FACTORY_NAMES["MarquesRingach2002V1Bandwidth"])
MarquesRingach2002V1OrthogonalPreferredRatio = _named_factory(
    "MarquesRingach2002V1OrthogonalPreferredRatio", FACTORY_NAMES["MarquesRingach2002V1OrthogonalPreferredRatio"])
MarquesRingach2002V1OrientationSelective = _named_factory(
    "MarquesRingach2002V1OrientationSelective", FACTORY_NAMES["MarquesRingach2002V1OrientationSelective"])
MarquesRingach2002V1CircularVarianceBandwidthRatio = _named_factory(
    "MarquesRingach2002V1CircularVarianceBandwidthRatio",
    FACTORY_NAMES["MarquesRingach2002V1CircularVarianceBandwidthRatio"])
MarquesRingach2002V1OrthogonalPrefferredRatioCircularVarianceDifference = _named_factory(
    "MarquesRingach2002V1OrthogonalPrefferredRatioCircularVarianceDifference",
    FACTORY_NAMES["MarquesRingach2002V1OrthogonalPrefferredRatioCircularVarianceDifference"])
MarquesRingach2002V1MaxDC = _named_factory("MarquesRingach2002V1MaxDC", FACTORY_NAMES["MarquesRingach2002V1MaxDC"])
MarquesRingach2002V1ModulationRatio = _named_factory(
    "MarquesRingach2002V1ModulationRatio", FACTORY_NAMES["MarquesRingach2002V1ModulationRatio"])
MarquesCavanaugh2002V1GratingSummationField = _named_factory(
    "MarquesCavanaugh2002V1GratingSummationField", FACTORY_NAMES["MarquesCavanaugh2002V1GratingSummationField"])
MarquesCavanaugh2002V1SurroundDiameter = _named_factory(
    "MarquesCavanaugh2002V1SurroundDiameter", FACTORY_NAMES["MarquesCavanaugh2002V1SurroundDiameter"])
MarquesCavanaugh2002V1SurroundSuppressionIndex = _named_factory(
    "MarquesCavanaugh2002V1SurroundSuppressionIndex", FACTORY_NAMES["MarquesCavanaugh2002V1SurroundSuppressionIndex"])
MarquesDeValois1982V1PreferredOrientation = _named_factory(
    "MarquesDeValois1982V1PreferredOrientation", FACTORY_NAMES["MarquesDeValois1982V1PreferredOrientation"])
MarquesDeValois1982V1PeakSpatialFrequency = _named_factory(
    "MarquesDeValois1982V1PeakSpatialFrequency", FACTORY_NAMES["MarquesDeValois1982V1PeakSpatialFrequency"])
MarquesSchiller1976V1SpatialFrequencyBandwidth = _named_factory(
    "MarquesSchiller1976V1SpatialFrequencyBandwidth", FACTORY_NAMES["MarquesSchiller1976V1SpatialFrequencyBandwidth"])
MarquesSchiller1976V1SpatialFrequencySelective = _named_factory(
    "MarquesSchiller1976V1SpatialFrequencySelective", FACTORY_NAMES["MarquesSchiller1976V1SpatialFrequencySelective"])
MarquesFreemanZiemba2013V1TextureModulationIndex = _named_factory(
    "MarquesFreemanZiemba2013V1TextureModulationIndex",
    FACTORY_NAMES["MarquesFreemanZiemba2013V1TextureModulationIndex"])
MarquesFreemanZiemba2013V1AbsoluteTextureModulationIndex = _named_factory(
    "MarquesFreemanZiemba2013V1AbsoluteTextureModulationIndex",
    FACTORY_NAMES["MarquesFreemanZiemba2013V1AbsoluteTextureModulationIndex"])
MarquesFreemanZiemba2013V1TextureSelectivity = _named_factory(
    "MarquesFreemanZiemba2013V1TextureSelectivity", FACTORY_NAMES["MarquesFreemanZiemba2013V1TextureSelectivity"])
MarquesFreemanZiemba2013V1TextureSparseness = _named_factory(
    "MarquesFreemanZiemba2013V1TextureSparseness", FACTORY_NAMES["MarquesFreemanZiemba2013V1TextureSparseness"])
MarquesFreemanZiemba2013V1VarianceRatio = _named_factory(
    "MarquesFreemanZiemba2013V1VarianceRatio", FACTORY_NAMES["MarquesFreemanZiemba2013V1VarianceRatio"])
MarquesFreemanZiemba2013V1MaxTexture = _named_factory(
    "MarquesFreemanZiemba2013V1MaxTexture", FACTORY_NAMES["MarquesFreemanZiemba2013V1MaxTexture"])
MarquesFreemanZiemba2013V1MaxNoise = _named_factory(
    "MarquesFreemanZiemba2013V1MaxNoise", FACTORY_NAMES["MarquesFreemanZiemba2013V1MaxNoise"])

__all__ = ["FACTORY_NAMES", *FACTORY_NAMES]
