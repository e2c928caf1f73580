"""The behavioural families of issue 38 (part 1) against Brain-Score's own code, on synthetic stand-ins.

Expected numbers: ``tests/data/reference_behavioral_families.json``, written by
``benchmarks/reference_behavioral_families.py`` with brainscore-vision 2.4.2 (its files of these benchmarks and metrics
are byte-identical to brain-score/vision c642dbe4): Brain-Score's benchmark classes on the stand-ins of
``benchmarks/behavioral_standins.py`` with a model answering by that module's functions. Here the same stand-ins are
served in place of Brain-Score's bucket (``brainio.s3``'s loaders, which our by-reference loaders call), so each
benchmark runs from its registry key through our data plugins, metrics and ceilings. Every computation is
deterministic: raw score, ceiling and ceiled score agree to 1e-9.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from _behavioral_standins import EXPECTED, STANDINS, StandinModel, serve

import brainscore_vision
from brainio.skipping import import_or_skip
from brainscore_vision.errors import PublicDataUnavailableError

DEGREES = {"Baker2022": 8.8, "BMD2024": 8, "Lonnqvist2024": 17.70753, "Maniquet2024": 8, "Scialom2024": 8,
           "Coggan2024_behavior": 10, "Hebart2023": 8}
CASES = [(family, key) for family in DEGREES for key in sorted(EXPECTED[family])]


def _cite_key(bibtex: str) -> str | None:
    match = re.match(r"\s*@\w+\s*\{\s*([^,\s]+)", bibtex or "")
    return match.group(1) if match else None


def test_the_reference_covers_the_59_benchmarks():
    keys = [key for family in DEGREES for key in EXPECTED[family]]
    assert len(keys) == len(set(keys)) == 59
    assert EXPECTED["reference_commit"] == "c642dbe42aae3ed064bc0b66f70a80b264021164"
    registered = set(brainscore_vision.benchmark_registry)
    assert set(keys) <= registered, sorted(set(keys) - registered)


@pytest.mark.parametrize("family, key", CASES, ids=[key for _, key in CASES])
def test_benchmark_equals_brainscores_on_standins(monkeypatch, family, key):
    serve(monkeypatch, [family])
    expected = EXPECTED[family][key]
    benchmark = brainscore_vision.load_benchmark(key)
    assert (benchmark.identifier, benchmark.version, benchmark.parent) == (
        expected["identifier"], expected["version"], expected["parent"])
    if expected["bibtex"]:
        assert _cite_key(benchmark.bibtex) == _cite_key(expected["bibtex"])
    else:  # Brain-Score's is empty ("to appear"): ours is a placeholder entry naming the data
        assert benchmark.bibtex.lstrip().startswith("@misc")
    score = benchmark(StandinModel(DEGREES[family]))
    assert float(score.attrs["raw"]) == pytest.approx(expected["raw"], abs=1e-9)
    assert float(score.attrs["ceiling"]) == pytest.approx(expected["ceiling"], abs=1e-9)
    assert float(score) == pytest.approx(expected["score"], abs=1e-9)
    assert float(benchmark.ceiling) == pytest.approx(expected["ceiling"], abs=1e-9)


def test_coggan_per_subject_values_equal_brainscores(monkeypatch):
    serve(monkeypatch, ["Coggan2024_behavior"])
    expected = EXPECTED["Coggan2024_behavior"]["tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity"]
    benchmark = brainscore_vision.load_benchmark("tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity")
    score = benchmark(StandinModel(10))
    np.testing.assert_allclose(score.attrs["raw"].attrs["raw"], expected["raw_per_subject"], atol=1e-9)
    np.testing.assert_allclose(score.attrs["ceiling"].attrs["raw"], expected["ceiling_per_subject"], atol=1e-9)
    assert score.attrs["ceiling"].attrs["error"] == pytest.approx(expected["ceiling_error"], abs=1e-9)


def test_hebart_number_of_triplets(monkeypatch):
    """Brain-Score's ``set_number_of_triplets``: only the first n triplets are shown and scored."""
    serve(monkeypatch, ["Hebart2023"])
    benchmark = brainscore_vision.load_benchmark("Hebart2023-match")
    benchmark.set_number_of_triplets(9)
    model = StandinModel(8)
    score = benchmark(model)
    triplets = STANDINS.hebart2023()["assemblies"]["Hebart2023"]["coords"]
    first = np.stack([triplets[f"image_{k}"][:9] for k in (1, 2, 3)], axis=1)
    raw = np.mean(np.asarray(STANDINS.odd_one_out_answers(first.tolist())) == first[:, 2])  # direct count
    assert model.shown == [27]
    assert float(score.attrs["raw"]) == pytest.approx(raw, abs=1e-12)


