"""place_on_screen: padding and cropping by hand-computed geometry, the fast path, content-keyed caching."""

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from brainio.stimuli import StimulusSet
from brainscore_vision.benchmark_helpers.screen import GRAY, ScreenError, place_on_screen

RED = (200, 10, 10)


def make_stimulus_set(folder: Path, sizes=((100, 60), (175, 175)), identifier="toy", degrees=None) -> StimulusSet:
    folder.mkdir(parents=True, exist_ok=True)
    rows, paths = [], {}
    for index, (width, height) in enumerate(sizes):
        stimulus_id = f"s{index}"
        pixels = np.zeros((height, width, 3), dtype=np.uint8)
        pixels[..., 0], pixels[..., 1], pixels[..., 2] = RED
        pixels[0, 0] = (0, 255, 0)  # a marker to check where the original lands
        Image.fromarray(pixels).save(folder / f"{stimulus_id}.png")
        paths[stimulus_id] = str(folder / f"{stimulus_id}.png")
        row = {"stimulus_id": stimulus_id, "category": "x"}
        if degrees is not None:
            row["degrees"] = degrees[index]
        rows.append(row)
    stimulus_set = StimulusSet(pd.DataFrame(rows))
    stimulus_set.stimulus_paths = paths
    stimulus_set.identifier = identifier
    return stimulus_set


def load(stimulus_set, stimulus_id):
    return np.asarray(Image.open(stimulus_set.get_stimulus(stimulus_id)).convert("RGB"))


def gray_fraction(pixels):
    # the reference's oracle: gray channel values / (pixels x 3 channels)
    return float((pixels == 128).sum() / pixels.size)


def test_same_degrees_returns_the_set_itself(tmp_path):
    stimulus_set = make_stimulus_set(tmp_path / "raw")
    assert place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=8) is stimulus_set
    assert not (Path(os.environ["BRAINSCORE_HOME"]) / "stimuli_on_screen" / "toy--target8.00--source8.00").exists()


def test_larger_field_pads_with_gray_at_the_centre(tmp_path):
    stimulus_set = make_stimulus_set(tmp_path / "raw")
    placed = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=4)
    assert placed.identifier == "toy--target8.00--source4.00"
    assert list(placed["degrees"]) == [8.0, 8.0]
    assert list(placed["category"]) == ["x", "x"]
    pixels = load(placed, "s0")
    # 100 x 60 at ratio 2 -> 200 x 120 canvas, original pasted at (round(100/2), round(60/2)) = (50, 30)
    assert pixels.shape == (120, 200, 3)
    assert tuple(pixels[30, 50]) == (0, 255, 0)
    assert tuple(pixels[29, 50]) == GRAY and tuple(pixels[30, 49]) == GRAY
    assert gray_fraction(pixels) == pytest.approx(1 - (100 * 60) / (200 * 120))
    # 175 x 175 at ratio 8/2.9 ... here 2: 350 x 350, offset round(175/2) = 88 (Python rounds half to even)
    assert load(placed, "s1").shape == (350, 350, 3)
    assert tuple(load(placed, "s1")[88, 88]) == (0, 255, 0)


def test_odd_ratio_geometry(tmp_path):
    stimulus_set = make_stimulus_set(tmp_path / "raw", sizes=((175, 175),))
    pixels = load(place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=2.9), "s0")
    new = round(8 / 2.9 * 175)  # 483
    offset = round((new - 175) / 2)  # 154
    assert pixels.shape == (new, new, 3)
    assert tuple(pixels[offset, offset]) == (0, 255, 0)
    assert gray_fraction(pixels) == pytest.approx(1 - 175 ** 2 / new ** 2)


def test_smaller_field_crops_the_centre(tmp_path):
    stimulus_set = make_stimulus_set(tmp_path / "raw", sizes=((100, 60),))
    original = load(stimulus_set, "s0")
    pixels = load(place_on_screen(stimulus_set, target_visual_degrees=2, source_visual_degrees=4), "s0")
    # ratio 0.5: 50 x 30 box starting at (round(50/2), round(30/2)) = (25, 15)
    assert pixels.shape == (30, 50, 3)
    np.testing.assert_array_equal(pixels, original[15:45, 25:75])


