"""Data plugin: Sanghavi & DiCarlo 2020 and its two sister sets, macaque V4 and IT multi-units, registered by
reference to Brain-Score's bucket (``catalogue.json`` beside this module; private: it needs Brain-Score credentials).

``Sanghavi2020`` (on the HvM images, stimulus set ``hvm`` of the MajajHong2015 plugin), ``SanghaviJozwik2020`` (on
``BOLD5000``), ``SanghaviMurty2020`` (on ``Rust2012``, the Rust2012 plugin's set): NeuronRecordingAssemblies with
``repetition``, ``time_bin_id`` (0 is 70-170 ms) and ``attrs['image_size_degree']``; and the stimulus set
``BOLD5000``.
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX_SANGHAVI", "BIBTEX_SANGHAVIJOZWIK", "BIBTEX_SANGHAVIMURTY"]

BIBTEX_SANGHAVI = """  @misc{Sanghavi2020,
  title={SanghaviMurty2020},
  url={osf.io/CHWDK},
  DOI={10.17605/OSF.IO/CHWDK},
  publisher={OSF},
  author={Sanghavi, Sachi and DiCarlo, James J},
  year={2020},
  month={Nov}
}"""
BIBTEX_SANGHAVIMURTY = """  @misc{SanghaviMurty2020,
  title={SanghaviMurty2020},
  url={osf.io/fchme},
  DOI={10.17605/OSF.IO/FCHME},
  publisher={OSF},
  author={Sanghavi, Sachi and Murty, N A R and DiCarlo, James J},
  year={2020},
  month={Nov}
}"""
BIBTEX_SANGHAVIJOZWIK = """  @misc{SanghaviJozwik2020,
  title={SanghaviJozwik2020},
  url={osf.io/FHY36},
  DOI={10.17605/OSF.IO/FHY36},
  publisher={OSF},
  author={Sanghavi, Sachi and Jozwik, K M and DiCarlo, James J},
  year={2020},
  month={Nov}
}"""

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
