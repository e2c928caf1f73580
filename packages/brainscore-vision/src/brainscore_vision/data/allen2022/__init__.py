"""Data plugin: Allen et al. 2022, the Natural Scenes Dataset (NSD), as Brain-Score packages it, from a local folder.

NSD is shared under a data use agreement, so nothing is fetched: ``$BRAINSCORE_NSD_DIR`` points at a folder holding
Brain-Score's files (:mod:`brainscore_vision.data_helpers.local_data` says in one line what to get when it is not
set). Every file is checked against the sha1 Brain-Score's data plugins record (:data:`FILES`), so other files fail
naming the file.

data
    ``Allen2022_fmri_{train,test}`` (8 subjects, 412 + 103 images), ``Allen2022_fmri_4subj_{train,test}`` (subjects
    1, 2, 5, 7; 800 + 200 images): volumetric betas; ``Allen2022_fmri_surface[_4subj]_{train,test}``: the same
    images on the cortical surface. ``NeuroidAssembly``, voxels with ``subject``, ``region``, ``nc_testset``.
stimulus sets
    ``Allen2022_fmri_stim_{train,test}``, ``Allen2022_fmri_4subj_stim_{train,test}`` (COCO images; the surface
    assemblies use the volumetric sets).
"""

import functools

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry

BIBTEX = """@article{allen_massive_2022,
  title = {A massive 7T fMRI dataset to bridge cognitive neuroscience and artificial intelligence},
  author = {Allen, Emily J. and St-Yves, Ghislain and Wu, Yihan and Breedlove, Jesse L. and Prince, Jacob S. and
            Dowdle, Logan T. and Nau, Matthias and Caron, Brad and Pestilli, Franco and Charest, Ian and
            Hutchinson, J. Benjamin and Naselaris, Thomas and Kay, Kendrick},
  journal = {Nature Neuroscience}, volume = {25}, pages = {116--126}, year = {2022},
  doi = {10.1038/s41593-021-00962-x}
}"""

#: registered identifier -> (Brain-Score's file identifier, sha1 or (csv sha1, zip sha1), stimulus set of an assembly)
FILES = {
    "Allen2022_fmri_stim_train": ("Allen2022_fMRI_train_Stimuli",
                                  ("b9119b9c430877ad2e0786888e0bb66fa50529c7", "158c4813355b10fa05130b070b7c45056d7cd5d6")),
    "Allen2022_fmri_stim_test": ("Allen2022_fMRI_test_Stimuli",
                                 ("cfb0ae15fd841f660d4f9d77f2a13213a01f2078", "980f66d404f0bfbc898ffd8b299e9f9dd7211a9e")),
    "Allen2022_fmri_4subj_stim_train": ("Allen2022_fMRI_4subj_train_Stimuli",
                                        ("c4037d0c6ba9bf69ecfb2571bee8d3b494b12d14",
                                         "c1547e3747c4963a77db23184a70a195d2ccb92d")),
    "Allen2022_fmri_4subj_stim_test": ("Allen2022_fMRI_4subj_test_Stimuli",
                                       ("4259c8ddffed135dc73d0968aaeff66046355250",
                                        "c489db0d7f0ec823ca28ecc53a7c25123fe851dd")),
    "Allen2022_fmri_train": ("Allen2022_fMRI_train_Assembly", "5919ec2838f69bfb5d87e16f197868550713cde0",
                             "Allen2022_fmri_stim_train"),
    "Allen2022_fmri_test": ("Allen2022_fMRI_test_Assembly", "3203ab79d48fab9b6e31f9d2a6301a11c512a0e9",
                            "Allen2022_fmri_stim_test"),
    "Allen2022_fmri_4subj_train": ("Allen2022_fMRI_4subj_train_Assembly", "db4493972a0fcc36757b9decda1173e9b9ab7a09",
                                   "Allen2022_fmri_4subj_stim_train"),
    "Allen2022_fmri_4subj_test": ("Allen2022_fMRI_4subj_test_Assembly", "8b1a5e6378eff6a7499f6cb1ab0e3806d567bb4e",
                                  "Allen2022_fmri_4subj_stim_test"),
    "Allen2022_fmri_surface_train": ("Allen2022_fMRI_surface_train_Assembly",
                                     "67241ed5a84d8e7ae77f8c8d72e7219508fb9d7e", "Allen2022_fmri_stim_train"),
    "Allen2022_fmri_surface_test": ("Allen2022_fMRI_surface_test_Assembly",
                                    "8b4fcc132b5c1e81bb61e38ca51875a98619066b", "Allen2022_fmri_stim_test"),
    "Allen2022_fmri_surface_4subj_train": ("Allen2022_fMRI_surface_4subj_train_Assembly",
                                           "5c1e7ab2d1444c140028599f8a30aeae34297c87", "Allen2022_fmri_4subj_stim_train"),
    "Allen2022_fmri_surface_4subj_test": ("Allen2022_fMRI_surface_4subj_test_Assembly",
                                          "1f8524de28ad6cd3a89feddcfb82d9ab67dd9656", "Allen2022_fmri_4subj_stim_test"),
}


def _store(identifier: str):
    from brainio import LocalStore
    from brainscore_vision.data_helpers.local_data import local_folder

    return LocalStore(local_folder("nsd", identifier))


def load_local_stimulus_set(identifier: str):
    """Stimulus set ``identifier`` from ``$BRAINSCORE_NSD_DIR`` (sha1-checked)."""
    from brainio import load_stimulus_set as load

    name, (csv_sha1, zip_sha1) = FILES[identifier]
    stimuli = load(name, _store(identifier), csv_sha1=csv_sha1, zip_sha1=zip_sha1)
    stimuli.identifier = identifier
    return stimuli


def load_local_assembly(identifier: str):
    """Assembly ``identifier`` from ``$BRAINSCORE_NSD_DIR`` (sha1-checked), its stimulus set attached."""
    from brainio import load_assembly
    from brainio.assemblies import NeuroidAssembly

    name, sha1, stimulus_set = FILES[identifier]
    return load_assembly(name, _store(identifier), sha1=sha1, cls=NeuroidAssembly,
                         stimulus_set_loader=lambda: load_stimulus_set(stimulus_set))


for _identifier, _entry in FILES.items():
    if len(_entry) == 2:
        stimulus_set_registry[_identifier] = functools.partial(load_local_stimulus_set, _identifier)
    else:
        data_registry[_identifier] = functools.partial(load_local_assembly, _identifier)


DATA_NEEDS = "local:nsd"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the NSD
files, from the folder $BRAINSCORE_NSD_DIR names."""
