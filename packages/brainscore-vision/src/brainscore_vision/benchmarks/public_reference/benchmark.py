"""Brain-Score's benchmarks on its public data, as Brain-Score defines them; the data load from its public bucket
(:mod:`brainscore_vision.data.public_catalogue`), so scoring needs a network, and offline the first load fails in
one line naming the identifier, the bucket and the key.

``MajajHong2015.{V4,IT}.public-pls`` (registered as ``MajajHong2015public.{V4,IT}-pls``, Brain-Score's keys, and
``MajajHong2015.public.{V4,IT}-pls``)
    Macaque V4 / IT multi-unit responses to the HvM images (Majaj, Hong et al. 2015), 70-170 ms. NeuralBenchmark:
    8 degrees, 50 trials, ``pls`` cross-validated with splits stratified on ``object_name``, internal-consistency
    ceiling over the repetitions; version 4.
``Rajalingham2018-i2n`` (registered as ``Rajalingham2018public-i2n``, on the public half of the data)
    Human object-recognition behaviour (Rajalingham et al. 2018, match-to-sample): the model is fitted on the
    ``objectome.public`` images (``probabilities`` task), looks at the test images at 8 degrees (2 trials); metric
    ``i2n``; ceiling the split-half consistency of the human trials (``skipna``); score per split
    ``raw / sqrt(ceiling)``, averaged; parent ``behavior``, version 2.
``MajajHong2015public.{V4,IT}-temporal-pls`` (identifier ``MajajHong2015.{V4,IT}.public-temporal-pls``)
    ``MajajHong2015.temporal.public`` re-binned to 10-ms bins from 0 ms (:func:`~brainscore_vision.benchmark_helpers.
    _timebins.assembly_time_align`, Brain-Score's ``time_interval=10``); metric ``spantime_pls`` (one PLS mapping on
    all time bin x stimulus samples, r per bin), ceiling ``internal_consistency_temporal``; score per time bin. Brain-
    Score gives these the identifier of the static benchmark (``MajajHong2015.V4.public-pls``); here they carry
    ``-temporal-pls`` so that their stored results and cached ceilings never mix with the static benchmark's.
``FreemanZiemba2013.{V1,V2}.public-pls`` (registered as ``FreemanZiemba2013public.{V1,V2}-pls``)
    Macaque V1 / V2 responses to textures and noise (Freeman, Ziemba et al. 2013), averaged over the 1-ms bins of
    50-200 ms. 4 degrees, 20 trials, ``pls`` stratified on ``texture_type``; version 1.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_vision import load_ceiling, load_dataset, load_metric, load_stimulus_set
from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark, average_repetition
from brainscore_vision.data_helpers.bibtex import FREEMANZIEMBA_BIBTEX, MAJAJHONG_BIBTEX, RAJALINGHAM_BIBTEX
from brainscore_vision.utils import LazyLoad

__all__ = ["FreemanZiemba2013PublicPLS",
           "FreemanZiembaV1PublicBenchmark", "FreemanZiembaV2PublicBenchmark", "MajajHong2015PublicPLS",
           "MajajHong2015PublicTemporalPLS", "MajajHongITPublicBenchmark", "MajajHongV4PublicBenchmark",
           "Rajalingham2018PublicI2n", "RajalinghamMatchtosamplePublicBenchmark", "freemanziemba_assembly",
           "load_freemanziemba2013", "load_majajhong2015", "load_rajalingham2018", "majajhong_assembly",
           "majajhong_temporal_assembly", "rajalingham_assembly"]


def _region(assembly, region: str):
    regions = np.asarray(assembly["region"].values).astype(str)
    return assembly.isel(neuroid=np.flatnonzero(regions == region))


def majajhong_assembly(region: str, average_repetitions: bool, assembly=None):
    """``MajajHong2015.public`` of one region, ``presentation x neuroid`` (the single time bin squeezed)."""
    assembly = load_dataset("MajajHong2015.public") if assembly is None else assembly
    if "time_bin" in assembly.dims:
        assembly = assembly.squeeze("time_bin")
    assembly = _region(assembly, region).transpose("presentation", "neuroid", ...)
    return average_repetition(assembly) if average_repetitions else assembly


def majajhong_temporal_assembly(region: str, average_repetitions: bool, time_interval: int = 10, assembly=None):
    """``MajajHong2015.temporal.public`` of one region in bins of ``time_interval`` ms starting at 0, the last one
    ending before the recording's last bin end (Brain-Score's ``range(0, end - interval, interval)``)."""
    from brainscore_vision.benchmark_helpers._timebins import assembly_time_align

    assembly = load_dataset("MajajHong2015.temporal.public") if assembly is None else assembly
    end = int(np.max(assembly["time_bin_end"].values))
    target = [(start, start + time_interval) for start in range(0, end - time_interval, time_interval)]
    assembly = assembly_time_align(_region(assembly, region), target)
    assembly = assembly.transpose("presentation", "neuroid", "time_bin")
    return average_repetition(assembly) if average_repetitions else assembly


def freemanziemba_assembly(region: str, average_repetitions: bool, assembly=None, window=(50, 200)):
    """``FreemanZiemba2013.public`` of one region, the 1-ms bins of ``window`` averaged into one bin."""
    assembly = load_dataset("FreemanZiemba2013.public") if assembly is None else assembly
    assembly = _region(assembly, region)
    starts = np.asarray(assembly["time_bin_start"].values)
    ends = np.asarray(assembly["time_bin_end"].values)
    keep = np.flatnonzero((starts >= window[0]) & (starts < window[1]) & (ends == starts + 1))
    averaged = assembly.isel(time_bin=keep).mean("time_bin", keep_attrs=True)
    averaged = averaged.expand_dims("time_bin").assign_coords(time_bin_start=("time_bin", [window[0]]),
                                                            time_bin_end=("time_bin", [window[1]]))
    averaged = averaged.squeeze("time_bin").transpose("presentation", "neuroid")
    return average_repetition(averaged) if average_repetitions else averaged


def _public_pls(identifier: str, region: str, load, *, stratification_coord: str, visual_degrees: float,
                number_of_trials: int, version: int, timebins, bibtex: str) -> NeuralBenchmark:
    """A NeuralBenchmark on by-reference data: ``load(average_repetitions)`` gives the region's recordings."""
    repetitions = LazyLoad(lambda: load(False))
    ceiler = load_ceiling("internal_consistency")
    return NeuralBenchmark(
        identifier=identifier, version=version, assembly=LazyLoad(lambda: load(True)),
        similarity_metric=load_metric("pls", crossvalidation_kwargs={"stratification_coord": stratification_coord}),
        visual_degrees=visual_degrees, number_of_trials=number_of_trials, ceiling_func=lambda: ceiler(repetitions),
        parent=region, bibtex=bibtex, region=region, timebins=timebins)


