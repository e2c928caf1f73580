"""The ILSVRC-2012 (ImageNet-1k) class table shipped with the package: logit index -> WordNet synset id.

The table (``imagenet_classes.tsv`` beside this module) lists the 1000 classes in the order models trained on
ImageNet emit their logits: the sorted order of the WordNet ids, ``n01440764`` (tench) first and ``n15075141``
(toilet tissue) last. Its header comment says where it was generated from.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import NamedTuple

TABLE_FILE = "imagenet_classes.tsv"
N_CLASSES = 1000


class ImageNetClass(NamedTuple):
    """One row of the table: logit ``index``, WordNet id ``wnid``, short ``name``, all WordNet ``words``."""

    index: int
    wnid: str
    name: str
    words: str


@functools.cache
def imagenet_class_table() -> tuple[ImageNetClass, ...]:
    """The 1000 ImageNet classes in logit order (read once from the package data file).

    Returns
    -------
    tuple of ImageNetClass
        ``table[i].wnid`` is the synset of logit ``i``. Short names are not unique (two ``crane`` and two
        ``maillot`` classes); the WordNet ids are.
    """
    text = resources.files("model_tools.brain_transformation").joinpath(TABLE_FILE).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    header, rows = lines[0].split("\t"), lines[1:]
    if header != list(ImageNetClass._fields):
        raise ValueError(f"{TABLE_FILE}: unexpected columns {header}")
    table = []
    for line in rows:
        index, wnid, name, words = line.split("\t")
        table.append(ImageNetClass(int(index), wnid, name, words))
    if len(table) != N_CLASSES or [row.index for row in table] != list(range(N_CLASSES)):
        raise ValueError(f"{TABLE_FILE}: expected rows 0..{N_CLASSES - 1}, got {len(table)} rows")
    return tuple(table)


def imagenet_synsets() -> tuple[str, ...]:
    """WordNet id of each of the 1000 ImageNet logits, in logit order (``n01440764`` ... ``n15075141``)."""
    return tuple(row.wnid for row in imagenet_class_table())
