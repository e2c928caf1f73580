"""``Sanghavi2020``, ``SanghaviJozwik2020``, ``SanghaviMurty2020`` ``.{V4,IT}-pls``: macaque V4 and IT multi-units on
three image sets (HvM, BOLD5000, Rust2012), as Brain-Score defines them.

NeuralBenchmark per data set and region: the 70-170 ms bin (``time_bin_id`` 0), repetitions averaged, ``pls`` over
10 splits (stratified on ``object_name`` for Sanghavi2020 only), ``internal_consistency`` of the repetitions; version
2, parent the region. Trials and degrees (checked against the data): Sanghavi2020 28 / 8, SanghaviJozwik2020 37 / 8,
SanghaviMurty2020 50 / 5.
"""

from __future__ import annotations

from dataclasses import dataclass

from brainscore_vision.benchmark_helpers._regions import region_recordings
from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark
from brainscore_vision.data.sanghavi2020 import BIBTEX_SANGHAVI, BIBTEX_SANGHAVIJOZWIK, BIBTEX_SANGHAVIMURTY
from brainscore_vision.utils import LazyLoad

__all__ = ["DATASETS", "SanghaviDataset", "sanghavi_benchmark", "load_assembly"]


@dataclass(frozen=True)
class SanghaviDataset:
    name: str
    visual_degrees: float
    number_of_trials: int
    stratification_coord: str | None
    bibtex: str


DATASETS = {dataset.name: dataset for dataset in (
    SanghaviDataset("Sanghavi2020", 8, 28, "object_name", BIBTEX_SANGHAVI),
    SanghaviDataset("SanghaviJozwik2020", 8, 37, None, BIBTEX_SANGHAVIJOZWIK),
    SanghaviDataset("SanghaviMurty2020", 5, 50, None, BIBTEX_SANGHAVIMURTY))}


def load_assembly(dataset: str, average_repetitions: bool, region: str, assembly=None):
    """One region of a Sanghavi data set at 70-170 ms (Brain-Score's ``load_assembly`` of each module)."""
    from brainscore_vision import load_dataset

    spec = DATASETS[dataset]
    assembly = load_dataset(dataset) if assembly is None else assembly
    return region_recordings(assembly, region, average_repetitions=average_repetitions, time_bin_id=0,
                             number_of_trials=spec.number_of_trials, visual_degrees=spec.visual_degrees, what=dataset)


def sanghavi_benchmark(dataset: str, region: str) -> NeuralBenchmark:
    """``<dataset>.<region>-pls``."""
    from brainscore_vision import load_ceiling, load_metric

    spec = DATASETS[dataset]
    repetitions = LazyLoad(lambda: load_assembly(dataset, False, region))
    ceiler = load_ceiling("internal_consistency")
    metric = load_metric("pls", crossvalidation_kwargs={"stratification_coord": spec.stratification_coord})
    return NeuralBenchmark(identifier=f"{dataset}.{region}-pls", version=2,
                           assembly=LazyLoad(lambda: load_assembly(dataset, True, region)), similarity_metric=metric,
                           visual_degrees=spec.visual_degrees, number_of_trials=spec.number_of_trials,
                           ceiling_func=lambda: ceiler(repetitions), parent=region, bibtex=spec.bibtex, region=region)