def MajajHong2015PublicPLS(region: str, version: int = 4) -> NeuralBenchmark:
    """``version=3`` gives the number of Brain-Score's version 3, (raw / ceiling)^2 (see
    :mod:`brainscore_vision.benchmark_helpers.ceiling_mapping`)."""
    return _public_pls(f"MajajHong2015.{region}.public-pls", region,
                       lambda average: majajhong_assembly(region, average_repetitions=average),
                       stratification_coord="object_name", visual_degrees=8, number_of_trials=50, version=version,
                       timebins=[(70, 170)], bibtex=MAJAJHONG_BIBTEX)


def MajajHong2015PublicTemporalPLS(region: str, time_interval: int = 10, assembly=None) -> NeuralBenchmark:
    """``assembly`` (default None: ``MajajHong2015.temporal.public``) holds the trials of both regions."""
    repetitions = LazyLoad(lambda: majajhong_temporal_assembly(region, False, time_interval, assembly))
    ceiler = load_ceiling("internal_consistency_temporal")
    return NeuralBenchmark(
        identifier=f"MajajHong2015.{region}.public-temporal-pls", version=4,
        assembly=LazyLoad(lambda: majajhong_temporal_assembly(region, True, time_interval, assembly)),
        similarity_metric=load_metric("spantime_pls", crossvalidation_kwargs={"stratification_coord": "object_name"}),
        visual_degrees=8, number_of_trials=50, ceiling_func=lambda: ceiler(repetitions), parent=region,
        bibtex=MAJAJHONG_BIBTEX, region=region)


def FreemanZiemba2013PublicPLS(region: str) -> NeuralBenchmark:
    return _public_pls(f"FreemanZiemba2013.{region}.public-pls", region,
                       lambda average: freemanziemba_assembly(region, average_repetitions=average),
                       stratification_coord="texture_type", visual_degrees=4, number_of_trials=20, version=1,
                       timebins=[(50, 200)], bibtex=FREEMANZIEMBA_BIBTEX)


