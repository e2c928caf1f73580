"""Train/test neural benchmarks on THINGS images: Gifford2022 (EEG), Hebart2023_fmri (fMRI), Papale2025 (macaque
multi-unit), under Brain-Score's identifiers, versions and rules.

All three are :class:`~brainscore_vision.benchmark_helpers.neural_common.TrainTestNeuralBenchmark` with one mapping
per subject (``alpha_coord='subject'``: each subject's neuroids get their own RidgeCV alpha and are ceiled by their
own split-half internal consistency on the test repetitions), the ceiled subject scores averaged; one trial, version 3
(the corrected explained-variance mapping of Brain-Score #2169).

``Gifford2022.IT-{ridge,ridgecv}``
    17 EEG channels x 10 subjects; the 60 bins of 10 ms from 0 to 600 ms after onset, each (channel, bin) a neuroid
    of its own (:func:`~brainscore_vision.benchmark_helpers._timebins.flatten_timebins_into_neuroids`), mapped to IT;
    repetitions averaged on both sides; 7 degrees; ``REDUCED_ALPHA_LIST`` (23 alphas).
``Hebart2023_fmri.{V1,V2,V4,IT}-{ridge,ridgecv}``
    Voxels with a test-set noise ceiling above 30 (%) (``nc_testset``); train without repetitions; 10 degrees;
    Brain-Score's 99 alphas.
``Papale2025.{V1,V4,IT}-{ridge,ridgecv}``
    Sites with ``reliability`` above 0.3; 18 degrees (the two monkeys saw the images at 17.3 and 18.6); 99 alphas.

The ``-ridge`` variants are fixed ``alpha=1`` (Brain-Score passes the alphas to them too, and they ignore them).
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics.regression import ALPHA_LIST
from brainscore_vision import load_ceiling, load_dataset, load_metric
from brainscore_vision.benchmark_helpers._timebins import flatten_timebins_into_neuroids
from brainscore_vision.benchmark_helpers.neural_common import (
    TrainTestNeuralBenchmark,
    filter_reliable_neuroids,
    prepare_split_assembly,
)
from brainscore_vision.errors import BenchmarkDataError
from brainscore_vision.utils import LazyLoad

__all__ = ["FAMILIES", "REDUCED_ALPHA_LIST", "ThingsTrainTest", "load_assembly"]

REDUCED_ALPHA_LIST = [0.01, 0.1, 0.5, 1.0, 10, 50, 100, 500, 1000, 5000, *np.linspace(1e4, 1e5, 4, endpoint=False),
                      *np.linspace(1e5, 1e6, 4, endpoint=False), *np.linspace(1e6, 1e7, 5)]
"""Gifford2022's alphas (fewer, for its 1,700 neuroids x 10 subjects)."""

BIBTEX = {
    "Gifford2022": """@article{gifford_large_2022,
  title = {A large and rich {EEG} dataset for modeling human visual object recognition},
  author = {Gifford, Alessandro T. and Dwivedi, Kshitij and Roig, Gemma and Cichy, Radoslaw M.},
  journal = {NeuroImage}, volume = {264}, year = {2022}, doi = {10.1016/j.neuroimage.2022.119754}
}""",
    "Hebart2023_fmri": """@article{hebart_things-data_2023,
  title = {{THINGS}-data, a multimodal collection of large-scale datasets for investigating object representations in
           human brain and behavior},
  author = {Hebart, M. N. and Contier, O. and Teichmann, L. and Rockter, A. H. and Zheng, C. Y. and Kidder, A. and
            Corriveau, A. and Vaziri-Pashkam, M. and Baker, C. I.},
  journal = {eLife}, volume = {12}, year = {2023}, doi = {10.7554/eLife.82580}
}""",
    "Papale2025": """@article{papale_extensive_2025,
  title = {An extensive dataset of spiking activity to reveal the syntax of the ventral stream},
  author = {Papale, Paolo and Wang, Feng and Self, Matthew W. and Roelfsema, Pieter R.},
  journal = {Neuron}, volume = {113}, year = {2025}, doi = {10.1016/j.neuron.2024.12.003}
}""",
}

