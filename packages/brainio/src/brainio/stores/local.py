"""A folder on the local file system used as a store (the embedded default)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..errors import PathOutsideRootError, StoreKeyError
from ..files import atomic_path, target_lock
from ..paths import path_inside

__all__ = ["LocalStore"]


class LocalStore:
    """Packaged files kept flat in ``directory`` (e.g. the output folder of local packaging).

    Parameters
    ----------
    directory : path-like
        Folder holding the files (``~`` is expanded); keys are file names inside it. Versions are not kept: ``version_id``
        is accepted and ignored, ``upload`` returns None.
    """

    def __init__(self, directory: str | os.PathLike):
        self.directory = Path(directory).expanduser()

    def __repr__(self) -> str:
        return f"LocalStore({str(self.directory)!r})"

    def _path(self, key: str) -> Path:
        try:
            return path_inside(self.directory, key, what="store key")  # the one path rule
        except PathOutsideRootError as error:
            raise StoreKeyError(str(error)) from error

    def download(self, key: str, target: Path, version_id: str | None = None) -> None:
        """Copy the file ``key`` to ``target``."""
        source = self._path(key)
        if not source.is_file():
            raise StoreKeyError(f"{self!r} has no file {key!r}")
        shutil.copyfile(source, target)

    def upload(self, source: Path, key: str) -> None:
        """Copy ``source`` into the store as ``key`` (atomically, under the key's lock, which removes the temporaries
        an upload killed earlier left for it)."""
        target = self._path(key)
        with target_lock(target), atomic_path(target) as temp:
            shutil.copyfile(source, temp)
        return None
