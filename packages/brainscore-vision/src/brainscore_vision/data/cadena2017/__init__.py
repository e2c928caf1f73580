"""Data plugin: Cadena et al. 2017/2019, macaque V1 single units (166) to natural images and their textures,
registered by reference to Brain-Score's bucket (``catalogue.json`` beside this module).

``Cadena2017`` (stimulus set) and ``Cadena2017`` (NeuronRecordingAssembly, ``presentation x neuroid x time_bin``,
presentations with ``repetition_id``; NaN where a stimulus was not shown to a neuron). As in Brain-Score's plugin,
the loaded assembly gets ``neuroid_id`` (the file's neuroid values) and ``region = 'V1'`` on its neuroids
(:func:`with_v1_neuroids`).
"""

from pathlib import Path

import numpy as np

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import (
    load_assembly_by_reference,
    register_family_catalogue,
)

__all__ = ["BIBTEX", "load_cadena2017", "with_v1_neuroids"]

BIBTEX = """@article {Cadena201764,
    author = {Cadena, Santiago A. and Denfield, George H. and Walker, Edgar Y. and Gatys, Leon A. and Tolias, Andreas S. and Bethge, Matthias and Ecker, Alexander S.},
    title = {Deep convolutional models improve predictions of macaque V1 responses to natural images},
    elocation-id = {201764},
    year = {2017},
    doi = {10.1101/201764},
    publisher = {Cold Spring Harbor Laboratory},
    URL = {https://www.biorxiv.org/content/early/2017/10/11/201764},
    eprint = {https://www.biorxiv.org/content/early/2017/10/11/201764.full.pdf},
    journal = {bioRxiv}
}"""


def with_v1_neuroids(assembly):
    """``assembly`` with ``neuroid_id`` (the values of its ``neuroid`` dimension) and ``region = 'V1'`` as its only
    neuroid coordinates; presentation and time-bin coordinates and attrs kept (Brain-Score's ``reindex``)."""
    from brainio.coords import walk_coords

    neuroid_ids = np.asarray(assembly["neuroid"].values)
    coords = {name: (dims, values) for name, dims, values in walk_coords(assembly) if "neuroid" not in dims}
    coords["neuroid_id"] = ("neuroid", neuroid_ids)
    coords["region"] = ("neuroid", np.full(len(neuroid_ids), "V1"))
    reindexed = type(assembly)(assembly.values, coords=coords, dims=assembly.dims)
    reindexed.attrs = dict(assembly.attrs)
    return reindexed


_ENTRIES = register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set, skip=["Cadena2017"])


def load_cadena2017():
    """``Cadena2017`` with its stimulus set and V1 neuroid coordinates."""
    assembly = load_assembly_by_reference("Cadena2017", _ENTRIES[("assembly", "Cadena2017")],
                                          stimulus_set_loader=lambda: load_stimulus_set("Cadena2017"))
    return with_v1_neuroids(assembly)


data_registry["Cadena2017"] = load_cadena2017


DATA_NEEDS = "credentials"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`):
Brain-Score's files, read unsigned first, then with your AWS credentials (not measured unsigned); the files it
registers from a catalogue by reference carry their own need."""