def test_scialom_data_pair_as_text(monkeypatch):
    """Brain-Score's Scialom2024 files number their stimuli (integers in the assembly, text in brainio's stimulus
    CSVs): the loaded assembly has text ids, its stimulus set joined on, and the stimulus set's percentages as text."""
    asked = serve(monkeypatch, ["Scialom2024"])
    assembly = brainscore_vision.load_dataset("Scialom2024_segments-all")
    assert asked == {"assembly": ["Scialom2024_segments-all"], "stimulus_set": ["Scialom2024_segments-all"]}
    assert assembly["stimulus_id"].dtype.kind == "U"
    assert set(assembly["stimulus_id"].values) == set(assembly.attrs["stimulus_set"]["stimulus_id"])
    assert not assembly["object_id"].isnull().any()  # a stimulus-set column, joined on every trial
    stimuli = brainscore_vision.load_stimulus_set("Scialom2024_phosphenes-12")
    assert all(isinstance(value, str) for value in stimuli["percentage_elements"])


def test_bucket_identifiers_follow_the_catalogue(monkeypatch):
    """``BMD2024.<condition>`` is ``BMD_2024_<condition>`` in Brain-Score's bucket; the linked stimulus set loads
    through the registry."""
    asked = serve(monkeypatch, ["BMD2024"])
    assembly = brainscore_vision.load_dataset("BMD2024.dotted_2")
    assert asked == {"assembly": ["BMD_2024_dotted_2"], "stimulus_set": ["BMD_2024_dotted_2"]}
    assert assembly.attrs["stimulus_set"].identifier == "BMD_2024_dotted_2"


def test_offline_the_load_names_identifier_bucket_and_key(monkeypatch, tmp_path):
    import_or_skip("boto3", extra="brainscore-vision[test]")
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # nothing listens: as offline
    monkeypatch.setenv("BRAINIO_HOME", str(tmp_path))
    with pytest.raises(PublicDataUnavailableError) as raised:
        brainscore_vision.load_dataset("Lonnqvist2024_online-no-instructions")
    message = str(raised.value)
    assert "'Lonnqvist2024_online-no-instructions'" in message
    assert "bucket 'brainscore-storage/brainio-brainscore'" in message
    assert "key 'brainio-brainscore/assy_Lonnqvist2024_online-no-instructions.nc'" in message


@pytest.mark.parametrize("key, ceiling", [("Maniquet2024-confusion_similarity", 0.53526),
                                          ("Maniquet2024-tasks_consistency", 0.99810), ("Hebart2023-match", 0.6767),
                                          ("Lonnqvist2024_EngineeringAccuracy", 1.0),
                                          ("Scialom2024_segments-77EngineeringAccuracy", 1.0)])
def test_constant_ceilings_need_no_data(monkeypatch, key, ceiling):
    """Brain-Score's constant ceilings (its benchmark modules state them): read without any load."""
    import brainio.s3

    def refuse(*args, **kwargs):
        raise AssertionError("a constant ceiling loaded data")

    monkeypatch.setattr(brainio.s3, "load_assembly_from_s3", refuse)
    monkeypatch.setattr(brainio.s3, "load_stimulus_set_from_s3", refuse)
    assert float(brainscore_vision.load_benchmark(key).ceiling) == ceiling


def test_accuracy_distance_unit_values_of_brainscores_tests():
    """Brain-Score's ``metrics/accuracy_distance/test.py`` values on its toy data (recorded from its code too)."""
    from brainio.assemblies import BehavioralAssembly

    data = STANDINS.accuracy_distance_unit_data()
    assembly = BehavioralAssembly(data["values"], coords={k: ("presentation", v) for k, v in data["coords"].items()},
                                  dims=["presentation"])
    metric = brainscore_vision.load_metric("accuracy_distance")

    def subject(name):
        return assembly.isel(presentation=np.flatnonzero(assembly["subject"].values == name))

    expected = EXPECTED["accuracy_distance_units"]
    whole = metric(subject("A"), assembly)
    assert float(whole) == pytest.approx(0.74074074)  # Brain-Score's test
    assert float(whole) == pytest.approx(expected["whole_A"], abs=1e-12)  # its code
    assert float(whole.attrs["raw"].sel(subject="A")) == expected["raw_A"] == 1.0
    assert "error" in whole.attrs
    assert float(metric(subject("C"), assembly, ("condition",))) == pytest.approx(0.55555556)
    assert float(metric(subject("C"), assembly, ("condition", "animacy"))) == pytest.approx(0.55555556)
    assert float(metric(subject("C"), assembly, ("condition", "animacy"))) == pytest.approx(
        expected["condition_animacy_C"], abs=1e-12)
    assert float(metric.ceiling(assembly)) == pytest.approx(expected["ceiling"], abs=1e-12)
