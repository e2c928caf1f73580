"""Data plugin: Maniquet et al. (2024), recognition under occlusion, clutter and phase scrambling: the human trials
``Maniquet2024`` (no stimulus set attached, as in Brain-Score), the human images ``Maniquet2024`` and the model's
test and training images ``Maniquet2024-test`` / ``Maniquet2024-train``.

Brain-Score's own files, registered by reference (:mod:`brainscore_vision.data_helpers.family_catalogue`): the facts are
in ``catalogue.json`` beside this module; each file is fetched on first use and checked against its sha1, unsigned
first, then with your AWS credentials (Brain-Score marks these data tests private while its metadata calls the data
public; no read was measured here).
"""

from pathlib import Path

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers.family_catalogue import family_loaders

BIBTEX = """@article{Maniquet2024.04.02.587669,
  author = {Maniquet, Tim and de Beeck, Hans Op and Costantino, Andrea Ivan},
  title = {Recurrent issues with deep neural network models of visual recognition},
  journal = {bioRxiv}, year = {2024}, doi = {10.1101/2024.04.02.587669}
}"""

_STIMULUS_SETS, _ASSEMBLIES = family_loaders(Path(__file__).with_name("catalogue.json"))
for _identifier, _loader in _STIMULUS_SETS.items():
    stimulus_set_registry[_identifier] = _loader
for _identifier, _loader in _ASSEMBLIES.items():
    data_registry[_identifier] = _loader


DATA_NEEDS = "credentials"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`):
Brain-Score's files, read unsigned first, then with your AWS credentials (not measured unsigned); the files it
registers from a catalogue by reference carry their own need."""
