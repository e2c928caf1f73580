"""``Rajalingham2020.IT-pls``: macaque IT responses to orthographic stimuli (Rajalingham et al. 2020), as Brain-Score
defines it: NeuralBenchmark, 8 degrees, 33 trials, ``pls`` over 10 unstratified splits, ``internal_consistency`` of
the repetitions; version 2, parent IT."""

from __future__ import annotations

from brainscore_vision.benchmark_helpers._regions import region_recordings
from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark
from brainscore_vision.utils import LazyLoad

__all__ = ["BIBTEX", "DicarloRajalingham2020ITPLS", "NUMBER_OF_TRIALS", "VISUAL_DEGREES", "load_assembly"]

VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 33
BIBTEX = """@article {Rajalingham2020,
            author = {Rajalingham, Rishi and Kar, Kohitij and Sanghavi, Sachi and Dehaene, Stanislas and DiCarlo, James J.},
            title = {The inferior temporal cortex is a potential cortical precursor of orthographic processing in untrained monkeys},
            journal = {Nature Communications},
            year = {2020},
            month = {Aug},
            day = {04},
            volume = {11},
            number = {1},
            pages = {3886},
            issn = {2041-1723},
            doi = {10.1038/s41467-020-17714-3},
            url = {https://doi.org/10.1038/s41467-020-17714-3}}"""


def load_assembly(average_repetitions: bool, region: str, assembly=None):
    """One region of ``Rajalingham2020`` (Brain-Score's ``load_assembly``)."""
    from brainscore_vision import load_dataset

    assembly = load_dataset("Rajalingham2020") if assembly is None else assembly
    return region_recordings(assembly, region, average_repetitions=average_repetitions,
                             number_of_trials=NUMBER_OF_TRIALS, what="Rajalingham2020")


def DicarloRajalingham2020ITPLS() -> NeuralBenchmark:
    from brainscore_vision import load_ceiling, load_metric

    region = "IT"
    repetitions = LazyLoad(lambda: load_assembly(False, region))
    ceiler = load_ceiling("internal_consistency")
    return NeuralBenchmark(identifier=f"Rajalingham2020.{region}-pls", version=2,
                           assembly=LazyLoad(lambda: load_assembly(True, region)),
                           similarity_metric=load_metric("pls", crossvalidation_kwargs={"stratification_coord": None}),
                           visual_degrees=VISUAL_DEGREES, number_of_trials=NUMBER_OF_TRIALS,
                           ceiling_func=lambda: ceiler(repetitions), parent=region, bibtex=BIBTEX, region=region)
