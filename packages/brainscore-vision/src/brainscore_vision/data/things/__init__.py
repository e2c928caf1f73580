"""Data plugin: the THINGS-image data sets Gifford2022 (EEG), Hebart2023_fmri and Papale2025 (Brain-Score's ids).

``Gifford2022_{train,test}``, ``Hebart2023_fmri_{train,test}``, ``Papale2025_{train,test}``: Brain-Score's public
assemblies (network). ``<the same>_stim_{train,test}`` (``Gifford2022_stim_train``, ...): their stimulus sets, built
from a local THINGS image database (``$BRAINSCORE_THINGS_IMAGES``) since the images may not be redistributed; see
:mod:`brainscore_vision.data.things.stimuli`.
"""

import functools

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data.things import stimuli as _stimuli

for _stimulus_set, _assembly in _stimuli.ASSEMBLY_OF.items():
    stimulus_set_registry[_stimulus_set] = functools.partial(_stimuli.load_things_stimulus_set, _stimulus_set)
    data_registry[_assembly] = functools.partial(_stimuli.load_things_assembly, _assembly)


DATA_NEEDS = "network+local:things"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the public
recordings, plus the THINGS images from $BRAINSCORE_THINGS_IMAGES."""
