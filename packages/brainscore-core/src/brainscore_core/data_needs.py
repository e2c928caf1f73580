"""What data a plugin's benchmark, data set or stimulus set needs before it can load: declared by the plugin.

A plugin says it in one of two places, read after it is imported (never by reading its text):

* per registration, a ``data_need`` attribute on the factory (a field set where the factory is registered: a helper
  that registers Brain-Score's files by reference knows each file's access); it wins over
* a module's ``DATA_NEEDS``, for what it registers: one need for everything (``DATA_NEEDS = "shipped"``), a mapping
  ``{identifier: need}``, or a function ``(kind, identifier) -> need`` (None: not declared). The module that
  registered the identifier is asked first, then the plugin module it is attributed to (a helper module registering
  for its plugin leaves it to the plugin).

A need is one of :data:`NEEDS`, and ``local`` and ``network+local`` name the local folder after a colon
(``"local:nsd"``: the folder's variable and what it must hold are the domain package's). Only benchmarks, data and
stimulus sets have one; what a plugin does not declare is unknown (``?`` in ``brainscore list``). The plugin index
records each declared need beside its identifier, so listing them imports no plugin the index knows.

=================  ==================================================================================================
need               meaning
=================  ==================================================================================================
``shipped``        the recordings are in the raw-data folder, packaged on first use; runs offline
``network``        public files, fetched on first use (sha1-checked) and cached
``credentials``    files read unsigned first, then with the user's credentials (no unsigned read was measured)
``private``        private files, expected to need the data owner's credentials
``network+local``  public recordings, plus files that may not be redistributed, from a local folder
``local``          files that may not be redistributed, from a local folder
``unavailable``    registered for its identifier (and ceiling), but its data cannot be had
=================  ==================================================================================================
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

from brainscore_core.errors import InvalidPluginError

__all__ = ["DATA_KINDS", "DECLARATION", "FACTORY_ATTRIBUTE", "NEEDS", "declared_need", "parse_need"]

NEEDS = ("shipped", "network", "credentials", "private", "network+local", "local", "unavailable")
_WITH_FOLDER = ("network+local", "local")
DATA_KINDS = ("benchmark", "data", "stimulus_set")
"""The registry kinds whose entries need data."""
DECLARATION = "DATA_NEEDS"
"""The name of a plugin module's declaration."""
FACTORY_ATTRIBUTE = "data_need"
"""The name of a factory's own declaration."""


def parse_need(text: str) -> tuple[str, str | None]:
    """``(need, local folder or None)`` of a declared need (``'local:nsd'`` -> ``('local', 'nsd')``).

    Raises
    ------
    ValueError
        Not one of :data:`NEEDS`, a folder given to a need without one, or a local need without its folder.
    """
    need, _, folder = str(text).partition(":")
    if need not in NEEDS:
        raise ValueError(f"data need {text!r} is not one of {', '.join(NEEDS)} (local ones name their folder: "
                         f"'local:<folder>')")
    if (need in _WITH_FOLDER) != bool(folder):
        raise ValueError(f"data need {text!r}: {'name the local folder after a colon' if need in _WITH_FOLDER else 'takes no folder'}")
    return need, folder or None


def _from_declaration(declaration: Any, kind: str, identifier: str) -> Any:
    if declaration is None or isinstance(declaration, str):
        return declaration
    if isinstance(declaration, Mapping):
        return declaration.get(identifier)
    if callable(declaration):
        return declaration(kind, identifier)
    raise TypeError(f"{DECLARATION} must be a need, a mapping of identifier -> need or a function (kind, identifier) "
                    f"-> need, got {type(declaration).__name__}")


def declared_need(kind: str, identifier: str, factory: Callable[..., Any] | None, *plugins: Any) -> str | None:
    """The need declared for ``identifier`` of ``kind``: the factory's ``data_need``, else the ``DATA_NEEDS`` of the
    first of ``plugins`` that declares one (each a module, a module's name or an object: the module that registered
    it, then the plugin it was attributed to; None entries are skipped); None when nothing declares one or the kind
    needs no data.

    Raises
    ------
    InvalidPluginError
        A declaration that is not a need (:data:`NEEDS`), naming the plugin, the identifier and the value.
    """
    if kind not in DATA_KINDS:
        return None
    where = "its factory"
    try:
        value = getattr(factory, FACTORY_ATTRIBUTE, None)
        for plugin in plugins:
            if value is not None:
                break
            plugin = sys.modules.get(plugin) if isinstance(plugin, str) else plugin
            where = getattr(plugin, "__name__", None) or repr(plugin)
            value = _from_declaration(getattr(plugin, DECLARATION, None), kind, identifier) if plugin else None
        if value is None:
            return None
        parse_need(value)
    except (TypeError, ValueError) as error:
        raise InvalidPluginError(f"{kind} {identifier!r} of plugin {where!r}: {error}") from None
    return str(value)
