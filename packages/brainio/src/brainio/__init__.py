"""Data standard for brain measurements: stimulus sets, labelled assemblies, netCDF, packaging and stores."""

from importlib.metadata import version as _version

from .assemblies import (
    BehavioralAssembly,
    DataAssembly,
    MetadataAssembly,
    NeuroidAssembly,
    NeuronRecordingAssembly,
    PropertyAssembly,
    SpikeTimesAssembly,
    resolve_assembly_class,
)
from .coords import array_is_element, gather_indexes, get_levels, merge_data_arrays, walk_coords
from .digest import assembly_digest, stimulus_set_digest
from .errors import (
    ArchiveReadError,
    BrainIOError,
    DimensionError,
    InvalidIdentifierError,
    NetCDFReadError,
    Sha1MismatchError,
    StoreKeyError,
    UnknownAssemblyClassError,
    UnsafeArchiveError,
    ValidationError,
)
from .fetch import load_assembly, load_stimulus_set
from .grouping import average_repetition
from .netcdf import read_netcdf, write_netcdf
from .packaging import (
    package_data_assembly,
    package_data_assembly_locally,
    package_stimulus_set,
    package_stimulus_set_locally,
    sha1_hash,
)
from .s3 import load_assembly_from_s3, load_stimulus_set_from_s3
from .stimuli import StimulusSet
from .stores import LocalStore, open_store
from .testing import assert_assemblies_equal
from .transform import subset

__version__ = _version("brainio")

__all__ = [
    "ArchiveReadError",
    "BehavioralAssembly",
    "BrainIOError",
    "DataAssembly",
    "DimensionError",
    "InvalidIdentifierError",
    "LocalStore",
    "MetadataAssembly",
    "NeuroidAssembly",
    "NeuronRecordingAssembly",
    "PropertyAssembly",
    "Sha1MismatchError",
    "SpikeTimesAssembly",
    "StimulusSet",
    "StoreKeyError",
    "NetCDFReadError",
    "UnknownAssemblyClassError",
    "UnsafeArchiveError",
    "ValidationError",
    "__version__",
    "array_is_element",
    "assembly_digest",
    "assert_assemblies_equal",
    "average_repetition",
    "gather_indexes",
    "get_levels",
    "load_assembly",
    "load_assembly_from_s3",
    "load_stimulus_set",
    "load_stimulus_set_from_s3",
    "merge_data_arrays",
    "open_store",
    "package_data_assembly",
    "package_data_assembly_locally",
    "package_stimulus_set",
    "package_stimulus_set_locally",
    "read_netcdf",
    "resolve_assembly_class",
    "sha1_hash",
    "stimulus_set_digest",
    "subset",
    "walk_coords",
    "write_netcdf",
]
