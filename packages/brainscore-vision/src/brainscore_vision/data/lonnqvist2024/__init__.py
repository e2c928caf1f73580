"""Data plugin: Lonnqvist et al. (2024), curve tracing: human same/different answers on ``Lonnqvist2024_test`` in three
settings (``Lonnqvist2024_{inlab-instructions,inlab-no-instructions,online-no-instructions}``);
``Lonnqvist2024_train`` holds the labelled examples a model is fitted on.

Brain-Score's own files, registered by reference (:mod:`brainscore_vision.data_helpers.family_catalogue`): the facts are
in ``catalogue.json`` beside this module; each file is fetched on first use and checked against its sha1, unsigned
first, then with your AWS credentials (Brain-Score marks these data tests private while its metadata calls the data
public; no read was measured here).
"""

from pathlib import Path

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers.family_catalogue import family_loaders

#: the three human data sets
DATASETS = ("inlab-instructions", "inlab-no-instructions", "online-no-instructions")

_STIMULUS_SETS, _ASSEMBLIES = family_loaders(Path(__file__).with_name("catalogue.json"))
for _identifier, _loader in _STIMULUS_SETS.items():
    stimulus_set_registry[_identifier] = _loader
for _identifier, _loader in _ASSEMBLIES.items():
    data_registry[_identifier] = _loader


DATA_NEEDS = "credentials"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`):
Brain-Score's files, read unsigned first, then with your AWS credentials (not measured unsigned); the files it
registers from a catalogue by reference carry their own need."""
