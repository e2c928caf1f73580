"""Warm cache hits: same values and coordinates as a cold extraction, no forward pass, cache files untouched."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from _counting import ForwardCounter

from model_tools import digest
from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.activations.cache import default_cache_root
from model_tools.activations.packaging import numbered_strings


def coords(assembly) -> dict[str, list]:
    return {name: assembly[name].values.tolist() for name in assembly.coords}


@pytest.mark.parametrize("layers", [["1"], ["1", "2", "logits"]])
def test_warm_hit_equals_cold_extraction_without_forward(tiny_net, image_files, layers):
    counter = ForwardCounter(tiny_net)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=4)
    cold = extractor(image_files, layers)
    assert counter.calls == 3  # 10 images in batches of 4
    warm = extractor(image_files, layers)
    assert counter.calls == 3  # a hit: no forward pass
    # the reference: the same model without any cache (computed in memory, never written or read back)
    uncached = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False)(image_files, layers)
    for assembly in (cold, warm):
        assert assembly.dims == uncached.dims and assembly.dtype == np.float32
        np.testing.assert_array_equal(assembly.values, uncached.values)
        assert coords(assembly) == coords(uncached)
        assert assembly.attrs == uncached.attrs


def _maps_a_file(array: np.ndarray) -> bool:
    while array is not None:
        if isinstance(array, np.memmap):
            return True
        array = array.base if isinstance(array.base, np.ndarray) else None
    return False


def _entry_bytes() -> bytes:
    (entry,) = default_cache_root().rglob("*.nc")
    return entry.read_bytes()


@pytest.mark.parametrize("layers", [["1"], ["1", "2", "logits"]])
def test_warm_hit_maps_the_entry_without_copy_and_writes_stay_private(tiny_net, image_files, layers):
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8))
    cold = extractor(image_files, layers)
    expected = cold.values.copy()
    warm = extractor(image_files, layers)
    for assembly in (cold, warm):
        # the whole request is one entry: its values are views of that entry's map, nothing was copied
        assert _maps_a_file(assembly.values) and assembly.values.flags.c_contiguous
    before = _entry_bytes()
    warm.values[:] = -7.0  # copy-on-write: the caller's pages change, the cache file does not
    assert (warm.values == -7.0).all()
    assert _entry_bytes() == before
    np.testing.assert_array_equal(extractor(image_files, layers).values, expected)


def test_adjacent_layers_of_an_entry_are_a_strided_view_others_are_copied(tiny_net, image_files):
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8))
    everything = extractor(image_files, ["1", "2", "logits"])
    expected = everything.values.copy()
    counter = ForwardCounter(tiny_net)
    # widths by hand: "1" is 4 x 8 x 8 = 256 columns, "2" is 2 x 4 x 4 = 32, logits 5
    middle = extractor(image_files, ["2"])
    tail = extractor(image_files, ["2", "logits"])
    reordered = extractor(image_files, ["logits", "1"])
    assert counter.calls == 0  # all hits
    for assembly, columns in ((middle, slice(256, 288)), (tail, slice(256, 293))):
        assert _maps_a_file(assembly.values) and not assembly.values.flags.c_contiguous  # a column slice
        np.testing.assert_array_equal(assembly.values, expected[:, columns])
    assert not _maps_a_file(reordered.values)  # not adjacent in this order: copied into one new array
    np.testing.assert_array_equal(reordered.values, np.concatenate([expected[:, 288:], expected[:, :256]], axis=1))
    assert reordered["layer"].values.tolist() == ["logits"] * 5 + ["1"] * 256


@pytest.mark.parametrize(("prefix", "count"), [("m.layer.", 0), ("m.layer.", 1), ("m.layer.", 10),
                                               ("m.layer.", 1234), ("é.ü.", 101), ("", 12)])
def test_numbered_strings_equal_string_concatenation(prefix, count):
    # reference: Python string formatting, one id at a time
    assert numbered_strings(prefix, count).tolist() == [f"{prefix}{index}" for index in range(count)]


def test_file_digest_is_brainios_remembered_sha1(tmp_path):
    # one implementation (brainio.files.remembered_sha1_hash, tested in brainio): the same digest as hashlib
    path = tmp_path / "stimulus.bin"
    path.write_bytes(b"a" * 100)
    assert digest.cached_file_digest(str(path)) == hashlib.sha1(b"a" * 100).hexdigest() == digest.file_digest(str(path))
