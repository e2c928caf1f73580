"""The per-image content digests of a stimulus set, as one table per set.

A set loaded from an archive carries, in its ``stimulus_paths`` (an :class:`ExtractedPaths`), the SHA-1 of each of
its files as recorded in the extracted folder's verified-extraction manifest (:mod:`.extraction`): reading them
back stats and hashes no image. :func:`content_digests` asks a set's ``stimulus_paths`` for all its digests in one
call (any mapping with a ``content_digests(stimulus_ids)`` method answers: brainio's :class:`ExtractedPaths`,
brainscore_vision's placed paths); only stimuli it cannot name are hashed from their files
(:func:`brainio.files.remembered_sha1_hash`, one ``stat`` per file when warm).

The recorded digests are those the files had when the set was loaded: :func:`~.extraction.extract_zip` checked
every file's stamp then (and restored any that differed).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..files import remembered_sha1_hash

__all__ = ["ExtractedPaths", "content_digests", "stimulus_files"]


class ExtractedPaths(dict):
    """``stimulus_id -> path`` of a set's files in its extracted folder (a plain ``dict`` to every reader), with the
    SHA-1 of each file recorded at its verified extraction.

    Any change through the mapping (``paths[id] = other``, ``update``, ``pop``...) drops the recorded digests of
    the stimuli it touches: they are hashed from their files again.

    Parameters
    ----------
    paths : mapping of str -> path
        As :meth:`brainio.StimulusSet.from_files` builds it.
    sha1s : mapping of str -> str or pandas.Series, default=None
        ``stimulus_id -> SHA-1`` of the file's bytes; stimuli not in it are hashed on request.
    """

    def __init__(self, paths: Mapping[str, Any] = (), sha1s: Mapping[str, str] | None = None):
        super().__init__(paths)
        self._sha1 = (sha1s.copy() if isinstance(sha1s, pd.Series)
                      else pd.Series(dict(sha1s) if sha1s is not None else {}, dtype=object))

    @classmethod
    def of(cls, paths: Mapping[str, Any], directory: str | os.PathLike,
           member_sha1s: Mapping[str, str]) -> tuple[ExtractedPaths, list[str]]:
        """``paths`` (files under ``directory``) with their digests taken from ``member_sha1s`` (archive member name
        -> SHA-1), and the member names of the paths that the archive does not hold."""
        prefix = os.fspath(directory).rstrip(os.sep) + os.sep
        names = {stimulus_id: _member_name(os.fspath(path), prefix, directory) for stimulus_id, path in paths.items()}
        missing = sorted({name for name in names.values() if name not in member_sha1s})
        sha1s = {stimulus_id: member_sha1s[name] for stimulus_id, name in names.items() if name in member_sha1s}
        return cls(paths, sha1s), missing

    def content_digests(self, stimulus_ids: Sequence[Any]) -> np.ndarray:
        """SHA-1 per stimulus id (object array, ``None`` where none is recorded), in one lookup."""
        sha1 = self.__dict__.get("_sha1")
        if sha1 is None or sha1.empty:
            return np.full(len(stimulus_ids), None, dtype=object)
        found = sha1.reindex(pd.Index(stimulus_ids, dtype=object))
        return found.where(found.notna(), None).to_numpy(dtype=object)

    def copy(self) -> ExtractedPaths:
        return ExtractedPaths(self, self.__dict__.get("_sha1"))

    # every change drops the digests it may invalidate (unpickling sets the items before ``_sha1``)
    def _forget(self, keys: Iterable[Any] | None = None) -> None:
        sha1 = self.__dict__.get("_sha1")
        if sha1 is not None and not sha1.empty:
            self._sha1 = sha1.iloc[:0] if keys is None else sha1.drop(list(keys), errors="ignore")

    def __setitem__(self, key: Any, value: Any) -> None:
        self._forget([key])
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        self._forget([key])
        super().__delitem__(key)

    def pop(self, key: Any, *default: Any) -> Any:
        self._forget([key])
        return super().pop(key, *default)

    def popitem(self) -> tuple[Any, Any]:
        item = super().popitem()
        self._forget([item[0]])
        return item

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self._forget([key])
        return super().setdefault(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._forget()
        super().update(*args, **kwargs)

    def __ior__(self, other: Any) -> ExtractedPaths:
        self.update(other)
        return self

    def clear(self) -> None:
        self._forget()
        super().clear()


def _member_name(path: str, prefix: str, directory: str | os.PathLike) -> str:
    if path.startswith(prefix):
        return path[len(prefix):].replace(os.sep, "/")
    return Path(os.path.relpath(path, directory)).as_posix()


def stimulus_files(stimulus_set: Any, stimulus_ids: Sequence[Any] | None = None) -> list[str]:
    """The file of each stimulus id (default: every row's, in order) from ``stimulus_set.stimulus_paths``.

    Raises
    ------
    KeyError
        Naming the first id without a path and the set.
    """
    ids = stimulus_set["stimulus_id"].tolist() if stimulus_ids is None else list(stimulus_ids)
    paths = stimulus_set.stimulus_paths or {}
    try:
        return [os.fspath(paths[stimulus_id]) for stimulus_id in ids]
    except KeyError as error:
        raise KeyError(f"stimulus_id {error.args[0]!r} has no path in stimulus set "
                       f"{getattr(stimulus_set, 'identifier', None)!r}") from None


def content_digests(stimulus_set: Any, stimulus_ids: Sequence[Any] | None = None) -> np.ndarray:
    """SHA-1 naming the content of each stimulus (default: every row's, in order), as one object array.

    One call per set: the set's ``stimulus_paths`` answer for every id they can (``content_digests(ids)``); the
    others are hashed from their files (remembered per file stamp).

    Parameters
    ----------
    stimulus_set : StimulusSet or any frame with ``stimulus_id`` and ``stimulus_paths``
    stimulus_ids : sequence, default=None
        Which stimuli, in which order.

    Raises
    ------
    KeyError
        An id without a path (naming it and the set).
    OSError
        A file that must be hashed cannot be read (the error names it).
    """
    ids = stimulus_set["stimulus_id"].tolist() if stimulus_ids is None else list(stimulus_ids)
    paths = stimulus_set.stimulus_paths or {}
    batch = getattr(paths, "content_digests", None)
    digests = batch(ids) if callable(batch) else np.full(len(ids), None, dtype=object)
    digests = np.array(digests, dtype=object)  # a writable copy (pandas may hand out read-only arrays)
    unknown = np.flatnonzero(digests == None)  # noqa: E711 (element-wise)
    if unknown.size:
        files = stimulus_files(stimulus_set, [ids[index] for index in unknown])
        digests[unknown] = [remembered_sha1_hash(path) for path in files]
    return digests
