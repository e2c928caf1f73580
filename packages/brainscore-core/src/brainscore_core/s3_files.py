"""Single files from S3 (model weights, checkpoints) with Brain-Score's signatures, verified and cached.

Model plugins written for Brain-Score fetch their weights with
``brainscore_core.supported_data_standards.brainio.s3.load_weight_file`` (and ``load_file``,
``load_folder_from_s3``, which ``brainscore_vision.model_helpers`` calls ``download_weights``). These are those
functions, with the same signatures and the same local layout, on top of :func:`brainio.cache.fetch_to`:

* ``load_weight_file`` / ``load_file`` put ``<folder_name>/<relative_path>`` of the bucket at
  ``$BRAINSCORE_HOME/<folder_name>/<relative_path>`` (``folder_name`` defaults to ``$BRAINSCORE_S3_WEIGHT_FOLDER``,
  else ``models``), as Brain-Score does;
* a file is downloaded to a temporary name beside its place, checked against ``sha1`` when one is given, and only
  then renamed into place, under a lock beside it: a damaged or partial file is never used, two processes download
  once; a mismatch is refused (:class:`brainio.errors.Sha1MismatchError`), nothing is left;
* a file already in place (and matching its ``sha1``) is used without any network;
* the names come from plugin code, so each is held to brainio's path rule (:func:`brainio.paths.path_inside`): a
  weight file must lie inside ``$BRAINSCORE_HOME/<folder_name>``, a folder's file inside its ``save_directory``;
  anything else (``../results.sqlite``, an absolute name, a link out) is refused before any download
  (:class:`brainio.errors.PathOutsideRootError`, naming the name and the folder);
* without a network and without the file, one line names the file, its URL and the folder to put it in
  (:class:`brainio.errors.FileUnavailableError`).

Brain-Score stopped checking ``sha1`` in 2025; we check it whenever it is given. boto3 is needed only when a file
is actually downloaded (``pip install "brainio[s3]"``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from brainio.cache import fetch_to
from brainio.errors import PathOutsideRootError
from brainio.files import sha1_hash
from brainio.paths import path_inside
from brainscore_core.config import weight_folder

__all__ = ["load_file", "load_file_from_s3", "load_folder_from_s3", "load_weight_file", "sha1_hash",
           "weight_file_path", "weight_folder"]


def _store(bucket: str):
    from brainio.stores.s3 import S3Store  # boto3 only when S3 is used

    return S3Store(bucket)


def _key(*parts: str) -> str:
    """Parts joined by single slashes (Brain-Score's ``folder_name`` often ends in ``/``)."""
    return "/".join(piece for part in parts for piece in str(part).split("/") if piece)


def _local_path(folder: str, relative_path: str) -> Path:
    """``$BRAINSCORE_HOME/<folder>/<relative_path>``: the folder must lie inside the home and the file inside the
    folder (:func:`brainio.paths.path_inside`; both names come from plugin code)."""
    from brainscore_core.config import brainscore_home

    home = brainscore_home()
    root = home / _key(folder)
    if Path(os.path.normpath(root)) == home or not Path(os.path.normpath(root)).is_relative_to(home):
        raise PathOutsideRootError(folder, home, "weight folder", "it does not name a folder inside it")
    return path_inside(root, _key(relative_path), what=f"weight file (of folder {folder!r})")


def load_file(bucket: str, relative_path: str, version_id: str | None, folder_name: str | None = None, *,
              sha1: str | None = None) -> Path:
    """The local copy of ``<folder_name>/<relative_path>`` in ``bucket``, at
    ``$BRAINSCORE_HOME/<folder_name>/<relative_path>``; downloaded only when it is not there yet.

    Parameters
    ----------
    bucket : str
        e.g. ``'brainscore-storage'``.
    relative_path : str
        Path of the file below ``folder_name``, e.g. ``'cornet_s/cornet_s_epoch43.pth.tar'``.
    version_id : str or None
        S3 version of the object (``'null'`` and None: the latest).
    folder_name : str, default=None
        Folder in the bucket, e.g. ``'brainscore-vision/models'``; None means ``$BRAINSCORE_S3_WEIGHT_FOLDER``, else
        ``'models'``.
    sha1 : str, default=None
        Expected SHA-1; None: not verified (Brain-Score's ``load_file`` has none).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    brainio.errors.PathOutsideRootError
        ``relative_path`` leaves ``$BRAINSCORE_HOME/<folder_name>`` (``..``, a link out), or ``folder_name`` leaves
        ``$BRAINSCORE_HOME`` or names the home itself; nothing is downloaded.
    """
    folder = weight_folder(folder_name)
    target = _local_path(folder, relative_path)  # refused before any store is contacted
    return fetch_to(_store(bucket), _key(folder, relative_path), target, sha1=sha1, version_id=version_id)


def load_weight_file(bucket: str, relative_path: str, version_id: str | None, sha1: str | None,
                     folder_name: str | None = None) -> Path:
    """:func:`load_file`, verified against ``sha1`` (a mismatch is refused and nothing is kept)."""
    return load_file(bucket, relative_path, version_id, folder_name, sha1=sha1)


def load_file_from_s3(bucket: str, path: str, local_filepath: str | os.PathLike, sha1: str | None = None,
                      version_id: str | None = None) -> Path:
    """The object ``path`` of ``bucket`` at ``local_filepath`` (any folder), verified when ``sha1`` is given."""
    return fetch_to(_store(bucket), _key(path), Path(local_filepath), sha1=sha1, version_id=version_id)


def load_folder_from_s3(bucket: str, folder_path: str, filename_version_sha: Iterable[tuple[str, str | None, str]],
                        save_directory: str | os.PathLike) -> list[Path]:
    """Each ``(filename, version_id, sha1)`` of ``<folder_path>/`` in ``bucket`` at ``<save_directory>/<filename>``
    (``brainscore_vision.model_helpers.download_weights``); returns the paths, in order.

    Every file name must lie inside ``save_directory`` (:func:`brainio.paths.path_inside`); all are checked before
    anything is downloaded.

    Raises
    ------
    brainio.errors.PathOutsideRootError
        A file name that is absolute or leaves ``save_directory`` (``..``, a link), naming it and the folder.
    """
    entries = list(filename_version_sha)
    targets = [path_inside(save_directory, filename, what="file name") for filename, _, _ in entries]
    return [load_file_from_s3(bucket, _key(folder_path, filename), target, sha1=sha1, version_id=version_id)
            for (filename, version_id, sha1), target in zip(entries, targets)]


def weight_file_path(relative_path: str, folder_name: str | None = None) -> Path:
    """Where :func:`load_weight_file` / :func:`load_file` put ``<folder_name>/<relative_path>`` on this machine
    (``$BRAINSCORE_HOME/<folder_name>/<relative_path>``; ``folder_name`` None: ``$BRAINSCORE_S3_WEIGHT_FOLDER``, else
    ``models``), without fetching it. Raises
    :class:`brainio.errors.PathOutsideRootError` for a name that would lie outside that folder."""
    folder = weight_folder(folder_name)
    return _local_path(folder, relative_path)
