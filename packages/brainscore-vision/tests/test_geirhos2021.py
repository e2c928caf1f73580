"""Geirhos et al. (2021): data plugin, error-consistency ceilings, benchmarks end to end, bad input.

Expected values are recomputed here independently of the metric and the packaging code: the response CSVs read
with pandas, trials paired with plain Python loops over subject pairs, Cohen's kappa written out per pair.
"""

import itertools

import numpy as np
import pandas as pd
import pytest
from conftest import registered_model

import brainscore_vision
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.benchmarks.geirhos2021.benchmark import EXCLUDED_CONDITIONS, shape_bias
from brainscore_vision.data.geirhos2021.data_packaging.packaging import (
    DATASETS,
    RawDataError,
    build_assembly,
    read_trials,
)

WITH_IMAGES = ["cue-conflict", "edge", "silhouette", "sketch"]
# Brain-Score's own test values (brain-score/vision benchmarks/geirhos2021/test.py) for the README comparison
BRAINSCORE_CEILINGS = {"colour": 0.41543, "contrast": 0.43703, "cue-conflict": 0.33105, "edge": 0.31844,
                       "eidolonI": 0.38634, "eidolonII": 0.45402, "eidolonIII": 0.45953, "false-colour": 0.44405,
                       "high-pass": 0.44014, "low-pass": 0.46888, "phase-scrambling": 0.44667,
                       "power-equalisation": 0.51063, "rotation": 0.43851, "silhouette": 0.47571, "sketch": 0.36962,
                       "stylized": 0.50058, "uniform-noise": 0.43406}


def _raw_trials(raw, dataset):
    files = sorted((raw / "responses" / dataset).glob("*.csv"))
    table = pd.concat([pd.read_csv(f, dtype=str, keep_default_na=False) for f in files], ignore_index=True)
    table["key"] = table["imagename"].str.split("_").str[3:].str.join("_")  # condition + source image
    return table


def _kappa(first, second):
    a, b = np.mean(first), np.mean(second)
    observed = np.mean(first == second)
    expected = a * b + (1 - a) * (1 - b)
    return (observed - expected) / (1 - expected)


def _kept(table, dataset):
    def excluded(condition):
        for value in EXCLUDED_CONDITIONS.get(dataset, ()):
            try:
                if float(condition) == float(value):
                    return True
            except ValueError:
                if condition == value:
                    return True
        return False

    return table[~table["condition"].map(excluded)]


def _direct_ceiling(table):
    """Mean over subject pairs of the mean over conditions of kappa, pairs and conditions looped in Python."""
    subjects, conditions = sorted(table["subj"].unique()), sorted(table["condition"].unique())
    per_pair = []
    for left, right in itertools.combinations(subjects, 2):
        values = []
        for condition in conditions:
            x = table[(table.subj == left) & (table.condition == condition)].sort_values("key")
            y = table[(table.subj == right) & (table.condition == condition)].sort_values("key")
            assert list(x["key"]) == list(y["key"])
            values.append(_kappa((x.object_response == x.category).to_numpy(),
                                 (y.object_response == y.category).to_numpy()))
        per_pair.append(np.mean(values))
    return abs(np.mean(per_pair))


@pytest.mark.parametrize("dataset", DATASETS)
def test_ceiling_equals_a_direct_recomputation(dataset, geirhos_raw):
    expected = _direct_ceiling(_kept(_raw_trials(geirhos_raw, dataset), dataset))
    ceiling = brainscore_vision.load_benchmark(f"Geirhos2021{dataset.replace('-', '')}-error_consistency").ceiling
    assert float(ceiling) == pytest.approx(expected, abs=1e-12)
    # and Brain-Score's own number, to its test's tolerance
    assert float(ceiling) == pytest.approx(BRAINSCORE_CEILINGS[dataset], abs=1e-3)


