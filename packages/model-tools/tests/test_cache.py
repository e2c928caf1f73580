"""Content-addressed activations cache: hits, misses, incremental layers, netCDF entries, crashes, concurrency."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import h5py
import numpy as np
import pytest
import torch
import xarray
from _counting import ForwardCounter
from PIL import Image

from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.activations.cache import caching_enabled, default_cache_root


def entries(root: Path) -> list[Path]:
    """Complete cache entries (one netCDF file per extraction run)."""
    return sorted(root.rglob("*.nc")) if root.exists() else []


def index_files(root: Path) -> list[Path]:
    return sorted((root / "index").rglob("*.json")) if root.exists() else []


def entry_layers(path: Path) -> list[str]:
    """The layer names an entry holds, read with xarray (an independent netCDF reader)."""
    with xarray.open_dataset(path, engine="h5netcdf") as dataset:
        return [str(name) for name in dataset["layer"].values]


def test_second_call_is_a_hit_and_returns_equal_values(tiny_net, image_files):
    counter = ForwardCounter(tiny_net)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=4)
    first = extractor(image_files, ["1", "logits"])
    assert counter.calls == 3  # 10 images in batches of 4
    second = extractor(image_files, ["1", "logits"])
    assert counter.calls == 3
    np.testing.assert_array_equal(first.values, second.values)
    root = default_cache_root()
    assert len(entries(root)) == 1 and len(index_files(root)) == 2  # one entry per run, one index per layer


def test_new_layers_are_computed_cached_ones_are_not(tiny_net, image_files):
    counter = ForwardCounter(tiny_net)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)
    extractor(image_files, ["1"])
    root = default_cache_root()
    before = {path: path.stat().st_mtime_ns for path in entries(root)}
    mixed = extractor(image_files, ["1", "2", "logits"])
    assert counter.calls == 2  # one more forward pass (10 images, one batch) for the two new layers
    (new,) = [path for path in entries(root) if path not in before]
    assert entry_layers(new) == ["2", "logits"]  # only the missing layers were recorded
    assert all(before[path] == path.stat().st_mtime_ns for path in before)  # the old entry is untouched
    again = extractor(image_files, ["1", "2", "logits"])  # now all cached, in two entries
    assert counter.calls == 2
    uncached = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False)(
        image_files, ["1", "2", "logits"])
    for assembly in (mixed, again):
        np.testing.assert_array_equal(assembly.values, uncached.values)
        assert assembly["layer"].values.tolist() == uncached["layer"].values.tolist()


def test_entry_is_a_netcdf_file_holding_the_extracted_values(tiny_net, image_files):
    layers = ["2", "1", "logits"]
    assembly = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=4)(image_files, layers)
    (entry,) = entries(default_cache_root())
    with xarray.open_dataset(entry, engine="h5netcdf") as dataset:
        values = dataset["activations"]
        assert values.dims == ("presentation", "neuroid") and values.dtype == np.float32
        np.testing.assert_array_equal(values.values, assembly.values)
        # widths by hand: "2" is 2 x 4 x 4 = 32, "1" is 4 x 8 x 8 = 256, logits 5; request order kept
        assert dataset["layer"].values.tolist() == layers
        assert dataset["layer_start"].values.tolist() == [0, 32, 288]
        assert dataset["layer_stop"].values.tolist() == [32, 288, 293]
        assert values.attrs["model_identifier"] == "tiny"
    with h5py.File(entry, "r") as handle:  # stored so that it can be memory-mapped: contiguous, uncompressed
        variable = handle["activations"]
        assert variable.chunks is None and variable.compression is None and variable.id.get_offset() > 0


@pytest.mark.parametrize("damage", ["deleted", "truncated"])
def test_index_naming_a_missing_or_broken_entry_is_a_miss(tiny_net, image_files, damage):
    counter = ForwardCounter(tiny_net)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)
    # a copy: the assembly maps the entry, and truncating a mapped file makes reading the map a SIGBUS
    first = extractor(image_files, ["1", "logits"]).values.copy()
    root = default_cache_root()
    (entry,) = entries(root)
    if damage == "deleted":
        entry.unlink()
    else:
        os.truncate(entry, entry.stat().st_size // 2)
    assert len(index_files(root)) == 2  # the index still names the damaged file
    second = extractor(image_files, ["1", "logits"])
    assert counter.calls == 2  # recomputed
    np.testing.assert_array_equal(second.values, first)
    assert len(entries(root)) == (1 if damage == "deleted" else 2)


@pytest.mark.parametrize("damage", ["column range", "not json"])
def test_damaged_index_record_is_a_miss(tiny_net, image_files, damage, caplog):
    """An index record carries a digest of its content (issue 22, item 7): a changed column range would serve
    another layer's columns; it must be a miss (recomputed), with a warning."""
    counter = ForwardCounter(tiny_net)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)
    first = extractor(image_files, ["1", "logits"]).values.copy()
    index = index_files(default_cache_root())[0]
    text = index.read_text()
    index.write_text(text.replace('"start": 0', '"start": 1') if '"start": 0' in text
                     else text.replace('"stop": ', '"stop": 1')) if damage == "column range" else index.write_text("{")
    shutil.rmtree(default_cache_root() / "rows")  # without the rows index the entry can only be found through the record
    second = extractor(image_files, ["1", "logits"])
    assert counter.calls == 2  # recomputed, not served from the damaged record
    np.testing.assert_array_equal(second.values, first)
    assert "activations index" in caplog.text


def test_changed_weights_miss(tiny_net, image_files):
    counter = ForwardCounter(tiny_net)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)
    first = extractor(image_files, ["logits"])
    with torch.no_grad():
        tiny_net[4].bias += 1.0
    second = extractor(image_files, ["logits"])
    assert counter.calls == 2
    np.testing.assert_allclose(second.values, first.values + 1.0, rtol=1e-5, atol=1e-5)


