"""Data plugin: macaque V1 single-neuron property distributions and the grating stimuli of Marques et al. (2021).

Registered identifiers
----------------------
stimulus sets
    ``Marques2020_orientation`` (864 gratings), ``Marques2020_spatial_frequency`` (2,112), ``Marques2020_size``
    (1,728), ``Marques2020_receptive_field`` (3,528), ``Marques2020_blank`` (1): rendered by our own generator
    (:mod:`.gratings`) from the raw parameter tables on first use, packaged with brainio, then loaded (sha1-checked).
    Columns: ``stimulus_id``, ``image_id``, ``degrees``, ``radius``, ``position_x``, ``position_y``,
    ``orientation``, ``phase``, ``contrast``, ``spatial_frequency``, ``image_file_name`` (units: deg, cycles/deg).
    ``FreemanZiemba2013_properties`` is registered too, but its 450 texture images are not in the raw data: it loads
    Brain-Score's public copy where a network allows, else raises :class:`StimuliUnavailableError` saying so.
data (``PropertyAssembly``, dims ``neuroid x neuronal_property``)
    ``Ringach2002`` (304 x 12), ``Cavanaugh2002a`` (190 x 5), ``Schiller1976c`` (87 x 2),
    ``FreemanZiemba2013_V1_properties`` (102 x 9), ``DeValois1982a`` (385 x 1) and ``DeValois1982b`` (363 x 1), the
    last two drawn from the published histograms with a fixed seed; the older draws of the first upload as
    ``DeValois1982a-draw2020`` (246 x 1) and ``DeValois1982b-draw2020`` (232 x 1). See
    :mod:`.data_packaging.assemblies`.

Bin edges live in ``assembly.attrs['<property>_bins']`` as in Brain-Score (read them with :func:`property_bins`);
``attrs['number_of_trials']`` is the number of presentations per stimulus. ``attrs['stimulus_set']`` is the stimulus
set the benchmarks show (Brain-Score's relation: Ringach and DeValois1982a -> orientation, Cavanaugh -> size,
Schiller and DeValois1982b -> spatial_frequency, FreemanZiemba -> FreemanZiemba2013_properties) as a
:class:`~brainscore_vision.utils.LazyLoad`: the property values load without rendering any image, and
``resolve(assembly.stimulus_set)`` renders (once per store) and loads the set.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers import PackagedData
from brainscore_vision.data_helpers.public_catalogue import PublicDataUnavailableError
from brainscore_vision.errors import StimuliUnavailableError, UnknownPropertyError
from brainscore_vision.utils import LazyLoad

if TYPE_CHECKING:  # numpy is imported where it is used: registering this plugin imports nothing heavy
    import numpy as np

__all__ = ["ASSEMBLY_STIMULUS_SETS", "FREEMAN_ZIEMBA_STIMULI", "STIMULUS_SETS", "StimuliUnavailableError",
           "UnknownPropertyError", "property_bins", "property_names"]

BIBTEX = """@article{marques2021multi,
  title   = {Multi-scale hierarchical neural network models that bridge from single neurons in the primate primary
             visual cortex to object recognition behavior},
  author  = {Marques, Tiago and Schrimpf, Martin and DiCarlo, James J.},
  journal = {bioRxiv}, year = {2021}, doi = {10.1101/2021.03.01.433495}
}"""

STIMULUS_SETS = ("orientation", "spatial_frequency", "size", "receptive_field", "blank")
FREEMAN_ZIEMBA_STIMULI = "FreemanZiemba2013_properties"
#: assembly identifier -> identifier of the stimulus set its benchmarks show
ASSEMBLY_STIMULUS_SETS = {
    "Ringach2002": "Marques2020_orientation",
    "Cavanaugh2002a": "Marques2020_size",
    "Schiller1976c": "Marques2020_spatial_frequency",
    "FreemanZiemba2013_V1_properties": FREEMAN_ZIEMBA_STIMULI,
    "DeValois1982a": "Marques2020_orientation",
    "DeValois1982b": "Marques2020_spatial_frequency",
    "DeValois1982a-draw2020": "Marques2020_orientation",
    "DeValois1982b-draw2020": "Marques2020_spatial_frequency",
}

#: sha1 of every raw input file, relative to ``$BRAINSCORE_RAW_DATA/marques2020``
TABLE_SHA1 = {
    "orientation": "609583a477b46ce9c8f6ede9004b3bcb64d075a4",
    "spatial_frequency": "6c1c2b5caccb25eb9fe30833a61222d40a6942f9",
    "size": "798c39fa18781492c0c7e6e2b2b5006c07ce95f1",
    "receptive_field": "c608d3a63e2ef740d36ccfdcd259bf4b62f9a4b0",
    "blank": "38eb1d70ee9b9bca9202609c7f0fa924cb90ac70",
}
ASSEMBLY_RAW_SHA1 = {
    "assemblies/assy_devalois_DeValois1982a.npz": "f0b320fec4d7ad8eddb521bc97c86d4471bbc486",
    "assemblies/assy_devalois_DeValois1982b.npz": "497265be260b81be53fc95463eee6faee2a1383f",
    "assemblies/assy_movshon_Cavanaugh2002a.npz": "5ecc737d25854eb43379fc53960878930a642a89",
    "assemblies/assy_movshon_FreemanZiemba2013_V1_properties.npz": "2af088f77c5b2d11509784eab6d2753ee7d5a1f2",
    "assemblies/assy_schiller_Schiller1976c.npz": "13ed9d24c5bc7cb2872dba37dfbe48838d2c7b29",
    "assemblies/assy_shapley_Ringach2002.npz": "d8aa59112611be79ccb8fa3edfde6c74d45aae49",
    "published_histograms.json": "dad96f2b5b94ff10101621c837a3d3e070a27e90",
}






def _package_stimulus_set(name, raw_directory, store_directory):
    from brainscore_vision.data.marques2020.data_packaging.stimuli import package_set

    return package_set(name, raw_directory, store_directory)


def _package_assemblies(raw_directory, store_directory):
    from brainscore_vision.data.marques2020.data_packaging.assemblies import package

    return package(raw_directory, store_directory)


#: one store per stimulus set, so that loading one set never renders the others
stimuli_packaged = {
    name: PackagedData(f"marques2020_{name}", "marques2020", functools.partial(_package_stimulus_set, name),
                       raw_sha1={f"stimuli/image_dicarlo_Marques2020_{name}.csv": sha1}, packaging_version=1)
    for name, sha1 in TABLE_SHA1.items()}
assemblies_packaged = PackagedData("marques2020", "marques2020", _package_assemblies, raw_sha1=ASSEMBLY_RAW_SHA1,
                                   packaging_version=1)


def load_freeman_ziemba_stimuli():
    """Brain-Score's ``FreemanZiemba2013_properties`` images from its public store, or a clear error."""
    from brainscore_vision.data_helpers.public_catalogue import (
        catalogue_entry,
        load_stimulus_set_by_reference,
    )

    entry = catalogue_entry("stimulus_set", FREEMAN_ZIEMBA_STIMULI)
    try:
        return load_stimulus_set_by_reference(FREEMAN_ZIEMBA_STIMULI, entry)
    except PublicDataUnavailableError as error:
        raise StimuliUnavailableError(
            f"stimulus set {FREEMAN_ZIEMBA_STIMULI!r} is not available: its 450 texture and noise images are not in "
            "the raw data ($BRAINSCORE_RAW_DATA/marques2020 has only their parameter table, "
            "stimuli/image_movshon_FreemanZiemba2013_properties.csv) and Brain-Score's copy in bucket "
            f"{entry['bucket']!r}, key {entry['key']!r} could not be fetched ({error.__cause__ or error}); the "
            "FreemanZiemba2013_V1_properties data load without it") from error


