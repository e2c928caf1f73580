"""Register every entry of a family's own catalogue file by reference (the rules of
:mod:`brainscore_vision.data_helpers.public_catalogue`).

A data plugin whose files all live in Brain-Score's bucket keeps a ``catalogue.json`` beside its ``__init__.py``
(written from Brain-Score's data plugin by ``benchmarks/reference_catalogues.py``) and calls
:func:`register_family_catalogue` once: each stimulus set and each assembly is registered under Brain-Score's
identifier, an assembly with the loader of the stimulus set its entry names. Nothing is read from the bucket until
an identifier is loaded.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from brainscore_vision.data_helpers.public_catalogue import (
    Catalogue,
    read_catalogue,
    register_assemblies_by_reference,
    register_stimulus_sets_by_reference,
)

__all__ = ["register_family_catalogue"]


def register_family_catalogue(path: str | Path, stimulus_set_registry: MutableMapping[str, Any],
                              data_registry: MutableMapping[str, Any]) -> Catalogue:
    """Register every stimulus set and assembly of the catalogue file ``path``; returns its entries.

    Parameters
    ----------
    path : path-like
        A catalogue JSON (:func:`~brainscore_vision.data_helpers.public_catalogue.read_catalogue`).
    stimulus_set_registry, data_registry : mutable mapping
        Brain-Score's registries (``brainscore_vision.stimulus_set_registry``, ``data_registry``).
    """
    from brainscore_vision import load_stimulus_set

    entries = read_catalogue(path)

    def stimulus_set_loader_of(identifier: str):
        name = entries[("assembly", identifier)].get("stimulus_set")
        return (lambda: load_stimulus_set(name)) if name else None

    register_stimulus_sets_by_reference(stimulus_set_registry, [name for kind, name in entries if kind == "stimulus_set"],
                                        entries=entries)
    register_assemblies_by_reference(data_registry, [name for kind, name in entries if kind == "assembly"],
                                     stimulus_set_loader_of=stimulus_set_loader_of, entries=entries)
    return entries
