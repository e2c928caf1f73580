"""THINGS stimulus sets of Gifford2022 (EEG), Hebart2023_fmri and Papale2025, from a local copy of the THINGS images.

The assemblies are Brain-Score's public files (:mod:`brainscore_vision.data_helpers.public_catalogue`, fetched and
sha1-checked); the images may not be redistributed. With ``$BRAINSCORE_THINGS_IMAGES`` set
(:mod:`brainscore_vision.data_helpers.local_data`), each stimulus set is built the way Brain-Score's packaging builds
it (``data/<plugin>/data_packaging``): one row per distinct ``stimulus_id`` of the assembly, in the assembly's
order, the image ``object_images/<concept>/<stimulus_id>.jpg`` with ``concept`` the id up to its last underscore,
columns ``label`` and ``object_name`` (the concept) and ``label_idx`` (the concept's rank). Without it, Brain-Score's
stored copy is tried; when that cannot be fetched either, the load fails in one line saying what to fetch and which
variable to set.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from brainscore_vision.data_helpers.local_data import LocalDataMissingError, local_folder, local_folder_status
from brainscore_vision.errors import PublicDataUnavailableError

__all__ = ["ASSEMBLY_OF", "IMAGE_SUFFIXES", "STIMULUS_SET_OF", "load_things_assembly", "load_things_stimulus_set",
           "raw_assembly", "things_stimulus_set"]

#: stimulus set -> the assembly whose presentations it holds
ASSEMBLY_OF = {f"{prefix}_stim_{split}": f"{prefix}_{split}" for prefix in ("Gifford2022", "Hebart2023_fmri",
                                                                          "Papale2025") for split in ("train", "test")}
STIMULUS_SET_OF = {assembly: stimuli for stimuli, assembly in ASSEMBLY_OF.items()}
IMAGE_SUFFIXES = (".jpg", ".JPG", ".jpeg", ".png")


def raw_assembly(identifier: str):
    """Brain-Score's assembly ``identifier`` from its public store, without a stimulus set."""
    from brainscore_vision.data_helpers.public_catalogue import load_assembly_by_reference

    return load_assembly_by_reference(identifier, stimulus_set_loader=None)


def _image(root: Path, stimulus_id: str, needed_by: str) -> Path:
    folder = root / "object_images" / stimulus_id.rsplit("_", 1)[0]
    for suffix in IMAGE_SUFFIXES:
        path = folder / f"{stimulus_id}{suffix}"
        if path.is_file():
            return path
    raise LocalDataMissingError(f"{needed_by}: image {stimulus_id!r} is not in the THINGS folder (looked for "
                                f"{folder / stimulus_id}.jpg); BRAINSCORE_THINGS_IMAGES must hold the full THINGS "
                                f"image database (object_images/<concept>/<image>.jpg)")


def things_stimulus_set(identifier: str, stimulus_ids, root: Path):
    """The StimulusSet ``identifier`` of ``stimulus_ids`` (first occurrences, in order) under THINGS ``root``."""
    from brainio.stimuli import StimulusSet

    ids = list(dict.fromkeys(str(s) for s in np.asarray(stimulus_ids)))
    labels = [s.rsplit("_", 1)[0] for s in ids]
    rank = {label: index for index, label in enumerate(sorted(set(labels)))}
    stimuli = StimulusSet({"stimulus_id": ids, "label": labels, "object_name": labels,
                           "label_idx": [rank[label] for label in labels]})
    stimuli.stimulus_paths = {s: _image(root, s, identifier) for s in ids}
    stimuli.identifier = identifier
    return stimuli


def load_things_stimulus_set(identifier: str, assembly=None):
    """The THINGS stimulus set ``identifier`` (a key of :data:`ASSEMBLY_OF`), local images first."""
    ready, _ = local_folder_status("things")
    if ready:
        assembly = raw_assembly(ASSEMBLY_OF[identifier]) if assembly is None else assembly
        return things_stimulus_set(identifier, assembly["stimulus_id"].values, local_folder("things", identifier))
    from brainscore_vision.data_helpers.public_catalogue import load_stimulus_set_by_reference

    try:
        return load_stimulus_set_by_reference(identifier)
    except PublicDataUnavailableError as error:
        try:
            local_folder("things", identifier)
        except LocalDataMissingError as missing:
            raise LocalDataMissingError(f"{missing} (Brain-Score's stored copy could not be fetched either: "
                                        f"{' '.join(str(error).split())})") from error
        raise


def load_things_assembly(identifier: str):
    """Brain-Score's assembly ``identifier`` with its THINGS stimulus set attached (local images first)."""
    from brainio.linking import attach_stimulus_set

    assembly = raw_assembly(identifier)
    stimuli = load_things_stimulus_set(STIMULUS_SET_OF[identifier], assembly)
    return attach_stimulus_set(assembly, stimuli, merge=False)
