"""Data plugin: Baker et al. (2022), configural shape perception: human correctness on animal silhouettes, whole (`w`),
Frankenstein (`f`) and fragmented (`o`), upright (``Baker2022_normal_distortion``) and inverted
(``Baker2022_inverted_distortion``); the stimulus sets of the same names.

Brain-Score's own files, registered by reference (:mod:`brainscore_vision.data_helpers.family_catalogue`): the facts are
in ``catalogue.json`` beside this module; each file is fetched on first use and checked against its sha1, unsigned
first, then with your AWS credentials (Brain-Score marks these data tests private while its metadata calls the data
public; no read was measured here).
"""

from pathlib import Path

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers.family_catalogue import family_loaders

BIBTEX = """@article{BAKER2022104913,
  title = {Deep learning models fail to capture the configural nature of human shape perception},
  author = {Nicholas Baker and James H. Elder}, journal = {iScience}, volume = {25}, number = {9}, pages = {104913},
  year = {2022}, doi = {10.1016/j.isci.2022.104913}
}"""

#: the two data sets (orientation of the silhouettes), as Brain-Score's benchmark module names them
DATASETS = ("normal", "inverted")

_STIMULUS_SETS, _ASSEMBLIES = family_loaders(Path(__file__).with_name("catalogue.json"))
for _identifier, _loader in _STIMULUS_SETS.items():
    stimulus_set_registry[_identifier] = _loader
for _identifier, _loader in _ASSEMBLIES.items():
    data_registry[_identifier] = _loader


DATA_NEEDS = "credentials"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`):
Brain-Score's files, read unsigned first, then with your AWS credentials (not measured unsigned); the files it
registers from a catalogue by reference carry their own need."""
