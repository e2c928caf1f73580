"""Brain-Score's import path ``brainscore_vision.data.freemanziemba2013``: the data's citation. The data itself is registered
by reference to Brain-Score's public bucket (``brainscore_vision.data.public_catalogue``), not here.
"""

from brainscore_vision.benchmarks.public_reference.benchmark import FREEMANZIEMBA_BIBTEX as BIBTEX

__all__ = ["BIBTEX"]
