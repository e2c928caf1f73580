"""Data plugin: Malania, Herzog & Westheimer (2007) vernier thresholds with flankers, by reference to Brain-Score's
bucket.

Brain-Score's identifiers, facts in ``catalogue.json`` (read from its data plugin): ``Malania2007.<condition>``
PropertyAssemblies of human thresholds over ``subject`` (NaN where a subject did not do the condition) for the nine
flanker conditions (``short2`` ... ``long16``) and ``vernier_only``; stimulus sets ``Malania2007.<condition>`` (50
test images) and ``Malania2007.<condition>_fit`` (500 fitting images), ``Malania2007.vernier_only`` (50), with
``image_label``, ``vernier_offset_arcsec``, ``num_flankers``, ... Brain-Score's tests mark the files private while its
metadata calls them public: they are read unsigned first, then with your AWS credentials.
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

BASELINE_CONDITION = "vernier_only"
#: the nine flanker conditions, in Brain-Score's order
CONDITIONS = ("short2", "short4", "short6", "short8", "short16", "equal2", "long2", "equal16", "long16")

ENTRIES = register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                                    stimulus_set_registry=stimulus_set_registry,
                                    load_stimulus_set=load_stimulus_set)
