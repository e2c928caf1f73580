"""Brain-Score's ``TestSubset`` cases on one-level stacked MultiIndexes (``assembly.stack(presentation=
('stimulus_id',))``), the four that failed under today's xarray (brain-score/core ``brainio/tests/test_transform.py``:
``test_smaller_first``, ``test_smaller_last``, ``test_equal_shifted``, ``test_repeated_target``), rewritten here with
their assertions: the subset keeps the target's coordinates (the stacked index included) and values."""

import numpy as np

from brainio.assemblies import NeuroidAssembly
from brainio.transform import subset


def _stacked(values, stimulus_ids, neuroid_ids):
    assembly = NeuroidAssembly(values, coords={"stimulus_id": list(stimulus_ids), "neuroid_id": list(neuroid_ids)},
                               dims=["stimulus_id", "neuroid_id"])
    return assembly.stack(presentation=("stimulus_id",), neuroid=("neuroid_id",))


def _same(result, target):
    np.testing.assert_array_equal(result.coords.keys(), target.coords.keys())
    for name in target.coords:
        assert all(result[name] == target[name]), name
    assert (result == target).all()


def test_smaller_first():
    source = _stacked(np.random.default_rng(0).random((100, 3)), range(100), range(3))
    target = source.sel(presentation=[(x,) for x in range(50)], neuroid=[(x,) for x in range(2)])
    _same(subset(source, target, subset_dims=("presentation",)), target)


def test_smaller_last():
    source = _stacked(np.random.default_rng(1).random((100, 3)), range(100), range(3))
    target = source.sel(presentation=[(50 + x,) for x in range(50)], neuroid=[(1 + x,) for x in range(2)])
    _same(subset(source, target, subset_dims=("presentation",)), target)


def test_equal_shifted():
    target = _stacked(np.random.default_rng(2).random((100, 3)), range(100), range(3))
    shifted_ids = np.arange(100) + 1
    shifted_ids[-1] = 0
    source = _stacked(np.concatenate((target.values[1:], target.values[:1])), shifted_ids, range(3))
    result = subset(source, target, subset_dims=("presentation",))
    np.testing.assert_array_equal(result.coords.keys(), target.coords.keys())
    assert result.shape == target.shape
    # the source's own order: ids 1..99, 0
    assert list(result["stimulus_id"].values) == list(shifted_ids)


def test_repeated_target():
    source = _stacked(np.random.default_rng(3).random((5, 3)), range(5), range(3))
    target = _stacked(np.repeat(source.values, 2, axis=0), np.repeat(np.arange(5), 2), range(3))
    result = subset(source, target, subset_dims=("presentation",), repeat=True)
    _same(result, target)
    np.testing.assert_array_equal(result, target)
