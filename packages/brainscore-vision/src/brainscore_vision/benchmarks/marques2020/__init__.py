"""Benchmark plugin: the 22 V1 single-neuron property benchmarks of Marques et al. (2021), under Brain-Score's names.

15 run on gratings we generate (Ringach2002 8, Cavanaugh2002 3, DeValois1982 2, Schiller1976 2); the 7
FreemanZiemba2013 ones are registered with their data and ceilings, and scoring them raises
``StimuliUnavailableError`` (their texture images are not available). Registered the Brain-Score way, by assigning
factories into ``benchmark_registry``; nothing is loaded until a factory is called.
"""

from brainscore_vision import benchmark_registry
from brainscore_vision.benchmarks.marques2020.identifiers import BENCHMARKS

__all__ = ["BENCHMARKS"]


def _factory(identifier: str):
    def build():
        from brainscore_vision.benchmarks.marques2020.benchmark import marques2020_benchmark

        return marques2020_benchmark(identifier)

    build.__name__ = build.__qualname__ = identifier.replace("-", "_")
    return build


for _identifier in BENCHMARKS:
    benchmark_registry[_identifier] = _factory(_identifier)

DATA_NEEDS = {identifier: "unavailable" if study == "FreemanZiemba2013_V1_properties" else "shipped"
              for identifier, (study, _, _) in BENCHMARKS.items()}
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the recordings are in
``$BRAINSCORE_RAW_DATA`` and the gratings are generated; the seven FreemanZiemba2013 ones cannot run (their texture
images are not available)."""
