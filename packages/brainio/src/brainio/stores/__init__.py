"""Stores hold packaged files under keys (file names): a local folder or an S3 bucket.

A store has ``download(key, target, version_id=None)`` (write the object's bytes to ``target``) and
``upload(source, key) -> version_id | None``. ``S3Store`` needs ``pip install './packages/brainio[s3]'`` (from the repository); boto3 is
imported only by :mod:`brainio.stores.s3`. ``open_store('s3://bucket/folder')`` /
``open_store('/local/folder')`` build one from a location; other URL schemes are looked up in the
entry-point group ``brainio.stores`` (name = scheme, value = a class called with the rest of the URL),
so third-party packages can add stores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .local import LocalStore

if TYPE_CHECKING:
    from pathlib import Path

    from .s3 import S3Store

__all__ = ["LocalStore", "S3Store", "Store", "open_store", "store_schemes"]

ENTRY_POINT_GROUP = "brainio.stores"


@runtime_checkable
class Store(Protocol):
    """What the loaders need from a store."""

    def download(self, key: str, target: Path, version_id: str | None = None) -> None: ...

    def upload(self, source: Path, key: str) -> str | None: ...


def store_schemes() -> list[str]:
    """The schemes :func:`open_store` knows: the names in entry-point group ``brainio.stores`` (``s3``, ``file`` and
    those of installed third-party packages), sorted."""
    from importlib.metadata import entry_points

    return sorted({ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)})


def open_store(location: str) -> Store:
    """A store for ``location``: ``'s3://bucket/folder'``, ``'file:///path'`` or a plain path, or
    ``'<scheme>://rest'`` for a store registered under ``<scheme>`` in entry-point group ``brainio.stores``.
    """
    from importlib.metadata import entry_points

    scheme, separator, rest = location.partition("://")
    if not separator:
        return LocalStore(location)
    candidates = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == scheme]
    if not candidates:
        known = sorted({ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)})
        raise ValueError(f"no store for scheme {scheme!r} in {location!r}; known schemes: {known}")
    if len(candidates) > 1:
        raise ValueError(f"several stores claim scheme {scheme!r}: {[ep.value for ep in candidates]}")
    return candidates[0].load()(rest)


def __getattr__(name: str) -> Any:
    if name == "S3Store":
        from .s3 import S3Store

        return S3Store
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
