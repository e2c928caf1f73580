"""Data plugin: Brain-Score's public assemblies and stimulus sets, by reference to its public S3 bucket.

Every entry of :mod:`brainscore_vision.data_helpers.public_catalogue` (Brain-Score's identifiers, read from its
data plugins) is registered here, except those that another plugin of this package builds from the real
recordings in ``$BRAINSCORE_RAW_DATA`` (:data:`LOCAL`): with a network, ``load_dataset('MajajHong2015.public')``
fetches Brain-Score's own file, checks its sha1 and loads it (with its stimulus set attached); offline it fails in
one line naming the identifier, the bucket and the key.
"""

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import (
    catalogue,
    catalogue_entry,
    register_assemblies_by_reference,
    register_stimulus_sets_by_reference,
)

_GEIRHOS = ("colour", "contrast", "cue-conflict", "edge", "eidolonI", "eidolonII", "eidolonIII", "false-colour",
            "high-pass", "low-pass", "phase-scrambling", "power-equalisation", "rotation", "silhouette", "sketch",
            "stylized", "uniform-noise")

_MARQUES_ASSEMBLIES = ("Ringach2002", "Cavanaugh2002a", "Schiller1976c", "DeValois1982a", "DeValois1982b",
                       "FreemanZiemba2013_V1_properties")
_MARQUES_STIMULI = ("Marques2020_orientation", "Marques2020_spatial_frequency", "Marques2020_size",
                    "Marques2020_receptive_field", "Marques2020_blank", "FreemanZiemba2013_properties")

#: (kind, identifier) registered by other plugins of this package: built locally from the raw recordings, or (the
#: 13 Geirhos2021 stimulus sets without images, FreemanZiemba2013_properties, the THINGS sets) by reference from their
#: own plugin
LOCAL = frozenset(
    [("assembly", "Coggan2024_fMRI"), ("stimulus_set", "Coggan2024_fMRI")]
    + [("assembly", f"Geirhos2021_{dataset}") for dataset in _GEIRHOS]
    + [("stimulus_set", f"Geirhos2021_{dataset}") for dataset in _GEIRHOS]
    + [("assembly", name) for name in _MARQUES_ASSEMBLIES]
    + [("stimulus_set", name) for name in _MARQUES_STIMULI]
    # the THINGS data sets: assemblies by reference, images from a local THINGS folder (data.things)
    + [(kind, f"{prefix}{part}_{split}") for prefix in ("Gifford2022", "Hebart2023_fmri", "Papale2025")
       for split in ("train", "test") for kind, part in (("assembly", ""), ("stimulus_set", "_stim"))])


def _stimulus_set_loader(identifier: str):
    name = catalogue_entry("assembly", identifier).get("stimulus_set")
    return (lambda: load_stimulus_set(name)) if name else None


register_stimulus_sets_by_reference(
    stimulus_set_registry, [name for kind, name in catalogue() if kind == "stimulus_set" and (kind, name) not in LOCAL])
register_assemblies_by_reference(
    data_registry, [name for kind, name in catalogue() if kind == "assembly" and (kind, name) not in LOCAL],
    stimulus_set_loader_of=_stimulus_set_loader)
