"""The public checks in brainscore_core.testing: they pass on good input and fail, with a useful message,
on bad input."""

from __future__ import annotations

import numpy as np
import pytest

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_core.normalization import ceil_score
from brainscore_core.testing import assert_scores_close, check_benchmark


def test_close_scores_pass():
    assert_scores_close(Score(0.5), Score(0.5 + 1e-9), rtol=1e-6)
    assert_scores_close(Score(0.5), 0.5)
    assert_scores_close(Score(np.nan), Score(np.nan))
    legacy = Score([0.5, 0.1], coords={"aggregation": ["center", "error"]}, dims=["aggregation"])
    assert_scores_close(legacy, Score(0.5, attrs={"error": 0.1}))
    a = Score([1.0, 2.0], coords={"region": ["V4", "IT"]}, dims=["region"])
    assert_scores_close(a, a.copy())


def test_differing_scores_fail_showing_both_values_and_attrs():
    with pytest.raises(AssertionError) as error:
        assert_scores_close(Score(0.5, attrs={"error": 0.1}), Score(0.6, attrs={"error": 0.2}), atol=0.01)
    message = str(error.value)
    assert "0.5" in message and "0.6" in message and "'error': 0.1" in message and "'error': 0.2" in message


def test_tolerances_apply():
    assert_scores_close(Score(0.50), Score(0.505), atol=0.01)
    with pytest.raises(AssertionError):
        assert_scores_close(Score(0.50), Score(0.505), atol=0.001)
    with pytest.raises(AssertionError, match="dims"):
        assert_scores_close(Score([1.0], dims=["a"]), Score([1.0], dims=["b"]))


def test_check_attrs():
    assert_scores_close(Score(0.5, attrs={"error": 0.1}), Score(0.5, attrs={"error": 0.1}), check_attrs=("error",))
    with pytest.raises(AssertionError, match="'error' differs"):
        assert_scores_close(Score(0.5, attrs={"error": 0.1}), Score(0.5, attrs={"error": 0.3}),
                            check_attrs=("error",))


class Good(BenchmarkBase):
    def __call__(self, candidate):
        return ceil_score(Score(0.4), self.ceiling)


def test_check_benchmark_passes_a_good_benchmark():
    check_benchmark(Good("Good.IT-pls", lambda: Score(0.8), 1, "IT", "@article{x}"), candidate=object())


@pytest.mark.parametrize("bad_benchmark, problem", [
    (Good("", lambda: Score(0.8), 1), "identifier"),
    (Good("B", lambda: Score(0.8), 1.5), "version"),
    (Good("B", lambda: Score(0.8), 1, parent=3), "parent"),
    (Good("B", lambda: Score(1.7), 1), "outside"),
    (Good("B", lambda: Score(np.nan), 1), "note"),
    (Good("B", lambda: Score([0.5, 0.6], dims=["x"]), 1), "single value"),
    (Good("B", lambda: "0.8", 1), "Score"),
])
def test_check_benchmark_names_the_failed_check(bad_benchmark, problem):
    with pytest.raises((AssertionError, TypeError), match=problem):
        check_benchmark(bad_benchmark)


def test_documented_nan_ceiling_is_accepted():
    check_benchmark(Good("B", lambda: Score(np.nan, attrs={"note": "no repetitions in this data"}), 1))


def test_check_benchmark_checks_the_score_of_a_candidate():
    class NoAttrs(BenchmarkBase):
        def __call__(self, candidate):
            return Score(0.4)

    with pytest.raises(AssertionError, match="raw"):
        check_benchmark(NoAttrs("B", lambda: Score(0.8), 1), candidate=object())


def test_ceiling_that_changes_is_caught():
    class Changing(Good):
        values = iter([0.5, 0.6])

        @property
        def ceiling(self):
            return Score(next(self.values))

    with pytest.raises(AssertionError, match="changed"):
        check_benchmark(Changing("B", 1.0, 1))


# -- check_ceiling ------------------------------------------------------------------------------------------------
class _PerBinCeiling:
    """A ceiling of one value per time bin, ``values`` in order."""

    def __init__(self, *values):
        self.values = list(values)

    def __call__(self, data):
        return Score(self.values, coords={"time_bin": np.arange(len(self.values))}, dims=["time_bin"])


def test_check_ceiling_checks_the_dims_of_a_per_bin_ceiling():
    from brainscore_core.testing import check_ceiling

    check_ceiling(_PerBinCeiling(0.5, 0.7), data=None, expected_dims=("time_bin",))
    with pytest.raises(AssertionError, match=r"must have dims \(\), got dims \('time_bin',\)"):
        check_ceiling(_PerBinCeiling(0.5, 0.7), data=None)
    with pytest.raises(AssertionError, match=r"outside"):
        check_ceiling(_PerBinCeiling(0.5, 1.7), data=None, expected_dims=("time_bin",))
    with pytest.raises(AssertionError, match=r"note"):
        check_ceiling(_PerBinCeiling(0.5, np.nan), data=None, expected_dims=("time_bin",))