#: family -> (regions, visual degrees, alphas, reliability coordinate and threshold or None)
FAMILIES = {
    "Gifford2022": (("IT",), 7, REDUCED_ALPHA_LIST, None),
    "Hebart2023_fmri": (("V1", "V2", "V4", "IT"), 10, ALPHA_LIST, ("nc_testset", 0.3 * 100)),
    "Papale2025": (("V1", "V4", "IT"), 18, ALPHA_LIST, ("reliability", 0.3)),
}
VERSION = 3


def _select_region(assembly, region: str):
    regions = np.asarray(assembly["region"].values).astype(str)
    selected = assembly.isel(neuroid=np.flatnonzero(regions == region))
    if selected.sizes["neuroid"] == 0:
        raise BenchmarkDataError(f"assembly {assembly.attrs.get('identifier')!r} has no neuroid in region {region!r} "
                                 f"(it has {sorted(set(regions))})")
    return selected


def _gifford_window(assembly):
    """The 60 bins starting at 0 .. 590 ms (Brain-Score's ``sel(time_bin=slice(0, 0.59))``), flattened, in IT."""
    starts = np.asarray(assembly["time_bin_start"].values, dtype=float)
    keep = np.flatnonzero((starts >= -1e-9) & (starts <= 0.59 + 1e-9))
    if len(keep) != 60:
        raise BenchmarkDataError(f"Gifford2022: {len(keep)} time bins start within 0-0.59 s, expected 60")
    window = assembly.isel(time_bin=keep).transpose("presentation", "neuroid", "time_bin")
    flattened = flatten_timebins_into_neuroids(window)
    return flattened.assign_coords(region=("neuroid", ["IT"] * flattened.sizes["neuroid"]))


def load_assembly(family: str, region: str, split: str, average_repetitions: bool):
    """One family's ``split`` recordings of ``region`` (``presentation x neuroid``), as Brain-Score prepares them."""
    assembly = load_dataset(f"{family}_{split}")
    stimulus_set = assembly.attrs.get("stimulus_set")
    if family == "Gifford2022":
        assembly = _gifford_window(assembly)
    else:
        reliability = FAMILIES[family][3]
        assembly = _select_region(filter_reliable_neuroids(assembly, reliability[1], reliability[0]), region)
    return prepare_split_assembly(assembly, average_repetitions=average_repetitions, stimulus_set=stimulus_set)


def ThingsTrainTest(family: str, region: str, metric_type: str, alphas=None) -> TrainTestNeuralBenchmark:
    """``<family>.<region>-<metric_type>`` (``metric_type`` ``'ridge'`` or ``'ridgecv'``)."""
    regions, visual_degrees, default_alphas, _ = FAMILIES[family]
    if region not in regions:
        raise BenchmarkDataError(f"{family} has no region {region!r}; it has {regions}")
    train_repetitions = family == "Gifford2022"  # Gifford's train images were shown 4 times: averaged
    train = LazyLoad(lambda: load_assembly(family, region, "train", average_repetitions=train_repetitions))
    test = LazyLoad(lambda: load_assembly(family, region, "test", average_repetitions=True))
    test_repetitions = LazyLoad(lambda: load_assembly(family, region, "test", average_repetitions=False))
    ceiler = load_ceiling("internal_consistency")
    return TrainTestNeuralBenchmark(
        identifier=f"{family}.{region}-{metric_type}", version=VERSION, ceiling_func=lambda: ceiler(test_repetitions),
        train_assembly=train, test_assembly=test,
        similarity_metric=load_metric(f"{metric_type}_split", alphas=alphas if alphas is not None else default_alphas),
        alpha_coord="subject", per_voxel_ceilings=False, visual_degrees=visual_degrees, number_of_trials=1,
        parent=region, bibtex=BIBTEX[family], region=region)
