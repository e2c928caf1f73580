"""Brain-Score's public data by reference: a local moto S3 server holds generated files under the catalogue's keys
(with the test's own sha1s), and the by-reference loaders fetch, verify and load them; offline they fail in one line.
"""

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from brainio.skipping import import_or_skip
from brainscore_vision.data_helpers.public_catalogue import (
    PublicDataUnavailableError,
    catalogue,
    catalogue_entry,
    load_stimulus_set_by_reference,
)

import_or_skip("boto3", extra="brainscore-vision[test]")
import_or_skip("moto.server", extra="brainscore-vision[test]")


@pytest.fixture(scope="module")
def s3_endpoint():
    from brainio.testing import local_s3_server

    with local_s3_server() as endpoint:
        yield endpoint


@pytest.fixture
def s3_env(s3_endpoint, monkeypatch, tmp_path):
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true",
                        "AWS_ENDPOINT_URL": s3_endpoint, "AWS_CONFIG_FILE": str(tmp_path / "none"),
                        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none")}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("BRAINIO_HOME", str(tmp_path / "brainio-home"))
    return s3_endpoint


def test_catalogue_has_brainscore_public_entries():
    kinds = [kind for kind, _ in catalogue()]
    assert kinds.count("assembly") == 36 and kinds.count("stimulus_set") == 35  # the reference catalogue's counts
    entry = catalogue_entry("stimulus_set", "Geirhos2021_colour")
    assert entry["bucket"] == "brainscore-storage/brainio-brainscore"
    assert entry["csv_sha1"] == "9c97c155fd6039a95978be89eb604c6894c5fa16"
    with pytest.raises(KeyError, match="not a public Brain-Score stimulus set"):
        catalogue_entry("stimulus_set", "NoSuchSet")


def test_stimulus_set_fetched_and_verified_from_s3(s3_env):
    import boto3

    entry = catalogue_entry("stimulus_set", "Geirhos2021_colour")
    bucket, folder = entry["bucket"].split("/", 1)
    csv_bytes = b"stimulus_id,filename,truth\nim0,im0.png,cat\nim1,im1.png,dog\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("im0.png", b"png-bytes-0")
        archive.writestr("im1.png", b"png-bytes-1")
    zip_bytes = buffer.getvalue()
    client = boto3.client("s3")
    client.create_bucket(Bucket=bucket)
    client.put_object(Bucket=bucket, Key=f"{folder}/stimulus_Geirhos2021_colour.csv", Body=csv_bytes)
    client.put_object(Bucket=bucket, Key=f"{folder}/stimulus_Geirhos2021_colour.zip", Body=zip_bytes)
    # the generated files with the test's own sha1s: fetched, verified, extracted
    ours = dict(entry, csv_sha1=hashlib.sha1(csv_bytes).hexdigest(), zip_sha1=hashlib.sha1(zip_bytes).hexdigest())
    stimuli = load_stimulus_set_by_reference("Geirhos2021_colour", ours)
    assert list(stimuli["stimulus_id"]) == ["im0", "im1"]
    assert Path(stimuli.get_stimulus("im1")).read_bytes() == b"png-bytes-1"
    # with Brain-Score's recorded sha1s the same bytes are refused: nothing unverified is used
    with pytest.raises(Exception, match="(?i)sha-?1.*expected 9c97c155"):
        load_stimulus_set_by_reference("Geirhos2021_colour", dict(ours, csv_sha1=entry["csv_sha1"]))


def test_missing_key_fails_in_one_line(s3_env):
    entry = catalogue_entry("stimulus_set", "Geirhos2021_contrast")
    with pytest.raises(PublicDataUnavailableError) as raised:
        load_stimulus_set_by_reference("Geirhos2021_contrast", entry)
    message = str(raised.value)
    assert "\n" not in message and "'Geirhos2021_contrast'" in message and entry["key"] in message


def test_assembly_in_brainscores_legacy_layout_loads_by_reference(s3_env, reference_brainio_files):
    # Brain-Score's own legacy file (variable '__xarray_dataarray_variable__', 'image_id', time bins), uploaded under
    # the MajajHong2015.public key with the test's own sha1
    import boto3

    from brainscore_vision.data_helpers.public_catalogue import load_assembly_by_reference

    legacy = (reference_brainio_files / "assy_test_package_assembly.nc").read_bytes()
    entry = dict(catalogue_entry("assembly", "MajajHong2015.public"), sha1=hashlib.sha1(legacy).hexdigest(),
                 version_id=None)
    bucket, folder = entry["bucket"].split("/", 1)
    client = boto3.client("s3")
    client.create_bucket(Bucket=bucket)
    client.put_object(Bucket=bucket, Key=entry["key"].split("/", 1)[0] + "/assy_dicarlo_MajajHong2015_public.nc",
                      Body=legacy)
    assembly = load_assembly_by_reference("MajajHong2015.public", entry)
    assert type(assembly).__name__ == "NeuronRecordingAssembly"
    assert assembly.sizes["presentation"] == 6 and "stimulus_id" in assembly.coords


def test_every_public_entry_is_registered_once():
    import brainscore_vision

    for kind, identifier in catalogue():
        registry = brainscore_vision.data_registry if kind == "assembly" else brainscore_vision.stimulus_set_registry
        assert identifier in registry, (kind, identifier)
