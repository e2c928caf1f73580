"""Brain-Score's FreemanZiemba2013 texture properties and its seven texture benchmarks' metric on fixed inputs: the
expected values of ``tests/test_freemanziemba2013_properties.py``.

Run with Brain-Score's released code (brainscore-vision 2.4.2, whose ``benchmarks/marques2020``,
``benchmark_helpers/properties_common.py`` and ``metrics/distribution_similarity`` files are those of brain-score/vision
at commit c642dbe42aae3ed064bc0b66f70a80b264021164), from this package's folder::

    RESULTCACHING_DISABLE=1 /work/venvs/bsref/bin/python benchmarks/reference_freemanziemba2013_properties.py \\
        --raw-data ../../../shared/data > tests/data/reference_freemanziemba2013_properties.json

What it computes, with Brain-Score's functions:

* ``freemanziemba2013_properties`` (its ``@store`` cache off) on two inputs built by the functions below, which the
  tests import: four hand-worked units (``hand_worked_inputs``, their values derived in the test) and 40 random units
  in a shuffled presentation order (``random_inputs``: 2 types x 15 families x 15 samples, as the 450 images);
* for each of the seven benchmarks, its ``ks_similarity`` metric (``BootstrapDistributionSimilarity``) of the random
  units' properties against the real ``FreemanZiemba2013_V1_properties`` assembly (the ``.nc`` file of the raw data),
  its ceiling (``NeuronalPropertyCeiling``: the data against itself) and the ceiled score. Brain-Score draws its 1,000
  resamples from numpy's global, unseeded generator; here its ``np.random.choice`` is handed the very resamples our
  metric draws (``numpy.random.default_rng(0).integers(0, n_model, (1000, n_data))``, :func:`resample_indices`), so
  both sides average the same 1,000 histograms. The sums of those indices are recorded so that a change of numpy's
  stream shows as such.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from pathlib import Path

import numpy as np

REFERENCE_COMMIT = "c642dbe42aae3ed064bc0b66f70a80b264021164"
N_RESAMPLES = 1000
#: the seven benchmarks: identifier -> the property its metric compares (Brain-Score's ``property_name``)
BENCHMARK_PROPERTIES = {
    "Marques2020_FreemanZiemba2013-texture_modulation_index": "texture_modulation_index",
    "Marques2020_FreemanZiemba2013-abs_texture_modulation_index": "absolute_texture_modulation_index",
    "Marques2020_FreemanZiemba2013-texture_selectivity": "texture_selectivity",
    "Marques2020_FreemanZiemba2013-texture_sparseness": "texture_sparseness",
    "Marques2020_FreemanZiemba2013-texture_variance_ratio": "variance_ratio",
    "Marques2020_FreemanZiemba2013-max_texture": "max_texture",
    "Marques2020_FreemanZiemba2013-max_noise": "max_noise",
}
DATA_FILE = "marques2020/assemblies/assy_movshon_FreemanZiemba2013_V1_properties.nc"


# ------------------------------------------------------------------------------------------------ inputs
def rate_of_spikes(t: float) -> float:
    """The firing rate whose variance-stabilised value ``sqrt(r/10) + sqrt(r/10 + 1)`` is ``t`` (t >= 1):
    ``r = 10 ((t^2 - 1) / (2t))^2``."""
    return 10 * ((t * t - 1) / (2 * t)) ** 2


def hand_worked_inputs():
    """(rates (4 units, 2 types, 2 families, 3 samples), baseline (4,)): type 0 noise, 1 texture.

    * A (baseline 2): noise 12 / 7, texture 32 / 17 per family, constant over samples;
    * B (baseline 0): texture samples of variance-stabilised values (1, 3, 2) and (3, 5, 4), noise constant at a
      third of family 0's texture mean and at family 1's texture mean;
    * C (baseline 4): noise 24 / 4, texture 14 / 4 (family 1 all at baseline: 0/0);
    * D (baseline 1): every rate 6, so its best baseline-subtracted response is exactly 5: not kept (> 5 is).
    """
    rates = np.empty((4, 2, 2, 3))
    rates[0, 0] = [[12, 12, 12], [7, 7, 7]]
    rates[0, 1] = [[32, 32, 32], [17, 17, 17]]
    texture_b = np.array([[rate_of_spikes(t) for t in row] for row in ((1, 3, 2), (3, 5, 4))])
    rates[1, 1] = texture_b
    means_b = texture_b.mean(axis=1)
    rates[1, 0] = [[means_b[0] / 3] * 3, [means_b[1]] * 3]
    rates[2, 0] = [[24, 24, 24], [4, 4, 4]]
    rates[2, 1] = [[14, 14, 14], [4, 4, 4]]
    rates[3] = 6
    return rates, np.array([2.0, 0.0, 4.0, 1.0])


def random_inputs():
    """(rates (40 units, 2 types, 15 families, 15 samples), baseline (40,), presentation order (450,)): gamma-
    distributed responses with a texture gain per unit and family; unit 0 below the response threshold."""
    rng = np.random.default_rng(2013)
    n_units, n_family, n_sample = 40, 15, 15
    baseline = rng.uniform(0, 4, n_units)
    scale = rng.lognormal(0, 0.6, n_units)
    scale[0] = 0.05
    gain = rng.lognormal(0, 0.5, (n_units, n_family))
    noise = rng.gamma(2.0, 4.0, (n_units, n_family, n_sample)) * scale[:, None, None]
    texture = rng.gamma(2.0, 4.0, (n_units, n_family, n_sample)) * (scale[:, None] * gain)[:, :, None]
    rates = baseline[:, None, None, None] + np.stack([noise, texture], axis=1)
    return rates, baseline, rng.permutation(2 * n_family * n_sample)


def presentation_coords(shape: tuple[int, int, int], order: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """``type`` (1 noise, 2 texture), ``family`` and ``sample`` (from 1) of each presentation, in the ``(type, family,
    sample)`` order of the rates, permuted by ``order``."""
    n_type, n_family, n_sample = shape
    grid = np.meshgrid(np.arange(1, n_type + 1), np.arange(1, n_family + 1), np.arange(1, n_sample + 1),
                       indexing="ij")
    coords = {name: values.reshape(-1) for name, values in zip(("type", "family", "sample"), grid, strict=True)}
    return coords if order is None else {name: values[order] for name, values in coords.items()}


def flat_rates(rates: np.ndarray, order: np.ndarray | None = None) -> np.ndarray:
    """``(neuroid, presentation)`` rates in the order of :func:`presentation_coords`."""
    flat = rates.reshape(len(rates), -1)
    return flat if order is None else flat[:, order]


def resample_indices(n_model: int, n_data: int) -> np.ndarray:
    """The indices our ``ks_similarity`` draws (``default_rng(0)``, its default ``random_state``), one row a
    resample."""
    return np.random.default_rng(0).integers(0, n_model, size=(N_RESAMPLES, n_data))


# ------------------------------------------------------------------------------------------------- reference
def _assemblies(rates, baseline, order=None):
    from brainscore_core.supported_data_standards.brainio.assemblies import DataAssembly

    coords = presentation_coords(rates.shape[1:], order)
    n_units = len(rates)
    responses = DataAssembly(flat_rates(rates, order), coords={
        "neuroid_id": ("neuroid", np.arange(n_units)), "stimulus_id": ("presentation", np.arange(coords["type"].size)),
        **{name: ("presentation", values) for name, values in coords.items()}}, dims=["neuroid", "presentation"])
    blank = DataAssembly(baseline.reshape(-1, 1), coords={"neuroid_id": ("neuroid", np.arange(n_units)),
                                                          "stimulus_id": ("presentation", [0])},
                         dims=["neuroid", "presentation"])
    return responses, blank


def _properties(rates, baseline, order=None, name="hand"):
    from brainscore_vision.benchmarks.marques2020.benchmarks.freemanZiemba2013_benchmark import (
        freemanziemba2013_properties,
    )

    responses, blank = _assemblies(rates, baseline, order)
    properties = freemanziemba2013_properties(model_identifier=f"reference-{name}", responses=responses,
                                              baseline=blank)
    return properties


def _data(raw_data: Path):
    import xarray as xr

    from brainscore_core.supported_data_standards.brainio.assemblies import PropertyAssembly

    array = xr.open_dataarray(raw_data / DATA_FILE)
    array = array.rename({"neuronal_property_": "neuronal_property"}) if "neuronal_property_" in array.coords else array
    return PropertyAssembly(array.load())


class _GivenResamples:
    """Stands in for ``np.random.choice(values, n)``: row after row of given indices."""

    def __init__(self, indices: np.ndarray):
        self.indices, self.row = indices, 0

    def __call__(self, values, size):
        assert size == self.indices.shape[1]
        picked = np.asarray(values)[self.indices[self.row]]
        self.row += 1
        return picked


def _benchmarks(model_properties, raw_data: Path) -> tuple[dict, dict]:
    from brainscore_vision.metrics.distribution_similarity.metric import (
        BootstrapDistributionSimilarity,
        NeuronalPropertyCeiling,
    )

    out, checksums = {}, {}
    choice = np.random.choice
    try:
        for identifier, property_name in BENCHMARK_PROPERTIES.items():
            metric = BootstrapDistributionSimilarity(property_name=property_name)
            data = _data(raw_data)
            n_model, n_data = len(model_properties["neuroid"]), len(data["neuroid"])
            model_draws, ceiling_draws = resample_indices(n_model, n_data), resample_indices(n_data, n_data)
            checksums = {"model": int(model_draws.sum()), "ceiling": int(ceiling_draws.sum()),
                         "n_model": n_model, "n_data": n_data}
            np.random.choice = _GivenResamples(model_draws)
            raw = metric(model_properties.copy(deep=True), data.copy(deep=True))
            np.random.choice = _GivenResamples(ceiling_draws)
            ceiling = NeuronalPropertyCeiling(metric)(data.copy(deep=True))
            out[identifier] = {"property": property_name, "raw": float(raw), "raw_error": float(raw.attrs["error"]),
                               "ceiling": float(ceiling), "score": float(raw) / float(ceiling)}
    finally:
        np.random.choice = choice
    return out, checksums


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw-data", type=Path, required=True, help="the folder of the raw recordings")
    arguments = parser.parse_args(argv)
    os.environ.setdefault("RESULTCACHING_DISABLE", "1")
    hand = _properties(*hand_worked_inputs())
    rates, baseline, order = random_inputs()
    random = _properties(rates, baseline, order, name="random")
    benchmarks, checksums = _benchmarks(random, arguments.raw_data)
    out = {"reference_commit": REFERENCE_COMMIT, "brainscore_vision": _version(), "numpy": np.__version__,
           "date": datetime.date.today().isoformat(),
           "command": "RESULTCACHING_DISABLE=1 python benchmarks/reference_freemanziemba2013_properties.py "
                      "--raw-data <shared/data>",
           "property_names": [str(name) for name in hand["neuronal_property"].values],
           "hand_worked": np.asarray(hand.values).tolist(), "random": np.asarray(random.values).tolist(),
           "resample_checksums": checksums, "benchmarks": benchmarks}
    json.dump(out, sys.stdout, indent=1)
    print()


def _version() -> str:
    from importlib.metadata import version

    return version("brainscore-vision")


if __name__ == "__main__":
    main()
