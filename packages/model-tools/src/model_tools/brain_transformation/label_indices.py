"""ImageNet-1k indices of named labels, for the ``label`` task with a label list (e.g. Geirhos et al.'s 16 classes).

The table ``imagenet_16_classes.json`` beside this module maps each of the 16 entry-level classes of Geirhos et
al. (2019, 2021): ``airplane, bear, bicycle, bird, boat, bottle, car, cat, chair, clock, dog, elephant, keyboard,
knife, oven, truck`` to the ImageNet logit indices it aggregates. Its header says where the facts come from. One
table, used by every model with a 1000-way logits layer: :class:`~model_tools.brain_transformation.behavior.
LabelMapping` falls back to it when no ``label_indices`` are given.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

__all__ = ["GEIRHOS_16_CLASSES", "default_label_indices"]

TABLE_FILE = "imagenet_16_classes.json"
GEIRHOS_16_CLASSES = ("airplane", "bear", "bicycle", "bird", "boat", "bottle", "car", "cat", "chair", "clock", "dog",
                      "elephant", "keyboard", "knife", "oven", "truck")


@functools.cache
def default_label_indices() -> dict[str, tuple[int, ...]]:
    """``{label: ImageNet indices}`` for the 16 classes (read once from the package data file)."""
    text = resources.files("model_tools.brain_transformation").joinpath(TABLE_FILE).read_text(encoding="utf-8")
    table = {label: tuple(int(i) for i in indices) for label, indices in json.loads(text)["classes"].items()}
    if tuple(table) != GEIRHOS_16_CLASSES or any(not 0 <= i < 1000 for ids in table.values() for i in ids):
        raise ValueError(f"{TABLE_FILE}: expected the 16 classes {GEIRHOS_16_CLASSES} with indices in 0..999")
    return table
