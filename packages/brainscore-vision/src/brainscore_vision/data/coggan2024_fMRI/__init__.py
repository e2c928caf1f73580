"""Data plugin: human fMRI similarity matrices of Coggan & Tong (2024), occluded objects.

Registered identifiers
----------------------
stimulus set
    ``Coggan2024_fMRI``: 24 greyscale images, 224 x 224 px (8 objects, each complete and behind two
    complementary occluders), with ``object`` and ``occlusion_condition`` columns.
data
    ``Coggan2024_fMRI``: similarity matrices of 9 subjects for V1, V2, V4 and IT, dims
    ``stimulus_row x stimulus_column x neuroid`` = 24 x 24 x 36; the ``neuroid`` dim carries ``region`` and
    ``subject``. Select a region with ``assembly.isel(neuroid=assembly['region'].values == 'IT')``.

Packaged from ``$BRAINSCORE_RAW_DATA/coggan2024_fmri`` on first use (``data_packaging/packaging.py``), nothing
pickled: the raw folder ships the matrices as ``.npz``.
"""

from brainscore_vision import data_registry, stimulus_set_registry
from brainscore_vision.data_helpers import PackagedData

BIBTEX = """@article{coggan2024amodal,
  title   = {Evidence of strong amodal completion in both early and high-level visual cortices},
  author  = {Coggan, David D. and Tong, Frank},
  year    = {2024}, note = {under review at the time of the Brain-Score submission}
}"""

IDENTIFIER = "Coggan2024_fMRI"

RAW_SHA1 = {
    "stimuli.csv": "ce180d33d5fd3a34c4ad26338650a5e9711001de",
    "rsms.npz": "0c12552908abc614ab57e971c79d6b20c53ca512",
}


def _package(raw_directory, store_directory):
    from brainscore_vision.data.coggan2024_fMRI.data_packaging.packaging import package

    return package(raw_directory, store_directory)


packaged = PackagedData("coggan2024_fmri", "coggan2024_fmri", _package, raw_sha1=RAW_SHA1, packaging_version=1)

stimulus_set_registry[IDENTIFIER] = lambda: packaged.load_stimulus_set(IDENTIFIER)
data_registry[IDENTIFIER] = lambda: packaged.load_assembly(
    IDENTIFIER, stimulus_set_loader=lambda: packaged.load_stimulus_set(IDENTIFIER), merge_stimulus_set_meta=False)


DATA_NEEDS = "shipped"
"""What its data and stimulus sets need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the
recordings are in $BRAINSCORE_RAW_DATA, packaged on first use."""