def test_degrees_column_and_argument_are_exclusive(tmp_path):
    stimulus_set = make_stimulus_set(tmp_path / "raw", degrees=[4, 8])
    placed = place_on_screen(stimulus_set, target_visual_degrees=8)
    assert load(placed, "s0").shape == (120, 200, 3)  # 4 -> 8 degrees
    assert load(placed, "s1").shape == (175, 175, 3)  # already 8 degrees
    with pytest.raises(ScreenError, match="not both"):
        place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=4)
    with pytest.raises(ScreenError, match="no 'degrees' column"):
        place_on_screen(make_stimulus_set(tmp_path / "other"), target_visual_degrees=8)


def test_conversions_are_cached_by_content(tmp_path):
    stimulus_set = make_stimulus_set(tmp_path / "raw")
    first = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=4)
    path = Path(first.get_stimulus("s0"))
    stamp = path.stat().st_mtime_ns
    again = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=4)
    assert again.get_stimulus("s0") == str(path) and path.stat().st_mtime_ns == stamp
    # same identifier, different pixels: a new conversion, never the stale one
    Image.new("RGB", (100, 60), (0, 0, 255)).save(stimulus_set.get_stimulus("s0"))
    changed = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=4)
    assert changed.get_stimulus("s0") != str(path)
    assert tuple(load(changed, "s0")[30, 50]) == (0, 0, 255)
    root = Path(os.environ["BRAINSCORE_HOME"]) / "stimuli_on_screen"
    assert not list(root.rglob("*.part"))  # no temporary file left behind


@pytest.mark.parametrize("damage", ["changed", "deleted", "marker"])
def test_damaged_placements_are_converted_again(tmp_path, damage):
    """The placement record holds each converted file's sha1 (issue 22, item 7): a changed or deleted image, or a
    damaged record, is converted again. Expected pixels: the gray/red geometry of the first conversion."""
    stimulus_set = make_stimulus_set(tmp_path / "raw")
    first = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=4)
    expected = {sid: load(first, sid) for sid in ("s0", "s1")}
    path = Path(first.get_stimulus("s0"))
    if damage == "changed":
        Image.new("RGB", (200, 120), (0, 0, 255)).save(path)  # another valid image of the same size
    elif damage == "deleted":
        path.unlink()
    else:
        record = path.parent / f".{path.name}.record.json"
        record.write_text(record.read_text().replace('"recorded_ns"', '"recorded_ns_"'))
    again = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=4)
    assert again.get_stimulus("s0") == str(path)
    for sid, pixels in expected.items():
        np.testing.assert_array_equal(load(again, sid), pixels)


def test_placed_files_are_written_when_first_asked_for(tmp_path):
    stimulus_set = make_stimulus_set(tmp_path / "raw", sizes=((101, 61), (33, 17)))  # images no other test places
    placed = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=4)
    root = Path(os.environ["BRAINSCORE_HOME"]) / "stimuli_on_screen"
    expected = {sid: root / placed.stimulus_paths.placement(sid).relative_path() for sid in ("s0", "s1")}
    assert not any(path.exists() for path in expected.values())  # nothing converted yet
    assert Path(placed.get_stimulus("s0")) == expected["s0"] and expected["s0"].is_file()
    assert not expected["s1"].exists()
    # a model may place the image itself: the same pixels as the written (lossless PNG) file
    in_memory = np.asarray(placed.stimulus_paths.placement("s1").open_image().convert("RGB"))
    np.testing.assert_array_equal(in_memory, load(placed, "s1"))


