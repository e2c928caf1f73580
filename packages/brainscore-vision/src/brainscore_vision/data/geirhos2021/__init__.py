"""Data plugin: trial-level human object recognition of Geirhos et al. (2021), "model-vs-human".

Registered identifiers
----------------------
data
    ``Geirhos2021_<dataset>`` for all 17 data sets (``colour``, ``contrast``, ``cue-conflict``, ``edge``,
    ``eidolonI``, ``eidolonII``, ``eidolonIII``, ``false-colour``, ``high-pass``, ``low-pass``,
    ``phase-scrambling``, ``power-equalisation``, ``rotation``, ``silhouette``, ``sketch``, ``stylized``,
    ``uniform-noise``): ``BehavioralAssembly`` of every trial (85,120 in all), the 16-way choice as the value.
stimulus sets
    ``Geirhos2021_{cue-conflict,edge,silhouette,sketch}``: the images of the four data sets whose images are
    public (224 x 224 PNG), with ``truth`` (16-class ground truth; the shape class for cue-conflict) and, for
    cue-conflict, ``shape_category``, ``texture_category`` and ``is_conflict``.

The stimulus sets of the other 13 data sets are Brain-Score's own files, registered by reference to its public
store (:mod:`brainscore_vision.data_helpers.public_catalogue`); their human data, and so their ceilings, load
offline from the raw responses. Packaged from ``$BRAINSCORE_RAW_DATA/geirhos2021`` on first use.
"""

import json
from pathlib import Path

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers import PackagedData
from brainscore_vision.data_helpers.public_catalogue import register_stimulus_sets_by_reference

BIBTEX = """@inproceedings{geirhos2021partial,
  title     = {Partial success in closing the gap between human and machine vision},
  author    = {Geirhos, Robert and Narayanappa, Kantharaju and Mitzkus, Benjamin and Thieringer, Tizian and
               Bethge, Matthias and Wichmann, Felix A. and Brendel, Wieland},
  booktitle = {Advances in Neural Information Processing Systems 34}, year = {2021}
}"""

DATASETS = ("colour", "contrast", "cue-conflict", "edge", "eidolonI", "eidolonII", "eidolonIII", "false-colour",
            "high-pass", "low-pass", "phase-scrambling", "power-equalisation", "rotation", "silhouette", "sketch",
            "stylized", "uniform-noise")
DATASETS_WITH_IMAGES = ("cue-conflict", "edge", "silhouette", "sketch")

RAW_SHA1 = json.loads((Path(__file__).parent / "raw_sha1.json").read_text(encoding="utf-8"))["files"]


def _package(raw_directory, store_directory):
    from brainscore_vision.data.geirhos2021.data_packaging.packaging import package

    return package(raw_directory, store_directory)


packaged = PackagedData("geirhos2021", "geirhos2021", _package, raw_sha1=RAW_SHA1, packaging_version=1)


def _register(dataset: str) -> None:
    identifier = f"Geirhos2021_{dataset}"
    if dataset in DATASETS_WITH_IMAGES:
        stimulus_set_registry[identifier] = lambda: packaged.load_stimulus_set(identifier)
        data_registry[identifier] = lambda: packaged.load_assembly(
            identifier, stimulus_set_loader=lambda: packaged.load_stimulus_set(identifier), merge_stimulus_set_meta=False)
    else:  # the stimulus set is Brain-Score's remote file: the human data load without it
        data_registry[identifier] = lambda: packaged.load_assembly(identifier, stimulus_set_loader=None,
                                                                   merge_stimulus_set_meta=False)


for _dataset in DATASETS:
    _register(_dataset)

register_stimulus_sets_by_reference(
    stimulus_set_registry, [f"Geirhos2021_{dataset}" for dataset in DATASETS if dataset not in DATASETS_WITH_IMAGES])


DATA_NEEDS = "shipped"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the
recordings are in $BRAINSCORE_RAW_DATA, packaged on first use; the files it registers from a catalogue by
reference carry their own need."""
