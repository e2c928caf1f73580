"""The weights digest is computed once per scored pair (``brainscore_core.pair_scope``), kept from pair to pair only
for a model the grid loaded and kept (``KEPT_MODEL``) while every tensor's stamp and sampled values stay, and computed
again whenever a tensor changes: the remembered digest always equals a fresh sha1 of the weights
(``model_tools.digest._hash_state``, the same function the unremembered path calls)."""

from __future__ import annotations

import contextlib

import pytest
import torch
from torch import nn

from brainscore_core.pair_scope import KEPT_MODEL, pair_scope
from model_tools import digest


@contextlib.contextmanager
def kept_pair():
    """A pair whose model the grid kept from its previous pair (what ``grid._take_model`` marks)."""
    with pair_scope() as memo:
        memo[KEPT_MODEL] = True
        yield


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
    with kept_pair():  # the grid kept the model, weights unchanged: the stamp and the sampled values match
        assert digest.weights_digest(net) == fresh
    assert len(counted) == 2
    with pair_scope():  # a model not kept by the grid (a user's object): hashed again
        assert digest.weights_digest(net) == fresh
    assert len(counted) == 3


def test_a_users_model_changed_in_a_few_elements_between_pairs_is_always_seen(counted):
    """A model passed to ``score()`` twice, edited through ``param.data`` in between in one element the sample may
    miss: every pair hashes it, so the digest changes (no stale activations for changed weights)."""
    torch.manual_seed(2)
    net = nn.Sequential(nn.Linear(10_000, 10))
    with pair_scope():
        before = digest.weights_digest(net)
    net[0].weight.data.view(-1)[12_345] += 1.0  # not among the 4,096 spread sampled elements
    with pair_scope():
        after = digest.weights_digest(net)
    assert after != before and after == digest._hash_state(net, net.state_dict())


@pytest.mark.parametrize("size", [30, 100_000, 2**25])  # the largest: past float32's exact integers
def test_a_change_through_data_of_a_kept_model_is_seen_from_the_next_pair_on(counted, size):
    """``param.data`` edits escape torch's version counter: within the pair they are not seen; for a model the grid
    kept, from the next pair on they are when they touch the sample (every element of a small tensor, 4,096 spread
    elements of a large one: a change of the whole tensor, or of a sampled element, changes it)."""
    torch.manual_seed(1)
    net = nn.Sequential(nn.Linear(size // 10, 10))
    with pair_scope():
        before = digest.weights_digest(net)
        net[0].weight.data.mul_(2.0)
        assert digest.weights_digest(net) == before  # within the pair: not seen (as documented)
    with kept_pair():
        after = digest.weights_digest(net)
    assert after != before and after == digest._hash_state(net, net.state_dict())
    net[0].weight.data.view(-1)[-1] += 1.0  # one element, the last (always sampled)
    with kept_pair():
        assert digest.weights_digest(net) not in (before, after)


def test_nothing_is_kept_alive():
    import gc
    import weakref

    net = _net()
    with pair_scope():
        digest.weights_digest(net)
    gone = weakref.ref(net)
    del net
    gc.collect()
    assert gone() is None


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


def test_a_benchmark_called_directly_is_one_pair(counted):
    """``benchmark(model)`` outside ``score()`` (Brain-Score's tutorials' idiom) runs as one pair
    (``brainscore_core.benchmarks.Benchmark.__init_subclass__``): its steps hash the weights once; each call is its own
    pair (a change between two calls is seen); a benchmark calling another inside its call shares the pair."""
    from brainscore_core.benchmarks import Benchmark
    from brainscore_core.pair_scope import pair_memo

    memos = []

    class ThreeLooks(Benchmark):
        def __call__(self, model):
            memos.append(pair_memo())
            return [digest.weights_digest(model) for _ in range(3)]  # three activations calls' keys

    class Outer(Benchmark):
        def __call__(self, model):
            memos.append(pair_memo())
            return ThreeLooks()(model)

    net = _net()
    fresh = digest._hash_state(net, net.state_dict())
    counted.clear()
    assert ThreeLooks()(net) == [fresh] * 3 and len(counted) == 1
    with torch.no_grad():
        net[0].weight.data[0, 0] += 1.0  # through .data: no version bump; the next call is a new pair
    changed = ThreeLooks()(net)
    assert len(counted) == 2 and changed[0] != fresh and changed == [changed[0]] * 3
    assert Outer()(net) == changed and len(counted) == 3 and memos[-1] is memos[-2]  # one pair for both
    assert memos[0] is not None and memos[0] is not memos[1] and pair_memo() is None  # dropped after each call
