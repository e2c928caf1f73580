"""ImageNet-C (4 categories) and ObjectNet top-1 from local folders against Brain-Score's own benchmarks on stand-in
tables (``_behaviour_standins``) in the layout of Brain-Score's local copies, with tiny image files."""

from __future__ import annotations

import pytest
from _behaviour_standins import EXPECTED, STANDINS, StandInModel, presentation

import brainscore_vision
from brainio.files import sha1_hash
from brainscore_vision.errors import DataIntegrityError, LocalDataMissingError


def _answer(shown, trials, synsets):
    from brainio.assemblies import BehavioralAssembly

    labels = STANDINS.imagenet_labels(shown["stimulus_id"].to_numpy(), synsets[shown["stimulus_id"]].to_numpy())
    return BehavioralAssembly([labels], coords={**presentation(shown), "choice": ("choice", ["label"])},
                              dims=["choice", "presentation"])


def _write(folder, table, csv_name):
    for filename in table["filename"]:
        (folder / filename).parent.mkdir(parents=True, exist_ok=True)
        (folder / filename).write_bytes(b"")
    table.to_csv(folder / csv_name, index=False)
    return folder / csv_name


def _imagenet_c_folder(tmp_path, monkeypatch, category):
    from brainscore_vision.data.hendrycks2019 import ENTRIES

    stem = f"stimulus_imagenet_c_{category}"
    table = STANDINS.imagenet_c_table(category)
    csv = _write(tmp_path / stem, table, f"{stem}.csv")
    monkeypatch.setitem(ENTRIES[("stimulus_set", f"imagenet_c.{category}")], "csv_sha1", sha1_hash(csv))
    monkeypatch.setenv("BRAINSCORE_IMAGENET_C_DIR", str(tmp_path))
    return table.set_index("image_id")["synset"]


@pytest.mark.parametrize("category", sorted(STANDINS.IMAGENET_C_TYPES))
def test_imagenet_c_is_brainscores(category, tmp_path, monkeypatch):
    synsets = _imagenet_c_folder(tmp_path, monkeypatch, category)
    benchmark = brainscore_vision.load_benchmark(f"ImageNet-C-{category}-top1")
    assert (benchmark.version, benchmark.parent) == (2, "Hendrycks2019-top1")
    expected = EXPECTED["top1"][f"imagenet_c_{category}"]
    scored = benchmark.scored_stimuli()  # every 10th row of the table, of the category's corruptions at severity 1-5
    assert len(scored) == expected["count"]
    model = StandInModel(8, lambda shown, trials: _answer(shown, trials, synsets))
    score = benchmark(model)
    assert float(score) == pytest.approx(expected["score"], abs=1e-12)
    assert score.attrs["error"] == pytest.approx(expected["error"], abs=1e-12)
    assert set(score.attrs["per_corruption"]) == set(STANDINS.IMAGENET_C_TYPES[category])
    assert model.tasks == [("label", {})]


def test_imagenet_c_keeps_every_tenth_row_in_the_tables_order(tmp_path, monkeypatch):
    from brainscore_vision.benchmarks.imagenet_c.benchmark import imagenet_c_stimulus_set

    _imagenet_c_folder(tmp_path, monkeypatch, "noise")
    table = STANDINS.imagenet_c_table("noise")
    assert list(imagenet_c_stimulus_set("noise")["stimulus_id"]) == list(table["image_id"][::10])


def test_imagenet_c_folder_problems_are_one_line(tmp_path, monkeypatch):
    monkeypatch.delenv("BRAINSCORE_IMAGENET_C_DIR", raising=False)
    benchmark = brainscore_vision.load_benchmark("ImageNet-C-blur-top1")
    with pytest.raises(LocalDataMissingError, match="BRAINSCORE_IMAGENET_C_DIR is not set"):
        benchmark.scored_stimuli()
    _imagenet_c_folder(tmp_path, monkeypatch, "blur")
    (tmp_path / "stimulus_imagenet_c_blur" / "glass_blur/0/ILSVRC2012_val_00000000.JPEG").unlink()  # row 0: kept
    with pytest.raises(LocalDataMissingError, match="images named in .*stimulus_imagenet_c_blur.csv are not in"):
        brainscore_vision.load_benchmark("ImageNet-C-blur-top1").scored_stimuli()
    with open(tmp_path / "stimulus_imagenet_c_blur" / "stimulus_imagenet_c_blur.csv", "a") as table:
        table.write("extra,n0,x,1,y\n")
    with pytest.raises(DataIntegrityError, match="stimulus_imagenet_c_blur.csv has sha1 .* Brain-Score records"):
        brainscore_vision.load_benchmark("ImageNet-C-blur-top1").scored_stimuli()


def test_objectnet_is_brainscores_exact_single_synset_match(tmp_path, monkeypatch):
    from brainscore_vision.data.barbumayo2019 import ENTRIES

    table = STANDINS.objectnet_table()
    csv = _write(tmp_path, table, "stimulus_BarbuMayo2019.csv")
    monkeypatch.setitem(ENTRIES[("stimulus_set", "BarbuMayo2019")], "csv_sha1", sha1_hash(csv))
    monkeypatch.setenv("BRAINSCORE_OBJECTNET_DIR", str(tmp_path))
    benchmark = brainscore_vision.load_benchmark("ObjectNet-top1")
    expected = EXPECTED["top1"]["objectnet"]
    assert (benchmark.identifier, benchmark.parent) == (expected["identifier"], "engineering")
    synsets = table.set_index("image_id")["synset"]
    score = benchmark(StandInModel(8, lambda shown, trials: _answer(shown, trials, synsets)))
    assert float(score) == pytest.approx(expected["score"], abs=1e-12)
    # the model names the first synset of a two-synset class: never equal to the whole entry, so those are wrong
    right = STANDINS.imagenet_labels(table["image_id"], table["synset"]) == table["synset"]
    assert float(score) == pytest.approx(right.mean()) and not right[table["synset"].str.contains(";")].any()
