"""The shipped ILSVRC-2012 class table and the 'imagenet' label task that uses it."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

from brainio.skipping import import_or_skip
from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.brain_transformation import ModelCommitment, imagenet_class_table, imagenet_synsets
from model_tools.errors import MissingLabelsError

# Expected rows from the ILSVRC-2012 devkit's class order (0 = tench, 999 = toilet tissue; the well-known
# classes 1 goldfish, 207 golden retriever, 281 tabby and 817 sports car), not from our own file.
KNOWN = {0: ("n01440764", "tench"), 1: ("n01443537", "goldfish"), 207: ("n02099601", "golden retriever"),
         281: ("n02123045", "tabby"), 817: ("n04285008", "sports car"), 999: ("n15075141", "toilet tissue")}


def test_table_has_the_1000_sorted_unique_synsets():
    table = imagenet_class_table()
    wnids = [row.wnid for row in table]
    assert len(table) == 1000 and [row.index for row in table] == list(range(1000))
    assert len(set(wnids)) == 1000
    assert wnids == sorted(wnids)  # the ILSVRC index order is the sorted wnid order
    assert all(re.fullmatch(r"n\d{8}", wnid) for wnid in wnids)
    assert all(row.name and row.words.startswith(row.name) for row in table)
    for index, (wnid, name) in KNOWN.items():
        assert (table[index].wnid, table[index].name) == (wnid, name)
    assert imagenet_synsets() == tuple(wnids)


def test_table_ships_in_the_wheel(tmp_path):
    builders = import_or_skip("hatchling.builders.wheel", extra="model-tools[test]")
    root = Path(__file__).resolve().parents[1]
    (wheel,) = builders.WheelBuilder(str(root)).build(directory=str(tmp_path), versions=["standard"])
    with zipfile.ZipFile(wheel) as archive:
        assert "model_tools/brain_transformation/imagenet_classes.tsv" in archive.namelist()


class OneHotLogits(nn.Module):
    """Logits = the first 1000 values of each input's first row: a one-hot input gives one-hot logits."""

    def __init__(self):
        super().__init__()
        self.logits = nn.Identity()

    def forward(self, x):
        return self.logits(x[:, 0, 0, :1000])


def test_imagenet_label_task_returns_the_synset_of_the_argmax_logit():
    hot = [0, 1, 207, 281, 999]
    inputs = torch.zeros(len(hot), 3, 1, 1000)
    inputs[np.arange(len(hot)), 0, 0, hot] = 1.0
    extractor = ActivationsExtractor(OneHotLogits(), "one-hot", cache=False)
    model = ModelCommitment("one-hot", extractor, ["logits"])
    model.start_task("label", "imagenet")
    labels = model.look_at(inputs)
    assert labels.dims == ("presentation", "choice") and labels.shape == (5, 1)
    assert list(labels.values[:, 0]) == [KNOWN[index][0] for index in hot]


def test_imagenet_label_task_refuses_a_model_without_1000_logits(tiny_net, small_stimulus_set):
    model = ModelCommitment("tiny", ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8)), ["2"])
    model.start_task("label", "imagenet")
    with pytest.raises(MissingLabelsError, match="5 outputs but 1000"):
        model.look_at(small_stimulus_set)