def test_changed_image_size_misses(tiny_net, image_files):
    convolutional = tiny_net[:3]  # no Linear: any input size
    counter = ForwardCounter(convolutional)
    ActivationsExtractor(convolutional, "tiny", ImagePreprocessing(8), batch_size=10)(image_files, ["1"])
    other = ActivationsExtractor(convolutional, "tiny", ImagePreprocessing(10), batch_size=10)(image_files, ["1"])
    assert counter.calls == 2 and other.sizes["neuroid"] == 4 * 10 * 10


def test_changed_stimulus_content_misses_renamed_file_hits(tiny_net, image_files, tmp_path):
    counter = ForwardCounter(tiny_net)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)
    first = extractor(image_files, ["logits"])
    copies = [str(tmp_path / f"copy{index}.png") for index in range(len(image_files))]
    for source, target in zip(image_files, copies, strict=True):
        shutil.copy(source, target)
    extractor(copies, ["logits"])
    assert counter.calls == 1  # same bytes under other names: a hit
    Image.fromarray(np.zeros((16, 20, 3), np.uint8)).save(copies[3])
    changed = extractor(copies, ["logits"])
    assert counter.calls == 2
    np.testing.assert_array_equal(np.delete(changed.values, 3, axis=0), np.delete(first.values, 3, axis=0))
    assert not np.allclose(changed.values[3], first.values[3])


@pytest.mark.parametrize("switch", ["env", "parameter"])
def test_cache_can_be_switched_off(tiny_net, image_files, monkeypatch, switch):
    counter = ForwardCounter(tiny_net)
    if switch == "env":
        monkeypatch.setenv("RESULTCACHING_DISABLE", "1")
        extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)
    else:
        extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10, cache=False)
    extractor(image_files, ["1"])
    extractor(image_files, ["1"])
    assert counter.calls == 2 and entries(default_cache_root()) == []


def test_caching_enabled_reads_the_reference_switch(monkeypatch):
    monkeypatch.setenv("RESULTCACHING_DISABLE", "model_tools.activations,other")
    assert not caching_enabled()
    monkeypatch.setenv("RESULTCACHING_DISABLE", "brainscore_vision.benchmarks")
    assert caching_enabled()
    assert caching_enabled(True) and not caching_enabled(False)


def test_exception_from_a_hook_midway_leaves_no_entry(tiny_net, image_files):
    calls = {"n": 0}

    def explode(_module, _inputs, _output):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("boom in batch 2")

    handle = tiny_net[1].register_forward_hook(explode)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=4)
    with pytest.raises(RuntimeError, match="boom"):
        extractor(image_files, ["1", "logits"])
    root = default_cache_root()
    assert entries(root) == [] and index_files(root) == [] and list(root.rglob("*.tmp")) == []
    handle.remove()
    assert extractor(image_files, ["1", "logits"]).shape[0] == 10
    assert len(entries(root)) == 1 and len(index_files(root)) == 2


SCRIPT = textwrap.dedent("""
    import sys, time, numpy as np, torch
    sys.path.insert(0, {tests!r})
    from conftest import build_tiny_net
    from model_tools.activations import ActivationsExtractor, ImagePreprocessing
    net = build_tiny_net()
    calls = []
    def slow(_module, _inputs):
        calls.append(1)
        print("batch", flush=True)
        time.sleep({delay})
    net.register_forward_pre_hook(slow)
    paths = {paths!r}
    extractor = ActivationsExtractor(net, "tiny", ImagePreprocessing(8), batch_size=2)
    assembly = extractor(paths, ["1", "logits"])
    np.save({out!r}, assembly.values)
    print("calls", len(calls), flush=True)
""")


def _script(tmp_path, image_files, delay, name):
    path = tmp_path / f"{name}.py"
    out = str(tmp_path / f"{name}.npy")
    path.write_text(SCRIPT.format(tests=str(Path(__file__).parent), delay=delay, paths=image_files, out=out))
    return path, out


def test_killed_extraction_leaves_no_entry(tiny_net, image_files, tmp_path):
    script, out = _script(tmp_path, image_files, delay=5.0, name="killed")
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=os.environ)
    try:
        assert process.stdout.readline().strip() == "batch"  # first batch is running
    finally:
        process.kill()
        process.wait()
    root = default_cache_root()
    assert entries(root) == [] and index_files(root) == []
    # the next run computes everything and matches a run without cache
    fresh = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8))(image_files, ["1", "logits"])
    reference = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False)(image_files, ["1", "logits"])
    np.testing.assert_array_equal(fresh.values, reference.values)
    assert len(entries(root)) == 1 and len(index_files(root)) == 2


def test_two_processes_extracting_the_same_key_compute_it_once(image_files, tmp_path):
    first, out_first = _script(tmp_path, image_files, delay=0.6, name="first")
    second, out_second = _script(tmp_path, image_files, delay=0.6, name="second")
    processes = [subprocess.Popen([sys.executable, str(path)], stdout=subprocess.PIPE, text=True, env=os.environ)
                 for path in (first, second)]
    started = time.monotonic()
    outputs = [process.communicate(timeout=120)[0] for process in processes]
    assert all(process.returncode == 0 for process in processes), outputs
    calls = sorted(int(line.split()[1]) for output in outputs for line in output.splitlines()
                   if line.startswith("calls"))
    # 10 images in batches of 2: one process runs 5 batches, the other waits on the lock and loads
    assert calls == [0, 5], (calls, time.monotonic() - started)
    np.testing.assert_array_equal(np.load(out_first), np.load(out_second))
    assert len(entries(default_cache_root())) == 1
