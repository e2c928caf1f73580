"""Data plugin: Scialom et al. (2024), recognition of images degraded as a visual prosthesis would show them: human
answers (12 categories) on 20 data sets, ``Scialom2024_{rgb,contours,phosphenes-<N>,segments-<N>}`` (N = 12, 16, 21,
27, 35, 46, 59, 77, 100 percent of the elements), and two composites ``Scialom2024_{phosphenes,segments}-all`` (rgb,
contours and the kind's nine sets), each with its stimulus set of the same name.

Brain-Score's own files, registered by reference (:mod:`brainscore_vision.data_helpers.family_catalogue`): the facts are
in ``catalogue.json`` beside this module; each file is fetched on first use and checked against its sha1, unsigned
first, then with your AWS credentials (Brain-Score marks these data tests private while its metadata calls the data
public; no read was measured here). As in Brain-Score's plugin, the stimulus sets' ``percentage_elements`` and
``condition`` are text; the stimulus ids are text on both sides.
"""

from pathlib import Path

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers.family_catalogue import family_loaders

PERCENTAGES = (12, 16, 21, 27, 35, 46, 59, 77, 100)
#: the 20 single data sets, then the 2 composites
DATASETS = ("rgb", "contours", *(f"{kind}-{p}" for kind in ("phosphenes", "segments") for p in PERCENTAGES),
            "phosphenes-all", "segments-all")

_STIMULUS_SETS, _ASSEMBLIES = family_loaders(Path(__file__).with_name("catalogue.json"),
                                             text_stimulus_columns=("percentage_elements", "condition"))
for _identifier, _loader in _STIMULUS_SETS.items():
    stimulus_set_registry[_identifier] = _loader
for _identifier, _loader in _ASSEMBLIES.items():
    data_registry[_identifier] = _loader


DATA_NEEDS = "credentials"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`):
Brain-Score's files, read unsigned first, then with your AWS credentials (not measured unsigned); the files it
registers from a catalogue by reference carry their own need."""
