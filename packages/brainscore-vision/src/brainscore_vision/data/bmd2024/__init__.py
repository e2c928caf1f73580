"""Data plugin: BMD2024: human answers on texturised (``texture_1``, ``texture_2``) and dotted-outline (``dotted_1``,
``dotted_2``) silhouettes of 10 categories, ``BMD2024.<condition>`` (data and stimulus set; Brain-Score's bucket
names them ``BMD_2024_<condition>``).

Brain-Score's own files, registered by reference (:mod:`brainscore_vision.data_helpers.family_catalogue`): the facts are
in ``catalogue.json`` beside this module; each file is fetched on first use and checked against its sha1, unsigned
first, then with your AWS credentials (Brain-Score marks these data tests private while its metadata calls the data
public; no read was measured here).
"""

from pathlib import Path

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers.family_catalogue import family_loaders

#: the four experimental conditions
CONDITIONS = ("texture_1", "texture_2", "dotted_1", "dotted_2")

_STIMULUS_SETS, _ASSEMBLIES = family_loaders(Path(__file__).with_name("catalogue.json"))
for _identifier, _loader in _STIMULUS_SETS.items():
    stimulus_set_registry[_identifier] = _loader
for _identifier, _loader in _ASSEMBLIES.items():
    data_registry[_identifier] = _loader


DATA_NEEDS = "credentials"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`):
Brain-Score's files, read unsigned first, then with your AWS credentials (not measured unsigned); the files it
registers from a catalogue by reference carry their own need."""
