"""The one rule for file names that come from outside the code, and link-safe removal inside caches.

A name that code did not write itself (a plugin's argument, a cache record, an archive member, an identifier) is
joined to the folder it belongs in, *resolved* (``..`` collapsed, symbolic links followed), and refused unless the
result lies inside that folder, itself resolved: :func:`path_inside`. The refusal is a
:class:`~brainio.errors.PathOutsideRootError` naming the name and the folder. Resolving the folder first means that a
user who keeps a whole cache elsewhere through a link (``~/.brain-score/models -> /scratch/models``) is served; a link
*inside* the folder that points out of it is refused.

Caches are walked and pruned without going through links: :func:`linked_part` finds a symbolic link between a
folder and a path below it, :func:`walk_files` lists files without entering linked folders, and
:func:`remove_inside` removes a file, a folder tree or a link itself (never what a link points at), refusing a path
that is reached through a linked folder.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from .errors import PathOutsideRootError

__all__ = ["linked_part", "path_inside", "remove_inside", "walk_files"]


def path_inside(root: str | os.PathLike, name: str | os.PathLike, *, what: str = "file name",
                allow_root: bool = False) -> Path:
    """``root / name``, resolved; refused when it lies outside ``root`` (resolved as well).

    Parameters
    ----------
    root : path-like
        The folder the name belongs in; it need not exist yet.
    name : str or path-like
        A name from outside the code: relative (``'cornet_s/weights.pth'``); an absolute name is refused unless it
        lies inside ``root``.
    what : str, default='file name'
        What the name is, for the message (``'weight file'``, ``'activations index entry'``).
    allow_root : bool, default=False
        Accept a name that resolves to ``root`` itself (``''``, ``'.'``, ``'a/..'``).

    Returns
    -------
    pathlib.Path
        The resolved path, inside the resolved ``root``.

    Raises
    ------
    PathOutsideRootError
        Naming ``name`` and ``root`` (a ``ValueError``): ``..`` or an absolute path that leaves the folder, a
        symbolic link inside it that points out, a NUL character, or the folder itself when not allowed.
    """
    base = Path(root).resolve()
    text = os.fspath(name)
    if "\x00" in text:
        raise PathOutsideRootError(text, root, what, "it holds a NUL character")
    resolved = (base / text).resolve()
    if resolved == base and not allow_root:
        raise PathOutsideRootError(text, root, what, "it names the folder itself, not a file in it")
    if resolved != base and not resolved.is_relative_to(base):
        raise PathOutsideRootError(text, root, what, f"it resolves to {resolved}")
    return resolved


def linked_part(root: str | os.PathLike, path: str | os.PathLike) -> Path | None:
    """The first symbolic link among the folders between ``root`` (excluded) and ``path`` (excluded), or None.

    ``path`` must be ``root`` joined with a relative part (as listing ``root`` gives it); ``path`` itself may be a
    link (removing it removes the link). A path that is not below ``root`` at all counts as linked (it is returned).
    """
    root, path = Path(os.path.abspath(root)), Path(os.path.abspath(path))
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return path
    current = root
    for part in parts[:-1]:
        current = current / part
        if current.is_symlink():
            return current
    return None


def walk_files(root: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """Every file (and symbolic link) below ``root`` whose name ends in ``suffix``, sorted per folder, without
    entering linked folders: a link is listed as a file, never followed."""
    for folder, folders, files in os.walk(root, followlinks=False):
        folders.sort()
        linked = [name for name in folders if os.path.islink(os.path.join(folder, name))]
        for name in sorted([*files, *linked]):
            if name.endswith(suffix):
                yield Path(folder) / name


def remove_inside(root: str | os.PathLike, path: str | os.PathLike) -> None:
    """Remove ``path`` below ``root``: a file, a folder tree (links inside it are removed, not followed), or a
    symbolic link itself. Nothing happens when it is gone already.

    Raises
    ------
    PathOutsideRootError
        ``path`` is reached through a linked folder below ``root`` (or is not below it): removing it would delete
        something outside the cache.
    """
    link = linked_part(root, path)
    if link is not None:
        raise PathOutsideRootError(os.fspath(path), root, "cache path",
                                   f"it is reached through the symbolic link {link}; only the link may be removed")
    path = Path(path)
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)  # rmtree never follows links inside the tree
    else:
        path.unlink(missing_ok=True)
