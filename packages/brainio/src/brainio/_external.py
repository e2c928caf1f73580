"""References from an HDF5 (netCDF-4) file to other files, which brainio refuses to follow.

HDF5 can keep a dataset's bytes in other files (*external storage*: ``H5Pset_external``), link a name to an object of
another file (*external links*) and assemble a dataset from datasets of other files (*virtual datasets*). Reading any
of them reads a file that the SHA-1 of the ``.nc`` does not cover, wherever the name points (``/home/.../.ssh/...``).
:func:`external_references` lists them without reading any data; :func:`refuse_external_references` raises
:class:`~brainio.errors.ExternalDataError` naming the file, the variable and the file referred to.
"""

from __future__ import annotations

import os

import h5py

from .errors import ExternalDataError

__all__ = ["EXTERNAL_EXIT_STATUS", "external_data_error", "external_references", "refuse_external_references"]

EXTERNAL_EXIT_STATUS = 3
"""Exit status of the netCDF probe child (:func:`brainio.netcdf.probe_netcdf`) that found references to other files;
it prints them, one per line, on its standard error."""


def external_references(handle: h5py.File) -> list[str]:
    """One line per reference to another file in ``handle`` (empty when the file stands alone).

    Every group is visited once (hard links to a group already seen are skipped, so a cycle ends); soft links stay
    inside the file and are not followed.
    """
    found: list[str] = []
    seen: set[int] = set()

    def visit(group: h5py.Group, prefix: str) -> None:
        address = h5py.h5o.get_info(group.id).addr
        if address in seen:
            return
        seen.add(address)
        for name in group:
            path = f"{prefix}{name}"
            link = group.get(name, getlink=True)
            if isinstance(link, h5py.ExternalLink):
                found.append(f"{path!r} is an external link to {link.filename!r}")
                continue
            if isinstance(link, h5py.SoftLink):
                continue
            item = group.get(name)
            if isinstance(item, h5py.Group):
                visit(item, path + "/")
            elif isinstance(item, h5py.Dataset):
                if item.external:
                    files = sorted({os.fsdecode(entry[0]) for entry in item.external})
                    found.append(f"variable {path!r} keeps its values in the external file(s) {files}")
                if item.is_virtual:
                    files = sorted({source.file_name for source in item.virtual_sources()})
                    found.append(f"variable {path!r} is a virtual dataset reading {files}")

    visit(handle, "")
    return found


def external_data_error(path: str | os.PathLike, found: list[str]) -> ExternalDataError:
    """The error naming ``path`` and the references ``found`` in it."""
    return ExternalDataError(f"{path} refers to other files, which brainio does not read (no SHA-1 covers them): "
                             + "; ".join(found))


def refuse_external_references(handle: h5py.File, path: str | os.PathLike) -> None:
    """Raise :class:`ExternalDataError` naming ``path`` when ``handle`` refers to other files."""
    found = external_references(handle)
    if found:
        raise external_data_error(path, found)
