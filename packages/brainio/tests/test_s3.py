"""S3 store against a local moto server (no internet): upload, versioned load, cache, corruption, unsigned reads."""

from pathlib import Path

import pytest

from brainio import (
    NeuroidAssembly,
    StoreKeyError,
    assert_assemblies_equal,
    load_assembly_from_s3,
    load_stimulus_set_from_s3,
    package_data_assembly,
    package_stimulus_set,
    sha1_hash,
)
from brainio.skipping import import_or_skip
from brainio.stores.s3 import S3Store

import_or_skip("boto3", extra="brainio[s3]")


@pytest.fixture
def uploaded(versioned_bucket, tmp_path, stimulus_set, neuroid_assembly):
    bucket = f"{versioned_bucket}/brainscore-vision/data"
    store = S3Store(bucket)
    stimuli = package_stimulus_set(None, stimulus_set, "Test.stimuli", store=store, downloads_path=tmp_path / "pkg")
    assembly = package_data_assembly(None, neuroid_assembly, "Test.neural", "Test.stimuli", "NeuroidAssembly",
                                     store=store, downloads_path=tmp_path / "pkg")
    return bucket, stimuli, assembly


def _load_stimuli(bucket, stimuli):
    return load_stimulus_set_from_s3("Test.stimuli", bucket=bucket, csv_sha1=stimuli["csv_sha1"],
                                     zip_sha1=stimuli["zip_sha1"], csv_version_id=stimuli["csv_version_id"],
                                     zip_version_id=stimuli["zip_version_id"], filename_prefix="stimulus_")


def test_upload_returns_version_ids(uploaded):
    bucket, stimuli, assembly = uploaded
    assert stimuli["csv_version_id"] and stimuli["zip_version_id"] and assembly["version_id"]
    import boto3

    head = boto3.client("s3").head_object(Bucket=bucket.split("/")[0], Key="brainscore-vision/data/assy_Test_neural.nc")
    assert head["VersionId"] == assembly["version_id"]


def test_upload_load_cache_corrupt_reload(uploaded, stimulus_set, neuroid_assembly, brainio_home):
    bucket, stimuli, assembly = uploaded
    loaded = load_assembly_from_s3("Test.neural", version_id=assembly["version_id"], sha1=assembly["sha1"],
                                   bucket=bucket, cls=NeuroidAssembly,
                                   stimulus_set_loader=lambda: _load_stimuli(bucket, stimuli))
    assert_assemblies_equal(neuroid_assembly, loaded.drop_vars(["category", "size", "filename"]))
    for sid in stimulus_set["stimulus_id"]:
        assert sha1_hash(loaded.stimulus_set.get_stimulus(sid)) == sha1_hash(stimulus_set.get_stimulus(sid))
    cached = brainio_home / assembly["sha1"] / "assy_Test_neural.nc"
    assert cached.is_file()
    cached.write_bytes(cached.read_bytes()[:-10] + b"0123456789")  # corrupt the cached copy
    # documented choice: a corrupted cache file is detected and downloaded again
    reloaded = load_assembly_from_s3("Test.neural", version_id=assembly["version_id"], sha1=assembly["sha1"],
                                     bucket=bucket, cls="NeuroidAssembly")
    assert sha1_hash(cached) == assembly["sha1"]
    assert_assemblies_equal(neuroid_assembly, reloaded)


def test_old_version_is_served_by_version_id(uploaded, neuroid_assembly, tmp_path):
    bucket, _, first = uploaded
    changed = neuroid_assembly + 1
    second = package_data_assembly(None, changed, "Test.neural", "Test.stimuli", "NeuroidAssembly",
                                   store=S3Store(bucket), downloads_path=tmp_path / "pkg", overwrite=True)
    assert second["version_id"] != first["version_id"]
    old = load_assembly_from_s3("Test.neural", first["version_id"], first["sha1"], bucket, NeuroidAssembly)
    new = load_assembly_from_s3("Test.neural", second["version_id"], second["sha1"], bucket, NeuroidAssembly)
    assert_assemblies_equal(old, neuroid_assembly)
    assert_assemblies_equal(new, changed)


