"""Brain-Score's benchmarks on its public data: registered under Brain-Score's keys, built without a network, the
data loaded by reference. With generated files on a local moto S3 server (the catalogue entry pointed at the test's
own sha1), the benchmark's data flow is checked: region selection, repetitions, ceiling and score."""

import hashlib

import numpy as np
import pandas as pd
import pytest

import brainscore_vision
from brainio.skipping import import_or_skip
from brainscore_vision.data_helpers import public_catalogue


@pytest.mark.parametrize("identifier, expected", [
    ("MajajHong2015public.V4-pls", "MajajHong2015.V4.public-pls"), ("MajajHong2015public.IT-pls",
                                                                    "MajajHong2015.IT.public-pls"),
    ("MajajHong2015.public.IT-pls", "MajajHong2015.IT.public-pls"),
    ("FreemanZiemba2013public.V1-pls", "FreemanZiemba2013.V1.public-pls"),
    ("FreemanZiemba2013public.V2-pls", "FreemanZiemba2013.V2.public-pls"),
    ("Rajalingham2018public-i2n", "Rajalingham2018-i2n")])
def test_registered_with_brainscore_identifiers(identifier, expected):
    benchmark = brainscore_vision.load_benchmark(identifier)  # nothing is loaded yet
    assert benchmark.identifier == expected and benchmark.bibtex.startswith("@article")


def test_offline_the_first_load_fails_in_one_line(monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    benchmark = brainscore_vision.load_benchmark("MajajHong2015public.IT-pls")
    with pytest.raises(public_catalogue.PublicDataUnavailableError) as raised:
        benchmark.ceiling  # noqa: B018
    assert "\n" not in str(raised.value) and "assy_dicarlo_MajajHong2015_public.nc" in str(raised.value)
    with pytest.raises(public_catalogue.PublicDataUnavailableError, match="Rajalingham2018.public"):
        brainscore_vision.load_benchmark("Rajalingham2018public-i2n").ceiling  # noqa: B018


def _majajhong_like(n_images=40, repetitions=3, seed=0):
    from brainio.assemblies import NeuronRecordingAssembly

    rng = np.random.default_rng(seed)
    signal = rng.normal(size=(n_images, 6))
    values = np.concatenate([signal + 0.3 * rng.normal(size=signal.shape) for _ in range(repetitions)])[:, :, None]
    ids = [f"im{i:02d}" for i in range(n_images)]
    return NeuronRecordingAssembly(values, coords={
        "stimulus_id": ("presentation", np.tile(ids, repetitions)),
        "repetition": ("presentation", np.repeat(np.arange(repetitions), n_images)),
        "object_name": ("presentation", np.tile([f"o{i % 4}" for i in range(n_images)], repetitions)),
        "neuroid_id": ("neuroid", [f"n{i}" for i in range(6)]), "region": ("neuroid", ["V4"] * 3 + ["IT"] * 3),
        "time_bin_start": ("time_bin", [70]), "time_bin_end": ("time_bin", [170])},
        dims=["presentation", "neuroid", "time_bin"])


def _stimulus_files(ids):
    import io
    import zipfile

    csv_bytes = ("stimulus_id,filename,object_name\n" + "".join(f"{i},{i}.png,o{n % 4}\n"
                                                                for n, i in enumerate(ids))).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in ids:
            archive.writestr(f"{i}.png", i.encode())
    return csv_bytes, buffer.getvalue()


def test_majajhong_data_flow_on_a_local_s3_server(tmp_path, monkeypatch):
    import_or_skip("boto3", extra="brainscore-vision[test]")
    import_or_skip("moto.server", extra="brainscore-vision[test]")
    import boto3

    from brainio.netcdf import write_netcdf
    from brainio.testing import local_s3_server

    with local_s3_server() as endpoint:
        for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                            "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": endpoint,
                            "BRAINIO_HOME": str(tmp_path / "brainio")}.items():
            monkeypatch.setenv(name, value)
        trials = _majajhong_like()
        path = tmp_path / "assy.nc"
        write_netcdf(trials, path)
        data = path.read_bytes()
        entry = dict(public_catalogue.catalogue_entry("assembly", "MajajHong2015.public"),
                     sha1=hashlib.sha1(data).hexdigest(), version_id=None)
        bucket, folder = entry["bucket"].split("/", 1)
        client = boto3.client("s3")
        client.create_bucket(Bucket=bucket)
        client.put_object(Bucket=bucket, Key=entry["key"], Body=data)
        # its stimulus set, hvm-public: 40 tiny files under the catalogue's keys
        csv_bytes, zip_bytes = _stimulus_files([f"im{i:02d}" for i in range(40)])
        client.put_object(Bucket=bucket, Key=f"{folder}/stimulus_hvm-public.csv", Body=csv_bytes)
        client.put_object(Bucket=bucket, Key=f"{folder}/stimulus_hvm-public.zip", Body=zip_bytes)
        stimuli_entry = dict(public_catalogue.catalogue_entry("stimulus_set", "hvm-public"),
                             csv_sha1=hashlib.sha1(csv_bytes).hexdigest(), zip_sha1=hashlib.sha1(zip_bytes).hexdigest())
        ours = {"MajajHong2015.public": entry, "hvm-public": stimuli_entry}
        real = public_catalogue.catalogue_entry
        monkeypatch.setattr(public_catalogue, "catalogue_entry",
                            lambda kind, identifier: ours.get(identifier) or real(kind, identifier))
        benchmark = brainscore_vision.load_benchmark("MajajHong2015public.IT-pls")
        # the ceiling: internal consistency of the IT repetitions, computed directly on the region's trials
        it_trials = trials.isel(neuroid=[3, 4, 5]).squeeze("time_bin")
        expected = float(brainscore_vision.load_ceiling("internal_consistency")(it_trials))
        assert float(benchmark.ceiling) == pytest.approx(expected, abs=1e-12)
        assert benchmark.region == "IT" and benchmark.timebins == [(70, 170)]
    assert pd.Index(it_trials["stimulus_id"].values).nunique() == 40


