"""Data plugin: the 92 object images of Kriegeskorte et al. (2008) with human and monkey IT RDMs.

Registered identifiers
----------------------
stimulus set
    ``Kriegeskorte2008``: 92 object photos on gray (175 x 175 px RGB) with their category columns
    (``category``, ``human``, ``face``, ``animal``, ``natural``, ``cat_*``, ``subset_*``).
data
    ``Kriegeskorte2008.hIT``: human IT fMRI RDMs (1 - Pearson r), dims
    ``subject x session x stimulus_row x stimulus_column`` = 4 x 2 x 92 x 92 (subjects BE, KO, SN, TI).
    ``Kiani2007.mIT``: the monkey IT RDM of Kiani et al. (2007) as re-analysed by Kriegeskorte et al.
    (2008), same dims, one ``subject`` (the 674-neuron population) and one ``session``.

RDM rows and columns carry ``stimulus_id_row`` / ``stimulus_id_column``. Packaged from
``$BRAINSCORE_RAW_DATA/kriegeskorte2008`` on first use (``data_packaging/packaging.py``).
"""

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers import PackagedData

BIBTEX_KRIEGESKORTE2008 = """@article{kriegeskorte2008matching,
  title   = {Matching categorical object representations in inferior temporal cortex of man and monkey},
  author  = {Kriegeskorte, Nikolaus and Mur, Marieke and Ruff, Douglas A. and Kiani, Roozbeh and
             Bodurka, Jerzy and Esteky, Hossein and Tanaka, Keiji and Bandettini, Peter A.},
  journal = {Neuron}, volume = {60}, number = {6}, pages = {1126--1141}, year = {2008},
  doi     = {10.1016/j.neuron.2008.10.043}
}"""
BIBTEX_KIANI2007 = """@article{kiani2007object,
  title   = {Object category structure in response patterns of neuronal population in monkey inferior temporal cortex},
  author  = {Kiani, Roozbeh and Esteky, Hossein and Mirpour, Koorosh and Tanaka, Keiji},
  journal = {Journal of Neurophysiology}, volume = {97}, number = {6}, pages = {4296--4309}, year = {2007},
  doi     = {10.1152/jn.00024.2007}
}"""

RAW_SHA1 = {
    "stimuli.csv": "e1a9c13d7a8f3b287e6b79aadb31457468ce9aa1",
    "rdms.npz": "5997eb5deee2eb216381401facc09b181e1aec9f",
}


#: sha1s of the packaged files, for S3 loads; the CSV/ZIP ones are also compared after local packaging (netCDF
#: bytes depend on the HDF5 library version, so the tests check the assemblies' content instead)
PACKAGED_SHA1 = {
    "stimulus_sets": {"Kriegeskorte2008": {"csv_sha1": "e94de35f2ef4da553b81a6dd73ab87bf6b7a0223",
                                           "zip_sha1": "52bfe71b983bc86335106e254b614da6eea4f08f"}},
    "assemblies": {"Kriegeskorte2008.hIT": {"sha1": "e1c2405cb1b1320e4fdbc8aa59499abb88c4394a", "cls": "DataAssembly"},
                   "Kiani2007.mIT": {"sha1": "64aead9e21b721057d788065fa26201965b38c05", "cls": "DataAssembly"}},
}


def _package(raw_directory, store_directory):
    from brainscore_vision.data.kriegeskorte2008.data_packaging.packaging import package

    return package(raw_directory, store_directory)


packaged = PackagedData("kriegeskorte2008", "kriegeskorte2008", _package, raw_sha1=RAW_SHA1,
                        packaged_sha1=PACKAGED_SHA1, packaging_version=1)

stimulus_set_registry["Kriegeskorte2008"] = lambda: packaged.load_stimulus_set("Kriegeskorte2008")
for _identifier in ("Kriegeskorte2008.hIT", "Kiani2007.mIT"):
    data_registry[_identifier] = (lambda identifier: lambda: packaged.load_assembly(
        identifier, stimulus_set_loader=lambda: packaged.load_stimulus_set("Kriegeskorte2008"),
        merge_stimulus_set_meta=False))(_identifier)


DATA_NEEDS = "shipped"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the
recordings are in $BRAINSCORE_RAW_DATA, packaged on first use."""
