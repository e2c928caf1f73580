"""ModelCommitment as a BrainModel: recordings with time bins and region coords, tasks, errors."""

from __future__ import annotations

import numpy as np
import pytest

from brainscore_vision.model_interface import BrainModel
from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.brain_transformation import ModelCommitment
from model_tools.errors import UnmappedRegionError, UnsupportedTaskError


@pytest.fixture
def commitment(tiny_net):
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8))
    return ModelCommitment("tiny", extractor, ["1", "2", "logits"], region_layer_map={"V4": "1", "IT": "2"})


def test_is_a_brain_model_with_default_degrees(commitment):
    assert isinstance(commitment, BrainModel)
    assert commitment.identifier == "tiny" and commitment.visual_degrees() == 8
    assert commitment.layer_map == {"V4": "1", "IT": "2"}


def test_single_time_bin_is_squeezed_and_coords_are_complete(commitment, small_stimulus_set):
    commitment.start_recording(BrainModel.RecordingTarget.IT, [(70, 170)])
    recordings = commitment.look_at(small_stimulus_set, number_of_trials=50)
    assert recordings.dims == ("presentation", "neuroid")
    assert recordings.shape == (10, 32)
    assert set(recordings["region"].values) == {"IT"} and set(recordings["layer"].values) == {"2"}
    assert len(set(recordings["neuroid_id"].values)) == 32
    assert list(recordings["label"].values) == ["a", "b"] * 5  # every stimulus-set column
    assert int(recordings["time_bin_start"]) == 70 and int(recordings["time_bin_end"]) == 170
    plain = commitment.activations_model(small_stimulus_set, ["2"])
    np.testing.assert_array_equal(recordings.values, plain.values)


def test_static_model_is_repeated_across_time_bins(commitment, small_stimulus_set):
    bins = [(70, 80), (80, 90), (90, 100)]
    commitment.start_recording("V4", bins)
    recordings = commitment.look_at(small_stimulus_set)
    assert recordings.dims == ("presentation", "neuroid", "time_bin")
    assert recordings.shape == (10, 256, 3)
    assert list(recordings["time_bin_start"].values) == [70, 80, 90]
    assert list(recordings["time_bin_end"].values) == [80, 90, 100]
    np.testing.assert_array_equal(recordings.values[..., 0], recordings.values[..., 2])


def test_unmapped_region_names_region_and_model(commitment):
    with pytest.raises(UnmappedRegionError, match=r"'tiny'.*'V1'"):
        commitment.start_recording("V1", [(70, 170)])


def test_look_at_without_recording_or_task_is_refused(commitment, small_stimulus_set):
    with pytest.raises(UnsupportedTaskError, match="start_recording"):
        commitment.look_at(small_stimulus_set)


def test_unsupported_task_is_refused(commitment):
    with pytest.raises(UnsupportedTaskError, match="dance"):
        commitment.start_task("dance", None)


def test_passive_task_goes_back_to_recordings(commitment, small_stimulus_set):
    commitment.start_recording("V4", [(70, 170)])
    commitment.start_task("passive")
    assert commitment.look_at(small_stimulus_set).dims == ("presentation", "neuroid")


def test_the_memory_estimate_leaves_a_network_in_training_mode_unchanged(small_stimulus_set):
    # issue 42: the grid's memory estimate ran a blank image through a network built in training mode (Brain-Score
    # plugins rarely call .eval()), folding it into the BatchNorm running statistics: the CLI then scored other
    # weights than score() (another activation-cache entry, 0.1276 against 0.1189 for a stand-in on Kriegeskorte)
    import torch
    from torch import nn

    from model_tools.digest import weights_digest

    torch.manual_seed(0)
    network = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten())
    assert network.training
    before = {name: tensor.clone() for name, tensor in network.state_dict().items()}
    digest = weights_digest(network)
    model = ModelCommitment("bn", ActivationsExtractor(network, "bn", ImagePreprocessing(8)), ["1", "2"],
                            region_layer_map={"IT": "2"})
    assert model.feature_count("IT") == 4 * 6 * 6  # conv 3x3 on 8x8 -> 4 channels of 6x6
    assert network.training  # the flag is put back
    assert weights_digest(network) == digest
    for name, tensor in network.state_dict().items():
        torch.testing.assert_close(tensor, before[name], rtol=0, atol=0, msg=name)


def test_brainscores_standard_selection_only_without_any_map_and_without_region_benchmarks(tiny_net):
    from model_tools.brain_transformation import STANDARD_REGION_BENCHMARKS

    extractor = ActivationsExtractor(tiny_net, "tiny-defaults", ImagePreprocessing(8))
    no_map = ModelCommitment("tiny-defaults", extractor, ["1", "2"])
    assert no_map.region_benchmarks == dict(STANDARD_REGION_BENCHMARKS)  # Brain-Score's ModelCommitment does so
    for commitment in (ModelCommitment("tiny-defaults", extractor, ["1", "2"], region_layer_map={}),  # a map given
                       ModelCommitment("tiny-defaults", extractor, ["1", "2"], region_benchmarks={})):  # turned off
        assert commitment.region_benchmarks == {}
        with pytest.raises(UnmappedRegionError, match="'V1'"):
            commitment.start_recording("V1", [(70, 170)])
