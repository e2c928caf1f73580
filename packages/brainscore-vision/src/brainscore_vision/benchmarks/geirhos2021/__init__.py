"""Benchmark plugin: Geirhos et al. (2021) error consistency and top-1 accuracy on 17 data sets (34 identifiers,
Brain-Score's names), plus ``Geirhos2021cueconflict-shape_bias``.

Registered the Brain-Score way, by assigning factories into ``benchmark_registry``.
"""

from brainscore_vision import benchmark_registry
from brainscore_vision.data.geirhos2021 import DATASETS, DATASETS_WITH_IMAGES


def _factory(dataset: str, kind: str):
    def build():
        from brainscore_vision.benchmarks.geirhos2021 import benchmark

        if kind == "error_consistency":
            return benchmark.Geirhos2021ErrorConsistency(dataset)
        if kind == "top1":
            return benchmark.Geirhos2021Accuracy(dataset)
        return benchmark.Geirhos2021ShapeBias()

    return build


for _dataset in DATASETS:
    for _kind in ("error_consistency", "top1"):
        benchmark_registry[f"Geirhos2021{_dataset.replace('-', '')}-{_kind}"] = _factory(_dataset, _kind)
benchmark_registry["Geirhos2021cueconflict-shape_bias"] = _factory("cue-conflict", "shape_bias")

DATA_NEEDS = {identifier: "shipped" if any(identifier.startswith(f"Geirhos2021{dataset.replace('-', '')}-")
                                           for dataset in DATASETS_WITH_IMAGES) else "network"
              for identifier in (*(f"Geirhos2021{dataset.replace('-', '')}-{kind}" for dataset in DATASETS
                                   for kind in ("error_consistency", "top1")), "Geirhos2021cueconflict-shape_bias")}
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the four data sets whose
images are in ``$BRAINSCORE_RAW_DATA`` (cue-conflict, edge, silhouette, sketch) run offline; the other thirteen fetch
Brain-Score's stimuli from its public bucket (registered by reference, each with its own need)."""
