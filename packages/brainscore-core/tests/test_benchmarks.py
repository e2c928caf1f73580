"""Benchmark / BenchmarkBase: lazily computed ceiling, cached on disk by identifier + version + data digest."""

from __future__ import annotations

import json

import numpy as np
import pytest

from brainscore_core.benchmarks import Benchmark, BenchmarkBase, score_benchmark
from brainscore_core.metrics import Score


def _assembly(offset=0.0):
    from brainio.assemblies import NeuroidAssembly

    values = np.arange(12.0).reshape(4, 3) + offset
    return NeuroidAssembly(values, coords={"stimulus_id": ("presentation", list("abcd")),
                                           "neuroid_id": ("neuroid", ["n0", "n1", "n2"])},
                           dims=["presentation", "neuroid"])


class CountingCeiling:
    """A ceiling function that counts its calls; the ceiling carries an error and per-split raw values."""

    def __init__(self, value=0.8):
        self.value, self.calls = value, 0

    def __call__(self):
        self.calls += 1
        raw = Score(np.array([[0.7, 0.9], [0.8, 0.8]]), coords={"split": [0, 1], "neuroid_id": ["n0", "n1"]},
                    dims=["split", "neuroid_id"])
        return Score(self.value, attrs={"error": 0.05, "raw": raw, "method": "split-half"})


class Echo(BenchmarkBase):
    def __call__(self, candidate):
        return Score(candidate)


def _ceiling_files(home):
    directory = home / "brainscore_home" / "ceilings"
    return sorted(p.name for p in directory.rglob("*") if p.is_file()) if directory.exists() else []


def test_ceiling_is_computed_lazily_once():
    ceiling_func = CountingCeiling()
    benchmark = Echo("Echo.IT-pls", ceiling_func, 1)
    assert ceiling_func.calls == 0
    assert float(benchmark.ceiling) == 0.8 and float(benchmark.ceiling) == 0.8
    assert ceiling_func.calls == 1


def test_without_ceiling_data_nothing_is_written(_temporary_homes):
    ceiling_func = CountingCeiling()
    _ = Echo("Echo.IT-pls", ceiling_func, 1).ceiling
    _ = Echo("Echo.IT-pls", ceiling_func, 1).ceiling
    assert ceiling_func.calls == 2
    assert _ceiling_files(_temporary_homes) == []


def test_same_data_reuses_the_cached_ceiling(_temporary_homes):
    ceiling_func = CountingCeiling()
    first = Echo("Echo.IT-pls", ceiling_func, 1, ceiling_data=_assembly()).ceiling
    second = Echo("Echo.IT-pls", ceiling_func, 1, ceiling_data=_assembly()).ceiling
    assert ceiling_func.calls == 1
    assert float(second) == float(first) == 0.8
    assert second.attrs["error"] == 0.05 and second.attrs["method"] == "split-half"
    np.testing.assert_array_equal(second.attrs["raw"].values, first.attrs["raw"].values)
    assert not any(name.endswith(".tmp") for name in _ceiling_files(_temporary_homes))


def test_changed_data_recomputes_the_ceiling():
    ceiling_func = CountingCeiling()
    _ = Echo("Echo.IT-pls", ceiling_func, 1, ceiling_data=_assembly()).ceiling
    _ = Echo("Echo.IT-pls", ceiling_func, 1, ceiling_data=_assembly(offset=1.0)).ceiling
    assert ceiling_func.calls == 2
    # and both stay cached side by side
    _ = Echo("Echo.IT-pls", ceiling_func, 1, ceiling_data=_assembly()).ceiling
    assert ceiling_func.calls == 2


def test_version_change_recomputes_the_ceiling():
    ceiling_func = CountingCeiling()
    _ = Echo("Echo.IT-pls", ceiling_func, 1, ceiling_data=_assembly()).ceiling
    _ = Echo("Echo.IT-pls", ceiling_func, 2, ceiling_data=_assembly()).ceiling
    assert ceiling_func.calls == 2


def test_identifier_is_part_of_the_key():
    ceiling_func = CountingCeiling()
    _ = Echo("Echo.IT-pls", ceiling_func, 1, ceiling_data="sha1-of-the-file").ceiling
    _ = Echo("Echo.V4-pls", ceiling_func, 1, ceiling_data="sha1-of-the-file").ceiling
    assert ceiling_func.calls == 2


def test_ceiling_data_may_be_a_callable_or_a_list():
    ceiling_func = CountingCeiling()
    _ = Echo("E", ceiling_func, 1, ceiling_data=lambda: [_assembly(), "x"]).ceiling
    _ = Echo("E", ceiling_func, 1, ceiling_data=[_assembly(), "x"]).ceiling
    _ = Echo("E", ceiling_func, 1, ceiling_data=[_assembly(), "y"]).ceiling
    assert ceiling_func.calls == 2


