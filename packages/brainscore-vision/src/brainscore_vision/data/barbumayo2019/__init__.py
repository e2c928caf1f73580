"""Data plugin: ObjectNet (Barbu, Mayo et al. 2019) stimulus set, by reference to Brain-Score's bucket.

``BarbuMayo2019`` (facts in ``catalogue.json``, read from Brain-Score's data plugin): the 17,261 ObjectNet images of
the classes shared with ImageNet (border removed), ``synset`` = the ImageNet synset(s) of the image's class. Brain-Score's
tests mark the files private while its metadata calls them public: they are read unsigned first, then with your AWS
credentials. The ``ObjectNet-top1`` benchmark reads a local copy (``$BRAINSCORE_OBJECTNET_DIR``,
:mod:`brainscore_vision.benchmarks.objectnet`).
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

ENTRIES = register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                                    stimulus_set_registry=stimulus_set_registry,
                                    load_stimulus_set=load_stimulus_set)
