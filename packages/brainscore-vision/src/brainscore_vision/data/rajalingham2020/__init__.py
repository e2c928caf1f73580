"""Data plugin: Rajalingham et al. 2020, macaque IT and V4 responses to orthographic stimuli (letters, words,
strings), registered by reference to Brain-Score's bucket (``catalogue.json`` beside this module; private: it needs
Brain-Score credentials).

``Rajalingham2020`` (stimulus set) and ``Rajalingham2020`` (NeuronRecordingAssembly with ``repetition``; 33 trials).
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

BIBTEX = """@article{rajalingham2020inferior,
  title={The inferior temporal cortex is a potential cortical precursor of orthographic processing in untrained monkeys},
  author={Rajalingham, Rishi and Kar, Kohitij and Sanghavi, Sachi and Dehaene, Stanislas and DiCarlo, James J},
  journal={Nature communications},
  volume={11},
  number={1},
  pages={1--13},
  year={2020},
  publisher={Nature Publishing Group}
}"""

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
