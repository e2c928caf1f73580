"""Malania2007's 10 threshold benchmarks against Brain-Score's own on synthetic stand-ins (``_behaviour_standins``):
human thresholds with missing subjects, test and fitting stimuli with numeric ``image_label`` values (over which
Brain-Score fits), and a stand-in model that answers every microsaccade trial."""

from __future__ import annotations

import numpy as np
import pytest
from _behaviour_standins import EXPECTED, STANDINS, StandInModel, presentation, stimulus_set

import brainscore_vision
from brainscore_vision.benchmarks.malania2007 import benchmark as malania


@pytest.fixture
def stand_ins(monkeypatch):
    from brainio.assemblies import PropertyAssembly

    def human(identifier):
        return PropertyAssembly(STANDINS.malania_thresholds(identifier.split(".", 1)[1]),
                                coords={"subject": ("subject", list(STANDINS.MALANIA_SUBJECTS))}, dims=["subject"])

    def stimuli(identifier):
        name = identifier.split(".", 1)[1]
        fit = name.endswith("_fit")
        return stimulus_set(STANDINS.malania_stimuli(name[:-4] if fit else name, fit), identifier)

    monkeypatch.setattr(malania, "load_dataset", human)
    monkeypatch.setattr(malania, "load_stimulus_set", stimuli)


def _model(centred: bool):
    from brainio.assemblies import BehavioralAssembly

    def answer(shown, trials):
        centre = STANDINS.malania_centre(shown.identifier) if centred else None
        values = STANDINS.malania_probabilities(shown.identifier, shown["image_label"].to_numpy(), trials, centre)
        return BehavioralAssembly(values, coords={**presentation(shown, trials),
                                                  "choice": ("choice", list(STANDINS.MALANIA_LABELS))},
                                  dims=["presentation", "choice"])

    return StandInModel(2.986667, answer)


@pytest.mark.parametrize("condition", STANDINS.MALANIA_CONDITIONS)
def test_ceilings_are_brainscores(condition, stand_ins):
    benchmark = brainscore_vision.load_benchmark(f"Malania2007.{condition}-threshold_elevation")
    expected = EXPECTED["malania"]["elevation"][condition]
    assert (benchmark.identifier, benchmark.version, benchmark.parent) == (expected["identifier"], 1, "Malania2007")
    assert float(benchmark.ceiling) == pytest.approx(expected["ceiling"], abs=1e-12)
    assert benchmark.ceiling.attrs["error"] == pytest.approx(expected["ceiling_error"], abs=1e-12)


@pytest.mark.parametrize("condition", ["short2", "equal16"])
def test_elevation_scores_are_brainscores(condition, stand_ins):
    """Raw and ceiled scores of a fitted model (the psychometric fits agree to the optimiser's tolerance, 2e-8 on
    these: ours gives L-BFGS-B the analytic gradient, Brain-Score finite differences) and of a model at chance (0:
    the fit fails)."""
    benchmark = brainscore_vision.load_benchmark(f"Malania2007.{condition}-threshold_elevation")
    expected = EXPECTED["malania"]["elevation"][condition]
    model = _model(True)
    score = benchmark(model)
    assert float(score.attrs["raw"]) == pytest.approx(expected["raw"], abs=1e-7)
    assert float(score) == pytest.approx(expected["score"], abs=1e-7) and 0 < expected["raw"] < 1
    assert model.tasks == [("probabilities", {"number_of_trials": 2, "require_variance": True})]
    assert float(benchmark(_model(False))) == expected["chance_score"] == 0


