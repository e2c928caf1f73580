"""The data-by-reference rules (brainscore_vision.data_helpers.public_catalogue) on a bucket that refuses unsigned
reads (a moto server checking signatures): a family's own catalogue file, unsigned-then-signed reads, the exact
one-line refusal, nothing half-written, and the markers of ``brainscore list benchmarks``."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest

import brainscore_vision
from brainio.skipping import import_or_skip
from brainscore_vision import benchmark_data
from brainscore_vision.data_helpers.public_catalogue import (
    CredentialsRequiredError,
    PublicDataUnavailableError,
    load_stimulus_set_by_reference,
    read_catalogue,
    register_stimulus_sets_by_reference,
)

CSV = b"stimulus_id,filename,truth\nim0,im0.png,cat\nim1,im1.png,dog\n"


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("im0.png", b"png-bytes-0")
        archive.writestr("im1.png", b"png-bytes-1")
    return buffer.getvalue()


def _catalogue_file(tmp_path, **extra):
    zip_bytes = _zip()
    entry = {"kind": "stimulus_set", "identifier": "Lab2030.private", "s3_identifier": "lab.Lab2030_private",
             "bucket": "brainscore-private/vision", "key": "vision/stimulus_lab_Lab2030_private.csv",
             "csv_sha1": hashlib.sha1(CSV).hexdigest(), "zip_sha1": hashlib.sha1(zip_bytes).hexdigest(),
             "csv_version_id": None, "zip_version_id": None, "access": "private", **extra}
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps({"entries": [entry]}))
    return path


@pytest.fixture(scope="module")
def private_bucket():
    import_or_skip("boto3", extra="brainscore-vision[test]")
    import_or_skip("moto.server", extra="brainscore-vision[test]")
    import boto3

    from brainio.testing import local_private_s3_server

    with local_private_s3_server() as (endpoint, key_id, secret):
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key_id,
                              aws_secret_access_key=secret)
        client.create_bucket(Bucket="brainscore-private")
        client.put_object(Bucket="brainscore-private", Key="vision/stimulus_lab_Lab2030_private.csv", Body=CSV)
        client.put_object(Bucket="brainscore-private", Key="vision/stimulus_lab_Lab2030_private.zip", Body=_zip())
        yield endpoint, key_id, secret


@pytest.fixture
def aws_env(private_bucket, monkeypatch, tmp_path):
    from brainio.testing import s3_test_environment

    endpoint, key_id, secret = private_bucket
    for name, value in s3_test_environment(endpoint, tmp_path).items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("BRAINIO_HOME", str(tmp_path / "brainio-home"))
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    return monkeypatch, key_id, secret


def test_a_family_catalogue_registers_and_loads_with_credentials(aws_env, tmp_path):
    monkeypatch, key_id, secret = aws_env
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", key_id)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret)
    registry: dict = {}
    register_stimulus_sets_by_reference(registry, ["Lab2030.private"], entries=read_catalogue(_catalogue_file(tmp_path)))
    stimuli = registry["Lab2030.private"]()
    assert list(stimuli["stimulus_id"]) == ["im0", "im1"]
    assert stimuli.get_stimulus("im1").endswith("im1.png")


def test_refused_without_credentials_is_one_exact_line_and_leaves_nothing(aws_env, tmp_path):
    entry = read_catalogue(_catalogue_file(tmp_path))[("stimulus_set", "Lab2030.private")]
    with pytest.raises(CredentialsRequiredError) as raised:
        load_stimulus_set_by_reference("Lab2030.private", entry)
    assert str(raised.value) == (
        "Brain-Score's stimulus set 'Lab2030.private' (bucket 'brainscore-private/vision', key "
        "'vision/stimulus_lab_Lab2030_private.csv') needs Brain-Score credentials: the bucket refused it without "
        "credentials and found no AWS credentials to try (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a "
        "profile, with Brain-Score's access)")
    assert isinstance(raised.value, PublicDataUnavailableError)  # callers catching the public error still catch it
    home = tmp_path / "brainio-home"
    assert [p for p in home.rglob("*") if p.is_file() and not p.name.endswith(".lock")] == []


def test_refused_with_wrong_credentials_says_so(aws_env, tmp_path):
    monkeypatch, _, _ = aws_env
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAWRONGWRONGWRONG1")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wrong")
    entry = read_catalogue(_catalogue_file(tmp_path))[("stimulus_set", "Lab2030.private")]
    with pytest.raises(CredentialsRequiredError, match="refused it without credentials and with yours"):
        load_stimulus_set_by_reference("Lab2030.private", entry)


@pytest.mark.parametrize("change, message", [
    ({"access": "secret"}, "access 'secret' is not one of"), ({"kind": "model"}, "kind 'model' is not")])
def test_a_bad_catalogue_entry_is_named(tmp_path, change, message):
    with pytest.raises(ValueError, match=f"catalogue.json, entry 0 \\('Lab2030.private'\\): {message}"):
        read_catalogue(_catalogue_file(tmp_path, **change))


def test_entry_access_defaults_to_public(tmp_path):
    path = _catalogue_file(tmp_path)
    data = json.loads(path.read_text())
    del data["entries"][0]["access"]
    path.write_text(json.dumps(data))
    assert read_catalogue(path)[("stimulus_set", "Lab2030.private")]["access"] == "public"


@pytest.mark.parametrize("need, marker", [
    ("private", "[private: needs Brain-Score credentials]"),
    ("credentials", "[network: unsigned, then your AWS credentials]"), ("network", "[network]")])
def test_markers_of_the_bucket_needs(monkeypatch, need, marker):
    # a benchmark registered with its need as a field (what a by-reference registration carries)
    def factory():
        return "benchmark"

    factory.data_need = need
    identifier = f"Lab2030.{need}.IT-pls"
    brainscore_vision.benchmark_registry[identifier] = factory
    try:
        assert benchmark_data.data_marker(identifier) == marker
    finally:
        del brainscore_vision.benchmark_registry[identifier]
