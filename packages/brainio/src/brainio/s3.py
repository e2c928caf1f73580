"""Brain-Score's S3 loaders of packaged data (tutorial signatures) on top of :mod:`brainio.fetch` and ``S3Store``.

Single files (model weights) are fetched with :func:`brainio.cache.fetch_to`; Brain-Score's ``load_weight_file`` and
``load_file`` signatures, which place files under ``$BRAINSCORE_HOME``, are in :mod:`brainscore_core.s3_files`.
"""

from __future__ import annotations

from collections.abc import Callable

from .assemblies import DataAssembly
from .fetch import load_assembly, load_stimulus_set
from .stimuli import StimulusSet

__all__ = ["load_assembly_from_s3", "load_stimulus_set_from_s3"]


def _store(bucket: str):
    from .stores.s3 import S3Store  # boto3 only when S3 is used

    return S3Store(bucket)


def load_stimulus_set_from_s3(identifier: str, bucket: str, csv_sha1: str, zip_sha1: str,
                              csv_version_id: str | None, zip_version_id: str | None,
                              filename_prefix: str | None = None) -> StimulusSet:
    """Load a stimulus set from ``bucket`` (``'bucket'`` or ``'bucket/folder'``); see
    :func:`brainio.fetch.load_stimulus_set`. ``filename_prefix=None`` means ``'stimulus_'``."""
    return load_stimulus_set(identifier, _store(bucket), csv_sha1=csv_sha1, zip_sha1=zip_sha1,
                             csv_version_id=csv_version_id, zip_version_id=zip_version_id,
                             filename_prefix=filename_prefix or "stimulus_")


def load_assembly_from_s3(identifier: str, version_id: str | None, sha1: str, bucket: str, cls: type | str,
                          stimulus_set_loader: Callable[[], StimulusSet] | None = None,
                          merge_stimulus_set_meta: bool = True) -> DataAssembly:
    """Load ``assy_<identifier>.nc`` from ``bucket``; see :func:`brainio.fetch.load_assembly`."""
    return load_assembly(identifier, _store(bucket), sha1=sha1, cls=cls, version_id=version_id,
                         stimulus_set_loader=stimulus_set_loader, merge_stimulus_set_meta=merge_stimulus_set_meta)
