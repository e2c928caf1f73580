"""S3 (or any S3-compatible endpoint: MinIO, moto) as a store, through boto3.

The endpoint, region and credentials come from the standard AWS settings (``AWS_ENDPOINT_URL``,
``AWS_ENDPOINT_URL_S3``, ``AWS_DEFAULT_REGION``, ``AWS_ACCESS_KEY_ID``, profiles, ...) unless given
explicitly.

Reads are tried unsigned first, then signed with the credentials boto3's default chain finds (environment, shared
files, profiles, instance roles): a public object is read without looking up credentials at all, a private one with
the user's. An object refused both ways raises :class:`~brainio.errors.StoreAccessDeniedError` naming its URL and
what each read was told. (Brain-Score's own fetcher tries the two in the other order; the object read is the same.)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import MissingExtraError, StoreAccessDeniedError, StoreKeyError, StoreUnreachableError

S3_INSTALL = "pip install -c constraints.txt './packages/brainio[s3]' (from the repository root)"

try:
    import boto3
    from botocore import UNSIGNED
    from botocore.config import Config
    from botocore.exceptions import ClientError, HTTPClientError, NoCredentialsError
    from botocore.exceptions import ConnectionError as BotoConnectionError
except ImportError as error:  # the s3 extra: say how to get it
    raise MissingExtraError(f"S3 stores need boto3, which is not installed: {S3_INSTALL}",
                            name=error.name or "boto3") from error

__all__ = ["S3_INSTALL", "S3Store", "credentials_found", "endpoint_setting"]

_CHUNK = 1 << 20
_DENIED = {"AccessDenied", "403", "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken",
           "InvalidToken", "AllAccessDisabled"}
_MISSING = {"NoSuchKey", "404", "NoSuchVersion", "NoSuchBucket", "InvalidArgument"}

#: credential providers that ask a network service (instance or container metadata); skipped by credentials_found
_NETWORK_PROVIDERS = ("container-role", "iam-role")


def endpoint_setting() -> str | None:
    """The S3 endpoint boto3's own variables name (``AWS_ENDPOINT_URL_S3``, else ``AWS_ENDPOINT_URL``), else None."""
    return os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL") or None


def credentials_found() -> bool:
    """Whether boto3's default credential chain finds credentials here (environment, shared files, profiles, SSO
    caches) without asking a network service: the instance and container metadata providers are left out of the
    look-up, so the answer is immediate off a cloud machine. A malformed profile counts as no credentials."""
    import botocore.session

    session = botocore.session.Session()
    try:
        resolver = session.get_component("credential_provider")
        for name in _NETWORK_PROVIDERS:
            if resolver.get_provider(name) is not None:
                resolver.remove(name)
        return resolver.load_credentials() is not None
    except Exception:  # a malformed profile or config file: no usable credentials
        return False


class S3Store:
    """Objects in an S3 bucket, optionally below a folder.

    Parameters
    ----------
    bucket : str
        ``'bucket'`` or ``'bucket/folder/sub'`` (Brain-Score's form).
    endpoint_url : str, optional
        default=None, meaning the standard AWS configuration (``AWS_ENDPOINT_URL`` etc.).
    region_name : str, optional
        default=None, the standard AWS configuration.
    """

    def __init__(self, bucket: str, *, endpoint_url: str | None = None, region_name: str | None = None):
        self.bucket = bucket
        self.endpoint_url = endpoint_url
        self.region_name = region_name

    def __repr__(self) -> str:
        return f"S3Store({self.bucket!r})"

    @property
    def bucket_name(self) -> str:
        return self.bucket.split("/", 1)[0]

    def object_key(self, key: str) -> str:
        folder = self.bucket.split("/", 1)[1].strip("/") if "/" in self.bucket else ""
        return f"{folder}/{key}" if folder else key

    def url(self, key: str, version_id: str | None = None) -> str:
        """The object's URL: ``https://<bucket>.s3.amazonaws.com/<key>`` (Brain-Score's form), or
        ``<endpoint>/<bucket>/<key>`` for another endpoint (``endpoint_url``, ``AWS_ENDPOINT_URL_S3``,
        ``AWS_ENDPOINT_URL``); ``?versionId=`` when a version is given."""
        endpoint = (self.endpoint_url or endpoint_setting() or "").rstrip("/")
        key = self.object_key(key)
        base = f"{endpoint}/{self.bucket_name}/{key}" if endpoint else f"https://{self.bucket_name}.s3.amazonaws.com/{key}"
        return f"{base}?versionId={version_id}" if version_id and version_id != "null" else base

    def client(self, signed: bool = True) -> Any:
        config = None if signed else Config(signature_version=UNSIGNED)
        session = boto3.session.Session()
        return session.client("s3", endpoint_url=self.endpoint_url, region_name=self.region_name, config=config)

    def download(self, key: str, target: Path, version_id: str | None = None) -> None:
        """Write the object ``key`` (version ``version_id``; ``'null'`` allowed) to ``target``."""
        arguments = {"Bucket": self.bucket_name, "Key": self.object_key(key)}
        if version_id:
            arguments["VersionId"] = version_id
        try:
            response = self._get(arguments, url=self.url(key, version_id))
        except (BotoConnectionError, HTTPClientError) as error:  # no network, endpoint down, timeouts
            raise StoreUnreachableError(f"{self.url(key, version_id)} cannot be reached: {error}") from error
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code in _MISSING:
                raise StoreKeyError(f"{self!r} has no object {arguments['Key']!r}"
                                    f"{f' version {version_id!r}' if version_id else ''} ({code})") from error
            raise
        try:
            with open(target, "wb") as file:
                for chunk in response["Body"].iter_chunks(_CHUNK):
                    file.write(chunk)
        except (BotoConnectionError, HTTPClientError) as error:  # the connection broke while reading
            raise StoreUnreachableError(f"{self.url(key, version_id)} cannot be reached: {error}") from error

    def _get(self, arguments: dict, *, url: str) -> dict:
        """``get_object`` unsigned, then signed when the unsigned read is refused (see the module docstring)."""
        try:
            return self.client(signed=False).get_object(**arguments)
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code not in _DENIED:
                raise
            unsigned = f"refused without credentials ({code})"
        try:
            return self.client(signed=True).get_object(**arguments)
        except NoCredentialsError:
            signed = "no AWS credentials were found to sign a second request"
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code not in _DENIED:
                raise
            signed = f"refused with the AWS credentials found ({code})"
        raise StoreAccessDeniedError(f"{url}: {unsigned}; {signed}", url=url)

    def upload(self, source: Path, key: str) -> str | None:
        """Put ``source`` as ``key``; returns the new version id (None when the bucket is unversioned)."""
        with open(source, "rb") as file:
            response = self.client(signed=True).put_object(Bucket=self.bucket_name, Key=self.object_key(key),
                                                           Body=file)
        return response.get("VersionId")