def test_mean_ceiling_matches_brainscore(geirhos_raw):
    ceilings = [float(brainscore_vision.load_benchmark(f"Geirhos2021{d.replace('-', '')}-error_consistency").ceiling)
                for d in DATASETS]
    assert np.mean(ceilings) == pytest.approx(0.43122, abs=1e-3)  # Brain-Score's test_mean_ceiling


@pytest.mark.parametrize("dataset, subjects, trials, images", [
    ("cue-conflict", 10, 12800, 1280), ("edge", 10, 1600, 160), ("silhouette", 10, 1600, 160),
    ("sketch", 7, 5600, 800), ("colour", 4, 5120, 1280), ("stylized", 5, 4000, 800)])
def test_assembly_counts_and_coordinates(dataset, subjects, trials, images, geirhos_raw):
    assembly = brainscore_vision.load_dataset(f"Geirhos2021_{dataset}")
    assert assembly.dims == ("presentation",)
    assert len(np.unique(assembly["subject"].values)) == subjects
    assert assembly.sizes["presentation"] == trials
    assert len(np.unique(assembly["stimulus_id"].values)) == images
    for coord in ("subject", "session", "trial", "response_time", "condition", "truth", "stimulus_id"):
        assert coord in assembly.coords
    raw = _raw_trials(geirhos_raw, dataset)
    assert list(assembly.values) == list(raw["object_response"])  # every trial, in file order
    assert list(assembly["truth"].values) == list(raw["category"])
    if dataset in WITH_IMAGES:
        stimuli = assembly.stimulus_set
        assert set(assembly["stimulus_id"].values) <= set(stimuli["stimulus_id"])
        assert len(stimuli) == images


def test_cue_conflict_stimulus_set_has_shape_and_texture(geirhos_raw):
    stimuli = brainscore_vision.load_stimulus_set("Geirhos2021_cue-conflict")
    assert (stimuli["truth"] == stimuli["shape_category"]).all()
    assert stimuli["is_conflict"].astype(int).sum() == 1200


def test_human_shape_bias_from_the_responses(geirhos_raw):
    benchmark = brainscore_vision.load_benchmark("Geirhos2021cueconflict-shape_bias")
    table = _raw_trials(geirhos_raw, "cue-conflict")
    stimuli = pd.read_csv(geirhos_raw / "stimuli_cue-conflict.csv").set_index("stimulus_id")
    table["stimulus_id"] = table["imagename"].str.split("_", n=6).str[6].str.removesuffix(".png")
    table = table[table["stimulus_id"].map(stimuli["is_conflict"]) == 1]
    shape = (table["object_response"] == table["stimulus_id"].map(stimuli["shape_category"])).sum()
    texture = (table["object_response"] == table["stimulus_id"].map(stimuli["texture_category"])).sum()
    assert benchmark.human_shape_bias() == pytest.approx(shape / (shape + texture), abs=1e-12)
    assert shape_bias(["a", "b", "c", "a"], ["a", "a", "x", "x"], ["b", "b", "y", "a"]) == (1 / 3, 1, 2)


def test_bad_input_names_the_culprit(geirhos_raw, tmp_path):
    trials = read_trials(geirhos_raw, "edge")
    with pytest.raises(RawDataError, match="line .*'nope' is not in the stimulus set 'Geirhos2021_edge'"):
        build_assembly(trials.assign(stimulus_id=["nope"] + list(trials["stimulus_id"][1:])), "edge",
                       stimulus_ids=set(trials["stimulus_id"]))
    folder = tmp_path / "responses" / "edge"
    folder.mkdir(parents=True)
    source = sorted((geirhos_raw / "responses" / "edge").glob("*.csv"))[0]
    lines = source.read_text().splitlines()
    (folder / source.name).write_text("\n".join([lines[0], lines[1].replace(",oven,", ",unicorn,", 1)]
                                                + lines[2:]) + "\n")
    with pytest.raises(RawDataError, match=f"{source.name} line 2: unknown class label 'unicorn'"):
        read_trials(tmp_path, "edge")
    (folder / source.name).write_text(lines[0] + "\n")  # a subject file without a single trial
    with pytest.raises(RawDataError, match=f"{source.name}: subject file without trials"):
        read_trials(tmp_path, "edge")


