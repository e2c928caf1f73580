"""Data plugin: Kar et al. 2019, object solution times (OST) of macaque IT for challenge and control images,
registered by reference to Brain-Score's bucket (``catalogue.json`` beside this module; private: it needs Brain-Score
credentials).

``Kar2019`` (stimulus set, with ``image_label``) and ``Kar2019`` (DataAssembly of the measured OSTs per image and
decoder, coordinates ``stimulus_id``, ``image_label``, ``decoder``, and the primates' ``i1``).
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

BIBTEX = """@Article{Kar2019,
            author={Kar, Kohitij
            and Kubilius, Jonas
            and Schmidt, Kailyn
            and Issa, Elias B.
            and DiCarlo, James J.},
            title={Evidence that recurrent circuits are critical to the ventral stream's execution of core object recognition behavior},
            journal={Nature Neuroscience},
            year={2019},
            month={Jun},
            day={01},
            volume={22},
            number={6},
            pages={974-983},
            issn={1546-1726},
            doi={10.1038/s41593-019-0392-5},
            url={https://doi.org/10.1038/s41593-019-0392-5}
            }"""

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
