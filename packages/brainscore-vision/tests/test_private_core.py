"""Brain-Score's private core benchmarks against a bucket that refuses unsigned reads (a moto server on 127.0.0.1 that
checks signatures, ``brainio.testing.local_private_s3_server``): with credentials the private data load by reference
(signed, after the unsigned read is refused) and the benchmark computes its ceiling from them; without, or with wrong
ones, the load fails in one exact line saying it needs Brain-Score credentials, and nothing is left in the cache.

The files are generated (MajajHong2015-shaped trials and a tiny ``hvm-private`` set) and put under the keys of the
family's own catalogue (``data/majajhong2015/catalogue.json``), whose entries are read and given the generated files'
sha1s."""

from __future__ import annotations

import functools
import hashlib
import io
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import brainscore_vision
from brainio.skipping import import_or_skip
from brainscore_vision.data_helpers.public_catalogue import (
    CredentialsRequiredError,
    load_assembly_by_reference,
    load_stimulus_set_by_reference,
    read_catalogue,
)

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
import neural_family_standins as standins

CATALOGUE = Path(brainscore_vision.__file__).parent / "data" / "majajhong2015" / "catalogue.json"


def _files():
    from brainio.assemblies import NeuronRecordingAssembly
    from brainio.netcdf import write_netcdf

    table, trials, _ = standins.region_trials(1501, 40, 3)
    assembly = NeuronRecordingAssembly(trials["values"], coords=trials["coords"], dims=trials["dims"])
    buffer = io.BytesIO()
    archive = zipfile.ZipFile(buffer, "w")
    for identifier in table["stimulus_id"]:
        archive.writestr(f"{identifier}.png", identifier.encode())
    archive.close()
    csv = ("stimulus_id,filename,object_name\n" + "".join(
        f"{i},{i}.png,{o}\n" for i, o in zip(table["stimulus_id"], table["object_name"], strict=True))).encode()
    return assembly, write_netcdf, csv, buffer.getvalue()


pytestmark = pytest.mark.filterwarnings("ignore::brainscore_core.errors.PluginOverrideNotice")


@pytest.fixture(scope="module")
def private_bucket(tmp_path_factory):
    import_or_skip("boto3", extra="brainscore-vision[test]")
    import_or_skip("moto.server", extra="brainscore-vision[test]")
    import boto3

    from brainio.testing import local_private_s3_server

    assembly, write_netcdf, csv, zipped = _files()
    path = tmp_path_factory.mktemp("private") / "assy.nc"
    write_netcdf(assembly, path)
    entries = read_catalogue(CATALOGUE)
    data_entry, stimuli_entry = entries[("assembly", "MajajHong2015.private")], entries[("stimulus_set", "hvm-private")]
    data_entry.update(sha1=hashlib.sha1(path.read_bytes()).hexdigest(), version_id=None)
    stimuli_entry.update(csv_sha1=hashlib.sha1(csv).hexdigest(), zip_sha1=hashlib.sha1(zipped).hexdigest(),
                         csv_version_id=None, zip_version_id=None)
    bucket, folder = data_entry["bucket"].split("/", 1)
    with local_private_s3_server() as (endpoint, key_id, secret):
        client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key_id,
                              aws_secret_access_key=secret)
        client.create_bucket(Bucket=bucket)
        client.put_object(Bucket=bucket, Key=data_entry["key"], Body=path.read_bytes())
        client.put_object(Bucket=bucket, Key=f"{folder}/stimulus_hvm-private.csv", Body=csv)
        client.put_object(Bucket=bucket, Key=f"{folder}/stimulus_hvm-private.zip", Body=zipped)
        yield endpoint, key_id, secret, data_entry, stimuli_entry, assembly


@pytest.fixture
def environment(private_bucket, monkeypatch, tmp_path):
    from brainio.testing import s3_test_environment

    endpoint, key_id, secret, data_entry, stimuli_entry, assembly = private_bucket
    for name, value in s3_test_environment(endpoint, tmp_path).items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("BRAINIO_HOME", str(tmp_path / "brainio-home"))
    monkeypatch.setenv("BRAINSCORE_HOME", str(tmp_path / "brainscore-home"))
    monkeypatch.delenv("AWS_ACCESS_KEY_ID", raising=False)
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY", raising=False)
    # the family's loaders, with the entries of the generated files (as data/majajhong2015 registers them)
    monkeypatch.setitem(brainscore_vision.stimulus_set_registry, "hvm-private",
                        functools.partial(load_stimulus_set_by_reference, "hvm-private", stimuli_entry))
    monkeypatch.setitem(brainscore_vision.data_registry, "MajajHong2015.private", functools.partial(
        load_assembly_by_reference, "MajajHong2015.private", data_entry,
        stimulus_set_loader=lambda: brainscore_vision.load_stimulus_set("hvm-private")))
    return monkeypatch, key_id, secret, data_entry, assembly, tmp_path


def test_with_credentials_the_private_benchmark_reads_its_data(environment):
    monkeypatch, key_id, secret, _, trials, _ = environment
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", key_id)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret)
    benchmark = brainscore_vision.load_benchmark("MajajHong2015.IT-pls")
    assert (benchmark.identifier, benchmark.version, benchmark.parent) == ("MajajHong2015.IT-pls", 4, "IT")
    # the ceiling from the fetched file: internal consistency of the IT trials, computed here on the generated array
    it_trials = trials.isel(neuroid=np.flatnonzero(trials["region"].values == "IT")).squeeze("time_bin")
    expected = float(brainscore_vision.load_ceiling("internal_consistency")(it_trials))
    assert float(benchmark.ceiling) == pytest.approx(expected, abs=1e-12)
    assert len(benchmark.assembly.stimulus_set) == 40


@pytest.mark.parametrize("credentials", ["none", "wrong"])
def test_without_credentials_one_exact_line_and_nothing_left(environment, credentials):
    monkeypatch, _, _, entry, _, tmp_path = environment
    if credentials == "wrong":
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAWRONGWRONGWRONG1")
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wrong")
    benchmark = brainscore_vision.load_benchmark("MajajHong2015.IT-pls")  # built without reading anything
    with pytest.raises(CredentialsRequiredError) as raised:
        benchmark.ceiling  # noqa: B018
    told = "found no AWS credentials to try" if credentials == "none" else "with yours"
    assert str(raised.value) == (
        "Brain-Score's assembly 'MajajHong2015.private' (bucket 'brainscore-storage/brainio-brainscore', key "
        "'brainio-brainscore/assy_dicarlo_MajajHong2015_private.nc') needs Brain-Score credentials: the bucket refused "
        f"it without credentials and {told} (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile, with "
        "Brain-Score's access)")
    assert entry["key"] == "brainio-brainscore/assy_dicarlo_MajajHong2015_private.nc"
    home = tmp_path / "brainio-home"
    assert [p for p in home.rglob("*") if p.is_file() and not p.name.endswith(".lock")] == []


def test_the_cli_says_it_in_one_line(environment, capsys):
    from brainscore_vision.cli import main

    status = main(["ceiling", "MajajHong2015.IT-pls"])
    err = capsys.readouterr().err.strip()
    assert status != 0 and len(err.splitlines()) == 1
    assert "needs Brain-Score credentials" in err and "MajajHong2015.private" in err
