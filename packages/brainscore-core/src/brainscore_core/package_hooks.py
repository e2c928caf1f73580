"""What each installed package publishes about itself: its cache folders and its settings.

Two entry-point groups, read when asked (by ``brainscore cache`` and ``brainscore config``), never at import:

* ``brainscore_caches``: each entry point names a function without arguments that returns the cache kinds its package
  writes (:class:`brainscore_core.caches.CacheKind`, or mappings with the same fields);
* ``brainscore_settings``: each names a function without arguments that returns the settings its package reads
  (:class:`Setting`, or mappings with the same fields).

brainio, brainscore-core, brainscore-vision and model-tools publish theirs this way, and so can any third-party
distribution::

    [project.entry-points.brainscore_caches]
    my_package = "my_package.caches:published_caches"

    [project.entry-points.brainscore_settings]
    my_package = "my_package.settings:published_settings"

So no package describes another's on-disk layout or environment variables: each says what it writes and what it
reads, and the commands ask all of them. Mappings exist for brainio, which sits below this package and cannot import
its classes. The owner of each item is the distribution of its entry point.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from brainscore_core.errors import PublicationError

__all__ = ["CACHES_GROUP", "SETTINGS_GROUP", "Setting", "from_mapping", "published", "published_settings"]

CACHES_GROUP = "brainscore_caches"
SETTINGS_GROUP = "brainscore_settings"


@dataclass(frozen=True)
class Setting:
    """One setting a package reads.

    Attributes
    ----------
    name : str
        A short name, e.g. ``'home'``.
    variables : tuple of str
        The environment variables it is read from, first the main one (empty for an option without a variable).
    default : str
        The default, in words (``'~/.brain-score'``, ``'on'``, ``'none'``).
    description : str
        What it changes, one sentence.
    value : callable, default=None
        Returns the value in effect now (what the owner's reader answers); None when it cannot be told cheaply.
    option : str, default=None
        The name under which :func:`brainscore_core.config.set_options` sets it for a block, if it can be.
    owner : str, default=None
        The distribution that reads it (filled from its entry point).
    """

    name: str
    variables: tuple[str, ...]
    default: str
    description: str
    value: Callable[[], Any] | None = None
    option: str | None = None
    owner: str | None = None

    def current(self) -> str:
        """The value in effect now, as text (``'?'`` when it cannot be told, the error's name when reading fails)."""
        if self.value is None:
            return "?"
        try:
            value = self.value()
        except Exception as error:  # a broken value must not hide the other settings
            return f"<{type(error).__name__}: {error}>"
        if value is None:
            return "unset"
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, (list, tuple)):
            return ", ".join(map(str, value)) or "none"
        return str(value)


def from_mapping(cls: type, item: Any, where: str) -> Any:
    """``item`` as an instance of the dataclass ``cls``: as it is, or built from a mapping of its fields.

    Raises
    ------
    PublicationError
        ``item`` is neither, or the mapping names fields ``cls`` does not have, or lacks required ones; the message
        names ``where`` (the entry point and its distribution).
    """
    if isinstance(item, cls):
        return item
    if not isinstance(item, Mapping):
        raise PublicationError(f"{where} published {type(item).__name__} {item!r:.80}; expected a {cls.__name__} or "
                               f"a mapping of its fields")
    known = {field.name for field in fields(cls)}
    unknown = sorted(set(item) - known)
    if unknown:
        raise PublicationError(f"{where} published a {cls.__name__} with unknown field(s) {unknown}; its fields are "
                               f"{sorted(known)}")
    try:
        return cls(**item)
    except TypeError as error:
        raise PublicationError(f"{where} published an incomplete {cls.__name__}: {error}") from None


def _owner(point: importlib.metadata.EntryPoint) -> str | None:
    from brainscore_core._distributions import identity

    return identity(point.dist)[0]


def published(group: str, cls: type) -> list[Any]:
    """Every item published through entry-point ``group``, as instances of ``cls`` with ``owner`` filled, in the
    order of the distributions' names (then of the entry points' names).

    Raises
    ------
    PublicationError
        An entry point fails to load, its function fails or returns something other than an iterable of ``cls`` (or
        mappings of its fields); the message names the entry point and its distribution.
    """
    points = sorted(importlib.metadata.entry_points(group=group), key=lambda point: (_owner(point) or "", point.name))
    found: list[Any] = []
    for point in points:
        owner = _owner(point)
        where = f"entry point {point.name!r} ({point.value}) of distribution {owner!r} in group {group!r}"
        try:
            items = point.load()()
        except Exception as error:
            raise PublicationError(f"{where} failed: {type(error).__name__}: {error}") from error
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
            raise PublicationError(f"{where} returned {type(items).__name__}; expected a list of {cls.__name__}")
        found += [replace(from_mapping(cls, item, where), owner=owner) for item in items]
    return found


def published_settings() -> list[Setting]:
    """Every setting of every installed package (entry-point group ``brainscore_settings``), by owner."""
    settings = []
    for setting in published(SETTINGS_GROUP, Setting):
        if isinstance(setting.variables, str):
            setting = replace(setting, variables=(setting.variables,))
        elif isinstance(setting.variables, list):
            setting = replace(setting, variables=tuple(setting.variables))
        settings.append(setting)
        if not setting.name or not isinstance(setting.variables, tuple) or not all(
                isinstance(variable, str) and variable for variable in setting.variables):
            raise PublicationError(f"setting {setting.name!r} of {setting.owner!r}: its variables must be a tuple of "
                                   f"names, got {setting.variables!r}")
    return settings
