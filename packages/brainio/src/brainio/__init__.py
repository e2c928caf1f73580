"""Data standard for brain measurements: stimulus sets, labelled assemblies, netCDF, packaging and stores.

Names are resolved lazily (PEP 562): ``import brainio`` (or ``import brainio.errors``) imports neither xarray nor
pandas; ``brainio.StimulusSet`` imports what it needs on first use.
"""

from __future__ import annotations

from importlib.metadata import version as _version
from typing import Any

from brainio.lazy import lazy_names

__version__ = _version("brainio")

# public name -> module that defines it
_LAZY = {
    "ArchiveLimitError": "brainio.errors",
    "ArchiveReadError": "brainio.errors",
    "BehavioralAssembly": "brainio.assemblies",
    "BrainIOError": "brainio.errors",
    "BrainScoreError": "brainio.errors",
    "DataAssembly": "brainio.assemblies",
    "DimensionError": "brainio.errors",
    "ExternalDataError": "brainio.errors",
    "FileUnavailableError": "brainio.errors",
    "InvalidIdentifierError": "brainio.errors",
    "LocalStore": "brainio.stores",
    "MissingExtraError": "brainio.errors",
    "MetadataAssembly": "brainio.assemblies",
    "NetCDFReadError": "brainio.errors",
    "NeuroidAssembly": "brainio.assemblies",
    "NeuronRecordingAssembly": "brainio.assemblies",
    "PathOutsideRootError": "brainio.errors",
    "PropertyAssembly": "brainio.assemblies",
    "Sha1MismatchError": "brainio.errors",
    "StoreAccessDeniedError": "brainio.errors",
    "SpikeTimesAssembly": "brainio.assemblies",
    "StimulusSet": "brainio.stimuli",
    "StoreKeyError": "brainio.errors",
    "StoreUnreachableError": "brainio.errors",
    "UnknownAssemblyClassError": "brainio.errors",
    "UnsafeArchiveError": "brainio.errors",
    "ValidationError": "brainio.errors",
    "array_is_element": "brainio.coords",
    "assembly_digest": "brainio.digest",
    "assert_assemblies_equal": "brainio.testing",
    "average_repetition": "brainio.grouping",
    "gather_indexes": "brainio.coords",
    "get_levels": "brainio.coords",
    "load_assembly": "brainio.fetch",
    "load_assembly_from_s3": "brainio.s3",
    "load_stimulus_set": "brainio.fetch",
    "load_stimulus_set_from_s3": "brainio.s3",
    "merge_data_arrays": "brainio.coords",
    "open_store": "brainio.stores",
    "package_data_assembly": "brainio.packaging",
    "package_data_assembly_locally": "brainio.packaging",
    "package_stimulus_set": "brainio.packaging",
    "package_stimulus_set_locally": "brainio.packaging",
    "read_netcdf": "brainio.netcdf",
    "resolve_assembly_class": "brainio.assemblies",
    "sha1_hash": "brainio.packaging",
    "stimulus_set_digest": "brainio.digest",
    "subset": "brainio.transform",
    "walk_coords": "brainio.coords",
    "write_netcdf": "brainio.netcdf",
}

__all__ = ["__version__", *_LAZY]


# names that were brainio's once: the hint of the error when no installed distribution adds them
_RETIRED = {"get_assembly": "brainscore_vision.load_dataset", "get_stimulus_set": "brainscore_vision.load_stimulus_set"}


def _fallback(name: str) -> Any:
    """A name added by an installed distribution (:mod:`brainio.extensions`), else AttributeError."""
    from brainio.extensions import extension_name

    try:
        return extension_name(__name__, name)
    except AttributeError:
        if name in _RETIRED:
            raise AttributeError(f"brainio.{name} is brainio 2021's API, which the opt-in brainscore-legacy "
                                 "distribution adds: python -m pip install -c constraints.txt "
                                 f"./packages/brainscore-legacy (or use {_RETIRED[name]})") from None
        raise


__getattr__, __dir__ = lazy_names(globals(), _LAZY, submodules=True, fallback=_fallback)
