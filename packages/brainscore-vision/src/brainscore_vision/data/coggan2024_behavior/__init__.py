"""Data plugin: Coggan & Tong (2024), occluded object recognition: the human trials ``Coggan2024_behavior`` (one
occluded image per subject and trial, 22,560), their stimulus set, and ``Coggan2024_behavior_fitting`` (2,048
labelled ImageNet images of the 8 classes).

Brain-Score's own files, registered by reference (:mod:`brainscore_vision.data_helpers.family_catalogue`): the facts are
in ``catalogue.json`` beside this module; each file is fetched on first use and checked against its sha1, unsigned
first, then with your AWS credentials (Brain-Score marks these data tests private while its metadata calls the data
public; no read was measured here).
"""

from pathlib import Path

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers.family_catalogue import family_loaders

_STIMULUS_SETS, _ASSEMBLIES = family_loaders(Path(__file__).with_name("catalogue.json"))
for _identifier, _loader in _STIMULUS_SETS.items():
    stimulus_set_registry[_identifier] = _loader
for _identifier, _loader in _ASSEMBLIES.items():
    data_registry[_identifier] = _loader


DATA_NEEDS = "credentials"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`):
Brain-Score's files, read unsigned first, then with your AWS credentials (not measured unsigned); the files it
registers from a catalogue by reference carry their own need."""
