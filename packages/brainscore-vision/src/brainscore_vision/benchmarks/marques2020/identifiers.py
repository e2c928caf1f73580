"""The 22 Marques2020 benchmark identifiers and what each scores: the one table the plugin's ``__init__`` registers
and :mod:`~brainscore_vision.benchmarks.marques2020.benchmark` builds from (so neither imports the other)."""

__all__ = ["BENCHMARKS"]

#: identifier -> (study, property name in the data, parent)
BENCHMARKS = {
    "Marques2020_Ringach2002-circular_variance": ("Ringach2002", "circular_variance", "V1-orientation"),
    "Marques2020_Ringach2002-or_bandwidth": ("Ringach2002", "bandwidth", "V1-orientation"),
    "Marques2020_Ringach2002-orth_pref_ratio": ("Ringach2002", "orthogonal_preferred_ratio", "V1-orientation"),
    "Marques2020_Ringach2002-or_selective": ("Ringach2002", "orientation_selective", "V1-orientation"),
    "Marques2020_Ringach2002-cv_bandwidth_ratio": ("Ringach2002", "circular_variance_bandwidth_ratio",
                                                   "V1-orientation"),
    "Marques2020_Ringach2002-opr_cv_diff": (
        "Ringach2002", "orthogonal_preferred_ratio_circular_variance_difference", "V1-orientation"),
    "Marques2020_Ringach2002-modulation_ratio": ("Ringach2002", "modulation_ratio", "V1-response_selectivity"),
    "Marques2020_Ringach2002-max_dc": ("Ringach2002", "max_dc", "V1-response_magnitude"),
    "Marques2020_Cavanaugh2002-grating_summation_field": (
        "Cavanaugh2002a", "grating_summation_field", "V1-receptive_field_size"),
    "Marques2020_Cavanaugh2002-surround_diameter": ("Cavanaugh2002a", "surround_diameter", "V1-receptive_field_size"),
    "Marques2020_Cavanaugh2002-surround_suppression_index": (
        "Cavanaugh2002a", "surround_suppression_index", "V1-surround_modulation"),
    "Marques2020_DeValois1982-pref_or": ("DeValois1982a", "preferred_orientation", "V1-orientation"),
    "Marques2020_DeValois1982-peak_sf": ("DeValois1982b", "peak_spatial_frequency", "V1-spatial_frequency"),
    "Marques2020_Schiller1976-sf_bandwidth": ("Schiller1976c", "spatial_frequency_bandwidth", "V1-spatial_frequency"),
    "Marques2020_Schiller1976-sf_selective": ("Schiller1976c", "spatial_frequency_selective", "V1-spatial_frequency"),
    "Marques2020_FreemanZiemba2013-texture_modulation_index": (
        "FreemanZiemba2013_V1_properties", "texture_modulation_index", "V1-texture_modulation"),
    "Marques2020_FreemanZiemba2013-abs_texture_modulation_index": (
        "FreemanZiemba2013_V1_properties", "absolute_texture_modulation_index", "V1-texture_modulation"),
    "Marques2020_FreemanZiemba2013-texture_selectivity": (
        "FreemanZiemba2013_V1_properties", "texture_selectivity", "V1-response_selectivity"),
    "Marques2020_FreemanZiemba2013-texture_sparseness": (
        "FreemanZiemba2013_V1_properties", "texture_sparseness", "V1-response_selectivity"),
    "Marques2020_FreemanZiemba2013-texture_variance_ratio": (
        "FreemanZiemba2013_V1_properties", "variance_ratio", "V1-response_selectivity"),
    "Marques2020_FreemanZiemba2013-max_texture": (
        "FreemanZiemba2013_V1_properties", "max_texture", "V1-response_magnitude"),
    "Marques2020_FreemanZiemba2013-max_noise": (
        "FreemanZiemba2013_V1_properties", "max_noise", "V1-response_magnitude"),
}
