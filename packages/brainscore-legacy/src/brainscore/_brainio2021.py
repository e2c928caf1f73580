"""brainio 2021's spellings, which this distribution adds to brainio through brainio's extension points.

brainio looks these up through entry points (:mod:`brainio.extensions`; declared in this distribution's
``pyproject.toml``), so they are there whenever brainscore-legacy is installed, whether or not ``brainscore`` was
imported, and none of brainio's functions is replaced:

- ``brainio.get_assembly(identifier)`` / ``brainio.get_stimulus_set(identifier)`` (also under ``brainio.fetch``):
  the 1.x lookups (:mod:`brainscore._lookup`), era identifiers mapped to today's (group ``brainio.names``);
- :func:`adapt_packaging` (group ``brainio.packaging_adapters``): ``package_data_assembly(..., assembly_class=...)``
  (and ``package_data_assembly_locally``) takes the keyword as today's ``assembly_class_name``, and a stimulus set
  with an ``image_id`` column and no ``stimulus_id``, or an assembly with an ``image_id`` coordinate and no
  ``stimulus_id``, gets ``stimulus_id`` from it when packaged.

Each old spelling gives a ``DeprecationWarning`` naming the new one, pointing at the caller's line.
"""

from __future__ import annotations

import warnings

from brainscore import _lookup
from brainscore_core.deprecation import warn_deprecated

__all__ = ["adapt_packaging", "fetch_get_assembly", "fetch_get_stimulus_set", "get_assembly", "get_stimulus_set"]

# an adapter runs two frames below the caller of the packaging function (brainio.extensions); warn_deprecated adds one
_CALLER = 4
# the argument that holds the stimulus set or assembly, by position and by keyword
_PROTO = {"package_stimulus_set": (1, "proto_stimulus_set"), "package_stimulus_set_locally": (0, "proto_stimulus_set"),
          "package_data_assembly": (1, "proto_data_assembly"),
          "package_data_assembly_locally": (0, "proto_data_assembly")}
_RENAMED = {"assembly_class": "assembly_class_name"}


def _stimulus_ids_from_image_ids(proto):
    """``proto`` with ``stimulus_id`` copied from a legacy ``image_id`` (column or presentation coordinate)."""
    if hasattr(proto, "columns"):  # a stimulus set
        if "image_id" in proto.columns and "stimulus_id" not in proto.columns:
            warn_deprecated("a stimulus set column 'image_id'", "'stimulus_id' (copied from it)", stacklevel=_CALLER + 1)
            proto = proto.copy()
            proto["stimulus_id"] = proto["image_id"].astype(str)
        return proto
    coords = getattr(proto, "coords", {})
    if "image_id" in coords and "stimulus_id" not in coords:
        warn_deprecated("an assembly coordinate 'image_id'", "'stimulus_id' (copied from it)", stacklevel=_CALLER + 1)
        proto = proto.assign_coords(stimulus_id=(proto["image_id"].dims, proto["image_id"].values))
    return proto


def adapt_packaging(function_name: str, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """brainio's packaging adapter (:mod:`brainio.extensions`): ``assembly_class=`` becomes ``assembly_class_name=``
    and an ``image_id``-only input gets ``stimulus_id``, each with a ``DeprecationWarning``."""
    kwargs = dict(kwargs)
    for old, new in _RENAMED.items():
        if old in kwargs:
            if new in kwargs:
                raise TypeError(f"{function_name}() got both {old!r} (deprecated) and {new!r}")
            warnings.warn(f"{function_name}(): keyword {old!r} is deprecated, use {new!r} (same meaning)",
                          DeprecationWarning, stacklevel=_CALLER - 1)
            kwargs[new] = kwargs.pop(old)
    position, keyword = _PROTO.get(function_name, (None, None))
    if keyword in kwargs:
        kwargs[keyword] = _stimulus_ids_from_image_ids(kwargs[keyword])
    elif position is not None and len(args) > position:
        args = (*args[:position], _stimulus_ids_from_image_ids(args[position]), *args[position + 1:])
    return args, kwargs


def get_assembly(identifier: str):
    """brainio 2021's ``brainio.get_assembly``: the assembly registered today for ``identifier`` (era identifiers
    map to today's); use ``brainscore_vision.load_dataset``."""
    return _lookup.get_assembly(identifier, old_spelling="brainio.get_assembly")


def get_stimulus_set(identifier: str):
    """brainio 2021's ``brainio.get_stimulus_set``; use ``brainscore_vision.load_stimulus_set``."""
    return _lookup.get_stimulus_set(identifier, old_spelling="brainio.get_stimulus_set")


def fetch_get_assembly(identifier: str):
    """brainio 2021's ``brainio.fetch.get_assembly``; use ``brainscore_vision.load_dataset``."""
    return _lookup.get_assembly(identifier, old_spelling="brainio.fetch.get_assembly")


def fetch_get_stimulus_set(identifier: str):
    """brainio 2021's ``brainio.fetch.get_stimulus_set``; use ``brainscore_vision.load_stimulus_set``."""
    return _lookup.get_stimulus_set(identifier, old_spelling="brainio.fetch.get_stimulus_set")
