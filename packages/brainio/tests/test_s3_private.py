"""Reads from a bucket that refuses unsigned requests (a moto server checking signatures): unsigned first, then the
credentials boto3 finds; refused both ways, one typed error naming the object and what each read was told, and
nothing left in the cache."""

import hashlib
import os

import pytest

from brainio.cache import fetch_verified
from brainio.errors import StoreAccessDeniedError
from brainio.skipping import import_or_skip
from brainio.stores.s3 import S3Store

import_or_skip("boto3", extra="brainio[s3]")
import_or_skip("moto.server", extra="brainio[test]")

BODY = b"private bytes"


@pytest.fixture(scope="module")
def private_server():
    import boto3

    from brainio.testing import local_private_s3_server

    with local_private_s3_server() as (endpoint, key_id, secret):
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key_id,
                              aws_secret_access_key=secret)
        client.create_bucket(Bucket="lab-private")
        client.put_object(Bucket="lab-private", Key="data/assy_x.nc", Body=BODY)
        yield endpoint, key_id, secret


@pytest.fixture
def environment(private_server, monkeypatch, tmp_path):
    from brainio.testing import s3_test_environment

    endpoint, key_id, secret = private_server
    for name, value in s3_test_environment(endpoint, tmp_path).items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", key_id)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret)
    return monkeypatch


def test_signed_read_follows_a_refused_unsigned_one(environment, tmp_path):
    path = fetch_verified(S3Store("lab-private/data"), "assy_x.nc", hashlib.sha1(BODY).hexdigest(),
                          home=tmp_path / "cache")
    assert path.read_bytes() == BODY


@pytest.mark.parametrize("credentials", ["none", "wrong"])
def test_refused_both_ways_is_one_typed_error_and_leaves_nothing(environment, tmp_path, credentials):
    if credentials == "none":
        environment.delenv("AWS_ACCESS_KEY_ID")
        environment.delenv("AWS_SECRET_ACCESS_KEY")
        told = "no AWS credentials were found to sign a second request"
    else:
        environment.setenv("AWS_ACCESS_KEY_ID", "AKIAWRONGWRONGWRONG1")
        told = "refused with the AWS credentials found (InvalidAccessKeyId)"
    home = tmp_path / "cache"
    with pytest.raises(StoreAccessDeniedError) as raised:
        fetch_verified(S3Store("lab-private/data"), "assy_x.nc", hashlib.sha1(BODY).hexdigest(), home=home)
    endpoint = os.environ["AWS_ENDPOINT_URL"]
    assert str(raised.value) == (f"{endpoint}/lab-private/data/assy_x.nc: refused without credentials (403); {told}")
    assert raised.value.url == f"{endpoint}/lab-private/data/assy_x.nc"
    assert isinstance(raised.value, PermissionError)
    assert [p for p in home.rglob("*") if p.is_file() and not p.name.endswith(".lock")] == []



def _no_credentials_anywhere(monkeypatch, tmp_path):
    for name in list(os.environ):
        if name.startswith("AWS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))


def test_credentials_found_sees_the_environment_and_shared_files_and_nothing_else(monkeypatch, tmp_path):
    from brainio.stores.s3 import credentials_found

    _no_credentials_anywhere(monkeypatch, tmp_path)
    assert credentials_found() is False  # nothing set: and the metadata service is never asked (no wait)
    (tmp_path / "credentials").write_text("[default]\naws_access_key_id = a\naws_secret_access_key = b\n")
    assert credentials_found() is True
    (tmp_path / "credentials").write_text("[default\nnot a profile")  # malformed: no usable credentials
    assert credentials_found() is False
    (tmp_path / "credentials").unlink()
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "a")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "b")
    assert credentials_found() is True
    assert "AWS_EC2_METADATA_DISABLED" not in os.environ  # the look-up changes no setting
