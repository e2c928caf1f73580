"""Activations once per (model, image content, placement): subsets, reorderings and other sets that show images an
earlier request showed read those rows; images placed on the screen are placed in memory, with the same values.

Expected values: the earlier request's own rows (selected with numpy), and extraction from the placed files written
to disk (the lossless PNG a third-party model would read).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _counting import ForwardCounter, ForwardImages
from conftest import make_stimulus_set

from brainscore_vision.benchmark_helpers.screen import place_on_screen
from model_tools.activations import ActivationsExtractor, ImagePreprocessing, PCAReduction, RandomProjection
from model_tools.activations.cache import default_cache_root


def _extractor(net, **kwargs):
    return ActivationsExtractor(net, "tiny", ImagePreprocessing(8), batch_size=4, **kwargs)


def _subset(stimulus_set, ids, identifier="subset"):
    frame = stimulus_set.set_index("stimulus_id").loc[ids].reset_index()
    return make_stimulus_set(frame, {sid: stimulus_set.stimulus_paths[sid] for sid in ids}, identifier)


def test_a_subset_in_another_order_reads_the_rows_of_the_full_set(tiny_net, small_stimulus_set):
    counter = ForwardCounter(tiny_net)
    extractor = _extractor(tiny_net)
    full = extractor(small_stimulus_set, ["1", "logits"])
    calls = counter.calls
    ids = ["s7", "s2", "s5"]
    subset = extractor(_subset(small_stimulus_set, ids), ["logits", "1"])
    assert counter.calls == calls  # no forward pass
    rows = [list(full["stimulus_id"].values).index(sid) for sid in ids]
    expected = np.concatenate([full.sel(neuroid=full["layer"] == "logits").values[rows],
                               full.sel(neuroid=full["layer"] == "1").values[rows]], axis=1)
    np.testing.assert_array_equal(subset.values, expected)
    assert list(subset["stimulus_id"].values) == ids
    assert len(list(default_cache_root().rglob("*.nc"))) == 1  # no second entry


def test_the_same_image_under_another_id_and_a_new_image(tiny_net, small_stimulus_set, tmp_path):
    extractor = _extractor(tiny_net)
    full = extractor(small_stimulus_set, ["logits"])
    counter = ForwardCounter(tiny_net)
    # a copy of s3's file under another id and name: the same content, read from the full set's entry
    copy = tmp_path / "copy.png"
    copy.write_bytes(Path(small_stimulus_set.stimulus_paths["s3"]).read_bytes())
    renamed = make_stimulus_set(pd.DataFrame({"stimulus_id": ["renamed"]}), {"renamed": str(copy)}, "other")
    values = extractor(renamed, ["logits"]).values
    assert counter.calls == 0
    np.testing.assert_array_equal(values, full.values[[3]])
    # a set with an image no request showed: only that image is computed (its row equals a run of it alone without
    # the cache), the other row is the full set's
    new_image = tmp_path / "new.png"
    from PIL import Image

    Image.fromarray(np.full((16, 20, 3), 77, np.uint8)).save(new_image)
    mixed = make_stimulus_set(pd.DataFrame({"stimulus_id": ["s3", "new"]}),
                              {"s3": small_stimulus_set.stimulus_paths["s3"], "new": str(new_image)}, "mixed")
    images = ForwardImages(tiny_net)
    computed = extractor(mixed, ["logits"]).values
    assert counter.calls == 1 and images.images == 1
    alone = make_stimulus_set(pd.DataFrame({"stimulus_id": ["new"]}), {"new": str(new_image)}, "alone")
    np.testing.assert_array_equal(computed[[1]], _extractor(tiny_net, cache=False)(alone, ["logits"]).values)
    np.testing.assert_array_equal(computed[[0]], full.values[[3]])


def test_a_union_of_earlier_sets_runs_no_image_twice(tiny_net, small_stimulus_set, tmp_path):
    """Sets that overlap (Scialom2024's composites are the union of its single data sets): every image passes
    through the model once, whatever the order; the rows of the union come from several entries and equal those of
    a run without the cache over the same batches."""
    from PIL import Image

    extra = []
    for index in range(3):
        path = tmp_path / f"extra{index}.png"
        Image.fromarray(np.full((12, 12, 3), 40 * index, np.uint8)).save(path)
        extra.append(str(path))
    paths = {**small_stimulus_set.stimulus_paths, **{f"e{i}": p for i, p in enumerate(extra)}}
    first, second = ["s0", "s1", "s2", "s3"], ["s4", "s5", "s6"]
    union = ["s6", "e0", "s0", "s4", "e1", "s2", "s1", "s5", "e2", "s3"]  # both, in another order, and 3 new
    extractor = _extractor(tiny_net)
    images = ForwardImages(tiny_net)
    parts = [extractor(make_stimulus_set(pd.DataFrame({"stimulus_id": ids}), {i: paths[i] for i in ids}, name),
                       ["1", "logits"]) for ids, name in ((first, "first"), (second, "second"))]
    assert images.images == 7
    values = extractor(make_stimulus_set(pd.DataFrame({"stimulus_id": union}), {i: paths[i] for i in union}, "union"),
                       ["1", "logits"])
    assert images.images == 10  # only e0, e1, e2
    assert list(values["stimulus_id"].values) == union
    known = {sid: row for part in parts for sid, row in zip(part["stimulus_id"].values, part.values, strict=True)}
    for position, sid in enumerate(union):
        if sid in known:
            np.testing.assert_array_equal(values.values[position], known[sid])
    new = [union.index(f"e{i}") for i in range(3)]
    alone = _extractor(tiny_net, cache=False)(
        make_stimulus_set(pd.DataFrame({"stimulus_id": ["e0", "e1", "e2"]}), {f"e{i}": extra[i] for i in range(3)},
                          "extra"), ["1", "logits"])
    np.testing.assert_array_equal(values.values[new], alone.values)
    # asked again (another set name, same images): read from the entries that hold them, nothing computed
    before = images.images  # the run without the cache above counted too
    again = extractor(make_stimulus_set(pd.DataFrame({"stimulus_id": union}), {i: paths[i] for i in union}, "u2"),
                      ["1", "logits"])
    assert images.images == before
    np.testing.assert_array_equal(again.values, values.values)


def test_rows_are_shared_only_when_they_do_not_depend_on_the_set(tiny_net, small_stimulus_set):
    subset = _subset(small_stimulus_set, ["s1", "s4", "s6", "s8"])
    counter = ForwardCounter(tiny_net)
    projected = _extractor(tiny_net, reduction=RandomProjection(3))  # per row: shared
    projected(small_stimulus_set, ["1"])
    calls = counter.calls
    projected(subset, ["1"])
    assert counter.calls == calls
    fitted = _extractor(tiny_net, reduction=PCAReduction(3))  # fitted on the whole set: computed again
    fitted(small_stimulus_set, ["1"])
    calls = counter.calls
    fitted(subset, ["1"])
    assert counter.calls == calls + 1


def test_placed_images_are_placed_in_memory_with_the_values_of_the_placed_files(tiny_net, small_stimulus_set):
    placed = place_on_screen(small_stimulus_set, target_visual_degrees=8, source_visual_degrees=5)
    in_memory = _extractor(tiny_net)(placed, ["1", "logits"])
    assert not list(Path(default_cache_root()).parent.joinpath("stimuli_on_screen").rglob("*.png"))  # no file
    ids = list(placed["stimulus_id"])
    files = make_stimulus_set(pd.DataFrame({"stimulus_id": ids}), {sid: placed.get_stimulus(sid) for sid in ids},
                              "written")  # the placed PNG files, written now
    from_files = _extractor(tiny_net, cache=False)(files, ["1", "logits"])
    np.testing.assert_array_equal(in_memory.values, from_files.values)
    # the conflicting-subset pattern: a subset placed again reads the full placement's rows
    counter = ForwardCounter(tiny_net)
    subset = place_on_screen(small_stimulus_set[small_stimulus_set["label"] == "a"], target_visual_degrees=8,
                             source_visual_degrees=5)
    values = _extractor(tiny_net)(subset, ["logits"]).values
    assert counter.calls == 0
    np.testing.assert_array_equal(values, in_memory.sel(neuroid=in_memory["layer"] == "logits").values[::2])


def test_a_preprocessing_callable_reads_the_placed_files(tiny_net, small_stimulus_set):
    seen = []
    preprocessing = ImagePreprocessing(8)

    def reads_files(paths):
        seen.extend(paths)
        return preprocessing(paths)

    placed = place_on_screen(small_stimulus_set, target_visual_degrees=8, source_visual_degrees=5)
    values = ActivationsExtractor(tiny_net, "tiny-callable", reads_files, batch_size=4)(placed, ["logits"]).values
    assert all(isinstance(path, str) and Path(path).is_file() for path in seen) and len(seen) == 10
    expected = _extractor(tiny_net, cache=False)(placed, ["logits"]).values
    np.testing.assert_array_equal(values, expected)


@pytest.mark.parametrize("broken", ["entry", "rows file"])
def test_a_missing_entry_or_rows_file_is_a_miss(tiny_net, small_stimulus_set, broken):
    extractor = _extractor(tiny_net)
    extractor(small_stimulus_set, ["logits"])
    root = default_cache_root()
    (entry,) = root.rglob("*.nc")
    (entry if broken == "entry" else entry.with_name(entry.name[:-3] + ".rows.json")).unlink()
    counter = ForwardCounter(tiny_net)
    subset = _subset(small_stimulus_set, ["s1", "s2"])
    values = extractor(subset, ["logits"]).values
    assert counter.calls == 1
    np.testing.assert_array_equal(values, _extractor(tiny_net, cache=False)(subset, ["logits"]).values)
