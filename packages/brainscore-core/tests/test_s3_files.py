"""Brain-Score's weight loaders (``load_weight_file``, ``load_file``, ``download_weights``) against a moto S3 server on
127.0.0.1: Brain-Score's signatures and local layout, sha1 refusal, offline reuse, a one-line offline error."""

from __future__ import annotations

import hashlib
import inspect
import os
import socket
from pathlib import Path

import pytest

from brainio.errors import FileUnavailableError, Sha1MismatchError


def _upload(bucket: str, key: str, content: bytes) -> str:
    import boto3

    return boto3.client("s3").put_object(Bucket=bucket, Key=key, Body=content)["VersionId"]


def _offline(monkeypatch) -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        endpoint = f"http://127.0.0.1:{probe.getsockname()[1]}"  # nothing listens there once closed
    monkeypatch.setenv("AWS_ENDPOINT_URL", endpoint)
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("AWS_RETRY_MODE", "standard")
    return endpoint


def test_signatures_are_brainscores():
    from brainscore_core.supported_data_standards.brainio import s3

    # brain-score/core 7436003b: supported_data_standards/brainio/s3.py
    assert list(inspect.signature(s3.load_weight_file).parameters) == [
        "bucket", "relative_path", "version_id", "sha1", "folder_name"]
    assert list(inspect.signature(s3.load_file).parameters)[:4] == ["bucket", "relative_path", "version_id",
                                                                      "folder_name"]
    assert list(inspect.signature(s3.load_folder_from_s3).parameters) == [
        "bucket", "folder_path", "filename_version_sha", "save_directory"]
    assert list(inspect.signature(s3.load_file_from_s3).parameters) == [
        "bucket", "path", "local_filepath", "sha1", "version_id"]
    assert callable(s3.load_assembly_from_s3) and callable(s3.load_stimulus_set_from_s3)  # brainio.s3's names too


def test_load_weight_file_puts_the_file_under_brainscore_home(s3_bucket):
    from brainscore_core.supported_data_standards.brainio.s3 import load_weight_file, sha1_hash

    content = os.urandom(3000)
    version = _upload(s3_bucket, "brainscore-vision/models/net/weights.pth", content)
    expected_sha1 = hashlib.sha1(content).hexdigest()  # computed independently of our sha1_hash
    path = load_weight_file(bucket=s3_bucket, folder_name="brainscore-vision/models/",  # trailing slash as in plugins
                            relative_path="net/weights.pth", version_id=version, sha1=expected_sha1)
    assert path == Path(os.environ["BRAINSCORE_HOME"]).resolve() / "brainscore-vision" / "models" / "net" / "weights.pth"
    assert path.read_bytes() == content and sha1_hash(path) == expected_sha1


def test_default_folder_is_models_or_the_environment_variable(s3_bucket, monkeypatch):
    from brainscore_core.s3_files import load_file

    _upload(s3_bucket, "models/a.bin", b"a")
    _upload(s3_bucket, "elsewhere/a.bin", b"b")
    home = Path(os.environ["BRAINSCORE_HOME"]).resolve()
    assert load_file(s3_bucket, "a.bin", None) == home / "models" / "a.bin"
    monkeypatch.setenv("BRAINSCORE_S3_WEIGHT_FOLDER", "elsewhere")
    assert load_file(s3_bucket, "a.bin", None).read_bytes() == b"b"


def test_a_sha1_mismatch_is_refused_and_nothing_is_kept(s3_bucket):
    from brainscore_core.s3_files import load_weight_file

    _upload(s3_bucket, "models/w.pth", b"the bytes on the server")
    with pytest.raises(Sha1MismatchError, match="expected " + "0" * 40):
        load_weight_file(s3_bucket, "w.pth", None, "0" * 40)
    folder = Path(os.environ["BRAINSCORE_HOME"]) / "models"
    assert not (folder / "w.pth").exists()
    assert [p.name for p in folder.iterdir()] == [".w.pth.lock"]  # no partial file, no marker


def test_offline_a_cached_file_is_reused_and_an_absent_one_is_one_line(s3_bucket, monkeypatch):
    from brainscore_core.s3_files import load_weight_file

    content = b"weights" * 100
    version = _upload(s3_bucket, "models/w.pth", content)
    sha1 = hashlib.sha1(content).hexdigest()
    path = load_weight_file(s3_bucket, "w.pth", version, sha1)
    endpoint = _offline(monkeypatch)
    assert load_weight_file(s3_bucket, "w.pth", version, sha1) == path  # no network needed
    with pytest.raises(FileUnavailableError) as caught:
        load_weight_file(s3_bucket, "other/absent.pth", version, sha1)
    message = str(caught.value)
    folder = path.parent / "other"
    assert "\n" not in message
    assert message.startswith(f"absent.pth is not in {folder} and {endpoint}/{s3_bucket}/models/other/absent.pth")
    assert message.endswith(f"put it in {folder}")


def test_download_weights_saves_each_file_in_the_given_folder(s3_bucket, tmp_path):
    from brainscore_core.supported_data_standards.brainio.s3 import load_folder_from_s3

    files = {"ckpt.pth": b"one", "config.json": b"{}"}
    versions = {name: _upload(s3_bucket, f"models/bp_resnet/{name}", content) for name, content in files.items()}
    listed = [(name, versions[name], hashlib.sha1(content).hexdigest()) for name, content in files.items()]
    paths = load_folder_from_s3(bucket=s3_bucket, folder_path="models/bp_resnet", filename_version_sha=listed,
                                save_directory=tmp_path / "plugin")
    assert paths == [tmp_path / "plugin" / name for name in files]
    assert [path.read_bytes() for path in paths] == list(files.values())


def test_a_relative_path_cannot_leave_the_home_folder(s3_bucket):
    from brainscore_core.s3_files import load_file

    with pytest.raises(ValueError, match="outside"):
        load_file(s3_bucket, "../../etc/passwd", None)
