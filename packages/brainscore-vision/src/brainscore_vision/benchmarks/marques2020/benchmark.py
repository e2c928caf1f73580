"""The Marques2020 benchmarks: ``PropertiesBenchmark`` as Brain-Score's neural-benchmarks tutorial writes it."""

from __future__ import annotations

from brainscore_vision import load_ceiling, load_dataset, load_metric
from brainscore_vision.benchmark_helpers.properties_common import PropertiesBenchmark
from brainscore_vision.benchmarks.marques2020 import properties as _properties
from brainscore_vision.benchmarks.marques2020.identifiers import BENCHMARKS

__all__ = ["BIBTEX", "NEURONAL_PROPERTIES", "TIMEBINS", "marques2020_benchmark"]

TIMEBINS = [(70, 170)]
#: study (data identifier) -> property function
NEURONAL_PROPERTIES = {
    "Ringach2002": _properties.ringach2002_properties,
    "Cavanaugh2002a": _properties.cavanaugh2002_properties,
    "DeValois1982a": _properties.devalois1982a_properties,
    "DeValois1982b": _properties.devalois1982b_properties,
    "Schiller1976c": _properties.schiller1976_properties,
    "FreemanZiemba2013_V1_properties": _properties.freemanziemba2013_properties,
}

BIBTEX = {
    "Ringach2002": """@article{Ringach2002,
  author = {Ringach, Dario L and Shapley, Robert M and Hawken, Michael J},
  title = {Orientation selectivity in macaque V1: diversity and laminar dependence},
  journal = {The Journal of Neuroscience}, volume = {22}, number = {13}, pages = {5639--5651}, year = {2002}
}""",
    "Cavanaugh2002a": """@article{Cavanaugh2002,
  author = {Cavanaugh, James R. and Bair, Wyeth and Movshon, J. A.},
  title = {Nature and Interaction of Signals From the Receptive Field Center and Surround in Macaque V1 Neurons},
  journal = {Journal of Neurophysiology}, volume = {88}, number = {5}, pages = {2530--2546}, year = {2002},
  doi = {10.1152/jn.00692.2001}
}""",
    "DeValois1982a": """@article{DeValois1982a,
  author = {{De Valois}, Russell L. and Yund, E. W. and Hepler, Norva},
  title = {The orientation and direction selectivity of cells in macaque visual cortex},
  journal = {Vision Research}, volume = {22}, pages = {531--544}, year = {1982}
}""",
    "DeValois1982b": """@article{DeValois1982b,
  author = {{De Valois}, Russell L. and Albrecht, Duane G. and Thorell, Lisa G.},
  title = {Spatial Frequency Selectivity of Cells in Macaque Visual Cortex},
  journal = {Vision Research}, volume = {22}, pages = {545--559}, year = {1982}
}""",
    "Schiller1976c": """@article{Schiller1976,
  author = {Schiller, P. H. and Finlay, B. L. and Volman, S. F.},
  title = {Quantitative studies of single-cell properties in monkey striate cortex. III. Spatial Frequency},
  journal = {Journal of Neurophysiology}, volume = {39}, number = {6}, pages = {1334--1351}, year = {1976},
  doi = {10.1152/jn.1976.39.6.1352}
}""",
    "FreemanZiemba2013_V1_properties": """@article{Freeman2013,
  author = {Freeman, Jeremy and Ziemba, Corey M. and Heeger, David J. and Simoncelli, Eero P. and Movshon, J. Anthony},
  title = {A functional and perceptual signature of the second visual area in primates},
  journal = {Nature Neuroscience}, volume = {16}, number = {7}, pages = {974--981}, year = {2013},
  doi = {10.1038/nn.3402}
}""",
}


def marques2020_benchmark(identifier: str) -> PropertiesBenchmark:
    """The registered benchmark ``identifier`` (a key of :data:`BENCHMARKS`)."""
    study, property_name, parent = BENCHMARKS[identifier]
    assembly = load_dataset(study)
    similarity_metric = load_metric("ks_similarity", property_name=property_name)
    return PropertiesBenchmark(identifier=identifier, assembly=assembly, neuronal_property=NEURONAL_PROPERTIES[study],
                               similarity_metric=similarity_metric, timebins=TIMEBINS,
                               ceiling_func=load_ceiling("property_ceiling", similarity_metric), parent=parent,
                               bibtex=BIBTEX[study], version=1)
