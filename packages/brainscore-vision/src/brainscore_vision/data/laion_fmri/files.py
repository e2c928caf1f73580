"""LAION-fMRI files in ``$BRAINSCORE_LAION_FMRI_DIR``: assemblies, stimuli and re:vision splits."""

from __future__ import annotations

import json
import re

import numpy as np

from brainscore_vision.data_helpers.local_data import LocalDataMissingError, local_folder

__all__ = ["FILES", "OOD_TYPES", "SUBJECTS", "load_stimuli", "load_subject", "split_ids"]

SUBJECTS = ("sub-01", "sub-03", "sub-05", "sub-06", "sub-07")
OOD_TYPES = ("shape", "relations", "unusual", "cropped", "selfmade", "gaudy", "illusion-classic", "gabor",
             "illusion-natural")
_OOD_FILE = re.compile(r"^shared_4rep_OOD_([a-zA-Z0-9-]+)_.+\.(png|jpg)$")

#: (pool, subject) -> (Brain-Score's file identifier, sha1), from its data plugin (uploaded 2026-05-18)
FILES = {
    ("shared", "sub-01"): ("LAION_fMRI_full_sub-01_Assembly", "5d928ad1b170fa2fa58bcf1215ba60c4dd389ef4"),
    ("shared", "sub-03"): ("LAION_fMRI_full_sub-03_Assembly", "ecff27ddc4dc0a75cfbcc719b91c3739c1ba2bb1"),
    ("shared", "sub-05"): ("LAION_fMRI_full_sub-05_Assembly", "c446c8a6c67de21e749469a092fd02994d2be01e"),
    ("shared", "sub-06"): ("LAION_fMRI_full_sub-06_Assembly", "912aec9934c7b2daafb4d3927db895363b9eb0c1"),
    ("shared", "sub-07"): ("LAION_fMRI_full_sub-07_Assembly", "e16a456229427eb876b7ee85e0019570130fc4f0"),
    ("persubject", "sub-01"): ("LAION_fMRI_persubject_sub-01_Assembly", "827781fe183ee1744f968517c1ea5afbe7860d4b"),
    ("persubject", "sub-03"): ("LAION_fMRI_persubject_sub-03_Assembly", "f699b3aeb168a5a6f57a48704bdb03b0103d34d3"),
    ("persubject", "sub-05"): ("LAION_fMRI_persubject_sub-05_Assembly", "73a1ee4f85c41c1c30f771a46396a91c73a85b6c"),
    ("persubject", "sub-06"): ("LAION_fMRI_persubject_sub-06_Assembly", "1d7a43878a05787c048696c023575850e0b2ba3b"),
    ("persubject", "sub-07"): ("LAION_fMRI_persubject_sub-07_Assembly", "5c2d025d41f4befa449eca2b390dff1ab2f29821"),
}


def load_subject(pool: str, subject: str):
    """One subject's assembly of ``pool`` (``'shared'`` or ``'persubject'``), sha1-checked."""
    from brainio import LocalStore, load_assembly
    from brainio.assemblies import NeuroidAssembly

    name, sha1 = FILES[(pool, subject)]
    assembly = load_assembly(name, LocalStore(local_folder("laion_fmri", name)), sha1=sha1, cls=NeuroidAssembly)
    if pool == "persubject":  # Brain-Score's fix-up: no trial-level coordinates, the subject on the presentations
        assembly = assembly.drop_vars([c for c in ("session", "run", "beta_index") if c in assembly.coords])
        assembly = assembly.assign_coords(subject_id_pres=("presentation",
                                                           np.full(assembly.sizes["presentation"], subject)))
    return assembly


def load_stimuli(identifier: str):
    """The LAION-fMRI images (``stimuli/manifest.csv``, paths relative to it) as a StimulusSet ``identifier``."""
    import pandas as pd

    from brainio.stimuli import StimulusSet

    folder = local_folder("laion_fmri", identifier) / "stimuli"
    manifest = folder / "manifest.csv"
    if not manifest.is_file():
        raise LocalDataMissingError(f"{identifier}: no {manifest}; put the LAION-fMRI images and their manifest.csv "
                                    f"(stimulus_id, filename) in the stimuli/ folder of BRAINSCORE_LAION_FMRI_DIR")
    table = pd.read_csv(manifest)
    stimuli = StimulusSet(table.drop(columns=[c for c in ("path",) if c in table.columns]))
    stimuli.stimulus_paths = {s: folder / f for s, f in zip(table["stimulus_id"], table["filename"], strict=True)}
    stimuli.identifier = identifier
    return stimuli


def split_ids(split: str, pool: str, ood_types=None) -> tuple[set, set]:
    """(train ids, test ids) of re:vision split ``split`` (variant 0) in ``pool`` (``'shared'`` or a subject),
    the test ids restricted to ``ood_types`` when given (the ``ood`` split only)."""
    path = local_folder("laion_fmri", f"LAION-fMRI split {split!r}") / "splits" / pool / f"{split}.json"
    if not path.is_file():
        raise LocalDataMissingError(f"LAION-fMRI split {split!r} of pool {pool!r}: no {path}; copy the split files "
                                    f"of the laion_fmri package (laion_fmri/splits/data/) to the splits/ folder of "
                                    f"BRAINSCORE_LAION_FMRI_DIR")
    variant = next(v for v in json.loads(path.read_text())["variants"] if int(v["variant_id"]) == 0)
    test = variant["test_ids"]
    if ood_types is not None:
        test = [i for i in test if (match := _OOD_FILE.match(i)) and match.group(1) in set(ood_types)]
    return set(variant["train_ids"]), set(test)
