"""Data plugin and Brain-Score's import path ``brainscore_vision.data.majajhong2015``: Majaj, Hong et al. 2015, macaque V4 and IT multi-units to the HvM images.

The public half is registered by reference to Brain-Score's public bucket (``brainscore_vision.data.public_catalogue``);
this plugin registers the private half by reference (``catalogue.json`` beside this module; it needs Brain-Score
credentials): ``MajajHong2015.private`` (the held-out half of the recordings, on ``hvm-private``), ``hvm-private`` and ``hvm`` (all
5,760 HvM images, shown by Sanghavi2020).
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.bibtex import MAJAJHONG_BIBTEX as BIBTEX
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