def test_unsigned_fallback_without_credentials(uploaded, monkeypatch, neuroid_assembly):
    bucket, _, assembly = uploaded
    import json

    import boto3

    name = bucket.split("/")[0]
    policy = {"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": "*", "Action": ["s3:GetObject", "s3:GetObjectVersion"],
        "Resource": f"arn:aws:s3:::{name}/*"}]}
    boto3.client("s3").put_bucket_policy(Bucket=name, Policy=json.dumps(policy))  # a public bucket
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    loaded = load_assembly_from_s3("Test.neural", assembly["version_id"], assembly["sha1"], bucket, NeuroidAssembly)
    assert_assemblies_equal(neuroid_assembly, loaded)


def test_missing_object_raises_store_key_error(versioned_bucket, brainio_home):
    with pytest.raises(StoreKeyError, match="assy_Nope.nc"):
        load_assembly_from_s3("Nope", None, "2" * 40, versioned_bucket, NeuroidAssembly)
    assert not any(p for p in Path(brainio_home).rglob("*") if ".locks" not in p.parts)


def test_bucket_with_folder_and_explicit_endpoint(s3_env):
    store = S3Store("abc/folder/sub", endpoint_url=s3_env)
    assert store.bucket_name == "abc" and store.object_key("f.nc") == "folder/sub/f.nc"