def property_names(assembly) -> list[str]:
    """The property names of a ``neuroid x neuronal_property`` assembly, in order."""
    import numpy as np

    return [str(name) for name in np.asarray(assembly["neuronal_property"].values)]


def property_bins(assembly, property_name: str) -> np.ndarray:
    """Bin edges of ``property_name`` (``attrs['<property_name>_bins']``), ndarray of shape (n_bins + 1,).

    Raises
    ------
    UnknownPropertyError
        The assembly holds no such property (or no bins for it); names the assembly and its properties.
    """
    key = f"{property_name}_bins"
    if property_name not in property_names(assembly) or key not in assembly.attrs:
        raise UnknownPropertyError(
            f"assembly {assembly.attrs.get('identifier')!r} has no property {property_name!r} with bins "
            f"(attrs[{key!r}]); it holds {property_names(assembly)}")
    import numpy as np

    return np.asarray(assembly.attrs[key], dtype=float)


def load_property_assembly(identifier: str):
    """The packaged assembly ``identifier`` with its stimulus set attached lazily (see the module docstring)."""
    assembly = assemblies_packaged.load_assembly(identifier, stimulus_set_loader=None, merge_stimulus_set_meta=False)
    stimulus_set_identifier = ASSEMBLY_STIMULUS_SETS[identifier]
    assembly.attrs["stimulus_set_identifier"] = stimulus_set_identifier
    assembly.attrs["stimulus_set"] = LazyLoad(functools.partial(load_stimulus_set, stimulus_set_identifier))
    return assembly


for _name in STIMULUS_SETS:
    stimulus_set_registry[f"Marques2020_{_name}"] = functools.partial(
        stimuli_packaged[_name].load_stimulus_set, f"Marques2020_{_name}")
stimulus_set_registry[FREEMAN_ZIEMBA_STIMULI] = load_freeman_ziemba_stimuli
for _identifier in ASSEMBLY_STIMULUS_SETS:
    data_registry[_identifier] = functools.partial(load_property_assembly, _identifier)


def DATA_NEEDS(kind: str, identifier: str) -> str:
    """What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the
    recordings and grating tables are in ``$BRAINSCORE_RAW_DATA``; the FreemanZiemba2013 texture images are not."""
    return "unavailable" if kind == "stimulus_set" and identifier == FREEMAN_ZIEMBA_STIMULI else "shipped"
