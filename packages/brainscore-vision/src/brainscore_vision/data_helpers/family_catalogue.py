"""A family's own catalogue of Brain-Score's files, registered by reference (the rules of
:mod:`~brainscore_vision.data_helpers.public_catalogue`), with its stimulus ids as text on both sides.

Brain-Score's stimulus CSVs are read by pandas, so numeric ids become integers there and in the assemblies; brainio
reads a stimulus set's ``stimulus_id`` as text. The loaders here make an assembly's ``stimulus_id`` text as well
before its stimulus set is joined onto it, so that the two always pair (Scialom2024, Lonnqvist2024 and Hebart2023
number their stimuli).

A family's data plugin calls :func:`family_loaders` and assigns the loaders into the registries itself, so that the
registry attributes each identifier to the family's module (what ``brainscore list`` and the data markers read)::

    stimulus_sets, assemblies = family_loaders(Path(__file__).with_name("catalogue.json"))
    for identifier, loader in stimulus_sets.items():
        stimulus_set_registry[identifier] = loader
    for identifier, loader in assemblies.items():
        data_registry[identifier] = loader
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from brainscore_vision.data_helpers.public_catalogue import (
    read_catalogue,
    register_assemblies_by_reference,
    register_stimulus_sets_by_reference,
)

__all__ = ["family_loaders", "linked_assembly", "text_columns", "text_stimulus_ids"]


def text_stimulus_ids(assembly):
    """``assembly`` with its ``stimulus_id`` coordinate as text (unchanged when it is text already)."""
    if "stimulus_id" not in assembly.coords or assembly["stimulus_id"].dtype.kind in "UO":
        return assembly
    dim = assembly["stimulus_id"].dims[0]
    return assembly.assign_coords(stimulus_id=(dim, np.asarray(assembly["stimulus_id"].values).astype(str)))


def text_columns(load_stimulus_set: Callable[[], Any], columns: Sequence[str]):
    """The stimulus set ``load_stimulus_set()`` returns, with ``columns`` as text (Brain-Score's Scialom2024 plugin
    does the same: its percentages mix numbers and words)."""
    stimulus_set = load_stimulus_set()
    for column in columns:
        stimulus_set[column] = stimulus_set[column].astype(str)
    return stimulus_set


def linked_assembly(load_raw: Callable[[], Any], stimulus_set_identifier: str | None):
    """The assembly ``load_raw()`` returns, its ``stimulus_id`` as text, with stimulus set
    ``stimulus_set_identifier`` (loaded through the registry) joined onto ``presentation``; None: none attached."""
    from brainio.linking import attach_stimulus_set
    from brainscore_vision import load_stimulus_set

    assembly = text_stimulus_ids(load_raw())
    if stimulus_set_identifier is None:
        return assembly
    return attach_stimulus_set(assembly, load_stimulus_set(stimulus_set_identifier))


def family_loaders(catalogue_path: str | Path, *, text_stimulus_columns: Sequence[str] = ()
                   ) -> tuple[dict[str, Callable[[], Any]], dict[str, Callable[[], Any]]]:
    """``(stimulus set loaders, assembly loaders)`` by registry identifier for every entry of a family's catalogue
    file; nothing is read from the bucket until a loader is called.

    Parameters
    ----------
    catalogue_path : path
        The family's JSON file (:func:`~brainscore_vision.data_helpers.public_catalogue.read_catalogue`'s schema).
    text_stimulus_columns : sequence of str, default=()
        Stimulus-set columns made text after loading.
    """
    entries = read_catalogue(catalogue_path)
    stimulus_sets: dict[str, Callable[[], Any]] = {}
    raw: dict[str, Callable[[], Any]] = {}
    register_stimulus_sets_by_reference(stimulus_sets, [name for kind, name in entries if kind == "stimulus_set"],
                                        entries=entries)
    register_assemblies_by_reference(raw, [name for kind, name in entries if kind == "assembly"], entries=entries)
    if text_stimulus_columns:
        stimulus_sets = {name: functools.partial(text_columns, loader, tuple(text_stimulus_columns))
                         for name, loader in stimulus_sets.items()}
    assemblies = {name: functools.partial(linked_assembly, loader, entries[("assembly", name)].get("stimulus_set"))
                  for name, loader in raw.items()}
    return stimulus_sets, assemblies
