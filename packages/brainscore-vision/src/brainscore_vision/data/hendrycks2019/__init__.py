"""Data plugin: ImageNet-C (Hendrycks & Dietterich 2019) stimulus sets, by reference to Brain-Score's bucket.

``imagenet_c.{noise,blur,weather,digital}`` (facts in ``catalogue.json``, read from Brain-Score's data plugin): every
validation image under each corruption of the category at severities 1-5 (750,000 or 1,000,000 images, 50 GB in all),
columns ``synset``, ``noise_type``, ``noise_level``, ``filename``. Brain-Score calls these files private. The
``ImageNet-C-*-top1`` benchmarks read a local copy instead (``$BRAINSCORE_IMAGENET_C_DIR``,
:mod:`brainscore_vision.benchmarks.imagenet_c`), as Brain-Score's leaderboard does.
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

ENTRIES = register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                                    stimulus_set_registry=stimulus_set_registry,
                                    load_stimulus_set=load_stimulus_set)
