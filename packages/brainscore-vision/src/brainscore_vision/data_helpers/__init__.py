"""Helpers for data plugins: package raw recordings into a store on first use, then load with sha1 checks."""

from brainscore_vision.data_helpers.packaged import (
    DataIntegrityError,
    DataRepairWarning,
    MissingRawDataError,
    PackagedData,
    PackagingDriftWarning,
    data_source,
    store_directory,
)

__all__ = ["DataIntegrityError", "DataRepairWarning", "MissingRawDataError", "PackagedData", "PackagingDriftWarning",
           "data_source", "store_directory"]