def test_the_same_image_is_placed_once_whichever_set_shows_it(tmp_path):
    # the full set, a subset of it, and another set (other identifier, ids and metadata) holding a copy of one file
    full = make_stimulus_set(tmp_path / "raw", sizes=((102, 62), (34, 18)))  # images no other test places
    first = place_on_screen(full, target_visual_degrees=8, source_visual_degrees=4)
    paths = {sid: first.get_stimulus(sid) for sid in ("s0", "s1")}
    stamps = {sid: Path(path).stat().st_mtime_ns for sid, path in paths.items()}
    subset = place_on_screen(full[full["stimulus_id"] == "s1"], target_visual_degrees=8, source_visual_degrees=4)
    assert subset.get_stimulus("s1") == paths["s1"]
    other = make_stimulus_set(tmp_path / "copy", sizes=((102, 62),), identifier="another")
    other["stimulus_id"] = ["renamed"]
    other.stimulus_paths = {"renamed": other.stimulus_paths["s0"]}
    moved = place_on_screen(other, target_visual_degrees=8, source_visual_degrees=4)
    assert moved.get_stimulus("renamed") == paths["s0"]
    assert {sid: Path(path).stat().st_mtime_ns for sid, path in paths.items()} == stamps  # not converted again
    # the same image at another ratio is another image
    assert place_on_screen(full, target_visual_degrees=8, source_visual_degrees=2).get_stimulus("s0") != paths["s0"]


def test_crops_keep_the_image_mode_and_jpeg_sources_are_read_from_their_file(tmp_path):
    folder = tmp_path / "raw"
    folder.mkdir()
    Image.fromarray(np.arange(100 * 60, dtype=np.uint8).reshape(60, 100) % 251, mode="L").save(folder / "grey.png")
    Image.new("RGB", (100, 60), RED).save(folder / "photo.jpg")
    stimulus_set = StimulusSet(pd.DataFrame({"stimulus_id": ["grey", "photo"]}))
    stimulus_set.stimulus_paths = {"grey": str(folder / "grey.png"), "photo": str(folder / "photo.jpg")}
    stimulus_set.identifier = "modes"
    placed = place_on_screen(stimulus_set, target_visual_degrees=4, source_visual_degrees=8)
    with Image.open(placed.get_stimulus("grey")) as image:
        assert image.mode == "L" and image.size == (50, 30)
        np.testing.assert_array_equal(np.asarray(image), np.asarray(Image.open(folder / "grey.png"))[15:45, 25:75])
    assert placed.stimulus_paths.placement("grey") is not None
    assert placed.stimulus_paths.placement("photo") is None  # JPEG is encoded again when written: use the file
    assert placed.get_stimulus("photo").endswith(".jpg")


def test_the_placed_set_names_its_content_in_one_call(tmp_path):
    """brainio.stimulus_cache.content_digests on a placed set: a lossless placement's digest (PlacedImage's one-image
    definition), a stimulus already at the target size its file's sha1, a JPEG placement its placed file's sha1
    (hashlib over the bytes written)."""
    import hashlib

    from brainio.stimulus_cache import content_digests

    stimulus_set = make_stimulus_set(tmp_path / "raw", sizes=((40, 30), (30, 30), (20, 20)), degrees=(4.0, 8.0, 4.0))
    with Image.open(stimulus_set.stimulus_paths["s2"]) as image:
        image.convert("RGB").save(tmp_path / "raw" / "s2.jpg")
    stimulus_set.stimulus_paths = {**stimulus_set.stimulus_paths, "s2": str(tmp_path / "raw" / "s2.jpg")}
    placed = place_on_screen(stimulus_set, target_visual_degrees=8)
    digests = content_digests(placed).tolist()
    assert digests[0] == placed.stimulus_paths.placement("s0").content_digest()
    assert digests[1] == hashlib.sha1(Path(stimulus_set.stimulus_paths["s1"]).read_bytes()).hexdigest()
    assert digests[2] == hashlib.sha1(Path(placed.get_stimulus("s2")).read_bytes()).hexdigest()
    assert placed.stimulus_paths.placements(["s0", "s1", "s2"])[1:] == [None, None]
