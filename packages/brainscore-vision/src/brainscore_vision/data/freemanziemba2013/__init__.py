"""Data plugin and Brain-Score's import path ``brainscore_vision.data.freemanziemba2013``: Freeman, Ziemba et al. 2013, macaque V1 and V2 responses to textures and noise.

The public half is registered by reference to Brain-Score's public bucket (``brainscore_vision.data.public_catalogue``);
this plugin registers the private half by reference (``catalogue.json`` beside this module; it needs Brain-Score
credentials): ``FreemanZiemba2013.private`` (the held-out half, on ``FreemanZiemba2013.aperture-private``), that stimulus set and
``FreemanZiemba2013.private``.
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.bibtex import FREEMANZIEMBA_BIBTEX as BIBTEX
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