def test_vernier_acuity_is_brainscores_where_its_benchmark_runs(stand_ins):
    """Ceiling and chance score as Brain-Score's benchmark gives them. With a model its fit succeeds on, Brain-Score's
    benchmark raises (it hands the metric the dict of assemblies as the target; recorded); ours scores what it
    means to: Brain-Score's own metric against each condition's ``vernier_only`` subjects (recorded), divided by the
    mean ceiling, capped at 1, averaged."""
    expected = EXPECTED["malania"]["acuity"]
    benchmark = brainscore_vision.load_benchmark("Malania2007.vernieracuity-threshold")
    assert float(benchmark.ceiling) == pytest.approx(expected["ceiling"], abs=1e-12)
    assert benchmark.ceiling.attrs["error"] == pytest.approx(expected["ceiling_error"], abs=1e-12)
    assert float(benchmark(_model(False))) == expected["chance_score"] == 0
    assert expected["fitted_error"].startswith("TypeError")
    score = benchmark(_model(True))
    ceiled = [min(raw / expected["ceiling"], 1.0) for raw in expected["raws_by_metric"]]
    assert float(score) == pytest.approx(np.mean(ceiled), abs=1e-7)
    assert score.attrs["error"] == pytest.approx(np.mean(expected["errors_by_metric"]), abs=1e-7)


def test_subjects_pair_by_id_and_missing_ones_drop():
    from brainio.assemblies import PropertyAssembly

    condition = PropertyAssembly([3.0, np.nan, 5.0, 7.0], coords={"subject": ("subject", ["a", "b", "c", "z"])},
                                 dims=["subject"])
    baseline = PropertyAssembly([2.0, 1.0, 4.0], coords={"subject": ("subject", ["c", "b", "a"])}, dims=["subject"])
    pairs = malania.paired_thresholds(condition, baseline)  # b is not measured, z has no baseline
    np.testing.assert_array_equal(pairs[0], [5.0, 3.0])
    np.testing.assert_array_equal(pairs[1], [2.0, 4.0])


def test_words_as_the_independent_variable_fail_as_brainscores_do(stand_ins, monkeypatch):
    from brainio.assemblies import BehavioralAssembly
    from brainscore_metrics.errors import InputTypeError

    assert EXPECTED["malania"]["words_error"] == "UFuncTypeError"  # a TypeError

    def answer(shown, trials):  # right on every trial: accurate enough to be fitted
        labels = np.where(np.arange(len(shown) * trials) % 2, "left", "right")
        values = np.where(labels[:, None] == np.array(["left", "right"]), 0.9, 0.1)
        return BehavioralAssembly(values, coords={"image_label": ("presentation", labels),
                                                  "choice": ("choice", ["left", "right"])},
                                  dims=["presentation", "choice"])

    benchmark = brainscore_vision.load_benchmark("Malania2007.short4-threshold_elevation")
    with pytest.raises(InputTypeError, match="'image_label' holds values that are not numbers"):
        benchmark(StandInModel(2.986667, answer))


def test_the_family_fits_a_psychometric_function_once_per_content(stand_ins, monkeypatch):
    """The acuity benchmark fits the ``vernier_only`` responses each elevation benchmark fitted for its baseline: with
    the family's memory (``PSYCHOMETRIC_FITS``) those fits are not run again and the scores are, bit for bit, those
    of the benchmarks without it. The stand-in model answers ``vernier_only`` the same whatever it was fitted on, so
    the acuity benchmark's nine baseline fits are one content, fitted by the elevation benchmark already."""
    from brainscore_metrics.behavior import threshold
    from brainscore_metrics.behavior.psychometric_memo import PsychometricFits

    grids = []
    original = threshold._grid
    monkeypatch.setattr(threshold, "_grid", lambda *args: grids.append(1) or original(*args))

    def family():
        elevation = brainscore_vision.load_benchmark("Malania2007.short2-threshold_elevation")
        acuity = brainscore_vision.load_benchmark("Malania2007.vernieracuity-threshold")
        return float(elevation(_model(True))), float(acuity(_model(True)))

    monkeypatch.setattr(malania, "PSYCHOMETRIC_FITS", None)  # nothing remembered
    unremembered = family()
    assert len(grids) == 2 + 9
    monkeypatch.setattr(malania, "PSYCHOMETRIC_FITS", PsychometricFits())
    assert family() == unremembered and len(grids) == 2 + 9 + 2
