"""Data plugin: Islam et al. (2021) shape and texture stimuli, by reference to Brain-Score's bucket.

``Islam2021`` (facts in ``catalogue.json``, read from Brain-Score's data plugin): 21,845 images, 4,369 originals each
rendered in 5 ``texture`` s, with ``shape`` (20 classes) and ``original_image_id``. Brain-Score's tests mark the
files private while its metadata calls them public: they are read unsigned first, then with your AWS credentials.
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

ENTRIES = register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                                    stimulus_set_registry=stimulus_set_registry,
                                    load_stimulus_set=load_stimulus_set)
