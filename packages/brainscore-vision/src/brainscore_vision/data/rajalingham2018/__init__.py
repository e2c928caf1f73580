"""Data plugin and Brain-Score's import path ``brainscore_vision.data.rajalingham2018``: Rajalingham et al. 2018, human match-to-sample choices.

The public half is registered by reference to Brain-Score's public bucket (``brainscore_vision.data.public_catalogue``);
this plugin registers the private half by reference (``catalogue.json`` beside this module; it needs Brain-Score
credentials): ``Rajalingham2018.private`` (the held-out half of the trials, on ``objectome.private``) and ``objectome.private``.
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.bibtex import RAJALINGHAM_BIBTEX as BIBTEX
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
