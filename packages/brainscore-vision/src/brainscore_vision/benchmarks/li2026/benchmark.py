"""``Li2026.{V1,V2,V4,IT}-{ridgecv,rdm,pls}``: macaque Neuropixels responses to the 1,000 NSD shared images (Li et
al. 2026, Triple-N), as Brain-Score defines them (12 benchmarks, version 1, 11 degrees, 1 trial).

The units of a region whose split-half reliability at 70-170 ms (``reliability_window``, Spearman-Brown corrected)
exceeds 0.4 (:func:`load_assembly`).

* ``-ridgecv``: RidgeCV over 10 unstratified shuffle splits (Brain-Score's ``DualRidgeCVRegression``: the alpha of
  its 99 by leave-one-out, the mapping in the dual form; ours takes the kernel path by itself when features
  outnumber training images, with one factorisation of the Gram matrix per split); parent ``Li2026.<region>``.
* ``-pls``: ``pls`` over 10 unstratified splits; no parent (runnable, outside Brain-Score's scored tree).
* ``-rdm``: RSA over animals (:class:`~brainscore_vision.benchmark_helpers.rsa_subjects.RSABenchmark`, the animal as
  ``subject``): the model's RDM against each animal's, mean over animals, over ``rsa_ceiling``; parent
  ``Li2026.<region>``.

The ridgecv and pls ceiling (:func:`reliability_ceiling`) is the median over the units of ``reliability_window``,
with ``attrs['error']`` the standard deviation of 1,000 medians of units drawn with replacement
(``numpy.random.RandomState(0)``) and ``attrs['raw']`` the per-unit reliabilities; the score is raw^2 / ceiling.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Score
from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark, RSABenchmark
from brainscore_vision.data.li2026 import BIBTEX
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["BIBTEX", "NUMBER_OF_TRIALS", "RELIABILITY_THRESHOLD", "VISUAL_DEGREES", "li2026_benchmark",
           "li2026_rsa_benchmark", "load_assembly", "load_rsa_assembly", "reliability_ceiling"]

VISUAL_DEGREES = 11
NUMBER_OF_TRIALS = 1
RELIABILITY_THRESHOLD = 0.4
_CV_KWARGS = {"stratification_coord": None}


def reliability_ceiling(assembly, coord: str = "reliability_window", n_bootstraps: int = 1000) -> Score:
    """Median over the neuroids of ``coord`` (NaN skipped), ``attrs['error']`` the standard deviation of
    ``n_bootstraps`` medians of the finite values resampled with replacement (``RandomState(0)``, one draw of all
    values per resample, in Brain-Score's order), ``attrs['raw']`` the values over ``neuroid`` (``neuroid_id``)."""
    reliabilities = np.asarray(assembly[coord].values, dtype=float)
    finite = reliabilities[np.isfinite(reliabilities)]
    rng = np.random.RandomState(0)
    # resamples drawn one after another consume the generator as (rows, n) draws do, in blocks of rows (bounded memory)
    medians = np.concatenate([np.median(rng.choice(finite, size=(rows, finite.size), replace=True), axis=1)
                              for rows in np.diff(np.r_[0:n_bootstraps:64, n_bootstraps])])
    ceiling = Score(float(np.nanmedian(reliabilities)))
    ceiling.attrs["error"] = float(np.std(medians))
    ceiling.attrs["raw"] = Score(reliabilities, coords={"neuroid_id": ("neuroid", np.asarray(
        assembly["neuroid_id"].values))}, dims=["neuroid"])
    return ceiling


def load_assembly(region: str, assembly=None):
    """``Li2026`` units of ``region`` with ``reliability_window`` above the threshold, ``presentation x neuroid``."""
    from brainscore_vision import load_dataset

    assembly = load_dataset("Li2026") if assembly is None else assembly
    stimulus_set = assembly.attrs.get("stimulus_set")
    if "time_bin" in assembly.dims:
        assembly = assembly.squeeze("time_bin")
    keep = ((np.asarray(assembly["region"].values).astype(str) == region)
            & (np.asarray(assembly["reliability_window"].values) > RELIABILITY_THRESHOLD))
    assembly = assembly.isel(neuroid=np.flatnonzero(keep)).transpose("presentation", "neuroid", ...)
    assembly.attrs["stimulus_set"] = stimulus_set
    return assembly


def load_rsa_assembly(region: str, assembly=None):
    """:func:`load_assembly` with the ``animal`` of each unit as its ``subject`` (what RSA over subjects reads)."""
    assembly = load_assembly(region, assembly)
    return assembly.assign_coords(subject=("neuroid", np.asarray(assembly["animal"].values)))


def _metric(metric_type: str):
    from brainscore_vision import load_metric

    return load_metric(metric_type, crossvalidation_kwargs=dict(_CV_KWARGS))


def li2026_benchmark(region: str, metric_type: str) -> NeuralBenchmark:
    """``Li2026.<region>-<metric_type>`` for ``metric_type`` in ``ridgecv``, ``pls``."""
    assembly = LazyLoad(lambda: load_assembly(region))
    return NeuralBenchmark(identifier=f"Li2026.{region}-{metric_type}", version=1, assembly=assembly,
                           similarity_metric=_metric(metric_type), visual_degrees=VISUAL_DEGREES,
                           number_of_trials=NUMBER_OF_TRIALS,
                           ceiling_func=lambda: reliability_ceiling(resolve(assembly)), ceiling_data=assembly.resolve,
                           parent=f"Li2026.{region}" if metric_type == "ridgecv" else None, bibtex=BIBTEX,
                           region=region, timebins=[(70, 170)])


def li2026_rsa_benchmark(region: str) -> RSABenchmark:
    """``Li2026.<region>-rdm``."""
    return RSABenchmark(identifier=f"Li2026.{region}-rdm", version=1,
                        assembly=LazyLoad(lambda: load_rsa_assembly(region)), region=region,
                        visual_degrees=VISUAL_DEGREES, number_of_trials=NUMBER_OF_TRIALS, bibtex=BIBTEX,
                        parent=f"Li2026.{region}")
