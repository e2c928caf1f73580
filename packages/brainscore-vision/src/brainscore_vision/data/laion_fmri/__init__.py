"""Data plugin: LAION-fMRI (Zerbe et al. 2026), as Brain-Score packages it, from a local folder.

The data use agreement forbids redistribution, so nothing is fetched: ``$BRAINSCORE_LAION_FMRI_DIR``
(:mod:`brainscore_vision.data_helpers.local_data`) holds Brain-Score's assemblies (sha1-checked against
:data:`FILES`), the stimuli (``stimuli/manifest.csv`` with ``stimulus_id`` and ``filename``, the images beside it) and
the re:vision split files of the ``laion_fmri`` package (``splits/<pool>/<split>.json``).

data
    ``Zerbe2026_fmri_full_<subject>`` (the 1,492 images every subject saw) and
    ``Zerbe2026_fmri_persubject_full_<subject>`` (each subject's own pool), subjects ``sub-01``, ``sub-03``,
    ``sub-05``, ``sub-06``, ``sub-07``; the per-subject files lose their trial-level coordinates (``session``,
    ``run``, ``beta_index``) and gain ``subject_id_pres``, as Brain-Score's loader does.
stimulus sets
    ``Zerbe2026_fmri_stim_full`` and ``Zerbe2026_fmri_persubject_stim_full`` (the same images).
"""

import functools

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data.laion_fmri import files as _files

BIBTEX = """@inproceedings{zerbe_laion-fmri_2026,
  title = {{LAION}-{fMRI}: A densely sampled 7T-fMRI dataset providing broad coverage of natural image diversity},
  author = {Zerbe, Josefine and Roth, Johannes and Mell, Maggie Mae and Herholz, Peer and Knapen, Tomas and
            Hebart, Martin N.},
  booktitle = {Vision Sciences Society Annual Meeting}, year = {2026}
}"""

for _subject in _files.SUBJECTS:
    data_registry[f"Zerbe2026_fmri_full_{_subject}"] = functools.partial(_files.load_subject, "shared", _subject)
    data_registry[f"Zerbe2026_fmri_persubject_full_{_subject}"] = functools.partial(_files.load_subject,
                                                                                     "persubject", _subject)
for _name in ("Zerbe2026_fmri_stim_full", "Zerbe2026_fmri_persubject_stim_full"):
    stimulus_set_registry[_name] = functools.partial(_files.load_stimuli, _name)


DATA_NEEDS = "local:laion_fmri"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the
LAION-fMRI files, from the folder $BRAINSCORE_LAION_FMRI_DIR names."""
