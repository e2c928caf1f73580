"""Package the Marques2020 single-neuron property distributions (raw files in ``marques2020/``) as PropertyAssemblies.

Run as a script::

    python -m brainscore_vision.data.marques2020.data_packaging.assemblies --raw-data ../shared/data --out /tmp/m20

Every assembly has dims ``neuroid x neuronal_property``, coordinates ``neuroid_id`` and ``region`` (``'V1'``) on
``neuroid`` and ``neuronal_property`` (the property names), and, as in Brain-Score, ``attrs['number_of_trials']``
and one ``attrs['<property>_bins']`` array of bin edges per property. NaN marks a property that is undefined for a
neuron.

* ``Ringach2002``, ``Cavanaugh2002a``, ``Schiller1976c``, ``FreemanZiemba2013_V1_properties``: the values of the
  raw ``assemblies/assy_<lab>_<Name>.npz`` (the numbers of the ``.nc`` beside it, readable by numpy alone, nothing
  pickled). Two Ringach2002 names are spelled as current Brain-Score spells them:
  ``…_bandwith_ratio`` -> ``…_bandwidth_ratio`` (the property and its bins).
* ``DeValois1982a`` (385 neurons, preferred orientation) and ``DeValois1982b`` (363 neurons, peak spatial
  frequency), the sizes of current Brain-Score: drawn from the digitised histograms of ``published_histograms.json``
  by :func:`draw_from_histograms` with ``numpy.random.default_rng(DRAW_SEED)``: each bin holds exactly its published
  count, the values spread uniformly inside it (on the log2 axis for ``scale='log2'``).
* ``DeValois1982a-draw2020`` (246 neurons) and ``DeValois1982b-draw2020`` (232): the older draws of the first
  upload (the raw ``.npz``), kept for comparison with scores computed on them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from brainio.assemblies import PropertyAssembly
from brainscore_vision.data_helpers.packaging_steps import add_assembly, empty_manifest, run_packaging_script
from brainscore_vision.errors import RawDataError

__all__ = ["DRAWN", "DRAW_SEED", "FROM_FILES", "LEGACY_NAMES", "RawDataError", "build_property_assembly",
           "draw_from_histograms", "package", "read_property_file"]

#: identifier -> (raw file stem in ``assemblies/``, stimulus set the benchmarks show)
FROM_FILES = {
    "Ringach2002": ("assy_shapley_Ringach2002", "Marques2020_orientation"),
    "Cavanaugh2002a": ("assy_movshon_Cavanaugh2002a", "Marques2020_size"),
    "Schiller1976c": ("assy_schiller_Schiller1976c", "Marques2020_spatial_frequency"),
    "FreemanZiemba2013_V1_properties": ("assy_movshon_FreemanZiemba2013_V1_properties",
                                        "FreemanZiemba2013_properties"),
    "DeValois1982a-draw2020": ("assy_devalois_DeValois1982a", "Marques2020_orientation"),
    "DeValois1982b-draw2020": ("assy_devalois_DeValois1982b", "Marques2020_spatial_frequency"),
}
#: identifier -> stimulus set, for the assemblies drawn from ``published_histograms.json``
DRAWN = {"DeValois1982a": "Marques2020_orientation", "DeValois1982b": "Marques2020_spatial_frequency"}
DRAW_SEED = 0
"""Seed of ``numpy.random.default_rng`` for each drawn assembly (one generator per assembly)."""
LEGACY_NAMES = {"circular_variance_bandwith_ratio": "circular_variance_bandwidth_ratio",
                "orthogonal_preferred_ratio_bandwith_ratio": "orthogonal_preferred_ratio_bandwidth_ratio"}
"""Property names of the first upload -> current Brain-Score names."""




def build_property_assembly(values: np.ndarray, properties, bins: Mapping[str, np.ndarray], *,
                            number_of_trials: int, region="V1", neuroid_id=None) -> PropertyAssembly:
    """A ``neuroid x neuronal_property`` PropertyAssembly with Brain-Score's attrs.

    Parameters
    ----------
    values : ndarray of shape (n_neuroids, n_properties)
    properties : sequence of str, length n_properties
    bins : mapping of property name to ndarray of bin edges
        Stored as ``attrs['<property>_bins']``.
    number_of_trials : int
    region : str or array of str of shape (n_neuroids,), default='V1'
    neuroid_id : array of int, default=None meaning ``0 .. n_neuroids - 1``
    """
    values = np.asarray(values, dtype=float)
    n_neuroids = values.shape[0]
    neuroid_id = np.arange(n_neuroids) if neuroid_id is None else np.asarray(neuroid_id)
    attrs: dict[str, Any] = {"number_of_trials": int(number_of_trials)}
    attrs.update({f"{name}_bins": np.asarray(bins[name], dtype=float) for name in properties})
    return PropertyAssembly(values, coords={"neuroid_id": ("neuroid", neuroid_id),
                                            "region": ("neuroid", np.broadcast_to(np.asarray(region, str),
                                                                                  (n_neuroids,)).copy()),
                                            "neuronal_property": ("neuronal_property", np.asarray(properties, str))},
                            dims=["neuroid", "neuronal_property"], attrs=attrs)


def read_property_file(path: Path) -> PropertyAssembly:
    """The property assembly of one raw ``.npz`` (``values``, ``neuroid_id``, ``region``, ``neuronal_property``,
    ``number_of_trials``, ``bins_<property>``), legacy names mapped by :data:`LEGACY_NAMES`."""
    with np.load(path, allow_pickle=False) as content:
        missing = [key for key in ("values", "neuroid_id", "region", "neuronal_property", "number_of_trials")
                   if key not in content.files]
        names = [str(name) for name in content["neuronal_property"]] if not missing else []
        missing += [f"bins_{name}" for name in names if f"bins_{name}" not in content.files]
        if missing:
            raise RawDataError(f"{path}: missing arrays {missing}")
        values = content["values"]
        if values.shape != (len(content["neuroid_id"]), len(names)):
            raise RawDataError(f"{path}: values of shape {values.shape} do not fit {len(content['neuroid_id'])} "
                               f"neuroids x {len(names)} properties")
        bins = {LEGACY_NAMES.get(name, name): content[f"bins_{name}"] for name in names}
        assembly = build_property_assembly(values, [LEGACY_NAMES.get(name, name) for name in names], bins,
                                           number_of_trials=int(content["number_of_trials"]),
                                           region=content["region"], neuroid_id=content["neuroid_id"])
    return assembly


def _uniform_in_bins(rng: np.random.Generator, edges: np.ndarray, counts: np.ndarray, scale: str) -> np.ndarray:
    """``counts[i]`` values uniform in ``[edges[i], edges[i + 1])`` on a linear or log2 axis, in bin order."""
    lower, upper = np.repeat(edges[:-1], counts), np.repeat(edges[1:], counts)
    if scale == "log2":
        values = 2 ** (np.log2(lower) + rng.random(len(lower)) * (np.log2(upper) - np.log2(lower)))
    elif scale == "linear":
        values = lower + rng.random(len(lower)) * (upper - lower)
    else:
        raise RawDataError(f"unknown histogram scale {scale!r}; expected 'linear' or 'log2'")
    return np.clip(values, lower, np.nextafter(upper, -np.inf))  # rounding never leaves the bin


def draw_from_histograms(entry: Mapping[str, Any], *, seed: int = DRAW_SEED) -> tuple[np.ndarray, list[str], dict]:
    """One synthetic value per neuron and property, reproducing the published histograms bin for bin.

    Parameters
    ----------
    entry : mapping
        ``published_histograms.json``'s ``assemblies.<Name>``: ``n_neurons`` and ``properties.<property>`` with
        ``bin_edges``, ``counts``, ``scale`` (``'linear'`` or ``'log2'``), ``value_kind`` (``'binary'``: the first
        count are 0s, the second 1s) and ``n_without_value`` (NaN rows, placed first).
    seed : int, default=DRAW_SEED

    Returns
    -------
    values : ndarray of shape (n_neurons, n_properties)
    properties : list of str
    bins : dict of property name to ndarray of edges
    """
    rng = np.random.default_rng(seed)
    n_neurons = int(entry["n_neurons"])
    properties = list(entry["properties"])
    values = np.full((n_neurons, len(properties)), np.nan)
    bins = {}
    for column, name in enumerate(properties):
        spec = entry["properties"][name]
        edges, counts = np.asarray(spec["bin_edges"], float), np.asarray(spec["counts"], int)
        if spec.get("value_kind") == "binary":
            drawn = np.repeat([0.0, 1.0], counts[:2])
        else:
            drawn = _uniform_in_bins(rng, edges, counts, spec.get("scale", "linear"))
        empty = int(spec.get("n_without_value", 0))
        if empty + len(drawn) != n_neurons:
            raise RawDataError(f"histogram of {name!r}: {len(drawn)} counts + {empty} without value != "
                               f"{n_neurons} neurons")
        values[empty:, column] = drawn
        bins[name] = edges
    return values, properties, bins


def package(raw_directory: Path, store_directory: Path) -> Mapping[str, Any]:
    """Build and package the eight property assemblies into ``store_directory``; returns the manifest."""
    raw_directory, store_directory = Path(raw_directory), Path(store_directory)
    store_directory.mkdir(parents=True, exist_ok=True)
    manifest = empty_manifest()
    for identifier, (stem, stimulus_set) in FROM_FILES.items():
        assembly = read_property_file(raw_directory / "assemblies" / f"{stem}.npz")
        add_assembly(manifest, assembly, identifier, stimulus_set, "PropertyAssembly", store_directory,
                     allow_nan=True)
    histograms = json.loads((raw_directory / "published_histograms.json").read_text(encoding="utf-8"))
    for identifier, stimulus_set in DRAWN.items():
        entry = histograms["assemblies"][identifier]
        values, properties, bins = draw_from_histograms(entry)
        assembly = build_property_assembly(values, properties, bins,
                                           number_of_trials=int(entry["number_of_trials_in_script"]))
        add_assembly(manifest, assembly, identifier, stimulus_set, "PropertyAssembly", store_directory,
                     allow_nan=True)
    return manifest


def main(argv: list[str] | None = None) -> None:
    run_packaging_script(package, "marques2020", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    main()
