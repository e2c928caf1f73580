"""Behavioural readouts against sklearn on the same features computed directly."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.brain_transformation import ModelCommitment
from model_tools.errors import MissingLabelsError
from model_tools.zoo.randomnet import build_randomnet


def test_probabilities_on_the_92_images_match_sklearn_on_direct_features(kriegeskorte_stimuli):
    stimuli = kriegeskorte_stimuli.copy()
    stimuli["image_label"] = stimuli["category"]  # 6 categories: multinomial
    stimuli.stimulus_paths = kriegeskorte_stimuli.stimulus_paths
    fit, test = stimuli.iloc[::2], stimuli.iloc[1::2]
    net = build_randomnet()
    preprocessing = ImagePreprocessing(224)
    model = ModelCommitment("randomnet", ActivationsExtractor(net, "randomnet", preprocessing),
                            ["block4", "block5"], behavioral_readout_layer="block5")
    model.start_task("probabilities", fit)
    probabilities = model.look_at(test)

    assert probabilities.dims == ("presentation", "choice")
    assert probabilities.shape == (46, 6)
    assert sorted(probabilities["choice"].values) == sorted(set(stimuli["category"]))
    assert list(probabilities["stimulus_id"].values) == list(test["stimulus_id"])
    np.testing.assert_allclose(probabilities.values.sum(axis=1), 1.0, rtol=1e-10)

    # independent: block5 features straight from the modules, sklearn fitted by hand
    def block5(frame):
        inputs = preprocessing([kriegeskorte_stimuli.stimulus_paths[s] for s in frame["stimulus_id"]])
        with torch.no_grad():
            x = inputs
            for name in ("block1", "block2", "block3", "block4", "block5"):
                x = getattr(net, name)(x)
        return x.reshape(len(frame), -1).numpy().astype(np.float64)

    scaler = StandardScaler().fit(block5(fit))
    classifier = LogisticRegression(solver="newton-cg", C=1e-3, max_iter=100, tol=1e-4).fit(
        scaler.transform(block5(fit)), fit["image_label"].values)
    expected = classifier.predict_proba(scaler.transform(block5(test)))
    order = [list(classifier.classes_).index(label) for label in probabilities["choice"].values]
    np.testing.assert_allclose(probabilities.values, expected[:, order], rtol=1e-4, atol=1e-6)


def test_probabilities_without_labels_names_the_columns(tiny_net, small_stimulus_set):
    model = ModelCommitment("tiny", ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8)), ["2"])
    with pytest.raises(MissingLabelsError, match="image_label"):
        model.start_task("probabilities", small_stimulus_set.drop(columns=["label"]))


def test_label_task_with_label_list_takes_mean_softmax_over_indices(tiny_net, small_stimulus_set):
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8))
    indices = {"cat": [0, 1], "dog": [2], "car": [3, 4]}
    model = ModelCommitment("tiny", extractor, ["2"], label_indices=indices)
    model.start_task("label", ["dog", "car", "cat"])
    labels = model.look_at(small_stimulus_set)
    assert labels.dims == ("presentation", "choice") and labels.shape == (10, 1)
    logits = extractor(small_stimulus_set, ["logits"]).values.astype(np.float64)
    # hand: softmax over the 5 logits, mean over each label's indices, argmax
    probabilities = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    per_label = np.stack([probabilities[:, [2]].mean(1), probabilities[:, [3, 4]].mean(1),
                          probabilities[:, [0, 1]].mean(1)], axis=1)
    expected = np.array(["dog", "car", "cat"])[per_label.argmax(axis=1)]
    assert list(labels.values[:, 0]) == list(expected)


#: Brain-Score's LabelToImagenetIndices (brain-score/vision c642dbe4, model_helpers/brain_transformation/behavior.py)
#: for Scialom2024's twelve labels and Baker2022's nine animals, written out here as an independent copy of the facts
SCIALOM_INDICES = {"Banana": [954], "Beanie": [439, 452, 515, 808], "Binoculars": [447], "Boot": [514],
                   "Bowl": [659, 809], "Cup": [968], "Glasses": [837], "Lamp": [470, 607, 818, 846], "Pan": [567],
                   "Sewing machine": [786], "Shovel": [792], "Truck": [555, 569, 656, 675, 717, 734, 864, 867]}
BAKER_INDICES = {"bear": [294, 295, 296, 297], "bunny": [330, 331, 332], "cat": [281, 282, 283, 284, 285, 286],
                 "elephant": [385, 386], "frog": [30, 31, 32], "lizard": list(range(38, 49)),
                 "tiger": list(range(286, 294)), "turtle": [33, 34, 35, 36, 37], "wolf": list(range(269, 276))}


@pytest.mark.parametrize("table", [SCIALOM_INDICES, BAKER_INDICES], ids=["Scialom2024", "Baker2022"])
def test_label_task_knows_brainscores_other_labels(small_stimulus_set, table):
    """The shipped table holds the labels of Brain-Score's other behavioural benchmarks, looked up lower-cased
    without spaces ('Sewing machine'), and answers with the labels as offered."""
    from torch import nn

    torch.manual_seed(3)
    net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 2, 3, stride=2, padding=1),
                        nn.Flatten(), nn.Linear(32, 1000))
    extractor = ActivationsExtractor(net, "tiny1000", ImagePreprocessing(8))
    model = ModelCommitment("tiny1000", extractor, ["2"])
    labels = list(table)
    model.start_task("label", labels)
    chosen = model.look_at(small_stimulus_set).values[:, 0]
    logits = extractor(small_stimulus_set, ["logits"]).values.astype(np.float64)
    probabilities = np.exp(logits - logits.max(1, keepdims=True))
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    per_label = np.stack([probabilities[:, table[label]].mean(axis=1) for label in labels], axis=1)
    assert list(chosen) == [labels[i] for i in per_label.argmax(axis=1)]


def test_label_task_imagenet_uses_the_class_names(tiny_net, small_stimulus_set):
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8))
    names = [f"n0000000{index}" for index in range(5)]
    model = ModelCommitment("tiny", extractor, ["2"], imagenet_classes=names)
    model.start_task("label", "imagenet")
    labels = model.look_at(small_stimulus_set)
    logits = extractor(small_stimulus_set, ["logits"]).values
    assert list(labels.values[:, 0]) == [names[i] for i in logits.argmax(axis=1)]


def test_label_without_indices_is_refused(tiny_net, small_stimulus_set):
    model = ModelCommitment("tiny", ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8)), ["2"])
    model.start_task("label", ["unicorn"])  # not one of the 16 classes of the shipped table
    with pytest.raises(MissingLabelsError, match="unicorn"):
        model.look_at(small_stimulus_set)
    model.start_task("label", ["dog"])  # known, but the tiny net has 5 logits, not 1000 ImageNet classes
    with pytest.raises(MissingLabelsError, match="1000-way"):
        model.look_at(small_stimulus_set)


def test_sixteen_class_table_matches_the_published_lists():
    from model_tools.brain_transformation.label_indices import GEIRHOS_16_CLASSES, default_label_indices

    table = {label: indices for label, indices in default_label_indices().items() if label in GEIRHOS_16_CLASSES}
    assert tuple(table) == tuple(default_label_indices())[:16] == GEIRHOS_16_CLASSES
    # counts and spot checks from model-vs-human's human_categories (e.g. knife = [499], oven = [766],
    # elephant = [385, 386], 49 bird and 109 dog classes), 207 indices in all, none shared
    assert table["knife"] == (499,) and table["oven"] == (766,) and table["elephant"] == (385, 386)
    assert len(table["bird"]) == 49 and len(table["dog"]) == 109 and table["cat"] == (281, 282, 283, 284, 285, 286)
    flat = [i for indices in table.values() for i in indices]
    assert len(flat) == 207 and len(set(flat)) == 207
