"""Data plugin: Igustibagus et al. 2024 (domain transfer), macaque IT multi-units to images of 10 objects in many
styles (photographs, cartoons, sketches, silhouettes, ...), registered by reference to Brain-Score's bucket
(``catalogue.json`` beside this module; private: it needs Brain-Score credentials).

``Igustibagus2024`` (stimulus set, with ``object_label``, ``object_style``, ``stimulus_source``, ``background_id``) and
``Igustibagus2024`` (NeuronRecordingAssembly with ``repetition`` and ``time_bin_id`` coordinates).
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

BIBTEX = """@inproceedings{bagus2022primate,
  title={Primate inferotemporal cortex neurons generalize better to novel image distributions than analogous deep neural networks units},
  author={Bagus, Ayu Marliawaty I Gusti and Marques, Tiago and Sanghavi, Sachi and DiCarlo, James J and Schrimpf, Martin},
  booktitle={SVRHM 2022 Workshop@ NeurIPS},
  year={2022}
}"""

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