def test_check_ceiling_catches_a_ceiling_that_changes_between_calls():
    from brainscore_core.testing import check_ceiling

    values = iter([0.5, 0.6])
    with pytest.raises(AssertionError, match="not deterministic: \\[0.5\\] then \\[0.6\\]"):
        check_ceiling(lambda data: Score(next(values)), data=None)


# -- the second ceiling read is not served from memory ----------------------------------------------------------
def _counting_ceiling(*values):
    """A ceiling function returning ``values`` in turn, and the list of its calls."""
    calls = []

    def ceiling():
        calls.append(len(calls))
        return Score(values[min(len(calls), len(values)) - 1])
    return ceiling, calls


def test_a_ceiling_that_differs_between_computations_fails_the_two_reads_check():
    ceiling, calls = _counting_ceiling(0.5, 0.6)  # kept in memory only (no ceiling_data)
    benchmark = Good("B", ceiling, 1)
    with pytest.raises(AssertionError, match="changed between two reads: 0.5 then 0.6"):
        check_benchmark(benchmark)
    assert len(calls) == 2 and float(benchmark.ceiling) == 0.5  # the checked instance keeps its first ceiling


def test_the_second_read_comes_from_the_disk_cache():
    ceiling, calls = _counting_ceiling(0.5, 0.6)
    check_benchmark(Good("B.disk", ceiling, 1, ceiling_data="sha1-of-the-data"))
    assert len(calls) == 1  # computed once, then read back from $BRAINSCORE_HOME/ceilings


def test_a_ceiling_that_differs_when_read_back_from_disk_fails(monkeypatch):
    """Plants a cache that writes a different value than it was given: the read back from disk differs."""
    from brainscore_core._ceiling_cache import CeilingCache

    save = CeilingCache.save
    monkeypatch.setattr(CeilingCache, "save", lambda self, ceiling, *key: save(self, ceiling * 0.9, *key))
    ceiling, _ = _counting_ceiling(0.5)
    with pytest.raises(AssertionError, match="changed between two reads: 0.5 then 0.45"):
        check_benchmark(Good("B.lossy", ceiling, 1, ceiling_data="sha1-of-the-data"))


def test_reload_gives_the_second_read():
    with pytest.raises(AssertionError, match="changed between two reads: 0.8 then 0.7"):
        check_benchmark(Good("B", lambda: Score(0.8), 1), reload=lambda: Good("B", lambda: Score(0.7), 1))
    check_benchmark(Good("B", lambda: Score(0.8), 1), reload=lambda: Good("B", lambda: Score(0.8), 1))


def test_ceiling_attrs_lost_on_the_way_through_the_disk_cache_fail(monkeypatch):
    """A cache that drops an attr on the way (as ours did for a numpy ``raw``, before it kept numeric arrays) fails."""
    from brainscore_core._ceiling_cache import CeilingCache

    def with_raw():
        return Score(0.5, attrs={"raw": np.array([0.4, 0.6]), "error": 0.1})

    check_benchmark(Good("B.kept", with_raw, 1, ceiling_data="sha1-of-the-data"))  # numpy raw kept by the cache
    fresh = Good("B.kept", with_raw, 1, ceiling_data="sha1-of-the-data")
    np.testing.assert_array_equal(fresh.ceiling.attrs["raw"], [0.4, 0.6])  # read back from disk, as numpy

    save = CeilingCache.save

    def drop_raw(self, ceiling, *key):
        ceiling = ceiling.copy()
        ceiling.attrs = {k: v for k, v in ceiling.attrs.items() if k != "raw"}
        return save(self, ceiling, *key)

    monkeypatch.setattr(CeilingCache, "save", drop_raw)
    with pytest.raises(AssertionError, match=r"ceiling attrs \['raw'\] lost between two reads"):
        check_benchmark(Good("B.dropping", with_raw, 1, ceiling_data="sha1-of-the-data"))


def test_lists_of_plain_values_survive_the_disk_cache():
    def with_subjects():
        return Score(0.5, attrs={"subjects": ["s1", "s2"], "per_subject": [0.4, float("nan")]})

    check_benchmark(Good("B.lists", with_subjects, 1, ceiling_data="sha1-of-the-data"))
    attrs = Good("B.lists", with_subjects, 1, ceiling_data="sha1-of-the-data").ceiling.attrs  # from disk
    assert attrs["subjects"] == ["s1", "s2"]
    assert attrs["per_subject"][0] == 0.4 and np.isnan(attrs["per_subject"][1])