def test_corrupt_cache_files_are_recomputed(_temporary_homes, monkeypatch):
    from brainscore_core import _ceiling_cache

    monkeypatch.setattr(_ceiling_cache, "INLINE_LIMIT", 0)  # the raw values go to a netCDF file, as a large array does
    ceiling_func = CountingCeiling()
    _ = Echo("E", ceiling_func, 1, ceiling_data="data").ceiling
    directory = _temporary_homes / "brainscore_home" / "ceilings" / "E"
    next(directory.glob("*.nc")).write_bytes(b"not netcdf")  # sha1 no longer matches
    assert float(Echo("E", ceiling_func, 1, ceiling_data="data").ceiling) == 0.8
    assert ceiling_func.calls == 2
    next(directory.glob("*.json")).write_text("{truncated")
    _ = Echo("E", ceiling_func, 1, ceiling_data="data").ceiling
    assert ceiling_func.calls == 3


def test_cache_is_json_and_netcdf_only(_temporary_homes):
    _ = Echo("E", CountingCeiling(), 1, ceiling_data="data").ceiling
    names = _ceiling_files(_temporary_homes)
    assert names and all(name.endswith((".json", ".nc")) for name in names)
    record = json.loads(next((_temporary_homes / "brainscore_home" / "ceilings").rglob("*.json")).read_text())
    assert record["value"] == 0.8 and record["version"] == 1 and record["identifier"] == "E"


def test_small_arrays_stay_in_the_record_and_read_back_identical(tmp_path):
    import xarray as xr

    from brainscore_core._ceiling_cache import INLINE_LIMIT, CeilingCache

    cache = CeilingCache(tmp_path)
    raw = Score(xr.DataArray(np.array([[0.7, np.nan], [np.inf, 1e-300]], dtype=np.float32).astype(np.float64),
                             coords={"split": [0, 1], "neuroid_id": np.array(["n0", "n1"], dtype=object),
                                     "region": ("neuroid_id", np.array(["IT", "V4"])),
                                     "kept": ("split", np.array([True, False]))},
                             dims=["split", "neuroid_id"], attrs={"method": "split-half", "bound": np.nan}))
    per_subject = np.array([0.25, 0.5, 0.75], dtype=np.float32)
    ceiling = Score(xr.DataArray(np.array([0.8, 0.9]), coords={"layer": ["a", "b"]}, dims=["layer"]),
                    attrs={"raw": raw, "per_subject": per_subject})
    path = cache.save(ceiling, "Lab.IT-pls", 1, "d" * 40)
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == [path.name]  # no netCDF file beside the record
    loaded = cache.load("Lab.IT-pls", 1, "d" * 40)
    bare_loaded, bare_ceiling = xr.DataArray(loaded).copy(), xr.DataArray(ceiling).copy()
    bare_loaded.attrs = bare_ceiling.attrs = {}
    xr.testing.assert_identical(bare_loaded, bare_ceiling)
    xr.testing.assert_identical(xr.DataArray(loaded.attrs["raw"]), xr.DataArray(raw))  # NaN, inf, coords, attrs
    assert {name: coord.dtype for name, coord in loaded.attrs["raw"].coords.items()} == {
        "split": np.int64, "neuroid_id": object, "region": np.dtype("<U2"), "kept": bool}  # identical() skips dtypes
    assert loaded.attrs["per_subject"].dtype == np.float32 and (loaded.attrs["per_subject"] == per_subject).all()
    large = Score(np.zeros(INLINE_LIMIT + 1))
    cache.save(Score(0.5, attrs={"raw": large}), "Lab.V4-pls", 1, "d" * 40)
    assert len(list((tmp_path / "Lab.V4-pls").glob("*.nc"))) == 1  # a large array still goes to netCDF
    assert cache.load("Lab.V4-pls", 1, "d" * 40).attrs["raw"].shape == (INLINE_LIMIT + 1,)


def test_an_edited_inline_array_fails_the_record_check(tmp_path):
    import json

    from brainscore_core._ceiling_cache import CeilingCache

    cache = CeilingCache(tmp_path)
    path = cache.save(Score(0.8, attrs={"raw": Score(np.array([0.7, 0.9]), dims=["split"])}), "B", 1, "d" * 40)
    record = json.loads(path.read_text())
    record["arrays"]["raw"]["inline"]["variables"]["__values__"]["values"][0] = 0.99
    path.write_text(json.dumps(record))
    with pytest.warns(RuntimeWarning, match="fails its content check"):
        assert cache.load("B", 1, "d" * 40) is None


def test_nan_and_array_ceilings_round_trip():
    calls = []

    def per_neuroid():
        calls.append(1)
        return Score([0.5, np.nan], coords={"neuroid_id": ["a", "b"]}, dims=["neuroid_id"])

    _ = Echo("E", per_neuroid, 1, ceiling_data="d").ceiling
    loaded = Echo("E", per_neuroid, 1, ceiling_data="d").ceiling
    assert len(calls) == 1
    assert loaded.values[0] == 0.5 and np.isnan(loaded.values[1])
    assert np.isnan(float(Echo("N", lambda: Score(np.nan), 1, ceiling_data="d").ceiling))
    assert np.isnan(float(Echo("N", lambda: 1 / 0, 1, ceiling_data="d").ceiling))  # from the cache