def _dead_endpoint(monkeypatch):
    """Point boto3 at a port nothing listens on (the network is 'down'), with one attempt and no retries."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("AWS_RETRY_MODE", "standard")
    return f"http://127.0.0.1:{port}"


def test_fetch_to_downloads_verifies_and_reuses_the_file_offline(versioned_bucket, tmp_path, monkeypatch):
    from brainio.cache import fetch_to

    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"\x00\x01" * 1000)
    version = S3Store(versioned_bucket).upload(weights, "models/net/weights.bin")
    target = tmp_path / "home" / "models" / "net" / "weights.bin"
    path = fetch_to(S3Store(versioned_bucket), "models/net/weights.bin", target, sha1_hash(weights), version)
    assert path == target and path.read_bytes() == weights.read_bytes()
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".part")]  # no temporary left

    _dead_endpoint(monkeypatch)  # offline: the verified copy is used without contacting the store
    assert fetch_to(S3Store(versioned_bucket), "models/net/weights.bin", target, sha1_hash(weights), version) == target


def test_fetch_to_refuses_a_sha1_mismatch_and_leaves_nothing(versioned_bucket, tmp_path):
    from brainio import Sha1MismatchError
    from brainio.cache import fetch_to

    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"real bytes")
    S3Store(versioned_bucket).upload(weights, "w.bin")
    target = tmp_path / "out" / "w.bin"
    with pytest.raises(Sha1MismatchError, match=f"expected {'a' * 40}"):
        fetch_to(S3Store(versioned_bucket), "w.bin", target, "a" * 40)
    assert not target.exists() and not [p for p in target.parent.iterdir() if not p.name.endswith(".lock")]


def test_fetch_to_replaces_a_damaged_copy_and_accepts_no_sha1(versioned_bucket, tmp_path):
    from brainio.cache import fetch_to

    weights = tmp_path / "weights.bin"
    weights.write_bytes(b"good" * 100)
    S3Store(versioned_bucket).upload(weights, "w.bin")
    target = tmp_path / "out" / "w.bin"
    fetch_to(S3Store(versioned_bucket), "w.bin", target, sha1_hash(weights))
    target.write_bytes(b"damaged")
    assert fetch_to(S3Store(versioned_bucket), "w.bin", target, sha1_hash(weights)).read_bytes() == b"good" * 100
    other = tmp_path / "out" / "unverified.bin"
    assert fetch_to(S3Store(versioned_bucket), "w.bin", other).read_bytes() == b"good" * 100


def test_a_placed_file_with_another_sha1_is_moved_aside_never_deleted(versioned_bucket, tmp_path, monkeypatch,
                                                                       caplog):
    # issue 42: weights a user put where the error message said, with another SHA-1, were deleted ("downloading it
    # again"); offline only a .lock remained. Expected digests: hashlib over the bytes written here.
    import hashlib
    import logging

    from brainio import FileUnavailableError
    from brainio.cache import fetch_to

    good, placed = b"the expected weights" * 50, b"weights of another version" * 40
    source = tmp_path / "w.bin"
    source.write_bytes(good)
    S3Store(versioned_bucket).upload(source, "net/w.bin")
    expected, other = hashlib.sha1(good).hexdigest(), hashlib.sha1(placed).hexdigest()
    target = tmp_path / "home" / "net" / "w.bin"
    aside = target.with_name(f"w.sha1-{other}.bin")

    target.parent.mkdir(parents=True)
    target.write_bytes(placed)
    import os

    live = {name: os.environ.get(name) for name in ("AWS_ENDPOINT_URL", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE")}
    _dead_endpoint(monkeypatch)
    with pytest.raises(FileUnavailableError) as caught:
        fetch_to(S3Store(versioned_bucket), "net/w.bin", target, expected)
    message = str(caught.value)
    assert "\n" not in message
    assert f"{target} has SHA-1 {other}, not the expected {expected}: it was moved aside to {aside}" in message
    assert message.endswith(f"put the file with SHA-1 {expected} at {target}")
    assert aside.read_bytes() == placed and not target.exists()

    for name, value in live.items():  # the network is back
        monkeypatch.setenv(name, value) if value is not None else monkeypatch.delenv(name, raising=False)
    target.write_bytes(placed)  # placed again: the same bytes replace their earlier copy aside
    with caplog.at_level(logging.WARNING, logger="brainio.cache"):
        assert fetch_to(S3Store(versioned_bucket), "net/w.bin", target, expected).read_bytes() == good
    assert aside.read_bytes() == placed
    [line] = [record.getMessage() for record in caplog.records if "moved aside" in record.getMessage()]
    assert f"{target} had SHA-1 {other}, not the expected {expected}: moved aside to {aside}" in line


def test_offline_without_the_file_is_one_line_naming_file_url_and_folder(versioned_bucket, tmp_path, monkeypatch):
    from brainio import FileUnavailableError, StoreUnreachableError
    from brainio.cache import fetch_to

    endpoint = _dead_endpoint(monkeypatch)
    target = tmp_path / "home" / "models" / "w.bin"
    with pytest.raises(FileUnavailableError) as caught:
        fetch_to(S3Store(f"{versioned_bucket}/models"), "w.bin", target, "b" * 40, version_id="v1")
    message = str(caught.value)
    assert "\n" not in message
    assert f"w.bin is not in {target.parent}" in message
    assert f"{endpoint}/{versioned_bucket}/models/w.bin?versionId=v1 cannot be reached" in message
    assert message.endswith(f"put it in {target.parent}")
    assert isinstance(caught.value, FileNotFoundError) and not target.exists()
    with pytest.raises(StoreUnreachableError):  # the store itself says it cannot be reached
        S3Store(versioned_bucket).download("w.bin", tmp_path / "x")


def test_s3_urls_name_bucket_folder_key_and_version(monkeypatch):
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(name, raising=False)
    store = S3Store("brainscore-storage/brainscore-vision/models")
    assert store.url("a/b.pth") == "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/models/a/b.pth"
    assert store.url("b.pth", "null").endswith("/models/b.pth")  # 'null' is S3's name for "no version"
    assert S3Store("b", endpoint_url="http://127.0.0.1:9/").url("k", "v") == "http://127.0.0.1:9/b/k?versionId=v"
