"""Data plugin: Rust & DiCarlo 2012, registered by reference to Brain-Score's bucket (``catalogue.json`` beside this
module): the stimulus set ``Rust2012`` (shown by SanghaviMurty2020) and the assemblies ``Rust2012.single`` and
``Rust2012.array``."""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

BIBTEX = """@article{rust2012balanced,
  title={Balanced increases in selectivity and tolerance produce constant sparseness along the ventral visual stream},
  author={Rust, Nicole C and DiCarlo, James J},
  journal={Journal of Neuroscience},
  volume={32},
  number={30},
  pages={10170--10182},
  year={2012},
  publisher={Soc Neuroscience}
}"""

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