def test_caching_can_be_disabled(monkeypatch):
    monkeypatch.setenv("RESULTCACHING_DISABLE", "1")
    ceiling_func = CountingCeiling()
    _ = Echo("E", ceiling_func, 1, ceiling_data="data").ceiling
    _ = Echo("E", ceiling_func, 1, ceiling_data="data").ceiling
    assert ceiling_func.calls == 2


def test_identifier_cannot_escape_the_cache_directory(_temporary_homes):
    _ = Echo("../../evil/../x", CountingCeiling(), 1, ceiling_data="d").ceiling
    written = list(_temporary_homes.rglob("*.json"))
    assert written and all((_temporary_homes / "brainscore_home" / "ceilings") in p.parents for p in written)


def test_core_form_with_a_ready_ceiling():
    # brainscore_core reference form: BenchmarkBase(identifier, ceiling, version, parent)
    benchmark = Echo("Kar2019-ost", Score(0.79), 2, "IT")
    assert float(benchmark.ceiling) == 0.79 and benchmark.version == 2 and benchmark.parent == "IT"
    assert float(Echo("x", version=1, ceiling=0.5).ceiling) == 0.5
    assert float(Echo("x", 0.6, 1).ceiling) == 0.6


def test_missing_ceiling_is_an_error_naming_the_benchmark():
    with pytest.raises(ValueError, match="'Nothing'"):
        _ = Echo("Nothing", version=1).ceiling


def test_properties_and_defaults():
    benchmark = Echo("Echo.IT-pls", CountingCeiling(), 3, bibtex="@article{x}")
    assert (benchmark.identifier, benchmark.version, benchmark.parent, benchmark.bibtex) == (
        "Echo.IT-pls", 3, None, "@article{x}")
    assert benchmark.preallocate_memory(object()) is None
    assert "Echo.IT-pls" in repr(benchmark)


def test_benchmark_members_raise_not_implemented_like_brainscore():
    """Brain-Score's ``Benchmark`` has no abstract member: a subclass defining only ``__call__`` can be built, and what
    it leaves out raises ``NotImplementedError`` naming the class."""

    class OnlyCall(Benchmark):
        def __call__(self, candidate):
            return Score(0.5)

    benchmark = OnlyCall()
    assert float(benchmark(None)) == 0.5 and benchmark.parent is None and benchmark.bibtex is None
    for member in ("identifier", "version", "ceiling"):
        with pytest.raises(NotImplementedError, match=f"OnlyCall.*{member}"):
            getattr(benchmark, member)
    with pytest.raises(NotImplementedError, match="Benchmark does not define __call__"):
        Benchmark()(None)


def test_benchmark_base_requires_a_version_like_brainscore():
    """Brain-Score's ``BenchmarkBase(identifier, ceiling_func, version, ...)`` has no default version; ``None`` is kept."""
    with pytest.raises(TypeError, match=r"Echo\('E'\) is missing the argument 'version'"):
        Echo("E", CountingCeiling())
    assert Echo("E", CountingCeiling(), None).version is None
    assert Echo("E", CountingCeiling(), version=4).version == 4


def test_score_benchmark_preallocates_then_calls():
    calls = []

    class Recording(Echo):
        def preallocate_memory(self, candidate):
            calls.append(("preallocate", candidate))

        def __call__(self, candidate):
            calls.append(("call", candidate))
            return Score(0.3)

    assert float(score_benchmark(Recording("R", 1.0, 1), "model")) == 0.3
    assert calls == [("preallocate", "model"), ("call", "model")]


def test_a_benchmark_returning_none_is_named():
    from brainscore_core.benchmarks import score_benchmark

    class Forgetful:
        identifier = "Lab.forgot-return"

        def __call__(self, candidate):
            candidate + 1  # does the work, forgets `return`

    with pytest.raises(TypeError, match=r"'Lab.forgot-return' returned None.*return score"):
        score_benchmark(Forgetful(), 1)


def test_a_damaged_ceiling_record_is_a_miss_with_a_warning(tmp_path):
    import json

    from brainscore_core._ceiling_cache import CeilingCache
    from brainscore_core.metrics import Score

    cache = CeilingCache(tmp_path)
    ceiling = Score(0.75)
    ceiling.attrs["error"] = 0.01
    path = cache.save(ceiling, "Lab.IT-pls", 1, "d" * 40)
    assert float(cache.load("Lab.IT-pls", 1, "d" * 40)) == 0.75
    record = json.loads(path.read_text())
    record["value"] = 0.57  # a single changed digit: still valid JSON, a wrong ceiling if it were used
    path.write_text(json.dumps(record))
    with pytest.warns(RuntimeWarning, match="fails its content check"):
        assert cache.load("Lab.IT-pls", 1, "d" * 40) is None
    path.write_text(path.read_text().replace('"attrs"', '"attrz"'))  # a missing key: a miss, never a KeyError
    with pytest.warns(RuntimeWarning):
        assert cache.load("Lab.IT-pls", 1, "d" * 40) is None


def test_a_missing_member_reads_as_absent_for_getattr_with_a_default():
    class OnlyCall(Benchmark):
        def __call__(self, candidate):
            return Score(0.5)

    assert getattr(OnlyCall(), "version", None) is None  # the grid and the CLI then store version 1
