"""Data plugin: Bracci et al. 2019, human fMRI of 12 subjects viewing 27 images (animals and look-alike objects),
registered by reference to Brain-Score's bucket (``catalogue.json`` beside this module; Brain-Score marks the data
private, so it needs Brain-Score credentials).

``Bracci2019`` (stimulus set, 27 images) and ``Bracci2019`` (NeuroidAssembly, ``presentation x neuroid`` with the
voxels of the three regions of interest of every subject: neuroid coordinates ``roi`` (0 V1, 1 posterior VTC,
2 anterior VTC), ``subject``, ``voxels``). As in Brain-Score, the assembly carries no stimulus set; the benchmark
loads it by its own identifier.
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

BIBTEX = """@article{bracci2019ventral,
  title={The ventral visual pathway represents animal appearance over animacy, unlike human behavior and deep neural networks},
  author={Bracci, Stefania and Ritchie, J Brendan and Kalfas, Ioannis and de Beeck, Hans P Op},
  journal={Journal of Neuroscience},
  volume={39},
  number={33},
  pages={6513--6525},
  year={2019},
  publisher={Soc Neuroscience}
}"""

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
