"""ImageNet-1k indices of named labels, for the ``label`` task with a label list (e.g. Geirhos et al.'s 16 classes).

Two tables beside this module, each with a header saying where its facts come from:

- ``imagenet_16_classes.json``: the 16 entry-level classes of Geirhos et al. (2019, 2021): ``airplane, bear, bicycle,
  bird, boat, bottle, car, cat, chair, clock, dog, elephant, keyboard, knife, oven, truck``;
- ``imagenet_label_indices.json``: the labels Brain-Score's other behavioural benchmarks offer (Baker et al. 2022's
  animals, Zhu et al. 2019's, Scialom et al. 2024's objects), as its ``LabelToImagenetIndices`` records them.

One table, used by every model with a 1000-way logits layer: :class:`~model_tools.brain_transformation.behavior.
LabelMapping` falls back to it when no ``label_indices`` are given. Labels are looked up as Brain-Score does,
lower-cased and without spaces (:func:`label_key`: ``'Sewing machine'`` -> ``'sewingmachine'``).
"""

from __future__ import annotations

import functools
import json
from importlib import resources

__all__ = ["GEIRHOS_16_CLASSES", "default_label_indices", "label_key"]

TABLE_FILE = "imagenet_16_classes.json"
EXTRA_TABLE_FILE = "imagenet_label_indices.json"
GEIRHOS_16_CLASSES = ("airplane", "bear", "bicycle", "bird", "boat", "bottle", "car", "cat", "chair", "clock", "dog",
                      "elephant", "keyboard", "knife", "oven", "truck")


def label_key(label: object) -> str:
    """The table key of ``label``: lower-cased, spaces removed (Brain-Score's ``label_to_indices``)."""
    return str(label).lower().replace(" ", "")


def _read(name: str) -> dict[str, tuple[int, ...]]:
    text = resources.files("model_tools.brain_transformation").joinpath(name).read_text(encoding="utf-8")
    table = {label: tuple(int(i) for i in indices) for label, indices in json.loads(text)["classes"].items()}
    if any(not 0 <= i < 1000 for ids in table.values() for i in ids):
        raise ValueError(f"{name}: an index is outside 0..999")
    return table


@functools.cache
def default_label_indices() -> dict[str, tuple[int, ...]]:
    """``{label: ImageNet indices}``: the 16 classes first, then the other labels (read once from the package data
    files)."""
    table = _read(TABLE_FILE)
    if tuple(table) != GEIRHOS_16_CLASSES:
        raise ValueError(f"{TABLE_FILE}: expected the 16 classes {GEIRHOS_16_CLASSES}")
    extra = _read(EXTRA_TABLE_FILE)
    shared = sorted(set(table) & set(extra))
    if shared:
        raise ValueError(f"{EXTRA_TABLE_FILE}: labels {shared} are in {TABLE_FILE} already")
    return {**table, **extra}