def test_rajalingham_call_flow_on_generated_trials(tmp_path):
    # the benchmark's flow (fit on the fitting images, look at the test images at 8 degrees, i2n, ceiled per split
    # by the human split-half consistency) on generated trials, compared with the metric called directly
    from PIL import Image

    from brainio.assemblies import BehavioralAssembly, DataAssembly
    from brainio.stimuli import StimulusSet
    from brainscore_metrics.behavior.i2n import I2n, ceil_per_repetition
    from brainscore_vision.benchmark_helpers.test_helper import PrecomputedFeatures
    from brainscore_vision.benchmarks.public_reference.benchmark import (
        Rajalingham2018PublicI2n,
        rajalingham_assembly,
    )

    rng = np.random.default_rng(5)
    objects = ["bear", "car", "dog", "face"]
    images = [f"im{i:02d}" for i in range(16)]
    truth_of = {image: objects[i % 4] for i, image in enumerate(images)}
    for image in images:
        Image.new("RGB", (16, 16), (int(rng.integers(255)), 0, 0)).save(tmp_path / f"{image}.png")
    stimuli = StimulusSet(pd.DataFrame({"stimulus_id": images, "image_label": [truth_of[i] for i in images]}))
    stimuli.stimulus_paths = {i: str(tmp_path / f"{i}.png") for i in images}
    stimuli.identifier = "generated-objectome"
    accuracy = dict(zip(images, rng.uniform(0.55, 0.95, size=16)))  # image difficulty varies
    rows = []
    for _ in range(1500):
        image = images[int(rng.integers(16))]
        distractor = str(rng.choice([o for o in objects if o != truth_of[image]]))
        rows.append((image, truth_of[image], distractor,
                     truth_of[image] if rng.random() < accuracy[image] else distractor))
    image_ids, samples, distractors, choices = (list(column) for column in zip(*rows))
    trials = BehavioralAssembly(choices, coords={"stimulus_id": ("presentation", image_ids),
                                                 "truth": ("presentation", samples),
                                                 "sample_obj": ("presentation", samples),
                                                 "dist_obj": ("presentation", distractors),
                                                 "choice": ("presentation", choices)}, dims=["presentation"])
    trials.attrs["stimulus_set"] = stimuli
    humans = rajalingham_assembly(trials)
    assert humans["correct"].values.mean() == pytest.approx(np.mean(np.asarray(choices) == np.asarray(samples)))
    logits = rng.normal(size=(16, 4))
    logits[np.arange(16), [objects.index(truth_of[i]) for i in images]] += 4 * np.array(list(accuracy.values()))
    probabilities = DataAssembly(np.exp(logits) / np.exp(logits).sum(1, keepdims=True),
                                 coords={"stimulus_id": ("presentation", images), "choice": ("choice", objects)},
                                 dims=["presentation", "choice"])
    benchmark = Rajalingham2018PublicI2n()
    benchmark._assembly, benchmark._fitting_stimuli = humans, stimuli
    score = benchmark(PrecomputedFeatures(probabilities, visual_degrees=8))
    expected = ceil_per_repetition(I2n()(probabilities, humans), I2n().ceiling(humans, skipna=True))
    assert np.isfinite(float(expected))
    assert float(score) == pytest.approx(float(expected), abs=1e-12)
