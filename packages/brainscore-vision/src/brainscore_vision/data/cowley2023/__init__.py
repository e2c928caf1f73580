"""Data plugin: macaque V4 spike counts of Cowley, Stan, Pillow & Smith (2023).

Registered identifiers
----------------------
stimulus sets
    ``Cowley2023`` (640 Bashivan et al. 2019 images of session 210325) and ``Cowley2023.190923``,
    ``Cowley2023.201025``, ``Cowley2023.210225``, ``Cowley2023.210224`` (natural images).
data
    ``Cowley2023``: single trials of session 210325, ``presentation x neuroid x time_bin`` (about 4,900
    presentations = valid repeats, 50 units, one 100 ms bin), coordinate ``repetition``.
    ``Cowley2023.<session>``: repeat-averaged counts of the four other sessions.

The files are packaged from ``$BRAINSCORE_RAW_DATA/cowley2023_v4`` on first use
(``data_packaging/packaging.py``) into the local brainio store and then loaded through the store with
sha1 checks; see :mod:`brainscore_vision.data_helpers.packaged`.
"""

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers import PackagedData

BIBTEX = """@article{cowley2023compact,
  title   = {Compact deep neural network models of visual cortex},
  author  = {Cowley, Benjamin R. and Stan, Patricia L. and Pillow, Jonathan W. and Smith, Matthew A.},
  journal = {bioRxiv}, year = {2023}, note = {2023.11.22.568315},
  doi     = {10.1101/2023.11.22.568315}
}
@article{bashivan2019neural,
  title   = {Neural population control via deep image synthesis},
  author  = {Bashivan, Pouya and Kar, Kohitij and DiCarlo, James J.},
  journal = {Science}, volume = {364}, number = {6439}, pages = {eaav9436}, year = {2019},
  doi     = {10.1126/science.aav9436}
}"""

SESSIONS = ("210325", "190923", "201025", "210225", "210224")

#: sha1 of every raw input file (images are checked against the ``jpeg_sha1`` column of their CSV)
RAW_SHA1 = {
    "stimuli_190923.csv": "7cfed4eccd5e60e8fc2c48a4f2fcf3a38d7a04ac",
    "stimuli_201025.csv": "742ea60ca13e954651a74e1330512d18b35017e2",
    "stimuli_210224.csv": "a3f627b886f4f6f9bea8d27da6c28e821a7f0360",
    "stimuli_210225.csv": "3ea4833ee2697e9d5d056a8074a8d92dd089a6b7",
    "stimuli_210325.csv": "16a64765bc9fc14dc7ba59978f864b6236378572",
    "responses_avg_190923.npy": "c574b1e3dbce44ac7806626721d9c1db28960f49",
    "responses_avg_201025.npy": "c32e5044a70ae1e06b02ad10cad9f76cd4292833",
    "responses_avg_210224.npy": "434944b3e723f73f0eba7eb2a5cc181d7c26d8c5",
    "responses_avg_210225.npy": "a6569073f2e036a14888414a7284998ef4ee7484",
    "responses_raw_210325.npy": "d5c6824d93cced20e8dc7d27a3ff0c752ed12da3",
}


#: sha1s of the packaged files, for S3 loads; the CSV/ZIP ones are also compared after local packaging (netCDF
#: bytes depend on the HDF5 library version, so the tests check the assemblies' content instead)
PACKAGED_SHA1 = {
    "stimulus_sets": {
        "Cowley2023": {"csv_sha1": "36865812300d5fd3d875212a022ef708fc63c290",
                       "zip_sha1": "114eb0ad6d4299cbc5c016ba4078de466fa1334a"},
        "Cowley2023.190923": {"csv_sha1": "e40f904d97ca77b035b29f7f7b671db02df6b6a0",
                              "zip_sha1": "97062903faa5b247dfc2f1d95ab0c7ca2f62f119"},
        "Cowley2023.201025": {"csv_sha1": "bac9b95c27dfba3534098355e14e01699631a65f",
                              "zip_sha1": "dd7f825323a965db60067171aad0d85da86a8016"},
        "Cowley2023.210225": {"csv_sha1": "0de27c9a93ad84a194ef4af2ca7612c193f07ebd",
                              "zip_sha1": "d65dfbc80a124bd141732292a6901f4727a77065"},
        "Cowley2023.210224": {"csv_sha1": "ee458bcd790604f09849275b68c3460ea6e7e8ad",
                              "zip_sha1": "15868ed76bfefa6d94dde4812a011d1a16c2ffa4"},
    },
    "assemblies": {
        "Cowley2023": {"sha1": "239f9d00fe3bdb9e5d2ff30117fcaba9b0931c61", "cls": "NeuroidAssembly"},
        "Cowley2023.190923": {"sha1": "dc9ba29d46440cbdd6f0bb5c00bd6eb283e02225", "cls": "NeuroidAssembly"},
        "Cowley2023.201025": {"sha1": "98882f8ea1b8c274a6ec947148cae10dfcf1cb22", "cls": "NeuroidAssembly"},
        "Cowley2023.210225": {"sha1": "187ea44093f77815239ffa524b8770fd3a0e9179", "cls": "NeuroidAssembly"},
        "Cowley2023.210224": {"sha1": "75c07041ca3aa6eddf979420d419f370fa26cd13", "cls": "NeuroidAssembly"},
    },
}


def _package(raw_directory, store_directory):
    from brainscore_vision.data.cowley2023.data_packaging.packaging import package

    return package(raw_directory, store_directory)


packaged = PackagedData("cowley2023", "cowley2023_v4", _package, raw_sha1=RAW_SHA1, packaged_sha1=PACKAGED_SHA1,
                        packaging_version=1)


def _identifier(session: str) -> str:
    return "Cowley2023" if session == "210325" else f"Cowley2023.{session}"


def _register(identifier: str) -> None:
    stimulus_set_registry[identifier] = lambda: packaged.load_stimulus_set(identifier)
    data_registry[identifier] = lambda: packaged.load_assembly(
        identifier, stimulus_set_loader=lambda: packaged.load_stimulus_set(identifier))


for _session in SESSIONS:
    _register(_identifier(_session))


DATA_NEEDS = "shipped"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the
recordings are in $BRAINSCORE_RAW_DATA, packaged on first use."""
