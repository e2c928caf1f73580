"""The weights digest is computed once per scored pair (``brainscore_core.pair_scope``) and again whenever a tensor
changes: the remembered digest always equals a fresh sha1 of the weights (``model_tools.digest._hash_state``, the
same function the unremembered path calls)."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from brainscore_core.pair_scope import pair_scope
from model_tools import digest


@pytest.fixture
def counted(monkeypatch):
    calls = []
    original = digest._hash_state

    def counting(model, state):
        calls.append(model)
        return original(model, state)

    monkeypatch.setattr(digest, "_hash_state", counting)
    return calls


def _net():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.BatchNorm1d(3))


def test_outside_a_pair_every_call_hashes(counted):
    net = _net()
    assert digest.weights_digest(net) == digest.weights_digest(net)
    assert len(counted) == 2


def test_inside_a_pair_one_hash_with_the_same_value(counted):
    net = _net()
    fresh = digest.weights_digest(net)
    with pair_scope():
        assert [digest.weights_digest(net) for _ in range(3)] == [fresh] * 3
    assert len(counted) == 2  # the unscoped call and one inside the pair
    with pair_scope():  # a new pair hashes again
        digest.weights_digest(net)
    assert len(counted) == 3


@pytest.mark.parametrize("change", ["in_place", "load_state_dict", "buffer", "replaced"])
def test_a_changed_tensor_is_hashed_again_within_the_pair(counted, change):
    net = _net()
    with pair_scope():
        before = digest.weights_digest(net)
        if change == "in_place":
            with torch.no_grad():
                net[0].weight.add_(1.0)
        elif change == "load_state_dict":
            state = {name: tensor + 1 if tensor.is_floating_point() else tensor
                     for name, tensor in net.state_dict().items()}
            net.load_state_dict(state)
        elif change == "buffer":
            net.train()
            net(torch.randn(5, 4))  # batch norm updates its running statistics in place
        else:
            net[0].bias = nn.Parameter(torch.zeros(3))
        after = digest.weights_digest(net)
    assert len(counted) == 2 and after != before
    assert after == digest.weights_digest(net)  # what a fresh hash outside the pair gives


def test_two_models_in_one_pair_are_told_apart(counted):
    first, second = _net(), nn.Sequential(nn.Linear(4, 3))
    with pair_scope():
        assert digest.weights_digest(first) != digest.weights_digest(second)
        digest.weights_digest(first)
    assert len(counted) == 2