def rajalingham_assembly(assembly=None):
    """``Rajalingham2018.public`` with a ``correct`` coordinate (``choice == sample_obj``)."""
    assembly = load_dataset("Rajalingham2018.public") if assembly is None else assembly
    correct = np.asarray(assembly["choice"].values) == np.asarray(assembly["sample_obj"].values)
    return assembly.assign_coords(correct=("presentation", correct))


class Rajalingham2018PublicI2n(BenchmarkBase):
    """``Rajalingham2018public-i2n`` (identifier ``Rajalingham2018-i2n``, as Brain-Score names it).

    ``access='private'`` is Brain-Score's core benchmark ``Rajalingham2018-i2n`` on the private half of the trials
    (``Rajalingham2018.private``), the same code with one difference Brain-Score makes: its ceiling does not skip NaN
    (the public one is ``ceiling(..., skipna=True)``). The fitting images are ``objectome.public`` for both."""

    visual_degrees = 8
    number_of_trials = 2

    def __init__(self, access: str = "public"):
        self._metric = load_metric("i2n")
        self._assembly = LazyLoad(lambda: rajalingham_assembly(load_dataset(f"Rajalingham2018.{access}")))
        self._fitting_stimuli = LazyLoad(lambda: load_stimulus_set("objectome.public"))
        skipna = access == "public"
        super().__init__(identifier="Rajalingham2018-i2n", version=2, parent="behavior", bibtex=RAJALINGHAM_BIBTEX,
                         ceiling_func=lambda: self._metric.ceiling(self._assembly, skipna=skipna))

    def __call__(self, candidate):
        from brainscore_metrics.behavior.i2n import ceil_per_repetition
        from brainscore_vision.benchmark_helpers.screen import place_on_screen
        from brainscore_vision.model_interface import BrainModel
        from brainscore_vision.utils import resolve

        fitting = place_on_screen(resolve(self._fitting_stimuli), target_visual_degrees=candidate.visual_degrees(),
                                  source_visual_degrees=self.visual_degrees)
        candidate.start_task(BrainModel.Task.probabilities, fitting)
        assembly = resolve(self._assembly)
        stimuli = place_on_screen(assembly.stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                                  source_visual_degrees=self.visual_degrees)
        probabilities = candidate.look_at(stimuli, number_of_trials=self.number_of_trials)
        return ceil_per_repetition(self._metric(probabilities, assembly), self.ceiling)


# -- Brain-Score's names for these benchmarks and loaders (re-exported from its module paths, e.g.
# ``brainscore_vision.benchmarks.majajhong2015.benchmark``) ----------------------------------------------------------
def MajajHongV4PublicBenchmark() -> NeuralBenchmark:
    return MajajHong2015PublicPLS("V4")


def MajajHongITPublicBenchmark() -> NeuralBenchmark:
    return MajajHong2015PublicPLS("IT")


def FreemanZiembaV1PublicBenchmark() -> NeuralBenchmark:
    return FreemanZiemba2013PublicPLS("V1")


def FreemanZiembaV2PublicBenchmark() -> NeuralBenchmark:
    return FreemanZiemba2013PublicPLS("V2")


def RajalinghamMatchtosamplePublicBenchmark() -> Rajalingham2018PublicI2n:
    return Rajalingham2018PublicI2n()


def load_majajhong2015(average_repetitions: bool, region: str, access: str = "private"):
    """Brain-Score's ``majajhong2015.benchmark.load_assembly``: ``MajajHong2015.<access>`` of one region
    (``presentation x neuroid``), repetitions averaged or kept. Only ``access='public'`` is public data."""
    return majajhong_assembly(region, average_repetitions, assembly=load_dataset(f"MajajHong2015.{access}"))


def load_freemanziemba2013(average_repetitions: bool, region: str, access: str = "private"):
    """Brain-Score's ``freemanziemba2013.benchmarks.benchmark.load_assembly``: ``FreemanZiemba2013.<access>`` of one
    region, the 1-ms bins of 50-200 ms averaged. Only ``access='public'`` is public data."""
    return freemanziemba_assembly(region, average_repetitions, assembly=load_dataset(f"FreemanZiemba2013.{access}"))


def load_rajalingham2018(access: str = "private"):
    """Brain-Score's ``rajalingham2018.benchmarks.benchmark.load_assembly``: the human trials with ``correct``."""
    return rajalingham_assembly(assembly=load_dataset(f"Rajalingham2018.{access}"))
