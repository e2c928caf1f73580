"""brainio 2021's spellings on today's brainio, added when the legacy layer is imported (brainio itself is unchanged).

- ``brainio.get_assembly(identifier)`` / ``brainio.get_stimulus_set(identifier)`` (also under ``brainio.fetch``):
  the 1.x lookups (:mod:`brainscore._lookup`), era identifiers mapped to today's;
- ``package_data_assembly(..., assembly_class=...)`` (and ``package_data_assembly_locally``): the keyword is today's
  ``assembly_class_name``;
- ``image_id`` as ``stimulus_id``: a stimulus set with an ``image_id`` column and no ``stimulus_id``, or an assembly
  with an ``image_id`` coordinate and no ``stimulus_id``, gets ``stimulus_id`` from it when packaged.

Each old spelling gives a ``DeprecationWarning`` naming the new one. :func:`install` runs on ``import brainscore``;
it only adds names brainio lacks and wraps the four packaging functions, once.
"""

from __future__ import annotations

import functools

from brainscore_core.deprecation import renamed_keywords, warn_deprecated

__all__ = ["install"]

_MARK = "__brainscore_legacy__"
_PACKAGING = ("package_data_assembly", "package_data_assembly_locally", "package_stimulus_set",
              "package_stimulus_set_locally")


def _stimulus_ids_from_image_ids(proto):
    """``proto`` with ``stimulus_id`` copied from a legacy ``image_id`` (column or presentation coordinate)."""
    if hasattr(proto, "columns"):  # a stimulus set
        if "image_id" in proto.columns and "stimulus_id" not in proto.columns:
            warn_deprecated("a stimulus set column 'image_id'", "'stimulus_id' (copied from it)", stacklevel=5)
            proto = proto.copy()
            proto["stimulus_id"] = proto["image_id"].astype(str)
        return proto
    coords = getattr(proto, "coords", {})
    if "image_id" in coords and "stimulus_id" not in coords:
        warn_deprecated("an assembly coordinate 'image_id'", "'stimulus_id' (copied from it)", stacklevel=5)
        proto = proto.assign_coords(stimulus_id=(proto["image_id"].dims, proto["image_id"].values))
    return proto


def _legacy_packaging(function):
    """``function`` accepting ``assembly_class=`` and ``image_id``-only inputs, with deprecation warnings (the
    renamed keyword outermost, so that every warning points at the caller's line)."""
    position = 1 if function.__name__ in ("package_data_assembly", "package_stimulus_set") else 0

    @functools.wraps(function)
    def with_stimulus_ids(*args, **kwargs):
        args = list(args)
        if len(args) > position:
            args[position] = _stimulus_ids_from_image_ids(args[position])
        for key in ("proto_data_assembly", "proto_stimulus_set"):
            if key in kwargs:
                kwargs[key] = _stimulus_ids_from_image_ids(kwargs[key])
        return function(*args, **kwargs)

    wrapper = renamed_keywords(assembly_class="assembly_class_name")(with_stimulus_ids)
    setattr(wrapper, _MARK, True)
    return wrapper


def _lookup(name: str, old_spelling: str):
    from brainscore import _lookup as lookup

    function = getattr(lookup, name)

    @functools.wraps(function)
    def brainio_lookup(identifier: str):
        return function(identifier, old_spelling=old_spelling)

    return brainio_lookup


def install() -> None:
    """Add brainio 2021's spellings to the imported brainio (idempotent)."""
    import brainio
    import brainio.fetch
    import brainio.packaging

    for module in (brainio, brainio.fetch):
        for name in ("get_assembly", "get_stimulus_set"):
            if name not in vars(module):  # not hasattr: brainio's own __getattr__ would come back here
                setattr(module, name, _lookup(name, f"{module.__name__}.{name}"))
    for name in _PACKAGING:
        original = getattr(brainio.packaging, name)
        if getattr(original, _MARK, False):
            continue
        wrapped = _legacy_packaging(original)
        setattr(brainio.packaging, name, wrapped)
        if getattr(brainio, name, None) is original:
            setattr(brainio, name, wrapped)
