"""Compatibility module: the file primitives live in :mod:`brainio.files`."""

from .files import atomic_path, sha1_hash

__all__ = ["atomic_path", "sha1_hash"]
