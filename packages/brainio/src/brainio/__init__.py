"""Data standard for brain measurements: stimulus sets, labelled assemblies, netCDF, packaging and stores.

Names are resolved lazily (PEP 562): ``import brainio`` imports neither pandas nor xarray; ``brainio.DataAssembly``
or ``from brainio import DataAssembly`` imports the defining module on first use (the command line starts fast).
"""

import importlib
import importlib.util
from importlib.metadata import version as _version
from typing import Any

# public name -> module that defines it (relative to this package)
_LAZY = {
    "BehavioralAssembly": "assemblies",
    "DataAssembly": "assemblies",
    "MetadataAssembly": "assemblies",
    "NeuroidAssembly": "assemblies",
    "NeuronRecordingAssembly": "assemblies",
    "PropertyAssembly": "assemblies",
    "SpikeTimesAssembly": "assemblies",
    "resolve_assembly_class": "assemblies",
    "array_is_element": "coords",
    "gather_indexes": "coords",
    "get_levels": "coords",
    "merge_data_arrays": "coords",
    "walk_coords": "coords",
    "assembly_digest": "digest",
    "stimulus_set_digest": "digest",
    "BrainIOError": "errors",
    "DimensionError": "errors",
    "NetCDFReadError": "errors",
    "Sha1MismatchError": "errors",
    "StoreKeyError": "errors",
    "UnknownAssemblyClassError": "errors",
    "UnsafeArchiveError": "errors",
    "ValidationError": "errors",
    "MissingExtraError": "errors",
    "load_assembly": "fetch",
    "load_stimulus_set": "fetch",
    "average_repetition": "grouping",
    "read_netcdf": "netcdf",
    "write_netcdf": "netcdf",
    "package_data_assembly": "packaging",
    "package_data_assembly_locally": "packaging",
    "package_stimulus_set": "packaging",
    "package_stimulus_set_locally": "packaging",
    "sha1_hash": "packaging",
    "load_assembly_from_s3": "s3",
    "load_stimulus_set_from_s3": "s3",
    "StimulusSet": "stimuli",
    "LocalStore": "stores",
    "open_store": "stores",
    "assert_assemblies_equal": "testing",
    "subset": "transform",
}

__version__ = _version("brainio")


__all__ = [
    "BehavioralAssembly",
    "BrainIOError",
    "DataAssembly",
    "DimensionError",
    "LocalStore",
    "MetadataAssembly",
    "MissingExtraError",
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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
            return importlib.import_module(f".{name}", __name__)  # a submodule: ``brainio.netcdf``
        raise AttributeError(f"module 'brainio' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