def _model_correctness(model, stimuli, degrees):
    """The model's labels on the (placed) stimuli, as {stimulus_id: label}."""
    model.start_task("label", sorted(set(stimuli["truth"])))
    placed = place_on_screen(stimuli, target_visual_degrees=model.visual_degrees(), source_visual_degrees=degrees) \
        if degrees else stimuli
    labels = model.look_at(placed, number_of_trials=1)
    labels = labels.squeeze("choice") if "choice" in labels.dims else labels
    return dict(zip(np.asarray(labels["stimulus_id"].values).astype(str), np.asarray(labels.values).astype(str)))


@pytest.mark.parametrize("dataset", WITH_IMAGES)
def test_randomnet_error_consistency_equals_the_direct_computation(dataset, geirhos_raw):
    model = registered_model("randomnet")
    benchmark = brainscore_vision.load_benchmark(f"Geirhos2021{dataset.replace('-', '')}-error_consistency")
    score = benchmark(model)
    stimuli = brainscore_vision.load_stimulus_set(f"Geirhos2021_{dataset}")
    labels = _model_correctness(model, stimuli, 3)
    table = _raw_trials(geirhos_raw, dataset)
    table["stimulus_id"] = table["imagename"].str.split("_", n=6).str[6].str.removesuffix(".png")
    kappas = []
    for subject in sorted(table["subj"].unique()):
        rows = table[table["subj"] == subject].sort_values("stimulus_id")
        model_correct = np.array([labels[s] for s in rows["stimulus_id"]]) == rows["category"].to_numpy()
        kappas.append(_kappa(model_correct, (rows["object_response"] == rows["category"]).to_numpy()))
    raw = abs(np.mean(kappas))
    ceiling = _direct_ceiling(table.assign(key=table["stimulus_id"]))
    assert float(score.attrs["raw"]) == pytest.approx(raw, abs=1e-12)
    assert float(score) == pytest.approx(min(1.0, raw / ceiling), abs=1e-12)


@pytest.mark.parametrize("dataset", ["edge", "silhouette"])
def test_randomnet_top1_equals_the_direct_accuracy(dataset, geirhos_raw):
    model = registered_model("randomnet")
    score = brainscore_vision.load_benchmark(f"Geirhos2021{dataset}-top1")(model)
    stimuli = brainscore_vision.load_stimulus_set(f"Geirhos2021_{dataset}")
    labels = _model_correctness(model, stimuli, None)  # top-1 shows the images as they are, as Brain-Score does
    expected = np.mean([labels[s] == truth for s, truth in zip(stimuli["stimulus_id"], stimuli["category"])])
    assert float(score) == pytest.approx(expected, abs=1e-12)


def test_a_model_that_cannot_label_fails_clearly(geirhos_raw):
    model = registered_model("pixels")
    benchmark = brainscore_vision.load_benchmark("Geirhos2021edge-error_consistency")
    with pytest.raises(Exception, match="(?i)label"):
        benchmark(model)


def test_datasets_without_images_load_their_stimuli_by_reference(monkeypatch):
    from brainscore_vision.data_helpers.public_catalogue import PublicDataUnavailableError

    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # nothing listens there: an offline store
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    with pytest.raises(PublicDataUnavailableError) as raised:
        brainscore_vision.load_stimulus_set("Geirhos2021_colour")
    message = str(raised.value)
    assert "\n" not in message
    assert "'Geirhos2021_colour'" in message and "'brainscore-storage/brainio-brainscore'" in message
    assert "'brainio-brainscore/stimulus_Geirhos2021_colour.{csv,zip}'" in message
