"""One key per image set, built without per-image crossings (issue 32).

A warm load of a packaged stimulus set, its placement on a model's screen and the activations cache key of both
are traced with ``sys.setprofile``: every Python call into a file of the monorepo's packages from another file is a
crossing. The number of crossings must be the same for a set of 20 and of 200 images: the set's files, placements
and content digests are asked for once per set, never once per image. The expected digests come from hashlib on
the image files (and from :meth:`PlacedImage.content_digest`, the one-image definition).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import brainio
import brainscore_core
import brainscore_vision
import model_tools
from brainio import LocalStore, StimulusSet, load_stimulus_set, package_stimulus_set_locally
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from model_tools.activations.inputs import as_stimuli

_ROOTS = tuple(str(Path(package.__file__).parent) for package in (brainio, brainscore_core, brainscore_vision,
                                                                    model_tools))


def _packaged_set(folder: Path, count: int) -> tuple[str, dict, dict[str, str]]:
    """``count`` distinct 8x8 PNGs packaged into a LocalStore; returns the store, its sha1s and each file's sha1."""
    rng = np.random.default_rng(count)
    images = folder / "images"
    images.mkdir(parents=True)
    paths = {}
    for index in range(count):
        path = images / f"im{index:04d}.png"
        Image.fromarray(rng.integers(0, 255, (8, 8, 3), dtype=np.uint8)).save(path)
        paths[f"s{index:04d}"] = path
    stimulus_set = StimulusSet([{"stimulus_id": sid, "image_label": "x"} for sid in paths])
    stimulus_set.stimulus_paths = paths
    info = package_stimulus_set_locally(stimulus_set, f"Crossings.n{count}", downloads_path=folder / "store")
    return str(folder / "store"), info, {sid: hashlib.sha1(path.read_bytes()).hexdigest() for sid, path in paths.items()}


def _crossings(action) -> tuple[object, Counter]:
    """Run ``action()`` and count the Python calls into a package file from another file, per (caller, callee)."""
    counts: Counter = Counter()

    def profile(frame, event, _arg):
        if event != "call":
            return
        callee = frame.f_code.co_filename
        if not callee.startswith(_ROOTS):
            return
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else "?"
        if caller != callee:
            counts[(Path(caller).name, f"{Path(callee).name}:{frame.f_code.co_name}")] += 1

    sys.setprofile(profile)
    try:
        result = action()
    finally:
        sys.setprofile(None)
    return result, counts


def _warm_load_and_keys(store: str, info: dict, count: int):
    stimulus_set = load_stimulus_set(f"Crossings.n{count}", LocalStore(store), csv_sha1=info["csv_sha1"],
                                     zip_sha1=info["zip_sha1"])
    placed = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=10)
    shown, placed_shown = as_stimuli(stimulus_set), as_stimuli(placed)
    return stimulus_set, placed, shown, placed_shown, shown.digest(), placed_shown.digest()


@pytest.fixture(scope="module")
def two_sizes(tmp_path_factory):
    return {count: _packaged_set(tmp_path_factory.mktemp(f"n{count}"), count) for count in (20, 200)}


def test_crossings_do_not_grow_with_the_number_of_images(two_sizes):
    counts = {}
    for count, (store, info, _) in two_sizes.items():
        first = _warm_load_and_keys(store, info, count)[0]  # extracts
        for path in first.stimulus_paths.values():  # files older than the racy window: their stamps are trusted
            os.utime(path, (time.time() - 3600, time.time() - 3600))
        _warm_load_and_keys(store, info, count)  # records the new stamps; the traced load is warm
        _, counts[count] = _crossings(lambda: _warm_load_and_keys(store, info, count))  # noqa: B023
    grown = {pair: (counts[20][pair], counts[200][pair]) for pair in counts[20].keys() | counts[200].keys()
             if counts[20][pair] != counts[200][pair]}
    assert not grown, f"calls across files that grow with the number of images (20 -> 200): {grown}"
    assert sum(counts[200].values()) < 200  # a sanity bound: far fewer crossings than images


def test_the_key_is_built_from_the_content_of_every_image(two_sizes):
    store, info, file_sha1s = two_sizes[20]
    stimulus_set, placed, shown, placed_shown, key, placed_key = _warm_load_and_keys(store, info, 20)
    ids = stimulus_set["stimulus_id"].tolist()
    assert shown.item_digests() == [file_sha1s[sid] for sid in ids]  # hashlib over the original files
    expected = [placed.stimulus_paths.placement(sid).content_digest() for sid in ids]  # the one-image definition
    assert placed_shown.item_digests() == expected
    assert placed_shown.item_digests()[0] != file_sha1s[ids[0]]
    # the key is the sha1 of the canonical JSON of the digests, as model_tools.digest.json_digest writes it
    document = json.dumps({"stimuli": [file_sha1s[sid] for sid in ids]}, sort_keys=True, separators=(",", ":"))
    assert key == hashlib.sha1(document.encode()).hexdigest()
    assert placed_key != key
