"""Helpers for data plugins: package raw recordings into a store on first use, then load with sha1 checks."""

from brainscore_vision.data_helpers.packaged import (
    DataIntegrityError,
    DataRepairWarning,
    DataSourceError,
    MissingRawDataError,
    PackagedData,
    PackagingDriftWarning,
    data_source,
    remote_store,
    store_directory,
)

__all__ = ["DataIntegrityError", "DataRepairWarning", "DataSourceError", "MissingRawDataError", "PackagedData",
           "PackagingDriftWarning", "data_source", "remote_store", "store_directory"]
